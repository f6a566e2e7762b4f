//! genba's sessions: sources and sinks on one clock.
//!
//! A command is a session ([`session::Session`]: start or attach, poll,
//! liveness, stop, losses) of a collector (the BPF programs of genba-bpf,
//! the GPU shims of genba-gpu) feeding sinks: strace's text and JSON lines
//! ([`render`]), the `-c` table ([`summary`]), the profile report
//! ([`profile`]), the recording ([`record`]). Every sink that needs the
//! process model holds a [`world::World`] built from the events alone.
//! A recording is read back by [`report`] and [`export`].
//!
//! Each command's entry takes its [`options`] and returns the exit code;
//! an error that carries its own exit code is an [`Exit`].

pub mod causal;
mod cut;
pub mod export;
mod fdtrack;
mod filter;
mod gpuclock;
mod gputable;
mod inject;
mod irqwaker;
mod launch;
mod offcpu;
pub mod options;
mod output;
mod pathtrace;
pub mod profile;
pub mod record;
mod render;
pub mod report;
mod session;
mod setup;
mod slicename;
mod sockdesc;
mod stacks;
mod summary;
pub mod trace;
mod world;

use genba_syscalls::siginfo;

pub use setup::Exit;
pub(crate) use setup::{
    bpf_error, gpu_setup, parse_pids, realtime_offset, resolve_command, start_error, to_bpf_plan,
    BOOKKEEPING,
};

/// Before any command: libbpf's log (shown with `debug`) and the signal
/// handlers that stop a session cleanly.
pub fn init(debug: bool) {
    genba_bpf::libbpf_logging(debug);
    launch::install_handlers();
}
