//! The shared page (genba-bpf's causal.h), mirrored in Rust and mapped.

use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::SeqCst};

const THREADS: usize = 4096;
const RANGES: usize = 16;
const SITES: usize = 8;
/// Progress points at most.
pub const PROGRESS: usize = 16;

#[repr(C)]
struct Thread {
    tid: u32,
    pending: u32,
    credit: u64,
    paid: u64,
    signals: u64,
    acc_ts: u64,
    off_cls: u32,
    pad: u32,
    g_block: u64,
    t_block: u64,
    owed_block: u64,
    off_word: u64,
}

#[repr(C)]
struct Shared {
    active: u32,
    speedup: u32,
    threshold: u64,
    kind: u32,
    cls_mask: u32,
    nranges: u32,
    nsites: u32,
    with_kernel: u32,
    quiet: u32,
    lo: [u64; RANGES],
    hi: [u64; RANGES],
    sites: [u64; SITES],
    text_lo: u64,
    text_hi: u64,
    busy: u64,
    gen: u64,
    global: u64,
    open_n: u64,
    open_sum: u64,
    hits: u64,
    hit_ns: u64,
    runtime_pid: u32,
    runtime_sig: u32,
    runtime_handler: u64,
    delays: u64,
    slept: u64,
    asked: u64,
    told: u64,
    inherits: u64,
    inherited_ns: u64,
    collisions: u64,
    send_failed: u64,
    not_ours: u64,
    progress: [u64; PROGRESS],
    latency: [u64; PROGRESS],
    t: [Thread; THREADS],
}

/// What an experiment speeds up, as the BPF programs match it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// On-CPU samples whose user ip is in one of these ranges.
    OnCpu(Vec<(u64, u64)>),
    /// Off-CPU intervals of these classes (1 << genba_prof_class), at one
    /// of these return addresses into `text` (none: any site); with
    /// `kernel`, also on-CPU samples in the kernel at the site (a call's
    /// whole cost).
    OffCpu {
        classes: u32,
        sites: Vec<u64>,
        text: (u64, u64),
        kernel: bool,
    },
}

/// The counts at one moment.
#[derive(Debug, Clone, Copy, Default)]
pub struct Snapshot {
    /// CLOCK_MONOTONIC ns.
    pub at: u64,
    /// G: the delay each thread must have taken so far (ns).
    pub delay: u64,
    /// Visits of each progress point (a latency point: its calls that
    /// returned).
    pub progress: [u64; PROGRESS],
    /// A latency point's time in its calls that returned (ns).
    pub latency: [u64; PROGRESS],
    /// Candidate samples and intervals, and their time (ns).
    pub hits: u64,
    pub hit_ns: u64,
    /// Delays the runtime took, their time (ns), and the time it was
    /// asked to sleep in them (ns).
    pub delays: u64,
    pub slept: u64,
    pub asked: u64,
}

/// The mapped page, and the map's descriptor left open for the program.
pub struct Page {
    map: libbpf_rs::MapHandle,
    inherited: OwnedFd,
    ptr: *mut Shared,
    len: usize,
}

fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Page {
    /// Makes the map (BPF_F_MMAPABLE), maps it, and leaves a descriptor of
    /// it open across exec (not close-on-exec) for the program to inherit.
    pub fn create(signal: i32) -> io::Result<Page> {
        let opts = libbpf_rs::libbpf_sys::bpf_map_create_opts {
            sz: std::mem::size_of::<libbpf_rs::libbpf_sys::bpf_map_create_opts>() as _,
            map_flags: libbpf_rs::libbpf_sys::BPF_F_MMAPABLE,
            ..Default::default()
        };
        let map = libbpf_rs::MapHandle::create(
            libbpf_rs::MapType::Array,
            // the name of the map it stands in for (the skeleton finds it by name)
            Some("causal"),
            4,
            std::mem::size_of::<Shared>() as u32,
            1,
            &opts,
        )
        .map_err(|e| io::Error::other(e.to_string()))?;
        let len = std::mem::size_of::<Shared>().next_multiple_of(4096);
        // SAFETY: mapping the map's own descriptor, shared, its whole size.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                map.as_fd().as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: F_DUPFD makes a new descriptor without FD_CLOEXEC.
        let dup = unsafe { libc::fcntl(map.as_fd().as_raw_fd(), libc::F_DUPFD, 3) };
        if dup < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `dup` is a descriptor we own from here on.
        let inherited = unsafe { OwnedFd::from_raw_fd(dup) };
        let page = Page {
            map,
            inherited,
            ptr: ptr.cast(),
            len,
        };
        page.u32(|s| unsafe { &raw const (*s).runtime_sig })
            .store(signal as u32, SeqCst);
        page.u64(|s| unsafe { &raw const (*s).threshold })
            .store(1_000_000, SeqCst);
        Ok(page)
    }

    fn u64(&self, f: impl Fn(*const Shared) -> *const u64) -> &AtomicU64 {
        // SAFETY: the field lies in the mapping, aligned, shared with the
        // kernel and the runtime, which change it with atomics.
        unsafe { AtomicU64::from_ptr(f(self.ptr).cast_mut()) }
    }

    fn u32(&self, f: impl Fn(*const Shared) -> *const u32) -> &AtomicU32 {
        // SAFETY: as above.
        unsafe { AtomicU32::from_ptr(f(self.ptr).cast_mut()) }
    }

    /// The map's descriptor in genba (for the BPF programs to use it).
    pub fn map_fd(&self) -> RawFd {
        self.map.as_fd().as_raw_fd()
    }

    /// The descriptor the program inherits (GENBA_CAUSAL_FD).
    pub fn inherited_fd(&self) -> RawFd {
        self.inherited.as_raw_fd()
    }

    /// The process whose runtime is in place (0: none yet).
    pub fn runtime_pid(&self) -> u32 {
        self.u32(|s| unsafe { &raw const (*s).runtime_pid })
            .load(SeqCst)
    }

    /// Tells owing threads to pay (or stops telling them).
    pub fn set_active(&self, on: bool) {
        self.u32(|s| unsafe { &raw const (*s).active })
            .store(on as u32, SeqCst);
    }

    /// The profile's records are not wanted any more (the BPF programs
    /// stop sending them).
    pub fn set_quiet(&self) {
        self.u32(|s| unsafe { &raw const (*s).quiet })
            .store(1, SeqCst);
    }

    /// The program's text (its executable mappings' span), where call sites
    /// are looked for on a switched-out thread's stack.
    pub fn set_text(&self, lo: u64, hi: u64) {
        self.u64(|s| unsafe { &raw const (*s).text_lo })
            .store(lo, SeqCst);
        self.u64(|s| unsafe { &raw const (*s).text_hi })
            .store(hi, SeqCst);
    }

    /// A thread is told to pay once it owes this much (ns).
    pub fn set_threshold(&self, ns: u64) {
        self.u64(|s| unsafe { &raw const (*s).threshold })
            .store(ns, SeqCst);
    }

    /// Ends every open candidate interval at `now`, counted at `speedup`
    /// percent as its end would count it (its thread's credit and G grow
    /// by it): an experiment starts or ends, and no interval counts across
    /// it (it was opened for another candidate, or for none), while G never
    /// goes back (a thread that took its delay would be left ahead of it).
    fn close_open(&self, now: u64, speedup: u32) {
        let busy = self.u64(|s| unsafe { &raw const (*s).busy });
        let gen = self.u64(|s| unsafe { &raw const (*s).gen });
        for i in 0..THREADS {
            let acc = self.u64(|s| unsafe { &raw const (*s).t[i].acc_ts });
            let old = acc.load(SeqCst);
            if old == 0 {
                continue;
            }
            // raised per interval, not across the loop: readers retry only
            // while one is being closed
            busy.fetch_add(1, SeqCst);
            if acc.compare_exchange(old, 0, SeqCst, SeqCst).is_ok() {
                let d = now.saturating_sub(old) * u64::from(speedup) / 100;
                self.u64(|s| unsafe { &raw const (*s).t[i].credit })
                    .fetch_add(d, SeqCst);
                self.u64(|s| unsafe { &raw const (*s).global })
                    .fetch_add(d, SeqCst);
                self.u64(|s| unsafe { &raw const (*s).open_n })
                    .fetch_sub(1, SeqCst);
                self.u64(|s| unsafe { &raw const (*s).open_sum })
                    .fetch_sub(old, SeqCst);
            }
            gen.fetch_add(1, SeqCst);
            busy.fetch_sub(1, SeqCst);
        }
    }

    /// Starts an experiment: `spec` at `speedup` percent.
    pub fn begin(&self, spec: &Spec, speedup: u32) {
        self.u32(|s| unsafe { &raw const (*s).speedup })
            .store(0, SeqCst);
        let p = self.ptr;
        // SAFETY: fields of the mapping that genba alone writes, written
        // through raw pointers (the programs read them concurrently; an
        // interval a half-written spec opens is closed below, before the
        // speedup is set).
        unsafe {
            let w32 = |f: *mut u32, v: u32| f.write_volatile(v);
            let w64 = |f: *mut u64, v: u64| f.write_volatile(v);
            match spec {
                Spec::OnCpu(ranges) => {
                    let n = ranges.len().min(RANGES);
                    for (i, &(lo, hi)) in ranges.iter().take(n).enumerate() {
                        w64(&raw mut (*p).lo[i], lo);
                        w64(&raw mut (*p).hi[i], hi);
                    }
                    w32(&raw mut (*p).nranges, n as u32);
                    w32(&raw mut (*p).nsites, 0);
                    w32(&raw mut (*p).with_kernel, 0);
                    w32(&raw mut (*p).cls_mask, 0);
                    w32(&raw mut (*p).kind, 1);
                }
                Spec::OffCpu {
                    classes,
                    sites,
                    text,
                    kernel,
                } => {
                    let n = sites.len().min(SITES);
                    for (i, &a) in sites.iter().take(n).enumerate() {
                        w64(&raw mut (*p).sites[i], a);
                    }
                    w32(&raw mut (*p).nsites, n as u32);
                    w64(&raw mut (*p).text_lo, text.0);
                    w64(&raw mut (*p).text_hi, text.1);
                    w32(&raw mut (*p).cls_mask, *classes);
                    w32(&raw mut (*p).with_kernel, u32::from(*kernel));
                    w32(&raw mut (*p).nranges, 0);
                    w32(&raw mut (*p).kind, 2);
                }
            }
        }
        std::sync::atomic::fence(SeqCst);
        let now = now_ns();
        self.close_open(now, 0);
        self.forgive(now);
        if let Spec::OffCpu { classes, sites, .. } = spec {
            self.open_off_cpu(now, *classes, sites);
        }
        self.u32(|s| unsafe { &raw const (*s).speedup })
            .store(speedup, SeqCst);
    }

    /// Every thread starts the experiment owing nothing: what it still
    /// owed from the one before (a thread that never got to pay it, or was
    /// blocked through the cooling) is forgiven, as is a lead, and a thread
    /// blocked now counts its block's delays from now. Else the last
    /// experiment's debts are paid in this one's window, as time that its
    /// delay count does not hold.
    fn forgive(&self, now: u64) {
        let g = self.delay_at(now);
        for i in 0..THREADS {
            let tid = self.u32(|s| unsafe { &raw const (*s).t[i].tid });
            // a thread paying now is left to finish: forgiven, it would
            // then pay the forgiven debt too
            if tid.load(SeqCst) == 0
                || self
                    .u32(|s| unsafe { &raw const (*s).t[i].pending })
                    .load(SeqCst)
                    != 0
            {
                continue;
            }
            let credit = self.u64(|s| unsafe { &raw const (*s).t[i].credit });
            let paid = self
                .u64(|s| unsafe { &raw const (*s).t[i].paid })
                .load(SeqCst);
            // an add, not a store: what BPF credits meanwhile stays
            let owed = g.wrapping_sub(credit.load(SeqCst)).wrapping_sub(paid);
            credit.fetch_add(owed, SeqCst);
            let g_block = self.u64(|s| unsafe { &raw const (*s).t[i].g_block });
            if g_block.load(SeqCst) != 0 {
                self.u64(|s| unsafe { &raw const (*s).t[i].owed_block })
                    .store(0, SeqCst);
                self.u64(|s| unsafe { &raw const (*s).t[i].t_block })
                    .store(now, SeqCst);
                g_block.store(g.max(1), SeqCst);
            }
        }
    }

    /// Opens, from `now`, an interval for each thread that is off the CPU
    /// at one of `sites` in one of `classes` (as the BPF programs recorded
    /// its switch-out): it is in the candidate from the experiment's start.
    fn open_off_cpu(&self, now: u64, classes: u32, sites: &[u64]) {
        let busy = self.u64(|s| unsafe { &raw const (*s).busy });
        let gen = self.u64(|s| unsafe { &raw const (*s).gen });
        let sum = self.u64(|s| unsafe { &raw const (*s).open_sum });
        let n = self.u64(|s| unsafe { &raw const (*s).open_n });
        for i in 0..THREADS {
            let off = self.u32(|s| unsafe { &raw const (*s).t[i].off_cls });
            let cls = off.load(SeqCst);
            if cls == 0 || classes & (1 << ((cls - 1) & 31)) == 0 {
                continue;
            }
            let word = self
                .u64(|s| unsafe { &raw const (*s).t[i].off_word })
                .load(SeqCst);
            if !sites.is_empty() && !sites.contains(&word) {
                continue;
            }
            let acc = self.u64(|s| unsafe { &raw const (*s).t[i].acc_ts });
            busy.fetch_add(1, SeqCst);
            if acc.compare_exchange(0, now, SeqCst, SeqCst).is_ok() {
                sum.fetch_add(now, SeqCst);
                n.fetch_add(1, SeqCst);
                // back on the CPU meanwhile (the BPF program marks that
                // before it closes): take it back, unless it closed it
                if off.load(SeqCst) == 0 && acc.compare_exchange(now, 0, SeqCst, SeqCst).is_ok() {
                    sum.fetch_sub(now, SeqCst);
                    n.fetch_sub(1, SeqCst);
                }
            }
            gen.fetch_add(1, SeqCst);
            busy.fetch_sub(1, SeqCst);
        }
    }

    /// Ends the experiment: its open intervals count to now, then nothing
    /// counts any more.
    pub fn end(&self) {
        let sp = self
            .u32(|s| unsafe { &raw const (*s).speedup })
            .load(SeqCst);
        self.close_open(now_ns(), sp);
        self.u32(|s| unsafe { &raw const (*s).speedup })
            .store(0, SeqCst);
    }

    /// Before the program is started again (a run that is one experiment):
    /// no runtime in place, and every thread slot free.
    pub fn reset_run(&self) {
        self.u32(|s| unsafe { &raw const (*s).runtime_pid })
            .store(0, SeqCst);
        // no interval outlives its run: one left open (a thread that ended
        // off the CPU) would go on adding to G through the next runs
        self.close_open(now_ns(), 0);
        let busy = self.u64(|s| unsafe { &raw const (*s).busy });
        busy.fetch_add(1, SeqCst);
        self.u64(|s| unsafe { &raw const (*s).open_n })
            .store(0, SeqCst);
        self.u64(|s| unsafe { &raw const (*s).open_sum })
            .store(0, SeqCst);
        self.u64(|s| unsafe { &raw const (*s).gen })
            .fetch_add(1, SeqCst);
        busy.fetch_sub(1, SeqCst);
        for i in 0..THREADS {
            self.u32(|s| unsafe { &raw const (*s).t[i].tid })
                .store(0, SeqCst);
            self.u32(|s| unsafe { &raw const (*s).t[i].pending })
                .store(0, SeqCst);
            for f in [
                |s: *const Shared, i: usize| unsafe { &raw const (*s).t[i].acc_ts },
                |s: *const Shared, i: usize| unsafe { &raw const (*s).t[i].g_block },
                |s: *const Shared, i: usize| unsafe { &raw const (*s).t[i].t_block },
                |s: *const Shared, i: usize| unsafe { &raw const (*s).t[i].owed_block },
            ] {
                self.u64(|s| f(s, i)).store(0, SeqCst);
            }
            self.u32(|s| unsafe { &raw const (*s).t[i].off_cls })
                .store(0, SeqCst);
        }
    }

    /// G at `now`, read as the programs read it.
    fn delay_at(&self, now: u64) -> u64 {
        let busy = self.u64(|s| unsafe { &raw const (*s).busy });
        let gen = self.u64(|s| unsafe { &raw const (*s).gen });
        for _ in 0..1000 {
            let g0 = gen.load(SeqCst);
            if busy.load(SeqCst) != 0 {
                std::hint::spin_loop();
                continue;
            }
            let g = self.u64(|s| unsafe { &raw const (*s).global }).load(SeqCst);
            let n = self.u64(|s| unsafe { &raw const (*s).open_n }).load(SeqCst);
            let sum = self
                .u64(|s| unsafe { &raw const (*s).open_sum })
                .load(SeqCst);
            if busy.load(SeqCst) != 0 || gen.load(SeqCst) != g0 {
                continue;
            }
            let sp = u64::from(
                self.u32(|s| unsafe { &raw const (*s).speedup })
                    .load(SeqCst),
            );
            // a difference of wrapping sums: signed
            let open = n.wrapping_mul(now).wrapping_sub(sum) as i64;
            return g + open.max(0) as u64 * sp / 100;
        }
        self.u64(|s| unsafe { &raw const (*s).global }).load(SeqCst)
    }

    /// The counts now.
    pub fn snapshot(&self) -> Snapshot {
        let at = now_ns();
        let mut progress = [0; PROGRESS];
        let mut latency = [0; PROGRESS];
        for i in 0..PROGRESS {
            progress[i] = self
                .u64(|s| unsafe { &raw const (*s).progress[i] })
                .load(SeqCst);
            latency[i] = self
                .u64(|s| unsafe { &raw const (*s).latency[i] })
                .load(SeqCst);
        }
        Snapshot {
            at,
            delay: self.delay_at(at),
            progress,
            latency,
            hits: self.u64(|s| unsafe { &raw const (*s).hits }).load(SeqCst),
            hit_ns: self.u64(|s| unsafe { &raw const (*s).hit_ns }).load(SeqCst),
            delays: self.u64(|s| unsafe { &raw const (*s).delays }).load(SeqCst),
            slept: self.u64(|s| unsafe { &raw const (*s).slept }).load(SeqCst),
            asked: self.u64(|s| unsafe { &raw const (*s).asked }).load(SeqCst),
        }
    }

    /// Each thread's signals so far (tid, count), to tell later which
    /// threads were paying in between ([`Page::lag`]).
    pub fn signals(&self) -> Vec<(u32, u64)> {
        self.threads().into_iter().map(|t| (t.0, t.3)).collect()
    }

    /// The most a thread still owes (ns) among those told to pay since
    /// `before` (from [`Page::signals`]).
    pub fn lag(&self, before: &[(u32, u64)]) -> u64 {
        let g = self.delay_at(now_ns());
        self.threads()
            .into_iter()
            .filter(|t| !before.contains(&(t.0, t.3)))
            // modulo 2^64, as everywhere: a forgiven lead leaves the
            // credit "negative"
            .map(|(_, credit, paid, _, _)| {
                (g.wrapping_sub(credit).wrapping_sub(paid) as i64).max(0) as u64
            })
            .max()
            .unwrap_or(0)
    }

    /// The most any thread of the program still owes (ns; threads in
    /// `live` only), and how many signals were sent so far.
    pub fn owed(&self, live: &dyn Fn(u32) -> bool) -> (i64, u64) {
        let g = self.delay_at(now_ns());
        let mut most = 0i64;
        let mut signals = 0;
        for i in 0..THREADS {
            let tid = self
                .u32(|s| unsafe { &raw const (*s).t[i].tid })
                .load(SeqCst);
            if tid == 0 {
                continue;
            }
            signals += self
                .u64(|s| unsafe { &raw const (*s).t[i].signals })
                .load(SeqCst);
            if !live(tid) {
                continue;
            }
            let credit = self
                .u64(|s| unsafe { &raw const (*s).t[i].credit })
                .load(SeqCst);
            let paid = self
                .u64(|s| unsafe { &raw const (*s).t[i].paid })
                .load(SeqCst);
            most = most.max(g.wrapping_sub(credit).wrapping_sub(paid) as i64);
        }
        (most, signals)
    }
}

