//! Socket addresses (`struct sockaddr` of each family strace 6.1 knows) as
//! strace 6.1 prints them: a family's fields once the address is at least as
//! long as the family's structure, else its bytes as `sa_data`.

use std::fmt::Write;

use super::{fd, le_u32, sockopt, CallView, Capture, Options};
use crate::consts as c;
use crate::fmt::{self, HexStr, Xlat};

/// A descriptor's path for `-y`.
pub(super) type Namer<'a> = Option<&'a dyn Fn(i32) -> Option<String>>;

/// The most bytes of an address strace reads (`struct sockaddr_storage`).
pub(super) const SOCKADDR_MAX: usize = 128;

/// How the address is printed: `-X`, `-x` and `-y`.
#[derive(Clone, Copy)]
pub(super) struct Style<'a> {
    pub x: Xlat,
    pub hex: HexStr,
    pub namer: Namer<'a>,
}

impl<'a> Style<'a> {
    pub(super) fn new(o: &Options, namer: Namer<'a>) -> Self {
        Style {
            x: o.xlat,
            hex: o.hex,
            namer,
        }
    }
}

/// An address of `len` bytes (the length the caller or kernel gave) at
/// `addr`, of which `d` was copied: the address itself when it is shorter
/// than a family or could not be read, as strace prints it.
pub(super) fn decode(s: &mut String, d: Option<&[u8]>, addr: u64, len: i64, st: Style<'_>) {
    if len < 2 {
        fmt::ptr(s, addr);
        return;
    }
    let len = (len as usize).min(SOCKADDR_MAX);
    match d {
        Some(d) if d.len() >= len => print(s, &d[..len], st),
        _ => fmt::ptr(s, addr),
    }
}

/// An address the call filled (accept, getsockname, recvfrom: argument
/// `i`, its length behind argument `l`): as much of it as both the room the
/// caller gave (the length before the call) and the address (the length
/// after) cover; the pointer when the call failed.
pub(super) fn decode_out(s: &mut String, call: CallView<'_>, i: usize, l: usize, st: Style<'_>) {
    let len_in = |c: Option<&Capture>| {
        c.filter(|c| c.data.len() >= 4)
            .map(|c| le_u32(&c.data, 0) as i32)
    };
    let v = call.args[i];
    let ulen = len_in(call.enter_cap(l));
    let len = match (call.ret(), len_in(call.exit_cap(l))) {
        (Some(r), Some(rlen)) if r >= 0 => ulen.map_or(rlen, |u| u.min(rlen)),
        _ => return fmt::ptr(s, v),
    };
    decode(s, call.cap(i).map(|c| c.data.as_slice()), v, len as i64, st);
}

/// An address whose bytes are all in `d` (its length), as strace's
/// print_sockaddr: the family, then the family's fields when the address is
/// long enough for them, else the bytes after the family.
pub(super) fn print(s: &mut String, d: &[u8], st: Style<'_>) {
    let len = d.len().min(SOCKADDR_MAX);
    // the bytes past the length read as zeros, as in strace's buffer
    let mut b = [0u8; SOCKADDR_MAX + 1];
    b[..len].copy_from_slice(&d[..len]);
    let fam = u16::from_le_bytes([b[0], b[1]]);
    s.push_str("{sa_family=");
    xval(s, fam as u64, c::SOCKET_FAMILIES, Some("AF_???"), st.x);
    if len > 2 {
        s.push_str(", ");
        let min = match fam {
            AF_UNIX => 3,
            AF_INET => 16,
            AF_AX25 => 16,
            AF_IPX => 16,
            AF_X25 => 18,
            AF_INET6 => 24,
            AF_NETLINK => 12,
            AF_PACKET => 20,
            AF_BLUETOOTH => 3,
            AF_RXRPC => 36,
            AF_IEEE802154 => 20,
            AF_ALG => 25,
            AF_NFC => 16,
            AF_VSOCK => 16,
            AF_QIPCRTR => 12,
            AF_XDP => 16,
            AF_MCTP => 12,
            _ => usize::MAX,
        };
        if len >= min {
            family(s, fam, &b, len, st);
        } else {
            raw(s, &b[..len], st);
        }
    }
    s.push('}');
}

const AF_UNIX: u16 = 1;
const AF_INET: u16 = 2;
const AF_AX25: u16 = 3;
const AF_IPX: u16 = 4;
const AF_X25: u16 = 9;
const AF_INET6: u16 = 10;
const AF_NETLINK: u16 = 16;
const AF_PACKET: u16 = 17;
const AF_BLUETOOTH: u16 = 31;
const AF_RXRPC: u16 = 33;
const AF_IEEE802154: u16 = 36;
const AF_ALG: u16 = 38;
const AF_NFC: u16 = 39;
const AF_VSOCK: u16 = 40;
const AF_QIPCRTR: u16 = 42;
const AF_XDP: u16 = 44;
const AF_MCTP: u16 = 45;

