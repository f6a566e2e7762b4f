//! `genba trace`: strace's output and options, on eBPF. The flags become
//! a filter, the BPF plans and a printer (strace's text, JSON lines, the
//! `-c` table), then one session feeds the printer.

use std::io::Write;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use genba_bpf::{CaptureKind, SyscallPlan, TraceConfig};
use genba_events::Event;
use genba_syscalls::{table, Options, Xlat};

use crate::filter::{self, Filter, Quiet};
use crate::launch::Child;
use crate::options::TraceArgs;
use crate::output::TraceOutput;
use crate::render::{self, JsonPrinter, PidPrefix, TextOptions, TextPrinter};
use crate::session::{Session, Sink, Target, Tee, Until};
use crate::{
    bpf_error, fdtrack, gpu_setup, gputable, launch, parse_pids, pathtrace, realtime_offset,
    record, resolve_command, stacks, start_error, summary, to_bpf_plan, world, Exit, BOOKKEEPING,
};

/// A precision (`s`, `ms`, `us`, `ns`) as digits of fraction.
fn precision_width(p: &str) -> Option<u32> {
    match p {
        "s" => Some(0),
        "ms" => Some(3),
        "us" => Some(6),
        "ns" => Some(9),
        _ => None,
    }
}

/// One `--absolute-timestamps=` argument applied over the previous ones
/// (strace's `[format:]none|time|unix` and `[precision:]s|ms|us|ns` tokens;
/// a precision alone turns on the time of day if nothing was on).
fn apply_timestamps(arg: &str, state: &mut (Option<bool>, u32)) -> Result<()> {
    // None: unset by this argument; Some(None): format:none
    let mut format: Option<Option<bool>> = None;
    for tok in arg.split(',').filter(|t| !t.is_empty()) {
        let lower = tok.to_ascii_lowercase();
        let (t, fmt_ok, prec_ok) = if let Some(t) = lower.strip_prefix("format:") {
            (t.to_string(), true, false)
        } else if let Some(t) = lower.strip_prefix("precision:") {
            (tok[tok.len() - t.len()..].to_string(), false, true)
        } else {
            (tok.to_string(), true, true)
        };
        if fmt_ok {
            match t.to_ascii_lowercase().as_str() {
                "none" => {
                    format = Some(None);
                    continue;
                }
                "time" => {
                    format = Some(Some(false));
                    continue;
                }
                "unix" => {
                    format = Some(Some(true));
                    continue;
                }
                _ => {}
            }
        }
        if let (true, Some(w)) = (prec_ok, precision_width(&t)) {
            state.1 = w;
            continue;
        }
        bail!(Exit(
            1,
            format!("invalid --absolute-timestamps argument: '{arg}'")
        ));
    }
    match format {
        None => {
            if state.0.is_none() {
                state.0 = Some(false);
            }
        }
        Some(f) => state.0 = f,
    }
    Ok(())
}

/// `-t`, `-tt`, `-ttt` or `--absolute-timestamps=...` (not both, as strace).
fn abs_time(a: &TraceArgs) -> Result<Option<render::AbsTime>> {
    if a.timestamps > 0 && !a.timestamps_long.is_empty() {
        bail!(Exit(
            1,
            "-t and --absolute-timestamps cannot be provided simultaneously".into()
        ));
    }
    let short = match a.timestamps {
        0 => None,
        1 => Some("format:time"),
        2 => Some("precision:us,format:time"),
        _ => Some("format:unix,precision:us"),
    };
    let mut state = (None, 0);
    for arg in short
        .into_iter()
        .chain(a.timestamps_long.iter().map(String::as_str))
    {
        apply_timestamps(arg, &mut state)?;
    }
    Ok(state.0.map(|unix| render::AbsTime {
        unix,
        width: state.1,
    }))
}

/// `-r`/`-T` and their long forms with a precision: the fraction digits.
fn duration_width(short: bool, long: Option<&str>, name: &str) -> Result<Option<u32>> {
    match long {
        Some(p) => match precision_width(p) {
            Some(w) => Ok(Some(w)),
            None => bail!(Exit(1, format!("invalid --{name} argument: '{p}'"))),
        },
        None => Ok(short.then_some(6)),
    }
}

