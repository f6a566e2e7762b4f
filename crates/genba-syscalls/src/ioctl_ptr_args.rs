//! ioctl requests whose argument strace prints as a pointer (`NULL` for
//! zero) although genba has no decoder of their structures: those of the
//! families strace decodes, whose decoders print an argument they cannot
//! read with printaddr (btrfs, TEE, perf_event).

/// `_IOC_DIR` of a request: none, write, read or both.
fn dir(req: u32) -> u32 {
    req >> 30
}

/// Whether strace 6.1 prints `req`'s argument as an address.
pub(super) fn takes_pointer(req: u32) -> bool {
    let nr = req & 0xff;
    match (req >> 8) & 0xff {
        // btrfs: every request that carries a structure or a value
        0x94 => dir(req) != 0,
        // TEE: TEE_IOC_VERSION (0) to TEE_IOC_SHM_REGISTER (9)
        0xa4 => dir(req) != 0 && nr <= 9,
        // perf_event: PERIOD, SET_FILTER, ID, QUERY_BPF, MODIFY_ATTRIBUTES
        0x24 => dir(req) != 0 && matches!(nr, 4 | 6 | 7 | 10 | 11),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::takes_pointer;

    #[test]
    fn families_strace_decodes() {
        // BTRFS_IOC_BALANCE_PROGRESS, BTRFS_IOC_WAIT_SYNC; not TRANS_START
        assert!(takes_pointer(0x84009422));
        assert!(takes_pointer(0x40089416));
        assert!(!takes_pointer(0x9406));
        // TEE_IOC_CANCEL; not the unnamed _IOC(_IOC_NONE, 0xa4, 0xa, 0)
        assert!(takes_pointer(0x8008a404));
        assert!(!takes_pointer(0xa40a));
        // PERF_EVENT_IOC_SET_FILTER, _QUERY_BPF; not SET_OUTPUT, PAUSE_OUTPUT
        assert!(takes_pointer(0x40082406));
        assert!(takes_pointer(0xc008240a));
        assert!(!takes_pointer(0x2405));
        assert!(!takes_pointer(0x40042409));
    }
}
