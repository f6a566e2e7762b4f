//! What each command is asked to do: its options, as the command line
//! gives them (strace's flags for `trace`), validated without I/O. The
//! binary parses them (clap derives the flags from these structs); a
//! session takes them as they are.

use clap::{ArgAction, Args};

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Follow forks and threads (-ff: and write each one's trace to
    /// FILE.TID, as --output-separately).
    #[arg(short = 'f', long = "follow-forks", action = ArgAction::Count)]
    pub follow: u8,
    /// strace's option to stop the program only at the traced calls (a
    /// seccomp filter). genba always works that way: the kernel records
    /// only the calls selected, and the program never stops for genba.
    /// Accepted, as strace, only with -f (and not for -p).
    #[arg(long = "seccomp-bpf")]
    pub seccomp_bpf: bool,
    /// With -o FILE: each task's trace in its own file, FILE.TID (lines are
    /// written whole, at each call's end).
    #[arg(long = "output-separately")]
    pub output_separately: bool,
    /// Attach to these processes (comma-separated or repeated).
    #[arg(short = 'p', long = "attach", value_delimiter = ',')]
    pub pids: Vec<String>,
    /// Write the trace (and summary) to FILE instead of stderr (given twice: the last).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        overrides_with = "output"
    )]
    pub output: Option<String>,
    /// Count time, calls and errors per syscall; print a summary (kept in the kernel).
    #[arg(short = 'c', long = "summary-only")]
    pub summary_only: bool,
    /// Like -c, but also print the trace.
    #[arg(short = 'C', long = "summary")]
    pub summary: bool,
    /// Sort the summary by time, calls, errors, name or avg-time.
    #[arg(
        short = 'S',
        long = "summary-sort-by",
        value_name = "SORTBY",
        overrides_with = "sort_by"
    )]
    pub sort_by: Option<String>,
    /// Summarise wall-clock time between entry and exit (default: time on the CPU inside the call).
    #[arg(short = 'w', long = "summary-wall-clock")]
    pub wall: bool,
    /// Summary columns: time-percent, total-time, avg-time, min-time, max-time, p50, p99, calls, errors, name.
    #[arg(short = 'U', long = "summary-columns", value_name = "COLUMNS")]
    pub columns: Option<String>,
    /// With -c/-C, also one table per process (or per thread), counted in the kernel.
    #[arg(long = "summary-by", value_name = "process|thread")]
    pub summary_by: Option<String>,
    /// Show where in the program each call was made: the first frame outside the C library and language runtimes.
    #[arg(long = "source")]
    pub source: bool,
    /// Also skip frames whose function or file matches REGEX when looking for the call site (repeatable).
    #[arg(long = "source-skip", value_name = "REGEX")]
    pub source_skip: Vec<String>,
    /// Print the user stack of each call (-kk: and the kernel stack), symbolized.
    #[arg(short = 'k', long = "stack-trace", action = ArgAction::Count)]
    pub stack_trace: u8,
    /// Bytes of user stack copied per call (default: 2048 for --source, 16384 for -k).
    #[arg(long = "stack-bytes", value_name = "BYTES")]
    pub stack_bytes: Option<u32>,
    /// Also write the recording of the traced calls, with every off-CPU interval and wakeup (as genba record).
    #[arg(long = "record", value_name = "FILE")]
    pub record: Option<String>,
    /// Also show the program's GPU work: OpenCL and Vulkan calls and each command's device times (-c: their tables).
    #[arg(long = "gpu")]
    pub gpu: bool,
    /// Align return values (` = `) at this column (strace's -a; default 40).
    #[arg(
        short = 'a',
        long = "columns",
        default_value_t = 40,
        value_name = "COLUMN",
        overrides_with = "acolumn"
    )]
    pub acolumn: usize,
    /// Show the time spent in each call.
    #[arg(short = 'T')]
    pub times: bool,
    /// -T with a precision: s, ms, us (default) or ns.
    #[arg(
        long = "syscall-times",
        value_name = "PRECISION",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "us"
    )]
    pub times_long: Option<String>,
    /// Prefix lines with the time of day (-tt: with microseconds, -ttt: epoch).
    #[arg(short = 't', action = ArgAction::Count)]
    pub timestamps: u8,
    /// -t in full: [format:]none|time|unix and [precision:]s|ms|us|ns, comma-separated.
    #[arg(
        long = "absolute-timestamps",
        visible_alias = "timestamps",
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "format:time",
        action = ArgAction::Append
    )]
    pub timestamps_long: Vec<String>,
    /// Prefix lines with the time since the previous line.
    #[arg(short = 'r')]
    pub relative: bool,
    /// -r with a precision: s, ms, us (default) or ns.
    #[arg(
        long = "relative-timestamps",
        value_name = "PRECISION",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "us"
    )]
    pub relative_long: Option<String>,
    /// Prefix calls with their system call number (`[ 257] `).
    #[arg(short = 'n', long = "syscall-number")]
    pub syscall_number: bool,
    /// Print strings up to this many bytes.
    #[arg(
        short = 's',
        long = "string-limit",
        default_value_t = 32,
        value_name = "STRSIZE",
        overrides_with = "strsize"
    )]
    pub strsize: usize,
    /// Print structures and the environment in full.
    #[arg(short = 'v', long = "no-abbrev")]
    pub verbose: bool,
    /// Qualifying expression: trace=SET, status=SET, signal=SET, quiet=SET,
    /// inject=SET:OPTS, fault=SET:OPTS, verbose=SET (the calls whose
    /// structures are decoded; the others show them as addresses),
    /// decode-fds=, decode-pids=, kvm=vcpu, or a syscall set.
    #[arg(short = 'e', value_name = "EXPR")]
    pub exprs: Vec<String>,
    /// The calls whose structures are decoded (-e verbose=SET).
    #[arg(long = "verbose", value_name = "SET")]
    pub verbose_set: Vec<String>,
    /// KVM: `vcpu` prints the reason each KVM_RUN that returned 0 left the
    /// guest (`= 0 (KVM_EXIT_HLT)`), read as the call returns (-e kvm=vcpu).
    #[arg(long = "kvm", value_name = "vcpu")]
    pub kvm_set: Vec<String>,
    /// The system calls to trace (-e trace=SET).
    #[arg(long = "trace", value_name = "SET")]
    pub trace_set: Vec<String>,
    /// Which results to show (-e status=SET).
    #[arg(long = "status", value_name = "SET")]
    pub status_set: Vec<String>,
    /// The signals to show (-e signal=SET).
    #[arg(long = "signals", visible_alias = "signal", value_name = "SET")]
    pub signal_set: Vec<String>,
    /// Messages to leave out (-e quiet=SET; alone: attach,personality).
    #[arg(
        long = "quiet",
        visible_aliases = ["silent", "silence"],
        value_name = "SET",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "attach,personality"
    )]
    pub quiet_set: Vec<String>,
    /// Dump in hex the data read from these descriptors (-e read=SET).
    #[arg(long = "read", value_name = "SET")]
    pub read_set: Vec<String>,
    /// Dump in hex the data written to these descriptors (-e write=SET).
    #[arg(long = "write", value_name = "SET")]
    pub write_set: Vec<String>,
    /// Fault injection (-e inject=SET:OPTS): OPTS are error=ERRNO or
    /// retval=VALUE (the call does not run), signal=SIG, delay_enter=DELAY,
    /// when=FIRST[..LAST][+[STEP]]. Only in a program genba launches: a
    /// seccomp filter sends those calls to genba.
    #[arg(long = "inject", value_name = "SET:OPTS")]
    pub inject_set: Vec<String>,
    /// Fault injection of errors only (-e fault=SET[:error=ERRNO][:when=]);
    /// ENOSYS unless given.
    #[arg(long = "fault", value_name = "SET:OPTS")]
    pub fault_set: Vec<String>,
    /// Trace only the system calls that access PATH (by a file name, or a
    /// descriptor that refers to it); repeat for several.
    #[arg(short = 'P', long = "trace-path", value_name = "PATH")]
    pub trace_path: Vec<String>,
    /// What to print beside process ids: comm (their command name, as
    /// -Y) or none; pidns is refused (not supported).
    #[arg(long = "decode-pids", value_name = "WHAT")]
    pub decode_pids: Vec<String>,
    /// Print the command name of process ids (`1234<comm>`, from /proc as
    /// the line is printed): the line's own process and pid arguments and
    /// results (--decode-pids=comm).
    #[arg(short = 'Y')]
    pub pid_comm: bool,
    /// Trace only system calls that succeeded (status=successful).
    #[arg(short = 'z', long = "successful-only")]
    pub successful: bool,
    /// Trace only system calls that failed (status=failed).
    #[arg(short = 'Z', long = "failed-only")]
    pub failed: bool,
    /// Print paths of file descriptors (-yy: also sockets' protocols and
    /// addresses, devices' numbers and pidfds' processes, as they are when
    /// the line is printed).
    #[arg(short = 'y', action = ArgAction::Count)]
    pub fd_paths_count: u8,
    /// What to print beside descriptors: path, socket, dev, pidfd, all,
    /// none (alone: path); the last one given counts.
    #[arg(
        long = "decode-fds",
        value_name = "SET",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "path",
        overrides_with = "decode_fds"
    )]
    pub decode_fds: Option<String>,
    /// Suppress attach/detach messages (-qq: and exit messages).
    #[arg(short = 'q', action = ArgAction::Count)]
    pub quiet: u8,
    /// Constants: raw, abbrev or verbose.
    #[arg(
        short = 'X',
        value_name = "FORMAT",
        default_value = "abbrev",
        overrides_with = "xlat"
    )]
    pub xlat: String,
    /// Strings in hex (-x: non-ASCII ones, -xx: all).
    #[arg(short = 'x', action = ArgAction::Count)]
    pub hex: u8,
    /// Strings in hex: none, non-ascii-chars (only the bytes that do not
    /// print), non-ascii (as -x), all (as -xx; alone: all).
    #[arg(
        long = "strings-in-hex",
        value_name = "WHICH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all",
        overrides_with = "strings_in_hex"
    )]
    pub strings_in_hex: Option<String>,
    /// Output format: text (strace's) or jsonl (one object per call).
    #[arg(long = "format", default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Ring buffer size in MiB, a power of two (default 8; 64 with stacks or -s 1024 and more).
    #[arg(long = "buffer-size", value_name = "MIB")]
    pub buffer_mib: Option<u32>,
    /// The program to run and trace.
    #[arg(trailing_var_arg = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ProfileArgs {
    /// Samples per second of each thread's time, on and off the CPU.
    #[arg(short = 'F', long = "freq", default_value_t = 1000, value_name = "HZ")]
    pub freq: u64,
    /// Show call chains under each row (innermost frame first; see --call-graph).
    #[arg(short = 'g')]
    pub chains: bool,
    /// Call chain order: callee (innermost first) or caller (main first). Implies -g.
    #[arg(long = "call-graph", value_name = "ORDER")]
    pub call_graph: Option<String>,
    /// Profile these processes, all their threads (comma-separated or repeated).
    #[arg(short = 'p', long = "pid", value_delimiter = ',')]
    pub pids: Vec<String>,
    /// Profile every thread of the system (while COMMAND runs, or until Ctrl-C).
    #[arg(short = 'a', long = "all-cpus")]
    pub all: bool,
    /// Write the report to FILE instead of stderr.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    /// Report format: text or json.
    #[arg(long = "format", default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Group rows by these keys: comm, pid, tid, dso, sym, class, site, syscall, kernel
    /// (kernel: where a blocked thread slept in the kernel).
    #[arg(
        short = 's',
        long = "sort",
        default_value = "comm,dso,sym,kernel",
        value_name = "KEYS"
    )]
    pub sort: String,
    /// Rows shown in the text report (0: all).
    #[arg(long = "rows", default_value_t = 25, value_name = "N")]
    pub rows: usize,
    /// Write the stacks as folded text (flamegraph.pl, inferno, speedscope read it).
    #[arg(long = "folded", value_name = "FILE")]
    pub folded: Option<String>,
    /// Write a flame graph (SVG), on- and off-CPU in one graph, coloured by class.
    #[arg(long = "flamegraph", value_name = "FILE")]
    pub flamegraph: Option<String>,
    /// Write a pprof profile (gzipped protobuf; go tool pprof reads it).
    #[arg(long = "pprof", value_name = "FILE")]
    pub pprof: Option<String>,
    /// Write a speedscope profile (JSON; https://www.speedscope.app opens it).
    #[arg(long = "speedscope", value_name = "FILE")]
    pub speedscope: Option<String>,
    /// Also count the system calls (strace -c's table, kept in the kernel).
    #[arg(long = "syscalls")]
    pub syscalls: bool,
    /// Bytes of user stack copied per sample (512 to 8192).
    #[arg(long = "stack-bytes", default_value_t = 4096, value_name = "BYTES")]
    pub stack_bytes: u32,
    /// Ring buffer size in MiB, a power of two.
    #[arg(long = "buffer-size", default_value_t = 64, value_name = "MIB")]
    pub buffer_mib: u32,
    /// Also write the recording of the samples, with every off-CPU interval exactly and its waker (as genba record).
    #[arg(long = "record", value_name = "FILE")]
    pub record: Option<String>,
    /// Also report the program's GPU work: its commands' device times and its OpenCL and Vulkan calls.
    #[arg(long = "gpu")]
    pub gpu: bool,
    /// The program to run and profile.
    #[arg(trailing_var_arg = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The recording (a Perfetto trace).
    #[arg(
        short = 'o',
        long = "output",
        default_value = "genba.pftrace",
        value_name = "FILE"
    )]
    pub output: String,
    /// Record these processes, all their threads (comma-separated or repeated).
    #[arg(short = 'p', long = "pid", value_delimiter = ',')]
    pub pids: Vec<String>,
    /// Record every thread of the system but genba's own (while COMMAND runs, or until Ctrl-C).
    #[arg(short = 'a', long = "all-cpus")]
    pub all: bool,
    /// Also record the program's GPU work: OpenCL and Vulkan calls and each command's device times.
    #[arg(long = "gpu")]
    pub gpu: bool,
    /// Leave the system calls out (scheduling intervals and wakeups only).
    #[arg(long = "no-syscalls")]
    pub no_syscalls: bool,
    /// Samples per second of each thread's time, on and off the CPU (as genba profile).
    #[arg(short = 'F', long = "freq", default_value_t = 1000, value_name = "HZ")]
    pub freq: u64,
    /// Leave the on-CPU samples out (system calls, exact intervals and wakeups only).
    #[arg(long = "no-profile")]
    pub no_profile: bool,
    /// Record each system call's call site (file:line function), as trace --source.
    #[arg(long = "source")]
    pub source: bool,
    /// Bytes of user stack copied per sample, interval and call (512 to 8192).
    #[arg(long = "stack-bytes", default_value_t = 4096, value_name = "BYTES")]
    pub stack_bytes: u32,
    /// Print strings in the decoded calls up to this many bytes.
    #[arg(
        short = 's',
        long = "string-limit",
        default_value_t = 32,
        value_name = "STRSIZE"
    )]
    pub strsize: usize,
    /// Ring buffer size in MiB, a power of two.
    #[arg(long = "buffer-size", default_value_t = 64, value_name = "MIB")]
    pub buffer_mib: u32,
    /// The program to run and record.
    #[arg(trailing_var_arg = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The recording (a Perfetto trace written by genba record).
    #[arg(default_value = "genba.pftrace", value_name = "FILE")]
    pub file: String,
    /// Report format: text or json.
    #[arg(long = "format", default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Write the report to OUT instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
    /// Sort the system-call summary by time, calls, errors, name or avg-time.
    #[arg(short = 'S', long = "summary-sort-by", value_name = "SORTBY")]
    pub sort_by: Option<String>,
    /// Summary columns: time-percent, total-time, avg-time, min-time, max-time, p50, p99, calls, errors, name.
    #[arg(short = 'U', long = "summary-columns", value_name = "COLUMNS")]
    pub columns: Option<String>,
    /// Group the profile's rows by these keys (as genba profile --sort).
    #[arg(
        short = 's',
        long = "sort",
        default_value = "comm,dso,sym,kernel",
        value_name = "KEYS"
    )]
    pub sort: String,
    /// Rows of the profile shown in the text report (0: all).
    #[arg(long = "rows", default_value_t = 25, value_name = "N")]
    pub rows: usize,
    /// Write the report as one self-contained HTML page (tables, flame
    /// graph, timeline) to OUT.html instead.
    #[arg(long = "html", value_name = "OUT.html")]
    pub html: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The recording (a Perfetto trace written by genba record).
    #[arg(default_value = "genba.pftrace", value_name = "FILE")]
    pub file: String,
    /// jsonl, chrome, folded, flamegraph, pprof or speedscope.
    #[arg(long = "format", value_name = "FORMAT", required = true)]
    pub format: String,
    /// Write to OUT instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct CausalArgs {
    /// A progress point of the program: NAME=FUNCTION (or FUNCTION), its
    /// calls counted (throughput); NAME=FILE:LINE, the times the line is
    /// reached (throughput); NAME=FUNCTION:latency, the time from its entry
    /// to its return (latency). Repeat for several; the first sets how
    /// long an experiment lasts. Without one, the whole run is the measure
    /// (see --runs).
    #[arg(long = "progress", value_name = "NAME=WHERE")]
    pub progress: Vec<String>,
    /// Without --progress, the program is run this many times after a
    /// warm-up run, each run one experiment, its whole length the measure
    /// (default: two runs for each candidate and speedup, as many
    /// baselines, as far as --budget allows).
    #[arg(long = "runs", value_name = "N")]
    pub runs: Option<usize>,
    /// Without --progress and --runs, the time (seconds) the runs may take
    /// in all, the warm-up run's included: the runs are planned from the
    /// warm-up run's length, and what does not fit (second runs of a
    /// point, then speedups, then candidates) is dropped and said.
    #[arg(long = "budget", default_value_t = 600.0, value_name = "S")]
    pub budget: f64,
    /// Length of one experiment, in ms.
    #[arg(long = "experiment-ms", default_value_t = 200, value_name = "MS")]
    pub experiment_ms: u64,
    /// Profile this long (ms) before the first experiment, to choose the candidates.
    #[arg(long = "warmup-ms", default_value_t = 1000, value_name = "MS")]
    pub warmup_ms: u64,
    /// Stop experimenting after this many seconds (the program runs on).
    #[arg(long = "duration", value_name = "S")]
    pub duration: Option<f64>,
    /// Candidates chosen from the warm-up profile: the top source lines on
    /// the CPU, the top call sites, and the top (class, call site) waits.
    #[arg(long = "candidates", default_value_t = 6, value_name = "N")]
    pub candidates: usize,
    /// Experiment on this candidate only (repeatable): FILE:LINE or
    /// FUNCTION() (on the CPU, with the library code they call), a class
    /// [I] [L] [S] [B], a class at a call site ("[I] FILE:LINE"), or
    /// all a call at a site costs, in the kernel and off the CPU
    /// ("call FILE:LINE").
    #[arg(long = "candidate", value_name = "CANDIDATE")]
    pub candidate: Vec<String>,
    /// Virtual speedups tried, in percent (comma-separated); baselines (0%)
    /// are every other experiment.
    #[arg(long = "speedups", default_value = "25,50,75,100", value_name = "LIST")]
    pub speedups: String,
    /// Samples per second of each thread's time. A thread that owes delay
    /// is told to pay at its next sample or system call once it owes a
    /// period: the higher, the closer its payments follow its debt.
    #[arg(short = 'F', long = "freq", default_value_t = 4000, value_name = "HZ")]
    pub freq: u64,
    /// The real-time signal the runtime takes delays on (genba's runtime is
    /// preloaded into the program and handles it).
    #[arg(long = "signal", default_value_t = 62, value_name = "SIGNO")]
    pub signal: i32,
    /// Write the report to FILE instead of stderr.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    /// Report format: text or json.
    #[arg(long = "format", default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Also write the report as an HTML page with one plot per candidate
    /// (program speedup against candidate speedup).
    #[arg(long = "html", value_name = "OUT.html")]
    pub html: Option<String>,
    /// The program to run.
    #[arg(trailing_var_arg = true, value_name = "COMMAND", required = true)]
    pub command: Vec<String>,
}
