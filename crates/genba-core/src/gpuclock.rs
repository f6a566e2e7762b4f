//! Devices with clocks of their own: each one's offset narrowed by every
//! command's facts (`genba_gpu::ClockFit`), each command corrected by it
//! as it arrives, and the mapping as it improves recorded as a `gpu clock`.

use genba_events::{GpuClock, GpuCommand, GpuEvent};
use genba_gpu::ClockFit;
use std::collections::HashMap;

struct Device {
    fit: ClockFit,
    /// The shim's own mapping (measured around a marker, or the API's).
    clock: GpuClock,
    /// What the last recorded mapping said: its uncertainty (ns), whether
    /// it had seen a drift, how many restarts.
    said: (f64, bool, u64),
}

/// The devices of the run that stamp with clocks of their own, by process
/// and handle.
#[derive(Default)]
pub struct DeviceClocks {
    devices: HashMap<(u32, u64), Device>,
}

impl DeviceClocks {
    /// Takes note of a device's clock as the shim mapped it.
    pub fn clock(&mut self, c: &GpuClock) {
        let key = (c.pid, c.device);
        if c.domain.is_some() {
            self.devices.remove(&key);
            return;
        }
        self.devices.insert(
            key,
            Device {
                fit: ClockFit::new(),
                clock: c.clone(),
                said: (c.uncertainty as f64, false, 0),
            },
        );
    }

    /// Corrects `c` (of a device with a clock of its own) by what all the
    /// facts so far say of its offset; returns a better mapping to record
    /// when it is one (its uncertainty halved, a drift found, a restart).
    pub fn command(&mut self, c: &mut GpuCommand) -> Option<GpuEvent> {
        let d = self.devices.get_mut(&(c.task.tgid, c.device))?;
        if c.start == 0 || c.error != 0 {
            return None;
        }
        d.fit.add(c);
        let shift = d.fit.offset_at(c.start);
        c.clock_uncertainty = d
            .fit
            .uncertainty_at(c.start)
            .filter(|u| u.is_finite())
            .map(|u| u.ceil() as u64);
        for t in [&mut c.queued, &mut c.submit, &mut c.start, &mut c.end] {
            if *t != 0 {
                *t = (*t as i64 + shift).max(0) as u64;
            }
        }
        let e = d.fit.estimate()?;
        let (unc, drift, restarts) = d.said;
        let better = e.uncertainty.is_finite()
            && e.uncertainty >= 0.0
            && (e.uncertainty <= unc / 2.0
                || d.fit.drifting() != drift
                || (d.fit.restarts != restarts && d.fit.restarts.is_power_of_two()));
        if !better {
            return None;
        }
        d.said = (e.uncertainty, d.fit.drifting(), d.fit.restarts);
        let ts = c.end.max(c.observed);
        Some(GpuEvent::Clock(GpuClock {
            ts,
            offset: d.clock.offset + d.fit.offset_at(ts),
            // every line the facts allow, at the record's time (the band
            // at the slope chosen alone would leave the slope's own out)
            uncertainty: d
                .fit
                .uncertainty_at(ts)
                .filter(|u| u.is_finite())
                .unwrap_or(e.uncertainty)
                .ceil() as u64,
            drift_ppb: (e.slope * 1e9).round() as i64,
            commands: d.fit.commands,
            ..d.clock.clone()
        }))
    }
}