impl Page {
    /// Threads that took a slot another thread had, and signals the
    /// kernel would not send.
    pub fn faults(&self) -> (u64, u64, u64) {
        (
            self.u64(|s| unsafe { &raw const (*s).collisions })
                .load(SeqCst),
            self.u64(|s| unsafe { &raw const (*s).send_failed })
                .load(SeqCst),
            self.u64(|s| unsafe { &raw const (*s).not_ours })
                .load(SeqCst),
        )
    }

    /// Threads told to pay, wakeups that passed delays on and the delay
    /// they passed (ns), for GENBA_DEBUG.
    pub fn debug_counts(&self) -> (u64, u64, u64) {
        (
            self.u64(|s| unsafe { &raw const (*s).told }).load(SeqCst),
            self.u64(|s| unsafe { &raw const (*s).inherits })
                .load(SeqCst),
            self.u64(|s| unsafe { &raw const (*s).inherited_ns })
                .load(SeqCst),
        )
    }

    /// Each thread's slot: (tid, credit, paid, signals, pending), for
    /// GENBA_DEBUG.
    pub fn threads(&self) -> Vec<(u32, u64, u64, u64, u32)> {
        (0..THREADS)
            .filter_map(|i| {
                let tid = self
                    .u32(|s| unsafe { &raw const (*s).t[i].tid })
                    .load(SeqCst);
                (tid != 0).then(|| {
                    (
                        tid,
                        self.u64(|s| unsafe { &raw const (*s).t[i].credit })
                            .load(SeqCst),
                        self.u64(|s| unsafe { &raw const (*s).t[i].paid })
                            .load(SeqCst),
                        self.u64(|s| unsafe { &raw const (*s).t[i].signals })
                            .load(SeqCst),
                        self.u32(|s| unsafe { &raw const (*s).t[i].pending })
                            .load(SeqCst),
                    )
                })
            })
            .collect()
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        // SAFETY: unmapping what create mapped.
        unsafe { libc::munmap(self.ptr.cast(), self.len) };
    }
}