pub fn bench_floor(pieces: &[String], command: &[String]) -> Result<i32> {
    let mut bits = 0;
    for p in pieces {
        let (_, bit) = genba_bpf::floor_piece::NAMES
            .iter()
            .find(|(n, _)| n == p)
            .ok_or_else(|| {
                Exit(
                    1,
                    format!("unknown piece '{p}' (id, clock, query, copy, loads)"),
                )
            })?;
        bits |= bit;
    }
    let path = launch::resolve(&command[0]).ok_or_else(|| {
        Exit(
            127,
            format!("Can't stat '{}': No such file or directory", command[0]),
        )
    })?;
    let debug = std::env::var_os("GENBA_DEBUG").is_some();
    let stats = debug.then(genba_bpf::RunStats::enable).flatten();
    let floor = genba_bpf::Floor::attach(bits).map_err(bpf_error)?;
    let mut child = Child::spawn(&path, command, None)?;
    child.release();
    loop {
        if let Some(st) = child.try_wait() {
            if stats.is_some() {
                for l in floor.run_lines() {
                    eprintln!("genba: {l}");
                }
            }
            return Ok(launch::exit_code(st));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

enum Printer {
    Text(Box<TextPrinter<Box<dyn Write>>>),
    Json(Box<JsonPrinter<Box<dyn Write>>>),
    None,
}

impl Printer {
    fn event(&mut self, e: &Event) {
        match self {
            Printer::Text(p) => p.event(e),
            Printer::Json(p) => p.event(e),
            Printer::None => {}
        }
    }
    fn flush(&mut self) {
        match self {
            Printer::Text(p) => p.flush(),
            Printer::Json(p) => p.finish(),
            Printer::None => {}
        }
    }
    fn finish(&mut self) {
        match self {
            Printer::Text(p) => p.finish(),
            Printer::Json(p) => p.finish(),
            Printer::None => {}
        }
    }
}

/// The other calls that make descriptors, and those that delete what one
/// names (-P and -y follow them all).
const FD_MAKERS: &[&str] = &[
    "pipe",
    "pipe2",
    "socket",
    "socketpair",
    "accept",
    "accept4",
    "eventfd",
    "eventfd2",
    "epoll_create",
    "epoll_create1",
    "timerfd_create",
    "memfd_create",
    "signalfd",
    "signalfd4",
    "inotify_init",
    "inotify_init1",
    "pidfd_open",
    "pidfd_getfd",
    "fanotify_init",
    "userfaultfd",
    "open_by_handle_at",
    "open_tree",
    // a new process's descriptors are its parent's (without -f)
    "clone",
    "clone3",
    "fork",
    "vfork",
    "fsopen",
    "fsmount",
    "fspick",
    "perf_event_open",
    "io_uring_setup",
    "landlock_create_ruleset",
    // not makers: they mark an open file deleted
    "unlink",
    "unlinkat",
];

/// The trace's sink: the printer, and strace's note on children genba
/// reaped that it did not trace.
struct TraceSink<'a> {
    printer: &'a mut Printer,
    unknown_exits: bool,
    /// The `-o '|cmd'` command, genba's child too, never noted.
    output_command: Option<i32>,
    /// -c --gpu: the GPU tables.
    gpu: Option<gputable::GpuTables>,
}

impl Sink for TraceSink<'_> {
    fn event(&mut self, ev: &Event) {
        if let (Some(t), Event::Gpu(g)) = (&mut self.gpu, ev) {
            t.event(g);
        }
        self.printer.event(ev);
    }
    fn flush(&mut self) {
        self.printer.flush();
    }
    fn unknown_exit(&mut self, pid: i32) {
        if self.unknown_exits && Some(pid) != self.output_command {
            eprintln!("genba: Exit of unknown pid {pid} ignored");
        }
    }
}

/// What BPF copies of ioctl's argument, by request: the decoders' sizes,
/// and under `-e kvm=vcpu` the exit reason of each KVM_RUN.
fn ioctl_sizes(filter: &Filter) -> Vec<(u32, u32)> {
    let mut v = genba_syscalls::ioctl_sizes();
    if filter.kvm_vcpu {
        use genba_syscalls::decode::{IOC_KVM_EXIT, KVM_RUN};
        v.push((KVM_RUN, IOC_KVM_EXIT));
    }
    v
}

/// A trace's options made into what runs it (ripgrep's "high-level
/// arguments"): the filter, the BPF plans and configuration, the decoding
/// and display choices, all validated before the kernel is touched. The
/// only things made are the output (strace opens it first, too) and
/// `--gpu`'s layer directory.
struct Plan {
    a: TraceArgs,
    filter: Filter,
    quiet: Quiet,
    pid_comm: bool,
    abs_time: Option<render::AbsTime>,
    relative: Option<u32>,
    times: Option<u32>,
    json: bool,
    sort: genba_analyze::SortBy,
    columns: Vec<summary::Column>,
    stacks: bool,
    stack_bytes: u32,
    pids: Vec<i32>,
    path: Option<std::path::PathBuf>,
    gpu: Option<genba_gpu::GpuDir>,
    separately: Option<String>,
    output: TraceOutput,
    out: Box<dyn Write>,
    summary_only: bool,
    want_summary: bool,
    fd_decode: filter::FdDecode,
    paths: Option<pathtrace::PathSet>,
    decode: Options,
    plans: Vec<SyscallPlan>,
    stack_opts: Option<stacks::StackOptions>,
    summary_by: genba_bpf::SummaryBy,
    display: Option<Vec<bool>>,
    path_trace: bool,
    cfg: TraceConfig,
}

impl Plan {
    fn new(mut a: TraceArgs) -> Result<Plan> {
        // --- validate everything before touching the kernel ---
        if a.command.is_empty() && a.pids.is_empty() {
            bail!(Exit(
                1,
                "must have COMMAND to run or -p PID to attach (see genba trace --help)".into()
            ));
        }
        if !a.command.is_empty() && !a.pids.is_empty() {
            bail!(Exit(1, "-p and a COMMAND are mutually exclusive".into()));
        }
        let filter = Filter::parse(&a.exprs, a.successful, a.failed)?;
        // --seccomp-bpf: what it asks strace for (only the traced calls stop
        // the program) is how genba always traces; strace's checks are kept
        if a.seccomp_bpf {
            if !a.pids.is_empty() {
                eprintln!("genba: --seccomp-bpf is not enabled for processes attached with -p");
            }
            if a.follow == 0 {
                eprintln!(
                    "genba: --seccomp-bpf cannot be used without -f/--follow-forks, disabling"
                );
            }
        }
        if !filter.inject.is_empty() && !a.pids.is_empty() {
            bail!(Exit(
                1,
                "-e inject= needs a COMMAND for genba to start: its seccomp filter is installed before \
                 the program's exec, and cannot be added to a running process (-p)"
                    .into()
            ));
        }
        let quiet = match (a.quiet, filter.quiet) {
            (q, None) => Quiet::from_count(q),
            (0, Some(q)) => q,
            _ => bail!(Exit(
                1,
                "-q and -e quiet/--quiet cannot be provided simultaneously".into()
            )),
        };
        let pid_comm = decode_pids(&a, &filter)?;
        let abs_time = abs_time(&a)?;
        let relative = duration_width(
            a.relative,
            a.relative_long.as_deref(),
            "relative-timestamps",
        )?;
        let times = duration_width(a.times, a.times_long.as_deref(), "syscall-times")?;
        let xlat = match a.xlat.as_str() {
            "abbrev" => Xlat::Abbrev,
            "raw" => Xlat::Raw,
            "verbose" => Xlat::Verbose,
            other => bail!("invalid -X argument '{other}' (expected raw, abbrev or verbose)"),
        };
        let json = match a.format.as_str() {
            "text" => false,
            "jsonl" | "json" => true,
            other => bail!("invalid --format '{other}' (expected text or jsonl)"),
        };
        if json && pid_comm {
            bail!(Exit(
                1,
                "-Y/--decode-pids=comm is not supported with --format jsonl yet".into()
            ));
        }
        if a.summary_only && a.stack_trace > 0 {
            // as strace: -c prints no calls, so there are no stacks to print under them
            eprintln!("genba: -k/--stack-trace has no effect with -c/--summary-only");
            a.stack_trace = 0;
        }
        let sort = summary::parse_sort(a.sort_by.as_deref())?;
        let columns = summary::parse_columns(a.columns.as_deref())?;
        let stacks = a.source || a.stack_trace > 0;
        // a stack copy makes every record kilobytes long: a bigger buffer by default
        // (a recording's intervals carry a stack copy too); so do strings of
        // kilobytes (-s)
        let long_records = stacks || a.record.is_some() || a.strsize >= 1024;
        let buffer_mib = a.buffer_mib.unwrap_or(if long_records { 64 } else { 8 });
        let stack_bytes = a
            .stack_bytes
            .unwrap_or(if a.stack_trace > 0 { 16384 } else { 2048 });
        if !buffer_mib.is_power_of_two() || buffer_mib > 1024 {
            bail!("--buffer-size must be a power of two between 1 and 1024 MiB");
        }
        let pids = parse_pids(&a.pids)?;
        let path = resolve_command(&a.command)?;
        let gpu = gpu_setup(a.gpu, &a.command)?;
        // -ff, --output-separately: a file per task; genba's other output
        // (none but messages) stays on stderr
        let separately = if a.follow >= 2 || a.output_separately {
            if a.summary_only || a.summary {
                bail!(Exit(
                    1,
                    "(-c/--summary-only or -C/--summary) and -ff/--output-separately are mutually exclusive".into()
                ));
            }
            match a.output.as_deref() {
                None => {
                    eprintln!("genba: --output-separately has no effect without -o/--output");
                    None
                }
                Some(o) if o.starts_with('|') || o.starts_with('!') => bail!(Exit(
                    1,
                    "piping the output and -ff/--output-separately are mutually exclusive".into()
                )),
                // room for the `.TID` each file adds
                Some(o) if o.len() >= libc::PATH_MAX as usize - 12 => {
                    bail!(Exit(1, format!("{o}: File name too long")))
                }
                Some(_) if json => bail!(Exit(
                    1,
                    "-ff/--output-separately is not supported with --format jsonl yet".into()
                )),
                Some(o) => Some(o.to_string()),
            }
        } else {
            None
        };
        let output = TraceOutput::open(if separately.is_some() {
            None
        } else {
            a.output.as_deref()
        })?;
        let out: Box<dyn Write> = Box::new(output.clone());

        let summary_only = a.summary_only;
        let want_summary = a.summary_only || a.summary;
        // -y, --decode-fds=, -e decode-fds=: the last kind given counts
        let fd_decode = {
            let mut d = match a.fd_paths_count {
                0 => filter::FdDecode::default(),
                1 => filter::FdDecode::PATH,
                _ => filter::FdDecode::ALL,
            };
            if let Some(v) = &a.decode_fds {
                d = filter::FdDecode::parse(v)?;
            }
            if let Some(e) = filter.decode_fds {
                d = e;
            }
            d
        };
        // -P: the paths, and what strace says of those that resolve elsewhere
        let paths = if a.trace_path.is_empty() {
            None
        } else {
            if want_summary {
                bail!(Exit(
                    1,
                    "-P cannot be combined with -c or -C yet: the summary is counted in the kernel, before the paths are known".into()
                ));
            }
            if json {
                bail!(Exit(
                    1,
                    "-P is not supported with --format jsonl yet".into()
                ));
            }
            let (set, said) = pathtrace::PathSet::new(&a.trace_path);
            if !quiet.path_resolution {
                for m in said {
                    eprintln!("genba: {m}");
                }
            }
            Some(set)
        };
        let hex = hex_strings(&a)?;
        let decode = Options {
            strsize: a.strsize,
            verbose: a.verbose,
            xlat,
            hex,
        };
        let mut plans = syscall_plans(&a, &filter, &decode);
        let stack_opts = if stacks {
            let mut skip = Vec::new();
            for r in &a.source_skip {
                skip.push(
                    regex::Regex::new(r)
                        .map_err(|e| anyhow!("invalid --source-skip '{r}': {e}"))?,
                );
            }
            Some(stacks::StackOptions {
                source: a.source,
                stack_trace: a.stack_trace,
                skip,
                stack_bytes,
            })
        } else {
            None
        };
        if stacks && !(512..=16384).contains(&stack_bytes) {
            bail!("--stack-bytes must be between 512 and 16384");
        }
        let summary_by = match a.summary_by.as_deref() {
            None | Some("syscall") => genba_bpf::SummaryBy::Syscall,
            Some("process" | "pid") => genba_bpf::SummaryBy::Process,
            Some("thread" | "tid") => genba_bpf::SummaryBy::Thread,
            Some(other) => bail!("invalid --summary-by '{other}' (expected process or thread)"),
        };
        if summary_by != genba_bpf::SummaryBy::Syscall && !want_summary {
            bail!("--summary-by needs -c or -C");
        }
        // stacks (and a recording's intervals) need the calls that say what a
        // process maps, shown or not
        let mut display = None;
        // -P: so do the ones that make, copy and close descriptors, so each
        // descriptor is known when a call shown uses it
        let path_trace = paths.is_some();
        // -y: the descriptors a call shows are named when they are made, as
        // strace reads them while the call is stopped; by the time genba prints
        // a call, its process may have closed them or ended
        let follow: &[&[&str]] = if path_trace || (fd_decode.any() && !summary_only) {
            &[BOOKKEEPING, FD_MAKERS]
        } else if stacks || a.record.is_some() {
            &[BOOKKEEPING]
        } else {
            &[]
        };
        // -Y: the calls that name a task (exec, prctl, fork: the child has the
        // parent's name) and reap one, so each line names a process as it was
        // at that call (genba prints after the fact)
        const RENAMERS: &[&str] = &[
            "execve", "execveat", "prctl", "clone", "clone3", "fork", "vfork", "wait4", "waitid",
        ];
        let renamers: &[&[&str]] = if pid_comm && !summary_only {
            &[RENAMERS]
        } else {
            &[]
        };
        for name in follow.iter().chain(renamers).copied().flatten() {
            if let Some(info) = table::by_name(name) {
                let plan = &mut plans[info.nr as usize];
                if !plan.traced {
                    plan.traced = true;
                    plan.no_stack = true;
                    display = Some(filter.traced.clone());
                }
            }
        }
        let cfg = TraceConfig {
            all_tasks: false,
            follow_forks: (a.follow > 0),
            records: !summary_only || stacks || a.record.is_some(),
            summary: want_summary,
            summary_cpu: !a.wall,
            summary_by,
            ustack_bytes: if stacks { stack_bytes } else { 0 },
            kstack: a.stack_trace >= 2,
            buffer_bytes: buffer_mib << 20,
            profile: a
                .record
                .as_ref()
                .map(|_| record::exact_profile(RECORD_PERIOD_NS, RECORD_STACK_BYTES)),
            inject: !filter.inject.is_empty(),
            poke_exit: filter.inject.pokes_at_exit(),
            ioctl_sizes: ioctl_sizes(&filter),
            // strace reads no clock unless a time is shown: nor does genba
            // (the kernel's summaries get their times whatever this says)
            timed: json
                || abs_time.is_some()
                || relative.is_some()
                || times.is_some()
                || stacks
                || a.record.is_some()
                || gpu.is_some(),
        };
        Ok(Plan {
            a,
            filter,
            quiet,
            pid_comm,
            abs_time,
            relative,
            times,
            json,
            sort,
            columns,
            stacks,
            stack_bytes,
            pids,
            path,
            gpu,
            separately,
            output,
            out,
            summary_only,
            want_summary,
            fd_decode,
            paths,
            decode,
            plans,
            stack_opts,
            summary_by,
            display,
            path_trace,
            cfg,
        })
    }
}

pub fn run(a: TraceArgs) -> Result<i32> {
    let Plan {
        a,
        filter,
        quiet,
        pid_comm,
        abs_time,
        relative,
        times,
        json,
        sort,
        columns,
        stacks,
        stack_bytes,
        pids,
        path,
        gpu,
        separately,
        output,
        out,
        summary_only,
        want_summary,
        fd_decode,
        paths,
        decode,
        plans,
        stack_opts,
        summary_by,
        display,
        path_trace,
        cfg,
    } = Plan::new(a)?;
    // --record: the file exists before the program starts
    let mut rec = match &a.record {
        Some(f) => Some(record::RecordSink::create(&record::Recording {
            output: f,
            decode: decode.clone(),
            stack_bytes: RECORD_STACK_BYTES,
            period_ns: RECORD_PERIOD_NS,
            freq: 1_000_000_000 / RECORD_PERIOD_NS,
            // the calls the trace shows
            shown: Some(filter.traced.clone()),
            on_cpu: false,
            sites: false,
            all_tasks: false,
        })?),
        None => None,
    };
    let seed = rec.is_some() && path.is_none();

    // --- start: the program held before its exec, the collector attached ---
    let mut session = Session::start(
        &cfg,
        &plans,
        Target {
            command: path.as_deref().map(|p| (p, a.command.as_slice())),
            pids: &pids,
            all_threads: (a.follow > 0),
            inject: (!filter.inject.is_empty()).then_some(&filter.inject),
            inject_children: (a.follow > 0),
        },
        Until::TasksGone,
        |tracer, live| {
            if seed {
                crate::offcpu::seed_waiting(tracer, live, RECORD_STACK_BYTES, RECORD_PERIOD_NS)?;
            }
            Ok(())
        },
    )
    .map_err(start_error)?;
    if let Some(r) = rec.as_mut() {
        r.started(&session, &a.command, &a.pids)?;
    }
    let ntasks = session.live().len();
    if !quiet.attach {
        for tid in &session.attached {
            eprintln!("genba: Process {tid} attached");
        }
    }
    // -y: what the programs have open before their first traced call
    let mut fds = fdtrack::FdTracker::default();
    // -P names descriptors by the paths /proc gives, as strace compares them
    fds.canonical = fd_decode.any() || path_trace;
    if fd_decode.any() || path_trace {
        for pid in session.child_pid().into_iter().chain(pids.iter().copied()) {
            fds.seed(pid as u32);
        }
    }
    if let Some(d) = &gpu {
        session.watch_gpu(d.path());
    }
    session.release()?;

    let mut printer = if summary_only && !stacks {
        Printer::None
    } else if json && !summary_only {
        let j = JsonPrinter::new(out, decode.clone(), filter.status)
            .with_display(display.clone())
            .with_signals(filter.signals.clone());
        Printer::Json(Box::new(match &stack_opts {
            Some(o) => {
                let st = stacks::Stacks::new(stacks::StackOptions {
                    source: o.source,
                    stack_trace: o.stack_trace,
                    skip: o.skip.clone(),
                    stack_bytes: o.stack_bytes,
                });
                let j = j.with_world(world::World::new(fds.clone(), false, Some(st)));
                // -C --source: the summary by call site comes from here
                if want_summary && a.source {
                    j.with_sites(!a.wall)
                } else {
                    j
                }
            }
            None => j,
        }))
    } else {
        let prefix = if a.output.is_some() && (a.follow > 0) && separately.is_none() {
            PidPrefix::Plain
        } else {
            PidPrefix::Bracketed
        };
        let p = TextPrinter::new(
            out,
            TextOptions {
                decode: decode.clone(),
                prefix,
                abs_time,
                relative,
                times,
                syscall_number: a.syscall_number,
                signals: filter.signals.clone(),
                acolumn: a.acolumn,
                status: filter.status,
                fd_decode,
                quiet_exit: quiet.exit,
                quiet_thread_execve: quiet.thread_execve,
                realtime_offset_ns: realtime_offset(),
                display: display.clone(),
                paths: paths.clone(),
                dump_read: filter.dump_read.clone(),
                dump_write: filter.dump_write.clone(),
                pid_comm,
                verbose: filter.verbose.clone(),
                separately: separately.clone(),
            },
            ntasks,
        )
        .with_world(world::World::new(
            fds,
            fd_decode.any() || path_trace,
            stack_opts.map(stacks::Stacks::new),
        ));
        // -c/-C with --source: also a summary by call site (-c: not printing)
        let p = if want_summary && a.source {
            p.with_sites(!summary_only, !a.wall)
        } else {
            p
        };
        Printer::Text(Box::new(p))
    };
    // --- the loop: poll, render, until the traced tasks are gone ---
    let mut sink = TraceSink {
        gpu: (want_summary && a.gpu).then(gputable::GpuTables::default),
        printer: &mut printer,
        // strace names a child it did not trace; with -f every one is traced
        unknown_exits: !quiet.exit && a.follow == 0,
        output_command: output.command_pid(),
    };
    let started = std::time::Instant::now();
    match rec.as_mut() {
        Some(r) => session.run(&mut Tee(vec![&mut sink, r]))?,
        None => session.run(&mut sink)?,
    }
    // the recording's progress line ends before what is said next
    if let Some(r) = rec.as_mut() {
        r.end_progress();
    }
    let wall_ns = started.elapsed().as_nanos() as u64;
    let gpu_tables = sink.gpu.take();
    let tracer = &session.tracer;
    for &pid in &pids {
        let _ = tracer.remove_task(pid as u32);
        if !quiet.attach {
            eprintln!("genba: Process {pid} detached");
        }
    }
    let stats = tracer.stats().map_err(|e| anyhow!(e))?;
    if let Printer::Json(p) = &mut printer {
        p.end_record(&stats);
    }
    printer.finish();
    let unreadable = match &printer {
        Printer::Text(p) => p.unreadable,
        _ => 0,
    };
    // -ff: a task whose file could not be made lost its lines
    let unwritten = match &printer {
        Printer::Text(p) => p.unwritable_files(),
        _ => 0,
    };
    let short_stacks = match &printer {
        Printer::Text(p) => p.short_stacks(),
        Printer::Json(p) => p.short_stacks(),
        _ => 0,
    };
    let cut_stacks = match &printer {
        Printer::Text(p) => p.cut_stacks(),
        Printer::Json(p) => p.cut_stacks(),
        _ => 0,
    };
    let site_rows = match &printer {
        Printer::Text(p) => p.sites.as_ref().map(|t| t.rows()).unwrap_or_default(),
        Printer::Json(p) => p.site_rows(),
        _ => Vec::new(),
    };
    let site_table = match &printer {
        Printer::Text(p) => p.sites.as_ref().map(|t| {
            t.render(|nr| {
                table::by_nr(nr)
                    .map(|i| i.name.to_string())
                    .unwrap_or_else(|| format!("syscall_{nr:#x}"))
            })
        }),
        _ => None,
    };
    drop(printer);

    if want_summary {
        // calls traced only to follow mappings (-k, --source) are not the
        // user's: leave them out of the summary as they are out of the trace
        let shown = |rows: Vec<genba_bpf::SummaryRow>| -> Vec<genba_bpf::SummaryRow> {
            rows.into_iter()
                .filter(|r| {
                    display
                        .as_ref()
                        .is_none_or(|d| d.get(r.nr as usize).copied().unwrap_or(true))
                })
                .collect()
        };
        let rows = shown(tracer.summary().map_err(|e| anyhow!(e))?);
        let mut text = String::new();
        if json {
            let what = if summary_by == genba_bpf::SummaryBy::Thread {
                "tid"
            } else {
                "pid"
            };
            let tasks: Vec<(&str, u32, Vec<genba_bpf::SummaryRow>)> =
                if summary_by != genba_bpf::SummaryBy::Syscall {
                    tracer
                        .task_summary()
                        .map_err(|e| anyhow!(e))?
                        .into_iter()
                        .map(|(t, r)| (what, t, shown(r)))
                        .collect()
                } else {
                    Vec::new()
                };
            text.push_str(&summary::render_json(&rows, &tasks, &site_rows));
        } else if summary_by != genba_bpf::SummaryBy::Syscall {
            let what = if summary_by == genba_bpf::SummaryBy::Process {
                "process"
            } else {
                "thread"
            };
            for (task, task_rows) in tracer.task_summary().map_err(|e| anyhow!(e))? {
                let task_rows = shown(task_rows);
                text.push_str(&format!("{what} {task}:\n"));
                text.push_str(&summary::render(&task_rows, sort, &columns));
                text.push('\n');
            }
            text.push_str(&format!("all {what}es:\n"));
        }
        if !json {
            text.push_str(&summary::render(&rows, sort, &columns));
            if let Some(t) = &site_table {
                text.push_str(t);
            }
            if let Some(g) = &gpu_tables {
                text.push_str(&g.render_text(Some(wall_ns)));
            }
        }
        // the table goes where the trace went
        let mut w = output.clone();
        let _ = w.write_all(text.as_bytes());
    }
    let written = output.close();
    session.debug_stats(&stats);
    // Losses are always reported; a clean run says so too, unless any
    // quiet form (-q, -e quiet=, --quiet=) asked for strace's quiet stderr.
    let quiet_asked = a.quiet > 0 || filter.quiet.is_some();
    if stats.total_lost() > 0 || !quiet_asked {
        eprintln!("genba: {} events lost", stats.total_lost());
    }
    session.say_gpu_lost();
    session.hand_off_listener();
    if let Some(c) = session.inject_counts() {
        if c.unmarked > 0 {
            eprintln!(
                "genba: -e inject: {} calls acted on could not be told to the collector (its map was full): printed without (INJECTED)/(DELAYED)",
                c.unmarked
            );
        }
    }
    if short_stacks > 0 {
        eprintln!(
            "genba: {short_stacks} call sites unknown: the stack was deeper than the {stack_bytes} bytes copied (--stack-bytes, up to 16384)"
        );
    }
    if cut_stacks > 0 {
        eprintln!(
            "genba: {cut_stacks} stacks cut short (marked `(stack too deep)`): the stack was deeper than the {stack_bytes} bytes copied (--stack-bytes, up to 16384)"
        );
    }
    if unreadable > 0 {
        eprintln!(
            "genba: {unreadable} arguments shown as addresses: their memory could not be read"
        );
    }
    if stats.summary_overflow > 0 {
        eprintln!(
            "genba: {} calls missing from the per-{} tables (more than {} task/syscall pairs)",
            stats.summary_overflow,
            if summary_by == genba_bpf::SummaryBy::Thread {
                "thread"
            } else {
                "process"
            },
            genba_bpf::TASK_SUMMARY_ENTRIES
        );
    }
    if stats.truncated_records > 0 {
        eprintln!(
            "genba: {} captures cut short (record full)",
            stats.truncated_records
        );
    }
    let code = session.exit_code();
    // (says what it wrote, or what it could not)
    let unrecorded = rec.as_mut().is_some_and(|r| r.end(&stats));
    if let Some(problem) = written.problem {
        // lost output is a failed run, whatever the program's own status
        eprintln!("genba: {problem}");
        return Ok(if code != 0 { code } else { 1 });
    }
    if unrecorded || unwritten > 0 {
        return Ok(if code != 0 { code } else { 1 });
    }
    Ok(code)
}

/// `--record` on trace: the sampling period the blocked intervals are
/// weighed with, and the user stack copied for each interval.
const RECORD_PERIOD_NS: u64 = 1_000_000;

const RECORD_STACK_BYTES: u32 = 4096;

/// `-Y`, `--decode-pids=`, `-e decode-pids=`: each one given replaces the
/// set; `comm` is the one genba has.
fn decode_pids(a: &TraceArgs, filter: &Filter) -> Result<bool> {
    // -Y, --decode-pids=, -e decode-pids=: each one given replaces the set
    let mut pid_comm = a.pid_comm;
    for d in a.decode_pids.iter().chain(filter.decode_pids.iter()) {
        let body = d.trim_start_matches('!');
        let inverted = (d.len() - body.len()) % 2 == 1;
        let (mut comm, mut pidns) = (false, false);
        for what in body.split(',') {
            match what {
                "none" => {}
                "all" => (comm, pidns) = (true, true),
                "comm" => comm = true,
                "pidns" => pidns = true,
                other => bail!(Exit(1, format!("invalid decode-pids '{other}'"))),
            }
        }
        if inverted {
            (comm, pidns) = (!comm, !pidns);
        }
        if pidns {
            bail!(Exit(
                1,
                "--decode-pids=pidns is not supported by genba: it cannot translate process ids between pid namespaces".into()
            ));
        }
        pid_comm = comm;
    }
    Ok(pid_comm)
}

/// `-x`, `-xx`, `--strings-in-hex=`: which strings print in hex.
fn hex_strings(a: &TraceArgs) -> Result<genba_syscalls::fmt::HexStr> {
    use genba_syscalls::fmt::HexStr;
    Ok(match (a.hex, a.strings_in_hex.as_deref()) {
        (0, None) => HexStr::None,
        (1, None) => HexStr::NonAscii,
        (_, None) => HexStr::All,
        (0, Some("none")) => HexStr::None,
        (0, Some("non-ascii-chars")) => HexStr::NonAsciiChars,
        (0, Some("non-ascii")) => HexStr::NonAscii,
        (0, Some("all")) => HexStr::All,
        (0, Some(other)) => bail!(Exit(
            1,
            format!("invalid --strings-in-hex argument: '{other}' (expected none, non-ascii-chars, non-ascii or all)")
        )),
        (_, Some(_)) => bail!(Exit(
            1,
            "-x and --strings-in-hex cannot be provided simultaneously".into()
        )),
    })
}

/// What BPF traces and copies of each call: the decoders' plans, with
/// `-e read=`/`write=`'s whole buffers.
fn syscall_plans(a: &TraceArgs, filter: &Filter, decode: &Options) -> Vec<SyscallPlan> {
    let stacks = a.source || a.stack_trace > 0;
    let mut plans = vec![SyscallPlan::default(); genba_bpf::MAX_SYSCALLS as usize];
    for (nr, plan) in plans.iter_mut().enumerate() {
        plan.traced = filter.traced.get(nr).copied().unwrap_or(true);
        // (a recording decodes the calls even when -c prints none)
        if !a.summary_only || stacks || a.record.is_some() {
            if let Some(info) = table::by_nr(nr as u32) {
                let p = genba_syscalls::plan(info.name, decode);
                // with stacks every call needs its entry record (the stack is taken there)
                plan.exit_only = !stacks && genba_syscalls::exit_only(info.name, &p);
                plan.no_args = info.nargs == 0;
                for (dst, src) in plan.args.iter_mut().zip(p) {
                    *dst = to_bpf_plan(src);
                }
            }
        }
    }
    // -e read=/write=: the data of the calls dumped is copied whole (up to
    // DUMP_MAX; an iovec's buffers up to DUMP_IOV_MAX each, a record holding
    // 32 KiB in all), not only the -s bytes shown; only in the direction
    // asked for
    for (name, write, iov) in render::DUMPED {
        let asked = if *write {
            filter.dump_write.is_some()
        } else {
            filter.dump_read.is_some()
        };
        if let (true, Some(info)) = (asked, table::by_name(name)) {
            let a = &mut plans[info.nr as usize].args[1];
            if a.kind != CaptureKind::None {
                let most = if *iov {
                    render::DUMP_IOV_MAX
                } else {
                    render::DUMP_MAX
                };
                a.max = a.max.max(most);
            }
        }
    }
    plans
}
