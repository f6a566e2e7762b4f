//! NETLINK_ROUTE's payloads: addresses, routes, neighbours, rules, address labels, netconf and nsid, and the rtgenmsg default for every other type
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
