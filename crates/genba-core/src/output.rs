//! Where the trace goes: stderr, a file (`-o FILE`), or a shell command
//! (`-o '|cmd'` or `-o '!cmd'`, as strace pipes it). The printers and the
//! summary share one `TraceOutput`, so everything lands in one stream in
//! order.
//!
//! Output that cannot be written (a full disk, a pipe whose reader is gone)
//! is lost output: it is counted in lines, the first error is kept, and the
//! run ends saying so (and exits non-zero), rather than leaving a file that
//! silently stops halfway.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};
use std::process::{Child, Command, Stdio};
use std::rc::Rc;

use anyhow::{Context, Result};

/// Bytes gathered before a write to the destination.
const BUFFER: usize = 1 << 16;

/// A shared handle on the trace stream; clones write to the same place.
#[derive(Clone)]
pub struct TraceOutput(Rc<RefCell<Inner>>);

struct Inner {
    /// What the user named (`FILE`, `|cmd`), or "stderr".
    name: String,
    dest: Option<Box<dyn Write>>,
    /// The command reading a `|cmd` output.
    command: Option<Child>,
    buf: Vec<u8>,
    /// The first write error; after it, nothing more is tried.
    error: Option<io::Error>,
    /// Lines that could not be written.
    lost_lines: u64,
}

/// What became of the output, once it is closed.
pub struct OutputReport {
    /// `genba: ...` lines to print on stderr (empty: all written).
    pub problem: Option<String>,
}

impl TraceOutput {
    /// Opens the destination `-o` names (None: stderr).
    pub fn open(spec: Option<&str>) -> Result<TraceOutput> {
        let (name, dest, command): (String, Box<dyn Write>, Option<Child>) = match spec {
            None => ("stderr".into(), Box::new(io::stderr()), None),
            Some(s) if s.starts_with('|') || s.starts_with('!') => {
                let cmd = &s[1..];
                let mut child = Command::new("/bin/sh")
                    .arg("-c")
                    .arg(cmd)
                    .stdin(Stdio::piped())
                    .spawn()
                    .with_context(|| format!("Can't popen '{cmd}'"))?;
                let stdin = child.stdin.take().expect("piped stdin");
                (s.to_string(), Box::new(stdin), Some(child))
            }
            Some(f) => (
                f.to_string(),
                Box::new(File::create(f).with_context(|| format!("Can't fopen '{f}'"))?),
                None,
            ),
        };
        Ok(TraceOutput(Rc::new(RefCell::new(Inner {
            name,
            dest: Some(dest),
            command,
            buf: Vec::with_capacity(BUFFER),
            error: None,
            lost_lines: 0,
        }))))
    }

    /// The process of a `|cmd` output (genba's child too).
    pub fn command_pid(&self) -> Option<i32> {
        self.0.borrow().command.as_ref().map(|c| c.id() as i32)
    }

    /// Flushes what is buffered, closes the destination (a command's input:
    /// it sees the end and is waited for), and says what was lost.
    pub fn close(&self) -> OutputReport {
        let mut i = self.0.borrow_mut();
        i.flush_dest();
        i.dest = None;
        if let Some(mut c) = i.command.take() {
            let _ = c.wait();
        }
        let problem = i.error.as_ref().map(|e| {
            format!(
                "{} lines of output not written to {}: {}",
                i.lost_lines,
                i.name,
                strip_os_error(e)
            )
        });
        OutputReport { problem }
    }
}

/// "No space left on device", without Rust's " (os error 28)".
fn strip_os_error(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

impl Inner {
    fn flush_dest(&mut self) {
        self.drain();
        if self.error.is_none() {
            if let Some(Err(e)) = self.dest.as_mut().map(|d| d.flush()) {
                self.error = Some(e);
            }
        }
    }

    /// Writes the buffer out; on an error, what was not written is counted.
    fn drain(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        let failed_before = self.error.is_some();
        let mut done = 0;
        if let (Some(d), false) = (self.dest.as_mut(), failed_before) {
            while done < self.buf.len() {
                match d.write(&self.buf[done..]) {
                    Ok(0) => {
                        self.error = Some(io::ErrorKind::WriteZero.into());
                        break;
                    }
                    Ok(n) => done += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.error = Some(e);
                        break;
                    }
                }
            }
        }
        let rest = &self.buf[done..];
        if !rest.is_empty() {
            // a line cut in two counts as lost
            let lines = rest.iter().filter(|&&b| b == b'\n').count();
            self.lost_lines += (lines + usize::from(!rest.ends_with(b"\n"))) as u64;
        }
        if let (Some(e), false) = (&self.error, failed_before) {
            // said at once, and once: the run may go on for long
            eprintln!(
                "genba: {}: {} (the rest of the output is counted, not written)",
                self.name,
                strip_os_error(e)
            );
        }
        self.buf.clear();
    }
}

impl Write for TraceOutput {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut i = self.0.borrow_mut();
        if i.buf.len() + data.len() > BUFFER {
            i.drain();
        }
        i.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush_dest();
        Ok(())
    }
}
