//! The world the events describe: tasks and their names, each process's
//! descriptors (`fdtrack`), mappings and the stacks read against them
//! (`stacks`), built from the events alone. Every consumer that needs the
//! process model (the strace printer, the JSON printer, the profile, the
//! recording) holds one and feeds it the events it sees; none of them keeps
//! a copy of its own.
//!
//! What the events cannot say is asked of the live system once, where it is
//! first needed (a descriptor inherited before tracing, a thread first seen
//! as a waker), and kept: the recording writes it down as it goes.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

use genba_events::{Event, SyscallEnter, SyscallExit};
use genba_syscalls::{table, CallView};

use crate::fdtrack::{FdTracker, AT_FDCWD};
use crate::stacks::{CallStacks, Stacks};

/// Tasks, descriptors, mappings.
pub struct World {
    /// Descriptor paths (for `-y`, and the files mmap maps).
    fds: RefCell<FdTracker>,
    /// Follow descriptors at all (`-y`, or stacks that need mapped paths).
    follow_fds: bool,
    /// Call sites and stacks.
    stacks: Option<Stacks>,
    /// The program each task's execve names (resolved; and the name the
    /// kernel gives the task: the base of the path as given), until its
    /// Exec event.
    exec_paths: HashMap<u32, (String, String)>,
    /// The program each process last exec'd (its path, resolved), by pid.
    programs: HashMap<u32, String>,
    /// Each task's name as last known (fork inherits it; exec, samples and
    /// /proc set it).
    names: HashMap<u32, String>,
    /// Each task's process.
    tgids: HashMap<u32, u32>,
    /// For [`World::follow`]: the calls entered, by thread.
    pending: HashMap<u32, (SyscallEnter, Option<CallStacks>)>,
}

impl World {
    /// A world that follows descriptors when `fd_paths` (or stacks) need them.
    pub fn new(fds: FdTracker, fd_paths: bool, stacks: Option<Stacks>) -> World {
        World {
            follow_fds: fd_paths || stacks.is_some(),
            fds: RefCell::new(fds),
            stacks,
            exec_paths: HashMap::default(),
            programs: HashMap::default(),
            names: HashMap::default(),
            tgids: HashMap::default(),
            pending: HashMap::default(),
        }
    }

    pub fn stacks(&self) -> Option<&Stacks> {
        self.stacks.as_ref()
    }

    pub fn stacks_mut(&mut self) -> Option<&mut Stacks> {
        self.stacks.as_mut()
    }

    /// The path descriptor `fd` of process `tgid` refers to.
    pub fn fd_path(&self, tgid: u32, fd: i32) -> Option<String> {
        self.fds.borrow_mut().path(tgid, fd)
    }

    /// A netlink socket's protocol and binding, when its socket() was
    /// followed.
    pub fn netlink_sock(
        &self,
        tgid: u32,
        fd: i32,
        ino: u32,
    ) -> Option<(u32, crate::fdtrack::NlBind)> {
        self.fds.borrow().netlink(tgid, fd, ino)
    }

    /// The process a pidfd refers to, when its pidfd_open was followed.
    pub fn pidfd_pid(&self, tgid: u32, fd: i32) -> Option<u32> {
        self.fds.borrow().pidfd_pid(tgid, fd)
    }

    /// The program process `tgid` last exec'd, as its execve named it
    /// (resolved), when that call was seen.
    pub fn program(&self, tgid: u32) -> Option<&str> {
        self.programs.get(&tgid).map(String::as_str)
    }

    /// A task's name as last known.
    pub fn name(&self, tid: u32) -> Option<&str> {
        self.names.get(&tid).map(String::as_str)
    }

    /// Sets a task's name (from a sample's comm, from /proc).
    pub fn set_name(&mut self, tid: u32, name: &str) {
        if self.names.get(&tid).map(String::as_str) != Some(name) {
            self.names.insert(tid, name.to_string());
        }
    }