/// A private directory (genba_events::private_dir) holding the runtime's shared object,
/// removed when dropped.
pub struct RuntimeDir {
    dir: std::path::PathBuf,
    so: std::path::PathBuf,
}

impl RuntimeDir {
    /// Makes the directory (genba_events::private_dir) and writes the
    /// runtime.
    pub fn create() -> io::Result<RuntimeDir> {
        let dir = genba_events::private_dir("genba-causal")?;
        let so = dir.join("libgenba_causal.so");
        let d = RuntimeDir { dir, so };
        std::fs::write(&d.so, crate::runtime())?;
        Ok(d)
    }

    /// The runtime's path, for LD_PRELOAD.
    pub fn so(&self) -> &std::path::Path {
        &self.so
    }
}

impl Drop for RuntimeDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::offset_of;

    #[allow(non_upper_case_globals)]
    mod c {
        include!(concat!(env!("OUT_DIR"), "/layout.rs"));
    }

    #[test]
    fn layout_is_the_c_one() {
        assert_eq!(std::mem::size_of::<Shared>(), c::SIZE);
        assert_eq!(std::mem::size_of::<Thread>(), c::THREAD_SIZE);
        assert_eq!(offset_of!(Shared, speedup), c::speedup);
        assert_eq!(offset_of!(Shared, threshold), c::threshold);
        assert_eq!(offset_of!(Shared, kind), c::kind);
        assert_eq!(offset_of!(Shared, with_kernel), c::with_kernel);
        assert_eq!(offset_of!(Shared, lo), c::lo);
        assert_eq!(offset_of!(Shared, sites), c::sites);
        assert_eq!(offset_of!(Shared, text_lo), c::text_lo);
        assert_eq!(offset_of!(Shared, busy), c::busy);
        assert_eq!(offset_of!(Shared, global), c::global);
        assert_eq!(offset_of!(Shared, open_sum), c::open_sum);
        assert_eq!(offset_of!(Shared, hits), c::hits);
        assert_eq!(offset_of!(Shared, runtime_pid), c::runtime_pid);
        assert_eq!(offset_of!(Shared, slept), c::slept);
        assert_eq!(offset_of!(Shared, runtime_handler), c::runtime_handler);
        assert_eq!(offset_of!(Shared, not_ours), c::not_ours);
        assert_eq!(offset_of!(Shared, progress), c::progress);
        assert_eq!(offset_of!(Shared, latency), c::latency);
        assert_eq!(offset_of!(Shared, t), c::t);
        assert_eq!(offset_of!(Thread, credit), c::T_credit);
        assert_eq!(offset_of!(Thread, paid), c::T_paid);
        assert_eq!(offset_of!(Thread, acc_ts), c::T_acc_ts);
        assert_eq!(offset_of!(Thread, off_cls), c::T_off_cls);
        assert_eq!(offset_of!(Thread, off_word), c::T_off_word);
        assert_eq!(offset_of!(Thread, g_block), c::T_g_block);
    }
}
