//! `genba profile`: on-CPU and blocked samples of a program's threads on
//! one clock, unwound and symbolized as `trace --source` does, aggregated
//! and reported (text, JSON, folded, flame graph, pprof, speedscope).

use std::io::Write;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use genba_analyze::profile::Class;
use genba_analyze::report::{self, ChainOrder, Frame, Profile, ReportOptions, SampleIn, SortKey};
use genba_bpf::{ProfileConfig, SyscallPlan, TraceConfig};
use genba_events::{Event, ProfSample};
use genba_syscalls::{table, Options, Xlat};

use crate::offcpu::{class_of, close_pending, own_kernel_frame, seed_waiting, system_slots};
use crate::options::ProfileArgs;
use crate::session::{Session, Sink, Target, Tee, Until};
use crate::stacks::{StackOptions, Stacks};
use crate::world::World;
use crate::{bpf_error, parse_pids, resolve_command, to_bpf_plan, Exit, BOOKKEEPING};

struct Collector {
    world: World,
    profile: Profile,
    cwd: String,
    /// samples whose user stack could not be unwound at all
    unresolved: u64,
    /// --gpu: the GPU tables
    gpu: crate::gputable::GpuTables,
}

impl Sink for Collector {
    fn event(&mut self, ev: &Event) {
        self.handle(ev);
    }
}

impl Collector {
    fn comm(&mut self, tid: u32) -> String {
        let c = self.world.name_or_proc(tid);
        if c.is_empty() {
            "?".into()
        } else {
            c
        }
    }

    fn handle(&mut self, ev: &Event) {
        match ev {
            Event::Profile(p) => self.sample(p),
            Event::Gpu(g) => self.gpu.event(g),
            Event::Exec { task, .. } => {
                // the thread's place changes with its program
                self.profile.forget_last_on_cpu(task.tid);
                self.world.follow(ev);
            }
            _ => {
                self.world.follow(ev);
            }
        }
    }

    fn srcline(&self, file: &str, line: u32) -> String {
        format!("{}:{line}", crate::stacks::relative(file, &self.cwd))
    }

    /// CPU time a thread ran since its last sample, sent when it ended:
    /// it goes where the thread was last seen running.
    fn flush(&mut self, p: &ProfSample, comm: String) {
        let w = u64::from(p.w_block);
        if self.profile.add_to_last_on_cpu(p.task.tid, w) {
            return;
        }
        self.profile.add(SampleIn {
            tid: p.task.tid,
            pid: p.task.tgid,
            comm,
            class: Class::User,
            weight: w,
            frames: vec![Frame {
                function: "(ran between samples: too short to be sampled)".into(),
                module: "[unknown]".into(),
                srcline: None,
                kernel: false,
            }],
            site: None,
            syscall: None,
        });
    }

