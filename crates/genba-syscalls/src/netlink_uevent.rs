//! NETLINK_KOBJECT_UEVENT's messages as strace 6.1 prints them: libudev's
//! monitor header (`struct udev_monitor_netlink_header`, 40 bytes) field by
//! field with the properties after it as a string; anything else (the
//! kernel's own `action@devpath` text) as a string.

use std::fmt::Write;

use super::{str_as, Mem, Options};

/// The size of libudev's header.
const HDR: u64 = 40;

/// A big-endian word as `htonl(0x...)`.
fn htonl(s: &mut String, name: &str, b: &[u8]) {
    let v = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    if v == 0 {
        let _ = write!(s, "{name}=htonl(0)");
    } else {
        let _ = write!(s, "{name}=htonl({v:#x})");
    }
}

/// `len` bytes at `addr`.
pub(super) fn decode(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let hdr = m
        .get(addr, HDR as usize)
        .filter(|h| addr != 0 && len >= HDR && h.starts_with(b"libudev\0"));
    let Some(h) = hdr else {
        str_as(s, o, m, addr, len, o.hex);
        return;
    };
    let u = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    if len > HDR {
        s.push('[');
    }
    s.push_str("{prefix=");
    crate::fmt::quoted(s, b"libudev", false, o.hex);
    s.push_str(", ");
    htonl(s, "magic", &h[8..12]);
    let _ = write!(
        s,
        ", header_size={}, properties_off={}, properties_len={}, ",
        u(12),
        u(16),
        u(20)
    );
    htonl(s, "filter_subsystem_hash", &h[24..28]);
    s.push_str(", ");
    htonl(s, "filter_devtype_hash", &h[28..32]);
    s.push_str(", ");
    htonl(s, "filter_tag_bloom_hi", &h[32..36]);
    s.push_str(", ");
    htonl(s, "filter_tag_bloom_lo", &h[36..40]);
    s.push('}');
    if len > HDR {
        s.push_str(", ");
        str_as(s, o, m, addr + HDR, len - HDR, o.hex);
        s.push(']');
    }
}