fn family(s: &mut String, fam: u16, b: &[u8], len: usize, st: Style<'_>) {
    match fam {
        AF_UNIX => unix(s, b, len, st),
        AF_INET => inet(s, b, st),
        AF_AX25 => ax25(s, b, len, st),
        AF_IPX => ipx(s, b, st),
        AF_X25 => {
            s.push_str("sx25_addr={x25_addr=");
            cstring(s, &b[2..18], st.hex);
            s.push('}');
        }
        AF_INET6 => inet6(s, b, len, st),
        AF_NETLINK => {
            let pad = u16_at(b, 2);
            if pad != 0 {
                let _ = write!(s, "nl_pad={pad:#x}, ");
            }
            let _ = write!(s, "nl_pid={}, nl_groups=", le_u32(b, 4) as i32);
            val_0x(s, le_u32(b, 8) as u64, 4);
        }
        AF_PACKET => packet(s, b, len, st),
        AF_BLUETOOTH => bluetooth(s, b, len, st),
        AF_RXRPC => rxrpc(s, b, len, st),
        AF_IEEE802154 => ieee802154(s, b, st),
        AF_ALG => {
            s.push_str("salg_type=");
            cstring(s, &b[2..16], st.hex);
            s.push_str(", salg_feat=");
            flags(
                s,
                le_u32(b, 16) as u64,
                ALG_FLAGS,
                "CRYPTO_ALG_???",
                verbose(st.x),
            );
            s.push_str(", salg_mask=");
            flags(
                s,
                le_u32(b, 20) as u64,
                ALG_FLAGS,
                "CRYPTO_ALG_???",
                verbose(st.x),
            );
            s.push_str(", salg_name=");
            cstring(s, &b[24..len], st.hex);
        }
        AF_NFC => nfc(s, b, len, st),
        AF_VSOCK => {
            let r1 = u16_at(b, 2);
            if r1 != 0 {
                let _ = write!(s, "svm_reserved1={r1:#x}, ");
            }
            s.push_str("svm_cid=");
            xval(s, le_u32(b, 8) as u64, VSOCK_CIDS, None, st.x);
            s.push_str(", svm_port=");
            xval(s, le_u32(b, 4) as u64, VSOCK_PORTS, None, st.x);
            s.push_str(", svm_flags=");
            flags(s, b[12] as u64, VSOCK_FLAGS, "VMADDR_FLAG_???", st.x);
            if b[13..16].iter().any(|&v| v != 0) {
                s.push_str(", svm_zero=");
                fmt::quoted(s, &b[13..16], false, HexStr::All);
            }
        }
        AF_QIPCRTR => {
            s.push_str("sq_node=");
            xval(s, le_u32(b, 4) as u64, QRTR_NODES, None, st.x);
            s.push_str(", sq_port=");
            xval(s, le_u32(b, 8) as u64, QRTR_PORTS, None, st.x);
        }
        AF_XDP => {
            let fl = u16_at(b, 2);
            s.push_str("sxdp_flags=");
            flags(s, fl as u64, XDP_FLAGS, "XDP_???", st.x);
            s.push_str(", sxdp_ifindex=");
            sockopt::ifindex(s, le_u32(b, 4), st.x);
            let _ = write!(s, ", sxdp_queue_id={}", le_u32(b, 8));
            let ufd = le_u32(b, 12);
            if fl & 1 != 0 {
                s.push_str(", sxdp_shared_umem_fd=");
                fd(s, ufd as i32, st.namer);
            } else if ufd != 0 {
                let _ = write!(s, ", sxdp_shared_umem_fd={ufd:#x}");
            }
        }
        AF_MCTP => {
            let pad0 = u16_at(b, 2);
            if pad0 != 0 {
                let _ = write!(s, "__smctp_pad0={pad0:#x}, ");
            }
            s.push_str("smctp_network=");
            xval(s, le_u32(b, 4) as u64, MCTP_NETS, None, st.x);
            s.push_str(", smctp_addr={s_addr=");
            xval(s, b[8] as u64, MCTP_ADDRS, None, st.x);
            s.push_str("}, smctp_type=");
            fmt::hex(s, b[9] as u64);
            s.push_str(", smctp_tag=");
            fmt::hex(s, b[10] as u64);
            if b[11] != 0 {
                let _ = write!(s, ", __smctp_pad1={:#x}", b[11]);
            }
        }
        _ => raw(s, &b[..len], st),
    }
}

/// The bytes after the family, as a string.
fn raw(s: &mut String, d: &[u8], st: Style<'_>) {
    s.push_str("sa_data=");
    fmt::quoted(s, &d[2..], false, st.hex);
}

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}

/// `-X verbose` unless `-X raw`: the style of strace's `*_VERBOSE` fields.
fn verbose(x: Xlat) -> Xlat {
    if x == Xlat::Raw {
        Xlat::Raw
    } else {
        Xlat::Verbose
    }
}

/// A value of a table, printed in hex when it has no name (the hint then
/// in a comment, when there is one).
fn xval(s: &mut String, v: u64, table: &[(u64, &str)], hint: Option<&str>, x: Xlat) {
    fmt::enumv(s, v, table, hint.unwrap_or(""), x, true);
}

/// Flags as strace's printflags (see [`fmt::flags_default`]).
pub(super) fn flags(s: &mut String, v: u64, table: &[(u64, &str)], hint: &str, x: Xlat) {
    fmt::flags_default(s, v, table, hint, x)
}

/// C's `%#0*x` with a width of two digits a byte: zero-padded, and no `0x`
/// for zero.
fn val_0x(s: &mut String, v: u64, bytes: usize) {
    let w = bytes * 2;
    if v == 0 {
        s.push_str(&"0".repeat(w));
    } else {
        let _ = write!(s, "{v:#0w$x}");
    }
}

/// A NUL-terminated string in a field of `b.len()` bytes: up to its NUL,
/// or all but the last byte and `...` when there is none.
fn cstring(s: &mut String, b: &[u8], hex: HexStr) {
    match b.iter().position(|&c| c == 0) {
        Some(k) => fmt::quoted(s, &b[..k], false, hex),
        None => fmt::quoted(s, &b[..b.len().saturating_sub(1)], true, hex),
    }
}