    fn sample(&mut self, p: &ProfSample) {
        // the name the kernel had for the thread then; /proc for intervals
        // opened from user space (-p)
        let comm = if p.comm.is_empty() {
            self.comm(p.task.tid)
        } else {
            p.comm.clone()
        };
        if p.flush {
            self.flush(p, comm);
            return;
        }
        let Some(stacks) = self.world.stacks_mut() else {
            return;
        };
        let cs = if p.regs[0] != 0 {
            // kernel frames are named below, from the sample itself
            Some(stacks.resolve_regs(p.task.tgid, p.regs, &p.ustack, Vec::new(), false))
        } else {
            None
        };
        let site = cs.as_ref().map(|c| stacks.site_label(c));
        let kernel_names: Vec<String> = p
            .kstack
            .iter()
            .map(|&a| match stacks.kernel_function(a) {
                Ok(n) => n.to_string(),
                Err(hex) => hex,
            })
            .filter(|n| !own_kernel_frame(n))
            .collect();
        let mut frames = Vec::new();
        if let Some(cs) = &cs {
            for phys in cs.user.iter().rev() {
                for f in phys.iter().rev() {
                    let module = f.module.rsplit('/').next().unwrap_or(&f.module).to_string();
                    let function = match &f.function {
                        // glibc's internal alias of a public function
                        // (__GI_fsync is fsync) reads as the public name
                        Some(n) => n.strip_prefix("__GI_").unwrap_or(n).to_string(),
                        None => format!("{module}+{:#x}", f.file_offset),
                    };
                    let srcline = match (&f.file, f.line) {
                        (Some(file), Some(line)) => Some(self.srcline(file, line)),
                        _ => None,
                    };
                    frames.push(Frame {
                        function,
                        module,
                        srcline,
                        kernel: false,
                    });
                }
            }
            if frames.is_empty() {
                self.unresolved += 1;
            }
        } else if p.new_thread {
            frames.push(Frame {
                function: "(new thread, before its first run)".into(),
                module: "[unknown]".into(),
                srcline: None,
                kernel: false,
            });
        }
        for n in kernel_names.iter().rev() {
            frames.push(Frame {
                function: n.clone(),
                module: "[kernel]".into(),
                srcline: None,
                kernel: true,
            });
        }
        let syscall = (p.sysnr >= 0 && (p.off_cpu || p.class == 1))
            .then(|| table::by_nr(p.sysnr as u32).map(|i| i.name.to_string()))
            .flatten();
        let mut class = class_of(p.class);
        if p.off_cpu {
            let names: Vec<&str> = kernel_names.iter().map(String::as_str).collect();
            class = report::refine_class(class, &names);
            let user: Vec<&str> = frames
                .iter()
                .filter(|f| !f.kernel)
                .map(|f| f.function.as_str())
                .collect();
            class = report::refine_futex_wait(class, &user);
        }
        let base = SampleIn {
            tid: p.task.tid,
            pid: p.task.tgid,
            comm,
            class,
            weight: u64::from(p.w_block),
            frames,
            site,
            syscall,
        };
        if p.w_runq > 0 {
            let mut s = base.clone();
            s.class = Class::Sched;
            s.weight = u64::from(p.w_runq);
            self.profile.add(s);
        }
        self.profile.add(base);
    }
}

