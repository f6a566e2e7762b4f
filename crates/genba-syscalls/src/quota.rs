//! The quotactl calls (a family decoded in its own module: see
//! [`super::family_decoder`]): `quotactl(QCMD(cmd, type), special, id, addr)`
//! and `quotactl_fd(fd, QCMD(cmd, type), id, addr)`, which share their
//! commands and what `addr` means for each, printed as strace 6.1 prints
//! them.
//!
//! The structures (x86_64): `struct if_dqblk` (68 bytes, strace reads it
//! packed), `if_nextdqblk` (72), `if_dqinfo` (24), XFS's `fs_disk_quota`
//! (112), `fs_quota_stat` (80) and `fs_quota_statv` (160). `addr` is copied
//! at entry (the SET commands) and after a successful return (the GET
//! ones), as many bytes as the largest of them: a copy running into
//! unmapped memory keeps what lies before the page boundary, enough when
//! the structure the command takes ends there.

use std::fmt::Write;

use super::{
    arg, custom, le_u16, le_u32, le_u64, ArgWriter, CallView, CapCond, CapKind, CapPlan, CapWhen,
    Decoder, Options, Ret, Ty,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

// The commands (the `cmd` half of QCMD).
const Q_SYNC: u32 = 0x80_0001;
const Q_QUOTAON: u32 = 0x80_0002;
const Q_QUOTAOFF: u32 = 0x80_0003;
const Q_GETFMT: u32 = 0x80_0004;
const Q_GETINFO: u32 = 0x80_0005;
const Q_SETINFO: u32 = 0x80_0006;
const Q_GETQUOTA: u32 = 0x80_0007;
const Q_SETQUOTA: u32 = 0x80_0008;
const Q_GETNEXTQUOTA: u32 = 0x80_0009;
const Q_XQUOTAON: u32 = 0x5801;
const Q_XQUOTAOFF: u32 = 0x5802;
const Q_XGETQUOTA: u32 = 0x5803;
const Q_XSETQLIM: u32 = 0x5804;
const Q_XGETQSTAT: u32 = 0x5805;
const Q_XQUOTARM: u32 = 0x5806;
const Q_XQUOTASYNC: u32 = 0x5807;
const Q_XGETQSTATV: u32 = 0x5808;
const Q_XGETNEXTQUOTA: u32 = 0x5809;

/// The slots holding `addr`'s bytes: read at entry, and after a
/// successful return.
const SLOT_IN: usize = 4;
const SLOT_OUT: usize = 5;
/// The bytes copied: the largest structure (`struct fs_quota_statv`).
const COPY_MAX: u32 = 160;

/// `struct if_dqblk`'s and `if_nextdqblk`'s `dqb_valid`.
static IF_DQBLK_VALID: &[(u64, &str)] = &[
    (1 << 0, "QIF_BLIMITS"),
    (1 << 1, "QIF_SPACE"),
    (1 << 2, "QIF_ILIMITS"),
    (1 << 3, "QIF_INODES"),
    (1 << 4, "QIF_BTIME"),
    (1 << 5, "QIF_ITIME"),
];

/// `struct if_dqinfo`'s `dqi_flags`.
static IF_DQINFO_FLAGS: &[(u64, &str)] = &[(1 << 0, "DQF_ROOT_SQUASH"), (1 << 16, "DQF_SYS_FILE")];

/// `struct if_dqinfo`'s `dqi_valid`.
static IF_DQINFO_VALID: &[(u64, &str)] = &[
    (1 << 0, "IIF_BGRACE"),
    (1 << 1, "IIF_IGRACE"),
    (1 << 2, "IIF_FLAGS"),
];

/// XFS quota state flags (Q_XQUOTAON, Q_XQUOTAOFF, `qs_flags`).
static XFS_QUOTA_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "FS_QUOTA_UDQ_ACCT"),
    (1 << 1, "FS_QUOTA_UDQ_ENFD"),
    (1 << 2, "FS_QUOTA_GDQ_ACCT"),
    (1 << 3, "FS_QUOTA_GDQ_ENFD"),
    (1 << 4, "FS_QUOTA_PDQ_ACCT"),
    (1 << 5, "FS_QUOTA_PDQ_ENFD"),
];

