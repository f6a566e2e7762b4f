//! `/proc/PID/maps`: which file is mapped where in a process.

use std::ops::Range;
use std::sync::Arc;

use crate::elf::ElfInfo;

/// One line of `/proc/PID/maps`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapEntry {
    /// First address.
    pub start: u64,
    /// One past the last address.
    pub end: u64,
    /// `r-xp` and so on.
    pub perms: String,
    /// Offset in the file.
    pub offset: u64,
    /// The file, or `[stack]`, `[vdso]`, empty for anonymous memory.
    pub path: String,
}

/// Parses the text of `/proc/PID/maps`.
pub fn parse_maps(text: &str) -> Vec<MapEntry> {
    text.lines()
        .filter_map(|line| {
            let mut it = line.split_ascii_whitespace();
            let (s, e) = it.next()?.split_once('-')?;
            let perms = it.next()?.to_string();
            let offset = u64::from_str_radix(it.next()?, 16).ok()?;
            let _dev = it.next()?;
            let _inode = it.next()?;
            let path = it.collect::<Vec<_>>().join(" ");
            Some(MapEntry {
                start: u64::from_str_radix(s, 16).ok()?,
                end: u64::from_str_radix(e, 16).ok()?,
                perms,
                offset,
                path,
            })
        })
        .collect()
}

/// A file mapped into a process, with its load bias (address = bias + svma).
#[derive(Debug, Clone)]
pub struct LoadedModule {
    /// The file.
    pub path: String,
    /// The addresses its mappings span.
    pub avma: Range<u64>,
    /// Load bias.
    pub bias: u64,
    /// A number for `path`, the same in every process (a cheap cache key).
    pub id: u32,
    maps: Vec<MapEntry>,
}

impl LoadedModule {
    /// The file offset of an address inside the module.
    pub fn file_offset(&self, avma: u64) -> Option<u64> {
        self.maps
            .iter()
            .find(|m| avma >= m.start && avma < m.end)
            .map(|m| avma - m.start + m.offset)
    }
}

/// Groups mappings by file into modules; `elf` opens (and caches) files.
pub fn modules(
    entries: &[MapEntry],
    mut elf: impl FnMut(&str) -> Option<Arc<ElfInfo>>,
    mut id: impl FnMut(&str) -> u32,
) -> Vec<LoadedModule> {
    let mut by_path: Vec<(String, Vec<MapEntry>)> = Vec::new();
    for m in entries.iter().filter(|m| m.path.starts_with('/')) {
        match by_path.iter_mut().find(|(p, _)| *p == m.path) {
            Some((_, v)) => v.push(m.clone()),
            None => by_path.push((m.path.clone(), vec![m.clone()])),
        }
    }
    let mut out = Vec::new();
    for (path, ms) in by_path {
        let Some(info) = elf(&path) else { continue };
        // the bias from the executable mapping (any mapping gives the same)
        let Some(m) = ms.iter().find(|m| m.perms.contains('x')).or(ms.first()) else {
            continue;
        };
        let Some(svma) = info.mapping_svma(m.offset) else {
            continue;
        };
        let bias = m.start.wrapping_sub(svma);
        let start = ms.iter().map(|m| m.start).min().unwrap_or(0);
        let end = ms.iter().map(|m| m.end).max().unwrap_or(0);
        let id = id(&path);
        out.push(LoadedModule {
            path,
            avma: start..end,
            bias,
            id,
            maps: ms,
        });
    }
    out.sort_by_key(|m| m.avma.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_maps_lines() {
        let t = "55d0c0a00000-55d0c0a02000 r--p 00000000 fe:00 123 /usr/bin/cat\n7ffd1000-7ffd2000 rw-p 00000000 00:00 0 [stack]\n";
        let m = parse_maps(t);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].path, "/usr/bin/cat");
        assert_eq!(m[0].start, 0x55d0c0a00000);
        assert_eq!(m[1].path, "[stack]");
    }
}