/// A port in network order: `htons(N)`, with -X raw its bytes.
fn net_port(s: &mut String, name: &str, b: &[u8], x: Xlat) {
    let _ = write!(s, "{name}=");
    if x != Xlat::Abbrev {
        fmt::quoted(s, &b[..2], false, HexStr::All);
    }
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* htons({}) */", u16::from_be_bytes([b[0], b[1]]));
        }
        Xlat::Abbrev => {
            let _ = write!(s, "htons({})", u16::from_be_bytes([b[0], b[1]]));
        }
    }
}

/// An IPv4 address (4 bytes): `name=inet_addr("a.b.c.d")`, the text
/// quoted as -x says.
pub(super) fn inet_addr(s: &mut String, name: &str, b: &[u8], x: Xlat, hex: HexStr) {
    let _ = write!(s, "{name}=");
    if x != Xlat::Abbrev {
        fmt::quoted(s, &b[..4], false, HexStr::All);
    }
    let mut text = String::from("inet_addr(");
    fmt::quoted(
        &mut text,
        format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]).as_bytes(),
        false,
        hex,
    );
    text.push(')');
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* {text} */");
        }
        Xlat::Abbrev => s.push_str(&text),
    }
}

/// An IPv6 address as inet_ntop writes it (glibc's: `::a.b.c.d` for an
/// IPv4-compatible one too).
pub(super) fn ntop6(a: &[u8; 16]) -> String {
    let w: Vec<u16> = (0..8)
        .map(|i| u16::from_be_bytes([a[2 * i], a[2 * i + 1]]))
        .collect();
    if w[..6].iter().all(|&v| v == 0) && w[6] != 0 {
        return format!("::{}.{}.{}.{}", a[12], a[13], a[14], a[15]);
    }
    std::net::Ipv6Addr::from(*a).to_string()
}

/// `inet_pton(AF_INET6, "...", &name)`, with -X raw the bytes.
pub(super) fn inet6_addr(s: &mut String, name: &str, a: &[u8; 16], x: Xlat, hex: HexStr) {
    let mut text = String::new();
    fmt::quoted(&mut text, ntop6(a).as_bytes(), false, hex);
    match x {
        Xlat::Abbrev => {
            let _ = write!(s, "inet_pton(AF_INET6, {text}, &{name})");
        }
        _ => {
            let _ = write!(s, "{name}=");
            fmt::quoted(s, a, false, HexStr::All);
            if x == Xlat::Verbose {
                let _ = write!(s, " /* inet_pton(AF_INET6, {text}) */");
            }
        }
    }
}

fn unix(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    // no more than sun_path holds, whatever the length
    let path = &b[2..len.min(110)];
    if path.first() == Some(&0) {
        s.push_str("sun_path=@");
        fmt::quoted(s, &path[1..], false, st.hex);
    } else {
        let n = path.iter().position(|&c| c == 0).unwrap_or(path.len());
        s.push_str("sun_path=");
        fmt::quoted(s, &path[..n], false, st.hex);
    }
}

fn inet(s: &mut String, b: &[u8], st: Style<'_>) {
    net_port(s, "sin_port", &b[2..4], st.x);
    s.push_str(", ");
    inet_addr(s, "sin_addr", &b[4..8], st.x, st.hex);
}

fn inet6(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    net_port(s, "sin6_port", &b[2..4], st.x);
    s.push_str(", sin6_flowinfo=");
    let flow = u32::from_be_bytes([b[4], b[5], b[6], b[7]]);
    if st.x != Xlat::Abbrev {
        fmt::quoted(s, &b[4..8], false, HexStr::All);
    }
    match st.x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* htonl({flow}) */");
        }
        Xlat::Abbrev => {
            let _ = write!(s, "htonl({flow})");
        }
    }
    s.push_str(", ");
    let mut a = [0u8; 16];
    a.copy_from_slice(&b[8..24]);
    inet6_addr(s, "sin6_addr", &a, st.x, st.hex);
    if len > 24 {
        s.push_str(", sin6_scope_id=");
        let scope = le_u32(b, 24);
        let link = (a[0] == 0xfe && a[1] & 0xc0 == 0x80) || (a[0] == 0xff && a[1] & 0x0f == 2);
        if link {
            sockopt::ifindex(s, scope, st.x);
        } else {
            let _ = write!(s, "{scope}");
        }
    }
}

/// How an AX.25 callsign can be shown: `None` as -X says, else raw only
/// or raw with the text in a comment.
fn ax25_check(a: &[u8]) -> Option<Xlat> {
    let mut ret = None;
    let (mut space, mut chr) = (false, false);
    for &raw in &a[..6] {
        if raw & 1 != 0 {
            ret = Some(Xlat::Verbose);
        }
        let c = raw >> 1;
        if c == b' ' {
            space = true;
        } else {
            chr = true;
        }
        if !c.is_ascii_digit() && !c.is_ascii_uppercase() && c != b' ' {
            ret = Some(Xlat::Verbose);
        }
        if c != b' ' && space {
            ret = Some(Xlat::Verbose);
        }
        if !(b' '..=0x7e).contains(&c) || c == b'*' || c == b'/' {
            return Some(Xlat::Raw);
        }
    }
    if a[6] & !0x1e != 0 || (!chr && a[6] != 0) {
        ret = Some(Xlat::Verbose);
    }
    ret
}

/// A callsign as text: `CALL-SSID`, `*` for an empty one.
fn ax25_text(a: &[u8]) -> String {
    let mut end = 6;
    while end > 0 && a[end - 1] >> 1 == b' ' {
        end -= 1;
    }
    let mut t: String = a[..end].iter().map(|&c| (c >> 1) as char).collect();
    let ssid = (a[6] >> 1) & 0xf;
    let _ = write!(t, "-{ssid}");
    if t.starts_with("-0") {
        return "*".into();
    }
    t
}

