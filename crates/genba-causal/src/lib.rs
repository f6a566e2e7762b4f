//! `genba causal`: virtual speedup experiments (COZ's, extended to blocked
//! time as BCOZ extends it) on a stock kernel.
//!
//! - [`Page`]: the page shared by genba, its BPF programs and the runtime
//!   preloaded into the program (genba-bpf's `causal.h` has the protocol).
//! - [`runtime`]: that runtime's shared object, built from
//!   `runtime/causal_runtime.c` and carried in genba's binary.
//! - [`estimate`]: from experiments to predicted program speedups.

pub mod estimate;
mod page;

pub use page::{Page, RuntimeDir, Snapshot, Spec, PROGRESS as PROGRESS_POINTS};

/// The runtime's shared object (runtime/causal_runtime.c).
pub fn runtime() -> &'static [u8] {
    include_bytes!(concat!(env!("OUT_DIR"), "/libgenba_causal.so"))
}