/// XFS quota types (Q_XQUOTARM, `d_flags`).
static XFS_DQBLK_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "FS_USER_QUOTA"),
    (1 << 1, "FS_PROJ_QUOTA"),
    (1 << 2, "FS_GROUP_QUOTA"),
];

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    Some(match name {
        "quotactl" => custom(dec_quotactl, Ret::Dec),
        "quotactl_fd" => custom(dec_quotactl_fd, Ret::Dec),
        _ => return None,
    })
}

/// The argument types a custom decoder of this family reads (their captures):
/// quotactl's special device; [`plan`] adds `addr`'s.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "quotactl" => Some(&[Ty::Skip, Ty::Path]),
        "quotactl_fd" => Some(&[]),
        _ => None,
    }
}

/// Captures beyond what the argument types ask for: `addr` as Q_QUOTAON's
/// quota file path, and its bytes at entry and after a successful return.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    let cmd_arg = match name {
        "quotactl" => 0,
        "quotactl_fd" => 1,
        _ => return,
    };
    out[3] = CapPlan {
        cond: Some(CapCond {
            arg: cmd_arg,
            mask: !0xff,
            val: Q_QUOTAON << 8,
            val2: Q_QUOTAON << 8,
            bitmap: false,
        }),
        ..Ty::Path.plan(3, o)
    };
    for (slot, when) in [(SLOT_IN, CapWhen::Enter), (SLOT_OUT, CapWhen::ExitOk)] {
        out[slot] = CapPlan {
            kind: CapKind::Fixed,
            when,
            max: COPY_MAX,
            src_arg: Some(3),
            ..Default::default()
        };
    }
}

/// A successful return value's text, when this family shows more than the
/// number; false to leave it to the default.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

/// quotactl(qcmd, special, id, addr).
fn dec_quotactl(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    w.sep();
    qcmd(&mut w.s, a[0] as u32, w.opts.xlat);
    arg(w, 1, Ty::Path);
    cmd_data(w, a[0] as u32, a[2] as u32, a[3]);
}

/// quotactl_fd(fd, qcmd, id, addr).
fn dec_quotactl_fd(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Ty::Fd);
    w.sep();
    qcmd(&mut w.s, a[1] as u32, w.opts.xlat);
    cmd_data(w, a[1] as u32, a[2] as u32, a[3]);
}

/// `QCMD(cmd, type)`: the names always abbreviated, the number (in decimal)
/// instead with `-X raw`, before them with `-X verbose`.
fn qcmd(s: &mut String, qcmd: u32, x: Xlat) {
    if x != Xlat::Abbrev {
        let _ = write!(s, "{qcmd}");
    }
    if x == Xlat::Raw {
        return;
    }
    if x == Xlat::Verbose {
        s.push_str(" /* ");
    }
    s.push_str("QCMD(");
    let (cmd, ty) = ((qcmd >> 8) as u64, (qcmd & 0xff) as u64);
    fmt::enumv(s, cmd, c::QUOTA_CMDS, "Q_???", Xlat::Abbrev, true);
    s.push_str(", ");
    fmt::enumv(s, ty, c::QUOTA_TYPES, "???QUOTA", Xlat::Abbrev, true);
    s.push(')');
    if x == Xlat::Verbose {
        s.push_str(" */");
    }
}

/// A user, group or project id: `-1` or unsigned.
fn id(s: &mut String, id: u32) {
    if id == u32::MAX {
        s.push_str("-1");
    } else {
        let _ = write!(s, "{id}");
    }
}

/// What `addr` points to, as the command reads or writes it.
#[derive(Clone, Copy)]
enum Data {
    /// `struct if_dqblk`.
    Dqblk,
    /// `struct if_nextdqblk`.
    NextDqblk,
    /// `struct if_dqinfo`.
    Dqinfo,
    /// `struct fs_disk_quota`.
    DiskQuota,
    /// `struct fs_quota_stat`.
    QuotaStat,
    /// `struct fs_quota_statv`.
    QuotaStatv,
    /// A quota format, `uint32_t`.
    Format,
    /// XFS quota state flags, `uint32_t`.
    XfsFlags,
    /// XFS quota types, `uint32_t`.
    XfsTypes,
}

impl Data {
    fn size(self) -> usize {
        match self {
            Data::Dqblk => 68,
            Data::NextDqblk => 72,
            Data::Dqinfo => 24,
            Data::DiskQuota => 112,
            Data::QuotaStat => 80,
            Data::QuotaStatv => 160,
            Data::Format | Data::XfsFlags | Data::XfsTypes => 4,
        }
    }