fn ax25_addr(s: &mut String, a: &[u8], x: Xlat) {
    let xs = ax25_check(a).unwrap_or(x);
    if xs != Xlat::Abbrev {
        s.push_str("{ax25_call=");
        fmt::quoted(s, &a[..7], false, HexStr::All);
        s.push('}');
    }
    match xs {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* {} */", ax25_text(a));
        }
        Xlat::Abbrev => s.push_str(&ax25_text(a)),
    }
}

fn ax25(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    let ndigis = le_u32(b, 12) as i32;
    let full = ndigis != 0 || len > 16;
    if full {
        s.push_str("fsa_ax25={");
    }
    s.push_str("sax25_call=");
    ax25_addr(s, &b[2..9], st.x);
    let _ = write!(s, ", sax25_ndigis={ndigis}");
    if !full {
        return;
    }
    s.push('}');
    let has = ((len - 16) / 7).min(8);
    let want = (ndigis.max(0) as usize).min(8);
    if want > 0 {
        s.push_str(", fsa_digipeater=[");
        for k in 0..has.min(want) {
            if k > 0 {
                s.push_str(", ");
            }
            ax25_addr(s, &b[16 + 7 * k..23 + 7 * k], st.x);
        }
        if want > has {
            s.push_str(if has > 0 { ", ..." } else { "..." });
        }
        s.push(']');
    }
    if len > has * 7 + 16 {
        s.push_str(", ...");
    }
}

fn ipx(s: &mut String, b: &[u8], st: Style<'_>) {
    net_port(s, "sipx_port", &b[2..4], st.x);
    let net = u32::from_be_bytes([b[4], b[5], b[6], b[7]]);
    s.push_str(", sipx_network=htonl(");
    fmt::hex(s, net as u64);
    s.push_str("), sipx_node=[");
    for (k, &v) in b[8..14].iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        val_0x(s, v as u64, 1);
    }
    s.push_str("], sipx_type=");
    val_0x(s, b[14] as u64, 1);
    if b[15] != 0 {
        let _ = write!(s, ", sipx_zero={:#x}", b[15]);
    }
}

fn packet(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    s.push_str("sll_protocol=");
    if st.x != Xlat::Abbrev {
        fmt::quoted(s, &b[2..4], false, HexStr::All);
    }
    if st.x != Xlat::Raw {
        let mut t = String::from("htons(");
        let proto = u16::from_be_bytes([b[2], b[3]]) as u64;
        xval(
            &mut t,
            proto,
            ETH_PROTOCOLS,
            Some("ETH_P_???"),
            Xlat::Abbrev,
        );
        t.push(')');
        if st.x == Xlat::Verbose {
            let _ = write!(s, " /* {t} */");
        } else {
            s.push_str(&t);
        }
    }
    s.push_str(", sll_ifindex=");
    sockopt::ifindex(s, le_u32(b, 4), st.x);
    s.push_str(", sll_hatype=");
    xval(
        s,
        u16_at(b, 8) as u64,
        ARP_HW_TYPES,
        Some("ARPHRD_???"),
        st.x,
    );
    s.push_str(", sll_pkttype=");
    xval(s, b[10] as u64, PACKET_TYPES, Some("PACKET_???"), st.x);
    let halen = b[11] as usize;
    let _ = write!(s, ", sll_halen={halen}");
    if halen > 0 {
        let oob = len.saturating_sub(12);
        s.push_str(", sll_addr=[");
        for i in 0..halen {
            if i > 0 {
                s.push_str(", ");
            }
            if i >= oob {
                s.push_str("...");
                break;
            }
            val_0x(s, b.get(12 + i).copied().unwrap_or(0) as u64, 1);
        }
        s.push(']');
    }
}

/// print_xlat of a constant: its name, with -X its value.
fn constant(s: &mut String, v: u64, name: &str, x: Xlat) {
    xval(s, v, &[(v, name)], None, x);
}

/// A Bluetooth PSM or CID (little endian): `htobs(NAME)`, a dynamic
/// range's start plus an offset, or the number with a hint.
fn bt_value(
    s: &mut String,
    v: u16,
    table: &[(u64, &str)],
    ranges: &[(u16, u16, &str)],
    hint: &str,
    x: Xlat,
) {
    let name = table.iter().find(|e| e.0 == v as u64).map(|e| e.1);
    let range = ranges.iter().find(|r| v >= r.0 && v <= r.1);
    let known = name.is_some() || range.is_some();
    s.push_str("htobs(");
    if x != Xlat::Abbrev || !known {
        fmt::hex(s, v as u64);
    }
    if x != Xlat::Raw {
        let comment = x == Xlat::Verbose || !known;
        if comment {
            s.push_str(" /* ");
        }
        match (name, range) {
            (Some(n), _) => s.push_str(n),
            (None, Some(&(lo, _, rn))) => {
                constant(s, lo as u64, rn, x);
                let _ = write!(s, "+{}", v - lo);
            }
            (None, None) => s.push_str(hint),
        }
        if comment {
            s.push_str(" */");
        }
    }
    s.push(')');
}

