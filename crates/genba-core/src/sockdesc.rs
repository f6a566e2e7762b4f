//! What `-yy` (`--decode-fds=socket`) shows for a socket descriptor, as
//! strace does: its protocol and addresses, asked of the kernel's sock_diag
//! netlink interface by the socket's inode (`UNIX-STREAM:[123->124]`,
//! `TCP:[127.0.0.1:40000->127.0.0.1:80]`, `NETLINK:[ROUTE:4321]`), or the
//! protocol and inode when the kernel has nothing more to say.
//!
//! Written here rather than taken from a crate: the netlink crates of the
//! field (netlink-packet-sock-diag and friends) bring an async stack and a
//! message model far larger than the three requests needed, and decode
//! nothing genba prints.
//!
//! genba prints a call after it happened, so the socket is described as it
//! is then: one that was connected, bound or closed since shows as it is now
//! (or by protocol and inode once gone).

use std::ffi::CString;

use crate::fdtrack::NlBind;

const NETLINK_SOCK_DIAG: i32 = 4;
const SOCK_DIAG_BY_FAMILY: u16 = 20;
const NLM_F_REQUEST: u16 = 1;
const NLM_F_DUMP: u16 = 0x300;
const NLMSG_DONE: u16 = 3;
const NLMSG_ERROR: u16 = 2;

/// strace's protocol names (the kernel's `system.sockprotoname`) with the
/// family and IP protocol to ask sock_diag for.
const INET: &[(&str, u8, u8)] = &[
    ("TCP", 2, 6),
    ("UDP", 2, 17),
    ("UDPLITE", 2, 136),
    ("DCCP", 2, 33),
    ("SCTP", 2, 132),
    ("L2TP/IP", 2, 115),
    ("PING", 2, 1),
    ("RAW", 2, 255),
    ("TCPv6", 10, 6),
    ("UDPv6", 10, 17),
    ("UDPLITEv6", 10, 136),
    ("DCCPv6", 10, 33),
    ("SCTPv6", 10, 132),
    ("L2TP/IPv6", 10, 115),
    ("PINGv6", 10, 1),
    ("RAWv6", 10, 255),
];

/// Netlink protocols, by number, as strace names them (without `NETLINK_`).
const NETLINK_PROTOCOLS: &[&str] = &[
    "ROUTE",
    "UNUSED",
    "USERSOCK",
    "FIREWALL",
    "SOCK_DIAG",
    "NFLOG",
    "XFRM",
    "SELINUX",
    "ISCSI",
    "AUDIT",
    "FIB_LOOKUP",
    "CONNECTOR",
    "NETFILTER",
    "IP6_FW",
    "DNRTMSG",
    "KOBJECT_UEVENT",
    "GENERIC",
    "",
    "SCSITRANSPORT",
    "ECRYPTFS",
    "RDMA",
    "CRYPTO",
    "SMC",
];

/// The description of socket `inode`, descriptor `fd` of process `tgid`.
pub fn describe(tgid: u32, fd: i32, inode: u32) -> String {
    let proto = proto_name(tgid, fd);
    let found = match proto.as_deref() {
        Some(p @ ("UNIX" | "UNIX-STREAM")) => unix(inode, p),
        Some("NETLINK") => netlink(inode),
        Some(p) => INET
            .iter()
            .find(|(n, _, _)| *n == p)
            .and_then(|&(n, fam, ip)| inet(inode, n, fam, ip)),
        // the descriptor is gone: ask every kind, as strace does when it
        // cannot tell the protocol
        None => unix(inode, "UNIX")
            .or_else(|| INET.iter().find_map(|&(n, f, ip)| inet(inode, n, f, ip)))
            .or_else(|| netlink(inode)),
    };
    match (found, proto) {
        (Some(d), _) => d,
        (None, Some(p)) => format!("{p}:[{inode}]"),
        (None, None) => format!("socket:[{inode}]"),
    }
}

/// A netlink socket whose socket() and binding genba followed, as strace
/// saw it at the call: `NETLINK:[inode]` before it was bound (sock_diag
/// lists only bound ones), `NETLINK:[ROUTE:portid]` once bound to a known
/// port; None when the kernel chose the port (then asked as any socket).
pub fn describe_netlink(nl: Option<(u32, NlBind)>, inode: u32) -> Option<String> {
    match nl? {
        (_, NlBind::Unbound) => Some(format!("NETLINK:[{inode}]")),
        (proto, NlBind::Bound(portid)) => Some(netlink_text(proto as usize, portid)),
        (_, NlBind::Unknown) => None,
    }
}

fn netlink_text(proto: usize, portid: u32) -> String {
    match NETLINK_PROTOCOLS.get(proto).filter(|p| !p.is_empty()) {
        Some(p) => format!("NETLINK:[{p}:{portid}]"),
        None => format!("NETLINK:[{proto}]"),
    }
}

