//! System calls on x86_64 as strace shows them: the table of names and
//! classes, the constants, argument decoders with their capture plans, and
//! strace-compatible formatting. Pure code: no kernel, no privileges.
#![deny(missing_docs)]

#[allow(missing_docs)]
pub mod consts;
pub mod decode;
#[allow(missing_docs)]
pub mod drm_ioctls;
pub mod fmt;
#[allow(missing_docs)]
pub mod ioctl_extra_names;
#[allow(missing_docs)]
pub mod linux_ioctls;
pub mod siginfo;
#[allow(missing_docs)]
pub mod table;

pub use decode::{
    exit_only, format_return, ioctl_sizes, plan, write_args, CallView, CapKind, CapPlan, CapWhen,
    Env, Options, Ret,
};
pub use fmt::Xlat;
