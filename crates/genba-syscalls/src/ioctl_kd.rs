//! ioctl requests of the KD family (a child module of `ioctl`: see
//! [`super::decode`] and [`super::How`]).

use super::How;

/// How the request's argument is printed; None leaves it to the default.
pub(super) fn how(req: u32) -> Option<How> {
    let _ = req;
    None
}

/// The sizes of the structures the requests read or write, for the requests
/// whose number does not encode it (BPF copies that many bytes).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    Vec::new()
}
