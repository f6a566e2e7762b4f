//! Reading the rings the GPU shims write (the layout of shim/genba_gpu.h).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use genba_events::{GpuApi, GpuCall, GpuClock, GpuCommand, GpuEvent, GpuKind, Task};

const MAGIC: u64 = 0x3175_7067_6162_6e67;
const VERSION: u32 = 1;
const HEAD: usize = 4096;
/// Offsets in the head.
const H_VERSION: usize = 8;
const H_PID: usize = 12;
const H_SIZE: usize = 16;
const H_WRITE: usize = 24;
const H_READ: usize = 32;
const H_LOST: usize = 40;
/// A record's header: len u32, type u16, api u16, tid u32, err i32, t0, t1.
const REC: usize = 32;
const T_PAD: u16 = 0;
const T_CALL: u16 = 1;
const T_CMD: u16 = 2;
const T_CLOCK: u16 = 3;
const T_CALL_TIMED: u16 = 4;
/// struct genba_gpu_cmd: 7 u64s, kind u32, pad u32.
const CMD: usize = 80;
/// struct genba_gpu_clock: device u64, domain i32, pad u32, offset i64, uncertainty u64.
const CLOCK: usize = 32;

/// One process's ring, mapped.
struct Ring {
    base: *mut u8,
    len: usize,
    pid: u32,
    size: u64,
    lost_seen: u64,
}

impl Ring {
    fn open(path: &Path) -> Option<Ring> {
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .ok()?;
        let len = f.metadata().ok()?.len() as usize;
        if len < HEAD + 8 {
            return None;
        }
        use std::os::fd::AsRawFd;
        // SAFETY: mapping a whole file we opened; the mapping outlives the fd.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                f.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let mut r = Ring {
            base: base.cast(),
            len,
            pid: 0,
            size: 0,
            lost_seen: 0,
        };
        if r.u64_at(0) != MAGIC || r.u32_at(H_VERSION) != VERSION {
            return None;
        }
        r.pid = r.u32_at(H_PID);
        r.size = r.u64_at(H_SIZE);
        if !r.size.is_power_of_two() || HEAD as u64 + r.size > len as u64 {
            return None;
        }
        Some(r)
    }

    fn u32_at(&self, off: usize) -> u32 {
        // SAFETY: off + 4 is inside the mapping (callers check).
        unsafe { std::ptr::read_volatile(self.base.add(off).cast::<u32>()) }
    }

    fn u64_at(&self, off: usize) -> u64 {
        // SAFETY: as u32_at; the head's u64s are 8-aligned.
        unsafe { std::ptr::read_volatile(self.base.add(off).cast::<u64>()) }
    }

    fn atomic(&self, off: usize) -> &std::sync::atomic::AtomicU64 {
        // SAFETY: an 8-aligned u64 of the shared head, written by the shim
        // with atomic stores.
        unsafe { &*self.base.add(off).cast::<std::sync::atomic::AtomicU64>() }
    }

    /// Takes every complete record into `out`.
    fn drain(&mut self, out: &mut Vec<GpuEvent>) {
        use std::sync::atomic::Ordering;
        let write = self.atomic(H_WRITE).load(Ordering::Acquire);
        let mut read = self.atomic(H_READ).load(Ordering::Relaxed);
        let data = HEAD;
        while read < write {
            let at = (read & (self.size - 1)) as usize;
            let room = self.size as usize - at;
            if room < REC {
                // cannot happen with 8-byte records in a power-of-two ring,
                // but never read past the end
                read += room as u64;
                continue;
            }
            let len = self.u32_at(data + at) as usize;
            if len < 8 || len > room || len & 7 != 0 {
                // a record the shim never wrote so: stop reading this ring
                read = write;
                break;
            }
            // SAFETY: [data + at, + len) is inside the mapping (len <= room).
            let rec = unsafe { std::slice::from_raw_parts(self.base.add(data + at), len) };
            if let Some(e) = parse(self.pid, rec) {
                out.push(e);
            }
            read += len as u64;
        }
        self.atomic(H_READ).store(read, Ordering::Release);
        let lost = self.u64_at(H_LOST);
        if lost > self.lost_seen {
            self.lost_seen = lost;
            out.push(GpuEvent::Lost {
                pid: self.pid,
                records: lost,
            });
        }
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        // SAFETY: unmapping what open() mapped.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

fn u16_le(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}
fn u32_le(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}
fn u64_le(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().unwrap())
}

