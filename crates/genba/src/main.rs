//! genba: where does my program's time actually go?
//!
//! The binary is the command line and nothing else: it parses the flags
//! (strace's, for `trace`), hands each command's options to its session in
//! genba-core, and turns every failure into one line and an exit code.

mod cli;

use anyhow::Result;
use genba_core::Exit;

use crate::cli::{Cli, Command};

fn main() {
    let cli = match parse_cli() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let code = match run(cli) {
        Ok(code) => code,
        Err(e) => {
            let (code, msg) = match e.downcast_ref::<Exit>() {
                Some(x) => (x.0, x.1.clone()),
                None => (1, format!("{e:#}")),
            };
            eprintln!("genba: {}", msg.replace('\n', " "));
            code
        }
    };
    std::process::exit(code);
}

/// The command line; for `trace`, the qualifying expressions of `-e` and
/// their long forms (`--trace=`, `--status=`, `--signal=`, `--quiet=`) in
/// the order given, since a later one replaces an earlier one, as in strace.
fn parse_cli() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let m = Cli::command().try_get_matches()?;
    let mut cli = Cli::from_arg_matches(&m)?;
    if let (Command::Trace(a), Some(("trace", m))) = (&mut cli.cmd, m.subcommand()) {
        let mut exprs: Vec<(usize, String)> = Vec::new();
        for (id, prefix) in [
            ("exprs", ""),
            ("trace_set", "trace="),
            ("status_set", "status="),
            ("signal_set", "signal="),
            ("quiet_set", "quiet="),
            ("inject_set", "inject="),
            ("fault_set", "fault="),
            ("read_set", "read="),
            ("write_set", "write="),
            ("verbose_set", "verbose="),
            ("kvm_set", "kvm="),
        ] {
            if let (Some(idx), Some(vals)) = (m.indices_of(id), m.get_many::<String>(id)) {
                exprs.extend(idx.zip(vals).map(|(i, v)| (i, format!("{prefix}{v}"))));
            }
        }
        exprs.sort_by_key(|(i, _)| *i);
        a.exprs = exprs.into_iter().map(|(_, e)| e).collect();
    }
    Ok(cli)
}

fn run(cli: Cli) -> Result<i32> {
    genba_core::init(std::env::var_os("GENBA_DEBUG").is_some());
    match cli.cmd {
        Command::Trace(a) => genba_core::trace::run(*a),
        Command::Profile(a) => genba_core::profile::run(*a),
        Command::Record(a) => genba_core::record::run(*a),
        Command::Causal(a) => genba_core::causal::run(*a),
        Command::Report(a) => genba_core::report::run(*a),
        Command::Export(a) => genba_core::export::run(*a),
        Command::BenchFloor { pieces, command } => {
            genba_core::trace::bench_floor(&pieces, &command)
        }
    }
}