/// The kernel's name of the socket's protocol (`getxattr
/// system.sockprotoname` on the descriptor, as strace asks it).
fn proto_name(tgid: u32, fd: i32) -> Option<String> {
    let path = CString::new(format!("/proc/{tgid}/fd/{fd}")).ok()?;
    let name = CString::new("system.sockprotoname").ok()?;
    let mut buf = [0u8; 64];
    // SAFETY: both strings are NUL-terminated; buf holds buf.len() bytes.
    let n = unsafe {
        libc::getxattr(
            path.as_ptr(),
            name.as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    if n <= 0 {
        return None;
    }
    let s = &buf[..n as usize];
    let end = s.iter().position(|&b| b == 0).unwrap_or(s.len());
    Some(String::from_utf8_lossy(&s[..end]).into_owned())
}

/// A sock_diag netlink socket, closed on drop.
struct Diag(i32);

impl Drop for Diag {
    fn drop(&mut self) {
        // SAFETY: the descriptor is ours.
        unsafe { libc::close(self.0) };
    }
}

/// Sends `req` (a request after its nlmsghdr) and hands each answer's
/// payload to `each` until it returns Some, the dump ends, or an error.
fn query<T>(req: &[u8], flags: u16, mut each: impl FnMut(&[u8]) -> Option<T>) -> Option<T> {
    // SAFETY: plain socket creation.
    let fd = unsafe {
        libc::socket(
            libc::AF_NETLINK,
            libc::SOCK_RAW | libc::SOCK_CLOEXEC,
            NETLINK_SOCK_DIAG,
        )
    };
    if fd < 0 {
        return None;
    }
    let sock = Diag(fd);
    let mut msg = Vec::with_capacity(16 + req.len());
    msg.extend_from_slice(&((16 + req.len()) as u32).to_ne_bytes());
    msg.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    msg.extend_from_slice(&(NLM_F_REQUEST | flags).to_ne_bytes());
    msg.extend_from_slice(&1u32.to_ne_bytes()); // seq
    msg.extend_from_slice(&0u32.to_ne_bytes()); // pid: the kernel
    msg.extend_from_slice(req);
    // SAFETY: msg is a valid buffer of msg.len() bytes.
    let sent = unsafe { libc::send(sock.0, msg.as_ptr().cast(), msg.len(), 0) };
    if sent != msg.len() as isize {
        return None;
    }
    let mut buf = vec![0u8; 32 * 1024];
    loop {
        // SAFETY: buf is a valid buffer of buf.len() bytes.
        let n = unsafe { libc::recv(sock.0, buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n <= 0 {
            return None;
        }
        let mut d = &buf[..n as usize];
        while d.len() >= 16 {
            let len = u32::from_ne_bytes(d[0..4].try_into().ok()?) as usize;
            let ty = u16::from_ne_bytes(d[4..6].try_into().ok()?);
            if len < 16 || len > d.len() {
                return None;
            }
            match ty {
                NLMSG_DONE | NLMSG_ERROR => return None,
                SOCK_DIAG_BY_FAMILY => {
                    if let Some(t) = each(&d[16..len]) {
                        return Some(t);
                    }
                }
                _ => return None,
            }
            d = &d[len.next_multiple_of(4).min(d.len())..];
        }
        // a request for one socket (not a dump) has one answer
        if flags & NLM_F_DUMP == 0 {
            return None;
        }
    }
}

fn u32_at(d: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(d.get(off..off + 4)?.try_into().ok()?))
}

/// `UNIX:[ino->peer,"path"]`.
fn unix(inode: u32, name: &str) -> Option<String> {
    const SHOW_NAME: u32 = 1;
    const SHOW_PEER: u32 = 4;
    let mut req = vec![libc::AF_UNIX as u8, 0, 0, 0];
    req.extend_from_slice(&u32::MAX.to_ne_bytes()); // states
    req.extend_from_slice(&inode.to_ne_bytes());
    req.extend_from_slice(&(SHOW_NAME | SHOW_PEER).to_ne_bytes());
    req.extend_from_slice(&u32::MAX.to_ne_bytes()); // cookie: any
    req.extend_from_slice(&u32::MAX.to_ne_bytes());
    query(&req, 0, |m| {
        if m.len() < 16 || u32_at(m, 4)? != inode {
            return None;
        }
        let (mut peer, mut path): (u32, Option<Vec<u8>>) = (0, None);
        let mut a = &m[16..];
        while a.len() >= 4 {
            let len = u16::from_ne_bytes([a[0], a[1]]) as usize;
            let ty = u16::from_ne_bytes([a[2], a[3]]);
            if len < 4 || len > a.len() {
                break;
            }
            let body = &a[4..len];
            match ty {
                0 if path.is_none() => path = Some(body[..body.len().min(108)].to_vec()),
                2 if body.len() >= 4 => peer = u32_at(body, 0)?,
                _ => {}
            }
            a = &a[len.next_multiple_of(4).min(a.len())..];
        }
        if peer == 0 && path.is_none() {
            return None;
        }
        let mut s = format!("{name}:[{inode}");
        if peer != 0 {
            s.push_str(&format!("->{peer}"));
        }
        if let Some(p) = path.filter(|p| !p.is_empty()) {
            s.push(',');
            let (at, p) = if p[0] == 0 {
                ("@", &p[1..])
            } else {
                ("", &p[..])
            };
            let end = p.iter().position(|&b| b == 0).unwrap_or(p.len());
            s.push_str(at);
            let mut q = String::new();
            genba_syscalls::fmt::quoted(
                &mut q,
                &p[..end],
                false,
                genba_syscalls::fmt::HexStr::None,
            );
            s.push_str(&q[1..q.len() - 1]);
        }
        s.push(']');
        Some(s)
    })
}

/// `TCP:[src:port->dst:port]`, `TCP:[src:port]` when not connected.
fn inet(inode: u32, name: &str, family: u8, protocol: u8) -> Option<String> {
    let mut req = vec![family, protocol, 0, 0];
    req.extend_from_slice(&u32::MAX.to_ne_bytes()); // states
    req.extend_from_slice(&[0u8; 48]); // inet_diag_sockid: any
    query(&req, NLM_F_DUMP, |m| {
        if m.len() < 72 || u32_at(m, 68)? != inode {
            return None;
        }
        let sport = u16::from_be_bytes([m[4], m[5]]);
        let dport = u16::from_be_bytes([m[6], m[7]]);
        let (src, dst) = (&m[8..24], &m[24..40]);
        let text = |a: &[u8]| -> String {
            if m[0] == 10 {
                let b: [u8; 16] = a.try_into().unwrap_or([0; 16]);
                format!("[{}]", std::net::Ipv6Addr::from(b))
            } else {
                std::net::Ipv4Addr::new(a[0], a[1], a[2], a[3]).to_string()
            }
        };
        let width = if m[0] == 10 { 16 } else { 4 };
        if dport != 0 || dst[..width].iter().any(|&b| b != 0) {
            Some(format!(
                "{name}:[{}:{sport}->{}:{dport}]",
                text(src),
                text(dst)
            ))
        } else {
            Some(format!("{name}:[{}:{sport}]", text(src)))
        }
    })
}

/// `NETLINK:[ROUTE:portid]`.
fn netlink(inode: u32) -> Option<String> {
    let mut req = vec![libc::AF_NETLINK as u8, 255, 0, 0]; // NDIAG_PROTO_ALL
    req.extend_from_slice(&0u32.to_ne_bytes()); // ino
    req.extend_from_slice(&0u32.to_ne_bytes()); // show
    req.extend_from_slice(&u32::MAX.to_ne_bytes());
    req.extend_from_slice(&u32::MAX.to_ne_bytes());
    query(&req, NLM_F_DUMP, |m| {
        if m.len() < 24 || u32_at(m, 16)? != inode {
            return None;
        }
        Some(netlink_text(m[2] as usize, u32_at(m, 4)?))
    })
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;

    fn inode(fd: i32) -> u32 {
        std::fs::metadata(format!("/proc/self/fd/{fd}"))
            .map(|m| m.ino() as u32)
            .unwrap_or(0)
    }

    #[test]
    fn a_followed_netlink_socket_is_named_by_its_binding() {
        use super::{describe_netlink, NlBind};
        assert_eq!(
            describe_netlink(Some((4, NlBind::Unbound)), 7).as_deref(),
            Some("NETLINK:[7]")
        );
        assert_eq!(
            describe_netlink(Some((4, NlBind::Bound(99))), 7).as_deref(),
            Some("NETLINK:[SOCK_DIAG:99]")
        );
        assert_eq!(describe_netlink(Some((0, NlBind::Unknown)), 7), None);
        assert_eq!(describe_netlink(None, 7), None);
    }

    #[test]
    fn a_unix_pair_names_its_peer_and_a_tcp_connection_its_ends() {
        let (a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        let (ia, ib) = (inode(a.as_raw_fd()), inode(b.as_raw_fd()));
        let me = std::process::id();
        assert_eq!(
            super::describe(me, a.as_raw_fd(), ia),
            format!("UNIX-STREAM:[{ia}->{ib}]")
        );
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let (mut s, _) = l.accept().unwrap();
        c.write_all(b"x").unwrap();
        let mut one = [0u8; 1];
        s.read_exact(&mut one).unwrap();
        let cport = c.local_addr().unwrap().port();
        let ic = inode(c.as_raw_fd());
        assert_eq!(
            super::describe(me, c.as_raw_fd(), ic),
            format!("TCP:[127.0.0.1:{cport}->127.0.0.1:{port}]")
        );
        let il = inode(l.as_raw_fd());
        assert_eq!(
            super::describe(me, l.as_raw_fd(), il),
            format!("TCP:[127.0.0.1:{port}]")
        );
    }
}
