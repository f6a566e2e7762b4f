//! NETLINK_ROUTE's payloads: links (ifinfomsg and its IFLA_* attributes) and link statistics (if_stats_msg)
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