fn bluetooth(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    match len {
        4 | 6 => {
            let _ = write!(s, "hci_dev=htobs({})", u16_at(b, 2));
            if len == 6 {
                s.push_str(", hci_channel=");
                xval(
                    s,
                    u16_at(b, 4) as u64,
                    HCI_CHANNELS,
                    Some("HCI_CHANNEL_???"),
                    st.x,
                );
            }
        }
        8 => {
            s.push_str("sco_bdaddr=");
            sockopt::mac(s, &b[2..8], st.x);
        }
        10 => {
            s.push_str("rc_bdaddr=");
            sockopt::mac(s, &b[2..8], st.x);
            let _ = write!(s, ", rc_channel={}", b[8]);
        }
        12 | 14 => {
            s.push_str("l2_psm=");
            bt_value(
                s,
                u16_at(b, 2),
                L2_PSMS,
                &[
                    (0x80, 0xff, "L2CAP_PSM_LE_DYN_START"),
                    (0x1001, 0xffff, "L2CAP_PSM_DYN_START"),
                ],
                "L2CAP_PSM_???",
                st.x,
            );
            s.push_str(", l2_bdaddr=");
            sockopt::mac(s, &b[4..10], st.x);
            s.push_str(", l2_cid=");
            bt_value(
                s,
                u16_at(b, 10),
                L2_CIDS,
                &[(0x40, 0xffff, "L2CAP_CID_DYN_START")],
                "L2CAP_CID_???",
                st.x,
            );
            if len == 14 {
                s.push_str(", l2_bdaddr_type=");
                xval(s, b[12] as u64, BDADDR_TYPES, Some("BDADDR_???"), st.x);
            }
        }
        _ => raw(s, &b[..len], st),
    }
}

fn rxrpc(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    s.push_str("srx_service=");
    xval(
        s,
        u16_at(b, 2) as u64,
        RXRPC_SERVICES,
        Some("???_SERVICE"),
        verbose(st.x),
    );
    s.push_str(", transport_type=");
    xval(
        s,
        u16_at(b, 4) as u64,
        c::SOCKET_TYPES,
        Some("SOCK_???"),
        st.x,
    );
    let tlen = u16_at(b, 6) as usize;
    let _ = write!(s, ", transport_len={tlen}, transport={{");
    // the transport address starts at 8
    let t = &b[8..];
    let avail = tlen.min(len - 8);
    let rest = avail.saturating_sub(2);
    let tfam = u16_at(t, 0);
    let (field, min) = match tfam {
        AF_INET => (Some("sin"), 16),
        AF_INET6 => (Some("sin6"), 24),
        _ => (None, 0),
    };
    match field {
        Some(f) => {
            let _ = write!(s, "{f}={{{f}_family=");
            xval(s, tfam as u64, c::SOCKET_FAMILIES, Some("AF_???"), st.x);
            if tlen >= min {
                s.push_str(", ");
                if tfam == AF_INET {
                    inet(s, t, st);
                } else {
                    inet6(s, t, avail, st);
                }
            } else if rest > 0 {
                s.push_str(", ");
                fmt::quoted(s, &t[2..2 + rest], false, st.hex);
            }
            s.push('}');
        }
        None => {
            s.push_str("family=");
            xval(s, tfam as u64, c::SOCKET_FAMILIES, Some("AF_???"), st.x);
            if rest > 0 {
                s.push_str(", ");
                fmt::quoted(s, &t[2..2 + rest], false, st.hex);
            }
        }
    }
    s.push('}');
}

fn ieee802154(s: &mut String, b: &[u8], st: Style<'_>) {
    let vx = verbose(st.x);
    let ty = le_u32(b, 4);
    s.push_str("addr={addr_type=");
    xval(
        s,
        ty as u64,
        IEEE802154_ADDR_TYPES,
        Some("IEEE802154_ADDR_???"),
        vx,
    );
    s.push_str(", pan_id=");
    xval(
        s,
        u16_at(b, 8) as u64,
        &[(0xffff, "IEEE802154_PANID_BROADCAST")],
        None,
        vx,
    );
    match ty {
        0 => {}
        2 => {
            s.push_str(", short_addr=");
            xval(s, u16_at(b, 10) as u64, IEEE802154_ADDRS, None, vx);
        }
        _ => {
            s.push_str(", hwaddr=");
            sockopt::mac(s, &b[10..18], st.x);
        }
    }
    s.push('}');
}

fn nfc(s: &mut String, b: &[u8], len: usize, st: Style<'_>) {
    s.push_str("dev_idx=");
    sockopt::ifindex(s, le_u32(b, 4), st.x);
    let _ = write!(s, ", target_idx=");
    fmt::hex(s, le_u32(b, 8) as u64);
    s.push_str(", nfc_protocol=");
    xval(
        s,
        le_u32(b, 12) as u64,
        NFC_PROTOCOLS,
        Some("NFC_PROTO_???"),
        st.x,
    );
    // struct sockaddr_nfc_llcp: 96 bytes
    if len < 96 {
        if len > 16 {
            s.push_str(", ...");
        }
        return;
    }
    let snsz = u64::from_le_bytes(b[88..96].try_into().unwrap_or([0; 8]));
    s.push_str(", dsap=");
    xval(s, b[16] as u64, NFC_SAPS, None, verbose(st.x));
    s.push_str(", ssap=");
    xval(s, b[17] as u64, NFC_SAPS, None, verbose(st.x));
    s.push_str(", service_name=");
    fmt::quoted(s, &b[18..18 + (snsz.min(63) as usize)], false, st.hex);
    let _ = write!(s, ", service_name_len={snsz}");
}

static PACKET_TYPES: &[(u64, &str)] = &[
    (0, "PACKET_HOST"),
    (1, "PACKET_BROADCAST"),
    (2, "PACKET_MULTICAST"),
    (3, "PACKET_OTHERHOST"),
    (4, "PACKET_OUTGOING"),
    (5, "PACKET_LOOPBACK"),
    (6, "PACKET_USER"),
    (7, "PACKET_KERNEL"),
];