    /// A task's name, asked of /proc when no event said it yet (a thread
    /// seen first as a waker, or attached with -p), and kept.
    pub fn name_or_proc(&mut self, tid: u32) -> String {
        if let Some(n) = self.names.get(&tid) {
            return n.clone();
        }
        let n = std::fs::read_to_string(format!("/proc/{tid}/comm"))
            .map(|s| s.trim_end().to_string())
            .unwrap_or_default();
        self.names.insert(tid, n.clone());
        n
    }

    /// A task's process: from its events, else /proc, else itself.
    pub fn tgid_of(&mut self, tid: u32) -> u32 {
        if let Some(&p) = self.tgids.get(&tid) {
            return p;
        }
        let p = std::fs::read_to_string(format!("/proc/{tid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("Tgid:"))
                    .and_then(|v| v.trim().parse().ok())
            })
            .unwrap_or(tid);
        self.tgids.insert(tid, p);
        p
    }

    /// A new task: a thread shares its process's tables, a process gets a
    /// copy of its parent's.
    pub fn fork(&mut self, parent: genba_events::Task, child: genba_events::Task) {
        self.tgids.insert(child.tid, child.tgid);
        self.tgids.insert(parent.tid, parent.tgid);
        if let Some(n) = self.names.get(&parent.tid).cloned() {
            self.names.entry(child.tid).or_insert(n);
        }
        if child.tgid == parent.tgid {
            return;
        }
        if let Some(s) = self.stacks.as_mut() {
            s.fork(parent.tgid, child.tgid);
        }
        // followed for -y, and for stacks (the cwd a relative execve or
        // mmap path is resolved against)
        if self.follow_fds {
            self.fds.borrow_mut().fork(parent.tgid, child.tgid);
        }
    }

    /// A process replaced its program (`old_tid`: the thread that called
    /// execve, when it was not the leader).
    pub fn exec(&mut self, ts: u64, task: genba_events::Task, old_tid: u32, auxv: &[(u64, u64)]) {
        if self.follow_fds {
            self.fds.borrow_mut().exec(task.tgid);
        }
        let exe = self
            .exec_paths
            .remove(&task.tid)
            .or_else(|| self.exec_paths.remove(&old_tid));
        if let Some((path, comm)) = &exe {
            self.names.insert(task.tid, comm.clone());
            self.programs.insert(task.tgid, path.clone());
        }
        if old_tid != task.tid {
            self.pending.remove(&old_tid);
        }
        if let Some(s) = self.stacks.as_mut() {
            s.exec(task.tgid, exe.as_ref().map(|(p, _)| p.as_str()), auxv, ts);
        }
    }

    /// A task ended.
    pub fn exit(&mut self, task: genba_events::Task) {
        self.pending.remove(&task.tid);
        if self.follow_fds && task.tid == task.tgid {
            self.fds.borrow_mut().exit(task.tgid);
        }
    }

    /// A call entered: its stacks, resolved now against what the process
    /// has mapped (None without stacks or without the registers).
    pub fn enter(&mut self, e: &SyscallEnter) -> Option<CallStacks> {
        self.note_exec_path(e);
        self.stacks.as_mut().and_then(|s| s.resolve(e))
    }

    /// A call completed, before it is shown: descriptors it creates are
    /// named (`pipe2([3<pipe:[N]>, ...])`), what it maps is followed.
    pub fn exit_before(&mut self, tgid: u32, name: &str, call: CallView<'_>) {
        if self.follow_fds {
            self.fds.borrow_mut().observe(tgid, name, call, true);
        }
        self.track_mappings(tgid, name, call);
    }

    /// A call completed, after it is shown: what it closed or duplicated
    /// (`close(3</path>)` names what was closed).
    pub fn exit_after(&mut self, tgid: u32, name: &str, call: CallView<'_>) {
        if self.follow_fds {
            self.fds.borrow_mut().observe(tgid, name, call, false);
        }
    }

