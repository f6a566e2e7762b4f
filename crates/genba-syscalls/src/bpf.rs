//! The bpf(2) call (a family decoded in its own module: see
//! [`super::family_decoder`]).

use super::{CallView, CapPlan, Decoder, Options, Ret, Ty};
use crate::fmt::Xlat;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    let _ = (name, Ret::Dec);
    None
}

/// The argument types a custom decoder of this family reads (their captures).
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    let _ = name;
    None
}

/// Captures beyond what the argument types ask for.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    let _ = (name, o, out);
}

/// A successful return value's text, when this family shows more than the
/// number; false to leave it to the default.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}