/// The NUL-terminated strings from `o` on.
fn strings(b: &[u8], o: usize) -> impl Iterator<Item = String> + '_ {
    b.get(o..)
        .unwrap_or(&[])
        .split(|&c| c == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
}

fn parse(pid: u32, r: &[u8]) -> Option<GpuEvent> {
    if r.len() < REC {
        return None;
    }
    let ty = u16_le(r, 4);
    let api = match u16_le(r, 6) {
        2 => GpuApi::Vulkan,
        3 => GpuApi::Cuda,
        _ => GpuApi::OpenCl,
    };
    let tid = u32_le(r, 8);
    let err = u32_le(r, 12) as i32;
    let t0 = u64_le(r, 16);
    let t1 = u64_le(r, 24);
    let task = Task { tid, tgid: pid };
    match ty {
        T_PAD => None,
        T_CALL | T_CALL_TIMED => {
            let mut s = strings(r, REC);
            let name = s.next()?;
            let args = s.next().unwrap_or_default();
            let result = s.next().unwrap_or_default();
            Some(GpuEvent::Call(GpuCall {
                ts: t0,
                end: t1.max(t0),
                task,
                api,
                name,
                args,
                result,
                error: err,
                timed: ty == T_CALL_TIMED,
            }))
        }
        T_CMD if r.len() >= REC + CMD => {
            let c = REC;
            let kind = match u32_le(r, c + 56) {
                1 => GpuKind::Kernel,
                2 => GpuKind::Read,
                3 => GpuKind::Write,
                4 => GpuKind::Copy,
                5 => GpuKind::Fill,
                6 => GpuKind::Map,
                7 => GpuKind::Unmap,
                8 => GpuKind::Marker,
                _ => GpuKind::Other,
            };
            Some(GpuEvent::Command(GpuCommand {
                task,
                enqueued: t0,
                api,
                queue: u64_le(r, c),
                device: u64_le(r, c + 8),
                kind,
                name: strings(r, REC + CMD).next().unwrap_or_default(),
                queued: u64_le(r, c + 16),
                submit: u64_le(r, c + 24),
                start: u64_le(r, c + 32),
                end: u64_le(r, c + 40),
                bytes: u64_le(r, c + 48),
                error: err,
                observed: t1,
                enqueue_returned: u64_le(r, c + 64),
                waited: u64_le(r, c + 72),
                clock_uncertainty: None,
            }))
        }
        T_CLOCK if r.len() >= REC + CLOCK => {
            let c = REC;
            let domain = u32_le(r, c + 8) as i32;
            Some(GpuEvent::Clock(GpuClock {
                ts: t0,
                pid,
                api,
                device: u64_le(r, c),
                domain: (domain >= 0).then_some(domain),
                offset: u64_le(r, c + 16) as i64,
                uncertainty: u64_le(r, c + 24),
                drift_ppb: 0,
                commands: 0,
                name: strings(r, REC + CLOCK).next().unwrap_or_default(),
            }))
        }
        _ => None,
    }
}

/// The rings of a run's GPU directory: new ones found as programs make
/// them, each read to its end at every poll.
pub struct Rings {
    dir: PathBuf,
    rings: Vec<Ring>,
    seen: HashSet<PathBuf>,
    last_scan: Option<Instant>,
}

impl Rings {
    /// The rings that will appear in `dir`.
    pub fn new(dir: &Path) -> Rings {
        Rings {
            dir: dir.to_path_buf(),
            rings: Vec::new(),
            seen: HashSet::new(),
            last_scan: None,
        }
    }

    /// Reads what the shims wrote since the last poll into `out`; looks for
    /// new rings at most every 50 ms (`force`: now).
    pub fn poll(&mut self, out: &mut Vec<GpuEvent>, force: bool) {
        if force
            || self
                .last_scan
                .is_none_or(|t| t.elapsed() >= Duration::from_millis(50))
        {
            self.last_scan = Some(Instant::now());
            if let Ok(entries) = std::fs::read_dir(&self.dir) {
                for e in entries.flatten() {
                    let p = e.path();
                    if p.extension().is_some_and(|x| x == "ring") && !self.seen.contains(&p) {
                        self.seen.insert(p.clone());
                        if let Some(r) = Ring::open(&p) {
                            self.rings.push(r);
                        }
                    }
                }
            }
        }
        for r in &mut self.rings {
            r.drain(out);
        }
    }
}