    /// For consumers that only follow: every event in order. A completed
    /// call's stacks (resolved at its entry) are returned with it.
    pub fn follow(&mut self, ev: &Event) -> Option<CallStacks> {
        match ev {
            Event::SyscallEnter(e) => {
                let st = self.enter(e);
                self.pending.insert(e.task.tid, (e.clone(), st));
            }
            Event::SyscallExit(x) => return self.follow_exit(x),
            Event::Fork { task, child, .. } => self.fork(*task, *child),
            Event::Exec {
                ts,
                task,
                old_tid,
                auxv,
            } => self.exec(*ts, *task, *old_tid, auxv),
            Event::Exit { task, comm, .. } => {
                // a task met only at its end (-a: it was ending as genba
                // started) is named by its exit
                if !comm.is_empty() && self.name(task.tid).is_none_or(str::is_empty) {
                    self.set_name(task.tid, comm);
                }
                self.exit(*task)
            }
            Event::Signal { .. } | Event::Gpu(_) => {}
            Event::Profile(p) => {
                if !p.comm.is_empty() {
                    self.set_name(p.task.tid, &p.comm);
                }
                self.tgids.insert(p.task.tid, p.task.tgid);
            }
        }
        None
    }

    fn follow_exit(&mut self, x: &SyscallExit) -> Option<CallStacks> {
        let (enter, stacks) = match self.pending.remove(&x.task.tid) {
            Some((e, st)) if e.nr == x.nr => (Some(e), st),
            _ => (None, None),
        };
        let name = table::by_nr(x.nr).map(|s| s.name).unwrap_or("");
        let call = CallView {
            nr: x.nr,
            args: enter.as_ref().map(|e| e.args).unwrap_or(x.args),
            enter: enter.as_ref().map(|e| e.captures.as_slice()).unwrap_or(&[]),
            exit: Some((x.ret, &x.captures)),
        };
        self.exit_before(x.task.tgid, name, call);
        self.exit_after(x.task.tgid, name, call);
        stacks
    }

    /// Remembers the program an execve names, for the Exec event that follows.
    fn note_exec_path(&mut self, e: &SyscallEnter) {
        let k = match table::by_nr(e.nr).map(|s| s.name) {
            Some("execve") => 0,
            Some("execveat") => 1,
            _ => return,
        };
        let view = CallView {
            nr: e.nr,
            args: e.args,
            enter: &e.captures,
            exit: None,
        };
        if let Some(p) = view.data(k) {
            let p = String::from_utf8_lossy(p).into_owned();
            // the kernel names the task after the file as given, 15 bytes
            let comm: String = p
                .rsplit('/')
                .next()
                .unwrap_or(&p)
                .chars()
                .take(15)
                .collect();
            let full = if p.starts_with('/') {
                p
            } else {
                match self.fd_path(e.task.tgid, AT_FDCWD) {
                    Some(cwd) => format!("{cwd}/{p}"),
                    None => p,
                }
            };
            let full = std::fs::canonicalize(&full)
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or(full);
            self.exec_paths.insert(e.task.tid, (full, comm));
        }
    }

    /// Follows what a process maps, for unwinding its stacks later.
    fn track_mappings(&mut self, tgid: u32, name: &str, call: CallView<'_>) {
        if self.stacks.is_none() {
            return;
        }
        let Some((ret, _)) = call.exit else { return };
        if (-4095..0).contains(&ret) {
            return;
        }
        let a = call.args;
        match name {
            "mmap" => {
                const MAP_ANONYMOUS: u64 = 0x20;
                let path = if a[3] & MAP_ANONYMOUS != 0 {
                    None
                } else {
                    self.fd_path(tgid, a[4] as u32 as i32)
                };
                if let Some(s) = self.stacks.as_mut() {
                    s.mmap(tgid, ret as u64, a[1], a[2], path.as_deref(), a[5]);
                }
            }
            "munmap" => {
                if let Some(s) = self.stacks.as_mut() {
                    s.munmap(tgid, a[0], a[1]);
                }
            }
            _ => {}
        }
    }
}