/// Runs `genba profile`.
pub fn run(a: ProfileArgs) -> Result<i32> {
    if a.all && !a.pids.is_empty() {
        bail!(Exit(1, "-a and -p are mutually exclusive".into()));
    }
    if a.command.is_empty() && a.pids.is_empty() && !a.all {
        bail!(Exit(
            1,
            "must have COMMAND to run or -p PID to attach (see genba profile --help)".into()
        ));
    }
    if !a.command.is_empty() && !a.pids.is_empty() {
        bail!(Exit(1, "-p and a COMMAND are mutually exclusive".into()));
    }
    if !(1..=100_000).contains(&a.freq) {
        bail!("-F must be between 1 and 100000 Hz");
    }
    if !(512..=8192).contains(&a.stack_bytes) {
        bail!("--stack-bytes must be between 512 and 8192");
    }
    if !a.buffer_mib.is_power_of_two() || a.buffer_mib > 1024 {
        bail!("--buffer-size must be a power of two between 1 and 1024 MiB");
    }
    let json = match a.format.as_str() {
        "text" => false,
        "json" => true,
        other => bail!("invalid --format '{other}' (expected text or json)"),
    };
    let keys = SortKey::parse_list(&a.sort).map_err(|e| anyhow!(e))?;
    let chains = match a.call_graph.as_deref() {
        None if a.chains => Some(ChainOrder::Callee),
        None => None,
        Some("callee") => Some(ChainOrder::Callee),
        Some("caller") => Some(ChainOrder::Caller),
        Some(other) => bail!("invalid --call-graph '{other}' (expected callee or caller)"),
    };
    let pids = parse_pids(&a.pids)?;
    let path = resolve_command(&a.command)?;
    let gpu = crate::gpu_setup(a.gpu, &a.command)?;
    // every output file is created before the program starts: a bad path
    // fails now, not after a long run
    let mut files: Vec<(&str, std::fs::File)> = Vec::new();
    for (what, f) in [
        ("output", &a.output),
        ("folded", &a.folded),
        ("flamegraph", &a.flamegraph),
        ("pprof", &a.pprof),
        ("speedscope", &a.speedscope),
    ] {
        if let Some(f) = f {
            files.push((
                what,
                std::fs::File::create(f).with_context(|| format!("Can't create '{f}'"))?,
            ));
        }
    }
    let period_ns = 1_000_000_000 / a.freq;

    let decode = Options {
        strsize: 32,
        verbose: false,
        xlat: Xlat::Abbrev,
        hex: Default::default(),
    };
    let mut plans = vec![SyscallPlan::default(); genba_bpf::MAX_SYSCALLS as usize];
    for (nr, plan) in plans.iter_mut().enumerate() {
        let Some(info) = table::by_nr(nr as u32) else {
            plan.traced = a.syscalls;
            continue;
        };
        let needed = BOOKKEEPING.contains(&info.name);
        plan.traced = needed || a.syscalls;
        plan.no_stack = true;
        plan.no_args = info.nargs == 0;
        if needed {
            for (dst, src) in plan
                .args
                .iter_mut()
                .zip(genba_syscalls::plan(info.name, &decode))
            {
                *dst = to_bpf_plan(src);
            }
        } else {
            // counted in the kernel only: no record is needed at entry
            plan.exit_only = true;
        }
    }
    let cfg = TraceConfig {
        inject: false,
        poke_exit: false,
        ioctl_sizes: Vec::new(),
        timed: true,
        all_tasks: false,
        follow_forks: true,
        records: true,
        summary: a.syscalls,
        summary_cpu: false,
        summary_by: genba_bpf::SummaryBy::Syscall,
        ustack_bytes: 0,
        kstack: false,
        buffer_bytes: a.buffer_mib << 20,
        profile: Some(ProfileConfig {
            period_ns,
            ustack_bytes: a.stack_bytes,
            slots: if a.all { system_slots() } else { 4096 },
            all_tasks: a.all,
            // a recording has every interval exactly, with its waker
            exact: a.record.is_some(),
            causal: None,
        }),
    };
    // --record: the file exists before the program starts
    let mut rec = match &a.record {
        Some(f) => Some(crate::record::RecordSink::create(
            &crate::record::Recording {
                output: f,
                decode: decode.clone(),
                stack_bytes: a.stack_bytes,
                period_ns,
                freq: a.freq,
                shown: None,
                on_cpu: true,
                sites: false,
                all_tasks: a.all,
            },
        )?),
        None => None,
    };

    let waiting_stack_bytes = a.stack_bytes;
    let mut session = Session::start(
        &cfg,
        &plans,
        Target::every_thread(path.as_deref().map(|p| (p, a.command.as_slice())), &pids),
        // the whole system: until Ctrl-C (or another signal)
        Until::of(a.all, !a.command.is_empty()),
        |tracer, live| {
            // -p: threads already waiting get their wait counted from now,
            // as perf does, with what /proc shows (else their first wait,
            // maybe the whole run, would be lost). Written before the
            // programs run, so the programs' own view replaces it as soon
            // as they see more.
            if path.is_none() && !a.all {
                seed_waiting(tracer, live, waiting_stack_bytes, period_ns)?;
            }
            Ok(())
        },
    )
    .map_err(crate::start_error)?;
    // a failure drops the session, which kills a program held before exec
    session.sample_all_cpus(period_ns).map_err(bpf_error)?;
    // as strace -p says it: from here on the processes are profiled
    for &pid in &pids {
        eprintln!("genba: Process {pid} attached");
    }
    let mut stacks = Stacks::new(StackOptions {
        source: true,
        stack_trace: 0,
        stack_bytes: a.stack_bytes,
        skip: Vec::new(),
    });
    stacks.load_kernel_symbols();
    if a.all {
        stacks.load_unknown_processes();
    }
    let mut col = Collector {
        world: World::new(Default::default(), false, Some(stacks)),
        profile: Profile::new(period_ns),
        cwd: std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default(),
        unresolved: 0,
        gpu: Default::default(),
    };
    // -p: what the processes have mapped and what the threads are called,
    // now, while they are there to ask
    for &pid in &pids {
        if let Some(s) = col.world.stacks_mut() {
            s.load_process(pid as u32);
        }
    }
    if let Some(r) = rec.as_mut() {
        r.started(&session, &a.command, &a.pids)?;
    }
    let launched = session.child_pid().is_some();
    if !launched {
        for &tid in session.live() {
            col.comm(tid);
        }
    }
    if let Some(d) = &gpu {
        session.watch_gpu(d.path());
    }
    let started = Instant::now();
    session.release()?;

    match rec.as_mut() {
        Some(r) => session.run(&mut Tee(vec![&mut col, r]))?,
        None => session.run(&mut col)?,
    }
    // the recording's progress line ends before what is said next
    if let Some(r) = rec.as_mut() {
        r.end_progress();
    }
    let elapsed = started.elapsed();
    // -p, -a: stop the profiling programs, so that the slots stop changing,
    // then close what is still pending at that moment: intervals of
    // threads still waiting (weighted with the phase their slot carried)
    // and CPU time not yet sampled
    if !launched || a.all {
        match rec.as_mut() {
            Some(r) => close_pending(&mut session, a.all, period_ns, &mut Tee(vec![&mut col, r]))?,
            None => close_pending(&mut session, a.all, period_ns, &mut col)?,
        }
    }
    let tracer = &session.tracer;
    let stats = tracer.stats().map_err(|e| anyhow!(e))?;

    let what = if a.all {
        "the whole system".to_string()
    } else if a.command.is_empty() {
        format!("pid {}", a.pids.join(","))
    } else {
        a.command.join(" ")
    };
    let title = format!(
        "genba profile of {what}: {:.3} s, {} Hz",
        elapsed.as_secs_f64(),
        a.freq
    );
    let p = &col.profile;
    let mut report = if json {
        let mut v = report::render_json(p, &keys, &title);
        v["lost"] = serde_json::json!({
            "events": stats.total_lost(),
            "slot_collisions": stats.prof_collisions,
        });
        if a.gpu {
            v["gpu"] = col.gpu.render_json(Some(elapsed.as_nanos() as u64));
            v["lost"]["gpu_records"] = session.gpu_lost().into();
        }
        v.to_string() + "\n"
    } else {
        report::render_text(
            p,
            &ReportOptions {
                keys: keys.clone(),
                chains,
                max_rows: a.rows,
                title: title.clone(),
            },
        ) + &col.gpu.render_text(Some(elapsed.as_nanos() as u64))
    };
    if a.syscalls {
        let rows = tracer.summary().map_err(|e| anyhow!(e))?;
        let sort = crate::summary::parse_sort(None)?;
        let columns = crate::summary::parse_columns(None)?;
        if json {
            report.push_str(&crate::summary::render_json(&rows, &[], &[]));
        } else {
            report.push_str("\nSystem calls (wall time inside each call):\n");
            report.push_str(&crate::summary::render(&rows, sort, &columns));
        }
    }
    // the report first: a failing export must not take it with it
    let mut failed = None;
    if a.output.is_none() {
        eprint!("{report}");
    }
    for (what, f) in files.iter_mut() {
        let r = match *what {
            "output" => f.write_all(report.as_bytes()),
            "folded" => f.write_all(p.folded().as_bytes()),
            "flamegraph" => genba_export::flamegraph(p, &title, f),
            "pprof" => genba_export::pprof(p, f),
            "speedscope" => genba_export::speedscope(p, &title, f),
            _ => Ok(()),
        };
        if let Err(e) = r {
            eprintln!("genba: writing the {what} file: {e}");
            failed = Some(*what);
        }
    }
    session.debug_stats(&stats);
    eprintln!(
        "genba: {} events lost, {} off-CPU intervals lost to slot collisions",
        stats.total_lost(),
        stats.prof_collisions
    );
    session.say_gpu_lost();
    if col.unresolved > 0 {
        eprintln!(
            "genba: {} samples with no user frame (mappings unknown)",
            col.unresolved
        );
    }
    if rec.as_mut().is_some_and(|r| r.end(&stats)) {
        failed = Some("recording");
    }
    if let Some(what) = failed {
        bail!("the {what} file could not be written");
    }
    Ok(session.exit_code())
}