static BDADDR_TYPES: &[(u64, &str)] = &[
    (0, "BDADDR_BREDR"),
    (1, "BDADDR_LE_PUBLIC"),
    (2, "BDADDR_LE_RANDOM"),
];

static HCI_CHANNELS: &[(u64, &str)] = &[
    (0, "HCI_CHANNEL_RAW"),
    (1, "HCI_CHANNEL_USER"),
    (2, "HCI_CHANNEL_MONITOR"),
    (3, "HCI_CHANNEL_CONTROL"),
    (4, "HCI_CHANNEL_LOGGING"),
];

static L2_CIDS: &[(u64, &str)] = &[
    (0x1, "L2CAP_CID_SIGNALING"),
    (0x2, "L2CAP_CID_CONN_LESS"),
    (0x3, "L2CAP_CID_A2MP"),
    (0x4, "L2CAP_CID_ATT"),
    (0x5, "L2CAP_CID_LE_SIGNALING"),
    (0x6, "L2CAP_CID_SMP"),
    (0x7, "L2CAP_CID_SMP_BREDR"),
    (0x40, "L2CAP_CID_DYN_START"),
    (0x7f, "L2CAP_CID_LE_DYN_END"),
    (0xffff, "L2CAP_CID_DYN_END"),
];

static L2_PSMS: &[(u64, &str)] = &[
    (0x1, "L2CAP_PSM_SDP"),
    (0x3, "L2CAP_PSM_RFCOMM"),
    (0x21, "L2CAP_PSM_3DSP"),
    (0x23, "L2CAP_PSM_IPSP"),
    (0x80, "L2CAP_PSM_LE_DYN_START"),
    (0xff, "L2CAP_PSM_LE_DYN_END"),
    (0x1001, "L2CAP_PSM_DYN_START"),
    (0x10ff, "L2CAP_PSM_AUTO_END"),
    (0xffff, "L2CAP_PSM_DYN_END"),
];

static RXRPC_SERVICES: &[(u64, &str)] = &[
    (1, "CM_SERVICE"),
    (2500, "YFS_FS_SERVICE"),
    (2501, "YFS_CM_SERVICE"),
    (2503, "YFS_VL_SERVICE"),
];

static IEEE802154_ADDR_TYPES: &[(u64, &str)] = &[
    (0, "IEEE802154_ADDR_NONE"),
    (2, "IEEE802154_ADDR_SHORT"),
    (3, "IEEE802154_ADDR_LONG"),
];

static IEEE802154_ADDRS: &[(u64, &str)] = &[
    (0xfffe, "IEEE802154_ADDR_UNDEF"),
    (0xffff, "IEEE802154_ADDR_BROADCAST"),
];

static ALG_FLAGS: &[(u64, &str)] = &[(0x1000, "CRYPTO_ALG_KERN_DRIVER_ONLY")];

static NFC_SAPS: &[(u64, &str)] = &[
    (0x1, "LLCP_SAP_SDP"),
    (0x2, "LLCP_SAP_IP"),
    (0x3, "LLCP_SAP_OBEX"),
    (0x4, "LLCP_SAP_SNEP"),
    (0xff, "LLCP_SAP_MAX"),
];

static NFC_PROTOCOLS: &[(u64, &str)] = &[
    (1, "NFC_PROTO_JEWEL"),
    (2, "NFC_PROTO_MIFARE"),
    (3, "NFC_PROTO_FELICA"),
    (4, "NFC_PROTO_ISO14443"),
    (5, "NFC_PROTO_NFC_DEP"),
    (6, "NFC_PROTO_ISO14443_B"),
    (7, "NFC_PROTO_ISO15693"),
];

static VSOCK_CIDS: &[(u64, &str)] = &[
    (0, "VMADDR_CID_HYPERVISOR"),
    (1, "VMADDR_CID_LOCAL"),
    (2, "VMADDR_CID_HOST"),
    (0xffff_ffff, "VMADDR_CID_ANY"),
];

static VSOCK_FLAGS: &[(u64, &str)] = &[(0x1, "VMADDR_FLAG_TO_HOST")];

static VSOCK_PORTS: &[(u64, &str)] = &[(0xffff_ffff, "VMADDR_PORT_ANY")];

static QRTR_NODES: &[(u64, &str)] = &[(0xffff_ffff, "QRTR_NODE_BCAST")];

static QRTR_PORTS: &[(u64, &str)] = &[(0xffff_fffe, "QRTR_PORT_CTRL")];

static XDP_FLAGS: &[(u64, &str)] = &[
    (1, "XDP_SHARED_UMEM"),
    (2, "XDP_COPY"),
    (4, "XDP_ZEROCOPY"),
    (8, "XDP_USE_NEED_WAKEUP"),
];

static MCTP_ADDRS: &[(u64, &str)] = &[(0, "MCTP_ADDR_NULL"), (0xff, "MCTP_ADDR_ANY")];

static MCTP_NETS: &[(u64, &str)] = &[(0, "MCTP_NET_ANY")];

