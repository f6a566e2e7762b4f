//! The command line: the subcommands; each one's flags are its options
//! in genba-core (strace's, for `trace`).

use clap::{Parser, Subcommand};
use genba_core::options::{CausalArgs, ExportArgs, ProfileArgs, RecordArgs, ReportArgs, TraceArgs};

/// genba: where does my program's time actually go?
#[derive(Debug, Parser)]
#[command(
    name = "genba",
    version,
    about = "Where does my program's time actually go? strace-compatible tracing on eBPF"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Trace system calls, as strace does, at a fraction of its cost.
    Trace(Box<TraceArgs>),
    /// Profile a program on and off the CPU: where its threads ran, and why
    /// they waited ([I] I/O, [L] locks, [S] CPU, [B] other), on one clock.
    Profile(Box<ProfileArgs>),
    /// Record a program's system calls and every off-CPU interval (its
    /// class, its exact times, who woke it) on one clock, into a Perfetto
    /// trace (ui.perfetto.dev opens it).
    Record(Box<RecordArgs>),
    /// Virtual-speedup experiments while the program runs: if this line, this
    /// kind of wait or this call site's wait were X% faster, how much faster
    /// would each progress point be?
    Causal(Box<CausalArgs>),
    /// Report what a recording holds: the system-call summary (strace -c's
    /// layout), each thread's time running and off the CPU by class, the
    /// top blocking calls and the top wakers.
    Report(Box<ReportArgs>),
    /// Convert a recording: jsonl (one object per event, for scripts),
    /// chrome (Trace Event Format), folded, flamegraph (SVG), pprof, speedscope.
    Export(Box<ExportArgs>),
    /// Run COMMAND with empty BPF programs on sys_enter/sys_exit (benchmark floor).
    #[command(hide = true)]
    BenchFloor {
        /// Add these pieces of the trace programs' work to each run, comma
        /// separated: id, clock, query, copy, loads (bench/trace-pieces.sh).
        #[arg(long, value_delimiter = ',')]
        pieces: Vec<String>,
        #[arg(trailing_var_arg = true, required = true)]
        command: Vec<String>,
    },
}