    fn print(self, s: &mut String, d: &[u8], o: &Options) {
        let x = o.xlat;
        match self {
            Data::Dqblk | Data::NextDqblk => dqblk(s, d, matches!(self, Data::NextDqblk), o),
            Data::Dqinfo => dqinfo(s, d, x),
            Data::DiskQuota => disk_quota(s, d, o),
            Data::QuotaStat => quota_stat(s, d, o),
            Data::QuotaStatv => quota_statv(s, d, o),
            Data::Format => {
                s.push('[');
                let f = le_u32(d, 0) as u64;
                fmt::enumv(s, f, c::QUOTA_FORMATS, "QFMT_VFS_???", x, true);
                s.push(']');
            }
            Data::XfsFlags | Data::XfsTypes => {
                let (table, dflt) = match self {
                    Data::XfsFlags => (XFS_QUOTA_FLAGS, "FS_QUOTA_???"),
                    _ => (XFS_DQBLK_FLAGS, "FS_???_QUOTA"),
                };
                s.push('[');
                flags(s, le_u32(d, 0) as u64, table, dflt, x);
                s.push(']');
            }
        }
    }
}

/// The command's arguments after the special device (or the command, for
/// quotactl_fd): strace's order, the id only where the command takes one.
fn cmd_data(w: &mut ArgWriter<'_>, qcmd: u32, uid: u32, addr: u64) {
    let x = w.opts.xlat;
    match qcmd >> 8 {
        Q_QUOTAOFF | Q_SYNC | Q_XQUOTASYNC => {}
        // the quota format and the quota file
        Q_QUOTAON => {
            w.sep();
            let f = uid as u64;
            fmt::enumv(&mut w.s, f, c::QUOTA_FORMATS, "QFMT_VFS_???", x, true);
            arg(w, 3, Ty::Path);
        }
        cmd @ (Q_GETQUOTA | Q_GETNEXTQUOTA | Q_XGETQUOTA | Q_XGETNEXTQUOTA) => {
            w.sep();
            id(&mut w.s, uid);
            let data = match cmd {
                Q_GETQUOTA => Data::Dqblk,
                Q_GETNEXTQUOTA => Data::NextDqblk,
                _ => Data::DiskQuota,
            };
            if w.exiting() {
                w.sep();
                show(w, addr, data, true);
            }
        }
        cmd @ (Q_SETQUOTA | Q_XSETQLIM) => {
            w.sep();
            id(&mut w.s, uid);
            w.sep();
            let data = if cmd == Q_SETQUOTA {
                Data::Dqblk
            } else {
                Data::DiskQuota
            };
            show(w, addr, data, false);
        }
        cmd @ (Q_GETFMT | Q_GETINFO | Q_XGETQSTAT | Q_XGETQSTATV) => {
            let data = match cmd {
                Q_GETFMT => Data::Format,
                Q_GETINFO => Data::Dqinfo,
                Q_XGETQSTAT => Data::QuotaStat,
                _ => Data::QuotaStatv,
            };
            if w.exiting() {
                w.sep();
                show(w, addr, data, true);
            }
        }
        Q_SETINFO => {
            w.sep();
            show(w, addr, Data::Dqinfo, false);
        }
        Q_XQUOTAON | Q_XQUOTAOFF => {
            w.sep();
            show(w, addr, Data::XfsFlags, false);
        }
        Q_XQUOTARM => {
            w.sep();
            show(w, addr, Data::XfsTypes, false);
        }
        _ => {
            w.sep();
            id(&mut w.s, uid);
            w.sep();
            fmt::ptr(&mut w.s, addr);
        }
    }
}

/// `addr`'s structure as read at entry or after the call (the address when
/// it could not be read whole, or the call failed).
fn show(w: &mut ArgWriter<'_>, addr: u64, data: Data, at_exit: bool) {
    let n = data.size();
    let call = w.call;
    let failed = at_exit && call.ret().is_none_or(|r| r < 0);
    let bytes = if failed {
        None
    } else {
        addr_bytes(&call, at_exit, n)
            .map(|d| d.to_vec())
            .or_else(|| {
                // memory BPF could not read (a page never faulted in)
                let read = w.env.read_mem.filter(|_| addr != 0)?;
                read(addr, n).filter(|d| d.len() >= n)
            })
    };
    match bytes {
        Some(d) => data.print(&mut w.s, &d[..n], w.opts),
        None => fmt::ptr(&mut w.s, addr),
    }
}

