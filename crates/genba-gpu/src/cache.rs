//! The shared objects' cache directory: named by their contents (a hash of
//! them) and the user, never removed, so that a program that outlives
//! genba (a daemon it started) still finds the files its environment names
//! (`LD_PRELOAD`, `LD_AUDIT`: the dynamic loader prints an error for each
//! one missing, in every program that starts), and a run does not write
//! them again when they are there.

use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// FNV-1a over each file's name, length and bytes.
fn hash(files: &[(&str, &[u8])]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h ^= u64::from(x);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (name, bytes) in files {
        eat(name.as_bytes());
        eat(&(bytes.len() as u64).to_le_bytes());
        eat(bytes);
    }
    h
}

/// Ours and safe to load from: a directory (not a link) of this user that
/// no one else can write.
fn trusted(m: &std::fs::Metadata, dir: bool) -> bool {
    // SAFETY: geteuid cannot fail
    let uid = unsafe { libc::geteuid() };
    m.uid() == uid && m.mode() & 0o022 == 0 && if dir { m.is_dir() } else { m.is_file() }
}

/// The directory for `files`: `$XDG_RUNTIME_DIR` (else `$TMPDIR`, else
/// /tmp) `/genba-gpu-<uid>-<hash>`, made if missing. One that someone else
/// made or can write, or one that cannot be made, is not used: a fresh
/// private directory instead (left in place too).
pub fn directory(files: &[(&str, &[u8])]) -> io::Result<PathBuf> {
    let base = ["XDG_RUNTIME_DIR", "TMPDIR"]
        .iter()
        .filter_map(std::env::var_os)
        .map(PathBuf::from)
        .find(|p| p.is_absolute() && p.is_dir())
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    match directory_in(&base, files) {
        Some(d) => Ok(d),
        None => genba_events::private_dir("genba-gpu-so"),
    }
}

/// `base/genba-gpu-<uid>-<hash>`, when it can be made or is trusted.
fn directory_in(base: &Path, files: &[(&str, &[u8])]) -> Option<PathBuf> {
    // SAFETY: geteuid cannot fail
    let uid = unsafe { libc::geteuid() };
    let path = base.join(format!("genba-gpu-{uid}-{:016x}", hash(files)));
    match std::fs::DirBuilder::new().mode(0o755).create(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(_) => return None,
    }
    match std::fs::symlink_metadata(&path) {
        Ok(m) if trusted(&m, true) => Some(path),
        _ => None,
    }
}

/// `path` holds `bytes`: left as it is when it does already (and is ours),
/// else written beside it and renamed into place (a program that has the
/// old one mapped keeps it).
pub fn put(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if trusted(&m, false) && m.len() == bytes.len() as u64 {
            let mut have = Vec::with_capacity(bytes.len());
            if std::fs::File::open(path)
                .and_then(|mut f| f.read_to_end(&mut have))
                .is_ok()
                && have == bytes
            {
                return Ok(());
            }
        }
    }
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let write = || -> io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .open(&tmp)?;
        f.write_all(bytes)?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io::Error::other(format!("{}: {e}", path.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_same_files_the_same_directory_and_only_a_trusted_one() {
        let base = genba_events::private_dir("genba-gpu-cache-test").unwrap();
        let files: [(&str, &[u8]); 1] = [("a.so", b"one")];
        let d = directory_in(&base, &files).unwrap();
        assert_eq!(directory_in(&base, &files), Some(d.clone()));
        let other: [(&str, &[u8]); 1] = [("a.so", b"two")];
        assert_ne!(directory_in(&base, &other), Some(d.clone()));
        // written, left alone when the same, rewritten when not
        let f = d.join("a.so");
        put(&f, b"one").unwrap();
        let ino = std::fs::metadata(&f).unwrap().ino();
        put(&f, b"one").unwrap();
        assert_eq!(std::fs::metadata(&f).unwrap().ino(), ino);
        std::fs::write(&f, b"changed").unwrap();
        put(&f, b"one").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"one");
        // a directory others can write is not used
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(directory_in(&base, &files), None);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