/// Ethernet protocol numbers (`ETH_P_*`, host order).
pub(super) static ETH_PROTOCOLS: &[(u64, &str)] = &[
    (0x1, "ETH_P_802_3"),
    (0x2, "ETH_P_AX25"),
    (0x3, "ETH_P_ALL"),
    (0x4, "ETH_P_802_2"),
    (0x5, "ETH_P_SNAP"),
    (0x6, "ETH_P_DDCMP"),
    (0x7, "ETH_P_WAN_PPP"),
    (0x8, "ETH_P_PPP_MP"),
    (0x9, "ETH_P_LOCALTALK"),
    (0xc, "ETH_P_CAN"),
    (0xd, "ETH_P_CANFD"),
    (0xe, "ETH_P_CANXL"),
    (0x10, "ETH_P_PPPTALK"),
    (0x11, "ETH_P_TR_802_2"),
    (0x15, "ETH_P_MOBITEX"),
    (0x16, "ETH_P_CONTROL"),
    (0x17, "ETH_P_IRDA"),
    (0x18, "ETH_P_ECONET"),
    (0x19, "ETH_P_HDLC"),
    (0x1a, "ETH_P_ARCNET"),
    (0x1b, "ETH_P_DSA"),
    (0x1c, "ETH_P_TRAILER"),
    (0x60, "ETH_P_LOOP"),
    (0xf5, "ETH_P_PHONET"),
    (0xf6, "ETH_P_IEEE802154"),
    (0xf7, "ETH_P_CAIF"),
    (0xf8, "ETH_P_XDSA"),
    (0xf9, "ETH_P_MAP"),
    (0xfa, "ETH_P_MCTP"),
    (0x200, "ETH_P_PUP"),
    (0x201, "ETH_P_PUPAT"),
    (0x600, "ETH_P_802_3_MIN"),
    (0x800, "ETH_P_IP"),
    (0x805, "ETH_P_X25"),
    (0x806, "ETH_P_ARP"),
    (0x8ff, "ETH_P_BPQ"),
    (0xa00, "ETH_P_IEEEPUP"),
    (0xa01, "ETH_P_IEEEPUPAT"),
    (0x22eb, "ETH_P_ERSPAN2"),
    (0x22f0, "ETH_P_TSN"),
    (0x4305, "ETH_P_BATMAN"),
    (0x6000, "ETH_P_DEC"),
    (0x6001, "ETH_P_DNA_DL"),
    (0x6002, "ETH_P_DNA_RC"),
    (0x6003, "ETH_P_DNA_RT"),
    (0x6004, "ETH_P_LAT"),
    (0x6005, "ETH_P_DIAG"),
    (0x6006, "ETH_P_CUST"),
    (0x6007, "ETH_P_SCA"),
    (0x6558, "ETH_P_TEB"),
    (0x8035, "ETH_P_RARP"),
    (0x809b, "ETH_P_ATALK"),
    (0x80f3, "ETH_P_AARP"),
    (0x8100, "ETH_P_8021Q"),
    (0x8137, "ETH_P_IPX"),
    (0x86dd, "ETH_P_IPV6"),
    (0x8808, "ETH_P_PAUSE"),
    (0x8809, "ETH_P_SLOW"),
    (0x883e, "ETH_P_WCCP"),
    (0x8847, "ETH_P_MPLS_UC"),
    (0x8848, "ETH_P_MPLS_MC"),
    (0x884c, "ETH_P_ATMMPOA"),
    (0x8863, "ETH_P_PPP_DISC"),
    (0x8864, "ETH_P_PPP_SES"),
    (0x886c, "ETH_P_LINK_CTL"),
    (0x8884, "ETH_P_ATMFATE"),
    (0x888e, "ETH_P_PAE"),
    (0x8899, "ETH_P_REALTEK"),
    (0x88a2, "ETH_P_AOE"),
    (0x88a8, "ETH_P_8021AD"),
    (0x88b5, "ETH_P_802_EX1"),
    (0x88be, "ETH_P_ERSPAN"),
    (0x88c7, "ETH_P_PREAUTH"),
    (0x88ca, "ETH_P_TIPC"),
    (0x88cc, "ETH_P_LLDP"),
    (0x88e3, "ETH_P_MRP"),
    (0x88e5, "ETH_P_MACSEC"),
    (0x88e7, "ETH_P_8021AH"),
    (0x88f5, "ETH_P_MVRP"),
    (0x88f7, "ETH_P_1588"),
    (0x88f8, "ETH_P_NCSI"),
    (0x88fb, "ETH_P_PRP"),
    (0x8902, "ETH_P_CFM"),
    (0x8906, "ETH_P_FCOE"),
    (0x890d, "ETH_P_TDLS"),
    (0x8914, "ETH_P_FIP"),
    (0x8915, "ETH_P_IBOE"),
    (0x8917, "ETH_P_80221"),
    (0x892f, "ETH_P_HSR"),
    (0x894f, "ETH_P_NSH"),
    (0x9000, "ETH_P_LOOPBACK"),
    (0x9100, "ETH_P_QINQ1"),
    (0x9200, "ETH_P_QINQ2"),
    (0x9300, "ETH_P_QINQ3"),
    (0xdada, "ETH_P_EDSA"),
    (0xdadb, "ETH_P_DSA_8021Q"),
    (0xe001, "ETH_P_DSA_A5PSW"),
    (0xed3e, "ETH_P_IFE"),
    (0xfbfb, "ETH_P_AF_IUCV"),
];

