use genba_bpf::*;
fn main() {
    let mut plans = vec![
        SyscallPlan {
            traced: true,
            ..Default::default()
        };
        512
    ];
    plans[257].args[1] = ArgCapture {
        kind: CaptureKind::Str,
        when: CaptureWhen::Enter,
        len_arg: 0,
        max: 4096,
    };
    plans[0].args[1] = ArgCapture {
        kind: CaptureKind::RetLen,
        when: CaptureWhen::Exit,
        len_arg: 0,
        max: 32,
    };
    plans[59].args[1] = ArgCapture {
        kind: CaptureKind::StrArray,
        when: CaptureWhen::Enter,
        len_arg: 0,
        max: 32,
    };
    plans[59].args[2] = ArgCapture {
        kind: CaptureKind::Count,
        when: CaptureWhen::Enter,
        len_arg: 0,
        max: 0,
    };
    let cfg = TraceConfig {
        follow_forks: true,
        summary: true,
        ..Default::default()
    };
    let mut t = match Tracer::load(&cfg, &plans) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1)
        }
    };
    let pid = std::process::id();
    t.add_task(pid, false).unwrap();
    t.attach().unwrap();
    let _ = std::fs::read_to_string("/etc/hostname");
    let _ = std::process::Command::new("/bin/true").arg("x").status();
    let mut out = Vec::new();
    t.poll(std::time::Duration::from_millis(100), &mut out)
        .unwrap();
    for e in out.iter().take(400) {
        println!("{e:?}");
    }
    println!("{:?}", t.stats().unwrap());
    for r in t.summary().unwrap() {
        println!(
            "nr {} calls {} err {} tot {}",
            r.nr, r.calls, r.errors, r.total_ns
        );
    }
}