/// The first `n` bytes at `addr` as copied at entry or at exit: a faulted
/// copy still holds what came before the page boundary.
fn addr_bytes<'a>(call: &CallView<'a>, at_exit: bool, n: usize) -> Option<&'a [u8]> {
    let (slot, caps) = if at_exit {
        (SLOT_OUT, call.exit?.1)
    } else {
        (SLOT_IN, call.enter)
    };
    caps.iter()
        .find(|c| {
            c.arg as usize == slot && c.item == genba_events::CaptureItem::Data && c.data.len() >= n
        })
        .map(|c| &c.data[..n])
}

/// A set of flags as strace's `printflags` prints it: `0` for none, the
/// number with `dflt` in a comment when no bit has a name, the names (and
/// the other bits in hex) otherwise; `-X raw` the number, `-X verbose` the
/// number then the names in a comment.
fn flags(s: &mut String, v: u64, table: &[(u64, &str)], dflt: &str, x: Xlat) {
    if x == Xlat::Raw || v == 0 {
        fmt::hex(s, v);
        return;
    }
    let (names, rest) = fmt::flag_names(v, table);
    if names.is_empty() {
        fmt::hex(s, v);
        let _ = write!(s, " /* {dflt} */");
        return;
    }
    if x == Xlat::Verbose {
        let _ = write!(s, "{v:#x} /* ");
    }
    s.push_str(&names);
    if rest != 0 {
        let _ = write!(s, "|{rest:#x}");
    }
    if x == Xlat::Verbose {
        s.push_str(" */");
    }
}

fn le_i32(d: &[u8], off: usize) -> i32 {
    le_u32(d, off) as i32
}

/// Named 64-bit fields at consecutive offsets from `off`: `, a=1, b=2`.
fn u64_fields(s: &mut String, d: &[u8], off: usize, names: &[&str]) {
    for (k, name) in names.iter().enumerate() {
        let _ = write!(s, ", {name}={}", le_u64(d, off + 8 * k));
    }
}

/// `struct if_dqblk` (and `if_nextdqblk`, with its `dqb_id`): the limits
/// and usage, then with `-v` the grace times and `dqb_valid`.
fn dqblk(s: &mut String, d: &[u8], next: bool, o: &Options) {
    let _ = write!(s, "{{dqb_bhardlimit={}", le_u64(d, 0));
    u64_fields(
        s,
        d,
        8,
        &[
            "dqb_bsoftlimit",
            "dqb_curspace",
            "dqb_ihardlimit",
            "dqb_isoftlimit",
            "dqb_curinodes",
        ],
    );
    let dqb_id = |s: &mut String| {
        if next {
            let _ = write!(s, ", dqb_id={}", le_u32(d, 68));
        }
    };
    if o.verbose {
        u64_fields(s, d, 48, &["dqb_btime", "dqb_itime"]);
        s.push_str(", dqb_valid=");
        flags(s, le_u32(d, 64) as u64, IF_DQBLK_VALID, "QIF_???", o.xlat);
        dqb_id(s);
    } else {
        dqb_id(s);
        s.push_str(", ...");
    }
    s.push('}');
}

/// `struct if_dqinfo`.
fn dqinfo(s: &mut String, d: &[u8], x: Xlat) {
    let _ = write!(
        s,
        "{{dqi_bgrace={}, dqi_igrace={}, dqi_flags=",
        le_u64(d, 0),
        le_u64(d, 8)
    );
    flags(s, le_u32(d, 16) as u64, IF_DQINFO_FLAGS, "DQF_???", x);
    s.push_str(", dqi_valid=");
    flags(s, le_u32(d, 20) as u64, IF_DQINFO_VALID, "IIF_???", x);
    s.push('}');
}

/// XFS's `struct fs_disk_quota`: the limits and counts, then with `-v` the
/// timers, warnings and realtime fields.
fn disk_quota(s: &mut String, d: &[u8], o: &Options) {
    let _ = write!(s, "{{d_version={}, d_flags=", d[0] as i8);
    flags(s, d[1] as u64, XFS_DQBLK_FLAGS, "FS_???_QUOTA", o.xlat);
    s.push_str(", d_fieldmask=");
    fmt::hex(s, le_u16(d, 2) as u64);
    let _ = write!(s, ", d_id={}", le_u32(d, 4));
    u64_fields(
        s,
        d,
        8,
        &[
            "d_blk_hardlimit",
            "d_blk_softlimit",
            "d_ino_hardlimit",
            "d_ino_softlimit",
            "d_bcount",
            "d_icount",
        ],
    );
    if o.verbose {
        let _ = write!(
            s,
            ", d_itimer={}, d_btimer={}, d_iwarns={}, d_bwarns={}",
            le_i32(d, 56),
            le_i32(d, 60),
            le_u16(d, 64),
            le_u16(d, 66)
        );
        u64_fields(
            s,
            d,
            72,
            &["d_rtb_hardlimit", "d_rtb_softlimit", "d_rtbcount"],
        );
        let _ = write!(
            s,
            ", d_rtbtimer={}, d_rtbwarns={}",
            le_i32(d, 96),
            le_u16(d, 100)
        );
    } else {
        s.push_str(", ...");
    }
    s.push('}');
}