/// ARP hardware types (`ARPHRD_*`).
pub(super) static ARP_HW_TYPES: &[(u64, &str)] = &[
    (0x0, "ARPHRD_NETROM"),
    (0x1, "ARPHRD_ETHER"),
    (0x2, "ARPHRD_EETHER"),
    (0x3, "ARPHRD_AX25"),
    (0x4, "ARPHRD_PRONET"),
    (0x5, "ARPHRD_CHAOS"),
    (0x6, "ARPHRD_IEEE802"),
    (0x7, "ARPHRD_ARCNET"),
    (0x8, "ARPHRD_APPLETLK"),
    (0xf, "ARPHRD_DLCI"),
    (0x13, "ARPHRD_ATM"),
    (0x17, "ARPHRD_METRICOM"),
    (0x18, "ARPHRD_IEEE1394"),
    (0x1b, "ARPHRD_EUI64"),
    (0x20, "ARPHRD_INFINIBAND"),
    (0x100, "ARPHRD_SLIP"),
    (0x101, "ARPHRD_CSLIP"),
    (0x102, "ARPHRD_SLIP6"),
    (0x103, "ARPHRD_CSLIP6"),
    (0x104, "ARPHRD_RSRVD"),
    (0x108, "ARPHRD_ADAPT"),
    (0x10e, "ARPHRD_ROSE"),
    (0x10f, "ARPHRD_X25"),
    (0x110, "ARPHRD_HWX25"),
    (0x118, "ARPHRD_CAN"),
    (0x122, "ARPHRD_MCTP"),
    (0x200, "ARPHRD_PPP"),
    (0x201, "ARPHRD_CISCO"),
    (0x204, "ARPHRD_LAPB"),
    (0x205, "ARPHRD_DDCMP"),
    (0x206, "ARPHRD_RAWHDLC"),
    (0x207, "ARPHRD_RAWIP"),
    (0x300, "ARPHRD_TUNNEL"),
    (0x301, "ARPHRD_TUNNEL6"),
    (0x302, "ARPHRD_FRAD"),
    (0x303, "ARPHRD_SKIP"),
    (0x304, "ARPHRD_LOOPBACK"),
    (0x305, "ARPHRD_LOCALTLK"),
    (0x306, "ARPHRD_FDDI"),
    (0x307, "ARPHRD_BIF"),
    (0x308, "ARPHRD_SIT"),
    (0x309, "ARPHRD_IPDDP"),
    (0x30a, "ARPHRD_IPGRE"),
    (0x30b, "ARPHRD_PIMREG"),
    (0x30c, "ARPHRD_HIPPI"),
    (0x30d, "ARPHRD_ASH"),
    (0x30e, "ARPHRD_ECONET"),
    (0x30f, "ARPHRD_IRDA"),
    (0x310, "ARPHRD_FCPP"),
    (0x311, "ARPHRD_FCAL"),
    (0x312, "ARPHRD_FCPL"),
    (0x313, "ARPHRD_FCFABRIC"),
    (0x320, "ARPHRD_IEEE802_TR"),
    (0x321, "ARPHRD_IEEE80211"),
    (0x322, "ARPHRD_IEEE80211_PRISM"),
    (0x323, "ARPHRD_IEEE80211_RADIOTAP"),
    (0x324, "ARPHRD_IEEE802154"),
    (0x325, "ARPHRD_IEEE802154_MONITOR"),
    (0x334, "ARPHRD_PHONET"),
    (0x335, "ARPHRD_PHONET_PIPE"),
    (0x336, "ARPHRD_CAIF"),
    (0x337, "ARPHRD_IP6GRE"),
    (0x338, "ARPHRD_NETLINK"),
    (0x339, "ARPHRD_6LOWPAN"),
    (0x33a, "ARPHRD_VSOCKMON"),
    (0xfffe, "ARPHRD_NONE"),
    (0xffff, "ARPHRD_VOID"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn show(d: &[u8], x: Xlat) -> String {
        let o = Options {
            xlat: x,
            ..Default::default()
        };
        let mut s = String::new();
        print(&mut s, d, Style::new(&o, None));
        s
    }

    #[test]
    fn packet_by_xlat_style() {
        let mut d = vec![17, 0, 0, 3, 0xed, 0xfe, 0xce, 0xfa, 1, 0, 0, 9];
        d.extend_from_slice(b"abcdefgh");
        assert_eq!(
            show(&d, Xlat::Abbrev),
            "{sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ALL), sll_ifindex=4207869677, \
             sll_hatype=ARPHRD_ETHER, sll_pkttype=PACKET_HOST, sll_halen=9, \
             sll_addr=[0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, ...]}"
        );
        assert!(show(&d, Xlat::Raw).starts_with("{sa_family=0x11, sll_protocol=\"\\x00\\x03\", "));
    }

    #[test]
    fn short_family_and_zero_hex() {
        // too short for sockaddr_in: its bytes
        assert_eq!(
            show(&[2, 0, 0x30, 0x39], Xlat::Abbrev),
            "{sa_family=AF_INET, sa_data=\"09\"}"
        );
        // %#08x of zero has no 0x
        let nl = [16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            show(&nl, Xlat::Abbrev),
            "{sa_family=AF_NETLINK, nl_pid=1, nl_groups=00000000}"
        );
    }

    #[test]
    fn ax25_callsigns() {
        // "VALID" shifted left, padded with spaces, SSID 13
        let mut a: Vec<u8> = b"VALID ".iter().map(|c| c << 1).collect();
        a.push(13 << 1);
        assert_eq!(ax25_text(&a), "VALID-13");
        assert_eq!(ax25_check(&a), None);
        let empty: Vec<u8> = b"      \0".iter().map(|c| c << 1).collect();
        assert_eq!(ax25_text(&empty), "*");
    }

    #[test]
    fn ipv4_compatible_ipv6() {
        let mut a = [0u8; 16];
        a[12..].copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(ntop6(&a), "::1.2.3.4");
        a[12..].copy_from_slice(&[0, 0, 0, 1]);
        assert_eq!(ntop6(&a), "::1");
    }
}
