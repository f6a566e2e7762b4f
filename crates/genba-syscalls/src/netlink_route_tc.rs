//! NETLINK_ROUTE's payloads: traffic control (tcmsg, tcamsg), DCB (dcbmsg), bridge MDB (br_port_msg), nexthops (nhmsg) and cache reports
//! (strace's rtnl_*.c).

use super::{Hdr, Mem, Options};

/// Prints the payload of `h` when its type belongs to this group; false
/// leaves it to the next group.
pub(super) fn payload(
    _s: &mut String,
    _o: &Options,
    _m: &Mem<'_>,
    _h: &Hdr,
    _addr: u64,
    _len: u64,
) -> bool {
    false
}