/// A `struct fs_qfilestat` or `fs_qfilestatv` at `off`, as field `name`.
fn qfilestat(s: &mut String, d: &[u8], off: usize, name: &str) {
    let _ = write!(
        s,
        ", {name}={{qfs_ino={}, qfs_nblks={}, qfs_nextents={}}}",
        le_u64(d, off),
        le_u64(d, off + 8),
        le_u32(d, off + 16)
    );
}

/// The time limits and warning limits closing both quota stat structures.
fn stat_limits(s: &mut String, d: &[u8], off: usize) {
    let _ = write!(
        s,
        ", qs_btimelimit={}, qs_itimelimit={}, qs_rtbtimelimit={}, qs_bwarnlimit={}, qs_iwarnlimit={}",
        le_i32(d, off),
        le_i32(d, off + 4),
        le_i32(d, off + 8),
        le_u16(d, off + 12),
        le_u16(d, off + 14)
    );
}

/// XFS's `struct fs_quota_stat`: the version, the rest with `-v`.
fn quota_stat(s: &mut String, d: &[u8], o: &Options) {
    let _ = write!(s, "{{qs_version={}", d[0] as i8);
    if o.verbose {
        s.push_str(", qs_flags=");
        flags(
            s,
            le_u16(d, 2) as u64,
            XFS_QUOTA_FLAGS,
            "FS_QUOTA_???",
            o.xlat,
        );
        qfilestat(s, d, 8, "qs_uquota");
        qfilestat(s, d, 32, "qs_gquota");
        let _ = write!(s, ", qs_incoredqs={}", le_u32(d, 56));
        stat_limits(s, d, 60);
    } else {
        s.push_str(", ...");
    }
    s.push('}');
}

/// XFS's `struct fs_quota_statv`: the version, the rest with `-v`.
fn quota_statv(s: &mut String, d: &[u8], o: &Options) {
    let _ = write!(s, "{{qs_version={}", d[0] as i8);
    if o.verbose {
        s.push_str(", qs_flags=");
        flags(
            s,
            le_u16(d, 2) as u64,
            XFS_QUOTA_FLAGS,
            "FS_QUOTA_???",
            o.xlat,
        );
        let _ = write!(s, ", qs_incoredqs={}", le_u32(d, 4));
        qfilestat(s, d, 8, "qs_uquota");
        qfilestat(s, d, 32, "qs_gquota");
        qfilestat(s, d, 56, "qs_pquota");
        stat_limits(s, d, 80);
    } else {
        s.push_str(", ...");
    }
    s.push('}');
}

#[cfg(test)]
mod tests {
    use genba_events::Capture;

    use super::super::{plan, Options};
    use super::{SLOT_IN, SLOT_OUT};
    use crate::fmt::Xlat;

    use super::super::testutil::render;

    fn cap(arg: usize, data: &[u8], fault: bool) -> Capture {
        Capture {
            fault,
            ..super::super::testutil::cap(arg as u8, data)
        }
    }

    /// A `struct if_nextdqblk`: the six 64-bit limits and counts 1..=6,
    /// the times 7 and 8, `dqb_valid` and `dqb_id`.
    fn nextdqblk(valid: u32, id: u32) -> Vec<u8> {
        let mut d: Vec<u8> = (1..=8u64).flat_map(u64::to_le_bytes).collect();
        d.extend_from_slice(&valid.to_le_bytes());
        d.extend_from_slice(&id.to_le_bytes());
        d
    }

    const ADDR: u64 = 0x7f00_0000_1000;

    #[test]
    fn getnextquota_abbreviated_shows_the_id_before_the_ellipsis() {
        // Q_GETNEXTQUOTA (0x800009) of USRQUOTA on quotactl_fd; the copy
        // ran into unmapped memory but holds the whole struct before it
        let qcmd = 0x8000_0900;
        let d = nextdqblk(0x21, 1000);
        let exit = [cap(SLOT_OUT, &d, true)];
        let args = [3, qcmd, 0, ADDR, 0, 0];
        let o = Options::default();
        assert_eq!(
            render("quotactl_fd", args, &[], Some((0, &exit)), &o),
            "3, QCMD(Q_GETNEXTQUOTA, USRQUOTA), 0, {dqb_bhardlimit=1, dqb_bsoftlimit=2, \
             dqb_curspace=3, dqb_ihardlimit=4, dqb_isoftlimit=5, dqb_curinodes=6, \
             dqb_id=1000, ...}"
        );
        let v = Options {
            verbose: true,
            ..Options::default()
        };
        assert_eq!(
            render("quotactl_fd", args, &[], Some((0, &exit)), &v),
            "3, QCMD(Q_GETNEXTQUOTA, USRQUOTA), 0, {dqb_bhardlimit=1, dqb_bsoftlimit=2, \
             dqb_curspace=3, dqb_ihardlimit=4, dqb_isoftlimit=5, dqb_curinodes=6, \
             dqb_btime=7, dqb_itime=8, dqb_valid=QIF_BLIMITS|QIF_ITIME, dqb_id=1000}"
        );
        // too few bytes before the page boundary, or a failed call: the address
        let short = [cap(SLOT_OUT, &d[..40], true)];
        assert!(render("quotactl_fd", args, &[], Some((0, &short)), &o)
            .ends_with(", 0, 0x7f0000001000"));
        assert!(render("quotactl_fd", args, &[], Some((-2, &exit)), &o)
            .ends_with(", 0, 0x7f0000001000"));
    }

    #[test]
    fn setinfo_flags_in_each_xlat_style() {
        // Q_SETINFO of PRJQUOTA: no id; dqi_flags with named and unnamed
        // bits, dqi_valid with none named
        let qcmd = 0x8000_0602u64;
        let mut d = Vec::new();
        d.extend_from_slice(&10u64.to_le_bytes());
        d.extend_from_slice(&20u64.to_le_bytes());
        d.extend_from_slice(&0x1_0003u32.to_le_bytes());
        d.extend_from_slice(&0x10u32.to_le_bytes());
        let enter = [cap(1, b"/dev/sda1", false), cap(SLOT_IN, &d, false)];
        let args = [qcmd, 0x1000, u64::MAX, ADDR, 0, 0];
        let run = |x| {
            let o = Options {
                xlat: x,
                ..Options::default()
            };
            render("quotactl", args, &enter, Some((0, &[])), &o)
        };
        assert_eq!(
            run(Xlat::Abbrev),
            "QCMD(Q_SETINFO, PRJQUOTA), \"/dev/sda1\", {dqi_bgrace=10, dqi_igrace=20, \
             dqi_flags=DQF_ROOT_SQUASH|DQF_SYS_FILE|0x2, dqi_valid=0x10 /* IIF_??? */}"
        );
        assert_eq!(
            run(Xlat::Raw),
            "2147485186, \"/dev/sda1\", {dqi_bgrace=10, dqi_igrace=20, \
             dqi_flags=0x10003, dqi_valid=0x10}"
        );
        assert_eq!(
            run(Xlat::Verbose),
            "2147485186 /* QCMD(Q_SETINFO, PRJQUOTA) */, \"/dev/sda1\", {dqi_bgrace=10, \
             dqi_igrace=20, dqi_flags=0x10003 /* DQF_ROOT_SQUASH|DQF_SYS_FILE|0x2 */, \
             dqi_valid=0x10 /* IIF_??? */}"
        );
    }

    #[test]
    fn quotaon_path_captured_only_for_q_quotaon() {
        let p = plan("quotactl", &Options::default());
        let cond = p[3].cond.unwrap();
        let on = |qcmd: u64| cond.accepts(&[qcmd, 0, 0, ADDR, 0, 0]);
        assert!(on(0x8000_0200) && on(0x8000_02ff));
        assert!(!on(0x8000_0300) && !on(0x0058_0100));
        assert_eq!(p[SLOT_IN].src_arg, Some(3));
        assert_eq!(p[SLOT_OUT].src_arg, Some(3));
        // quotactl_fd's command is its second argument
        let p = plan("quotactl_fd", &Options::default());
        assert_eq!(p[3].cond.unwrap().arg, 1);
    }
}
