//! What the unwinder needs from an ELF file: its loadable segments (to turn
//! file offsets into section addresses) and its unwind sections.

use std::collections::HashMap;
use std::ops::{Deref, Range};
use std::sync::Arc;

use object::{Object, ObjectSection, ObjectSegment};

use crate::maps::LoadedModule;

/// A whole file's bytes: the file mapped, or a section inflated.
type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A section's bytes, shared with the whole file (framehop wants `Deref<[u8]>`).
#[derive(Clone)]
pub struct SectionBytes {
    file: Bytes,
    range: Range<usize>,
}

impl Deref for SectionBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &(*self.file).as_ref()[self.range.clone()]
    }
}

/// One loadable segment (PT_LOAD).
#[derive(Debug, Clone, Copy)]
pub struct Load {
    /// Offset in the file.
    pub offset: u64,
    /// Virtual address (before the load bias).
    pub vaddr: u64,
    /// Bytes in memory.
    pub memsz: u64,
    /// PF_X | PF_W | PF_R.
    pub flags: u32,
}

/// One ELF file, parsed once.
pub struct ElfInfo {
    data: Bytes,
    /// The PT_LOAD segments.
    pub segments: Vec<Load>,
    /// (file offset, virtual address, file size) of each PT_LOAD.
    loads: Vec<(u64, u64, u64)>,
    /// File offset of the program headers (e_phoff): AT_PHDR points at them.
    pub phoff: u64,
    /// The dynamic loader the program asks for (PT_INTERP).
    pub interp: Option<String>,
    /// The GNU build-id, hex.
    pub build_id: Option<Vec<u8>>,
    /// section name -> (address range, file range when stored uncompressed)
    sections: HashMap<&'static str, (Range<u64>, Option<Range<usize>>)>,
    /// Compressed sections, inflated.
    decompressed: HashMap<&'static str, Bytes>,
}

/// Errors reading an ELF file.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    /// The file could not be read.
    #[error("reading {0}: {1}")]
    Read(String, std::io::Error),
    /// The file is not an ELF file we can parse.
    #[error("parsing {0}: {1}")]
    Parse(String, object::Error),
}

impl ElfInfo {
    /// Reads and parses `path`.
    pub fn open(path: &str) -> Result<ElfInfo, ElfError> {
        let read = |e| ElfError::Read(path.into(), e);
        let file = std::fs::File::open(path).map_err(read)?;
        // SAFETY: the map is only read. A library replaced on disk gets a
        // new file (package managers rename over it); one truncated in
        // place while genba reads it would fault, as it would fault the
        // programs that map it.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(read)?;
        let data: Bytes = Arc::new(map);
        let bytes = (*data).as_ref();
        let obj = object::File::parse(bytes).map_err(|e| ElfError::Parse(path.into(), e))?;
        let (segments, phoff, interp) = raw_headers(bytes).unwrap_or_default();
        let build_id = obj.build_id().ok().flatten().map(<[u8]>::to_vec);
        let loads = obj
            .segments()
            .map(|s| {
                let (off, size) = s.file_range();
                (off, s.address(), size)
            })
            .collect();
        let mut sections = HashMap::new();
        let mut decompressed = HashMap::new();
        for name in [
            ".text",
            ".got",
            ".eh_frame",
            ".eh_frame_hdr",
            ".debug_frame",
        ] {
            if let Some(sec) = obj.section_by_name(name) {
                let svma = sec.address()..sec.address() + sec.size();
                let compressed = sec
                    .compressed_file_range()
                    .ok()
                    .is_some_and(|c| c.format != object::CompressionFormat::None);
                // an uncompressed section is handed over in place; a compressed
                // one (Go compresses .debug_frame) is inflated once
                let file = if compressed {
                    if let Ok(data) = sec.uncompressed_data() {
                        let owned: Bytes = Arc::new(data.into_owned());
                        decompressed.insert(name, owned);
                    }
                    None
                } else {
                    sec.file_range().map(|(o, s)| o as usize..(o + s) as usize)
                };
                sections.insert(name, (svma, file));
            }
        }
        Ok(ElfInfo {
            data,
            segments,
            loads,
            phoff,
            interp,
            build_id,
            sections,
            decompressed,
        })
    }

    /// The section address of a file offset (through the PT_LOAD holding it).
    pub fn file_offset_to_svma(&self, off: u64) -> Option<u64> {
        self.loads
            .iter()
            .find(|(o, _, sz)| off >= *o && off < o + (*sz).max(1))
            .map(|(o, v, _)| v + (off - o))
    }

    /// The section address where a mapping that starts at file offset `off`
    /// (page aligned, as in /proc/PID/maps) begins. Two PT_LOADs can share a
    /// file page (rustc and lld lay segments out back to back: text at file
    /// 0x13870 but vaddr 0x14870, the page at 0x13000 also ends the read-only
    /// segment), so the segment that *starts* in that page is the one mapped
    /// there; reading the page through the earlier segment would put every
    /// address off by the difference.
    pub fn mapping_svma(&self, off: u64) -> Option<u64> {
        const PAGE: u64 = 4096;
        let page = |x: u64| x & !(PAGE - 1);
        self.loads
            .iter()
            .rev()
            .find(|(o, _, _)| page(*o) == off)
            .map(|(_, v, _)| page(*v))
            .or_else(|| self.file_offset_to_svma(off))
    }

    fn bytes(&self, name: &str) -> Option<SectionBytes> {
        if let Some(d) = self.decompressed.get(name) {
            return Some(SectionBytes {
                file: d.clone(),
                range: 0..(**d).as_ref().len(),
            });
        }
        let (_, file) = self.sections.get(name)?;
        Some(SectionBytes {
            file: self.data.clone(),
            range: file.clone()?,
        })
    }

    fn svma(&self, name: &str) -> Option<Range<u64>> {
        self.sections.get(name).map(|(s, _)| s.clone())
    }
}

/// PT_LOADs, e_phoff and PT_INTERP of a 64-bit little-endian ELF file.
fn raw_headers(data: &[u8]) -> Option<(Vec<Load>, u64, Option<String>)> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(data.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(data.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(data.get(o..o + 8)?.try_into().ok()?));
    if data.get(..5)? != b"\x7fELF\x02" {
        return None;
    }
    let phoff = u64_at(0x20)?;
    let phentsize = u16_at(0x36)? as usize;
    let phnum = u16_at(0x38)? as usize;
    let mut loads = Vec::new();
    let mut interp = None;
    for i in 0..phnum {
        let h = phoff as usize + i * phentsize;
        let (ty, flags) = (u32_at(h)?, u32_at(h + 4)?);
        let (offset, vaddr, filesz, memsz) = (
            u64_at(h + 8)?,
            u64_at(h + 16)?,
            u64_at(h + 32)?,
            u64_at(h + 40)?,
        );
        match ty {
            1 => loads.push(Load {
                offset,
                vaddr,
                memsz,
                flags,
            }),
            3 => {
                let b = data.get(offset as usize..(offset + filesz) as usize)?;
                let n = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                interp = Some(String::from_utf8_lossy(&b[..n]).into_owned());
            }
            _ => {}
        }
    }
    Some((loads, phoff, interp))
}

/// The framehop module for a file as it is mapped in one process.
pub fn framehop_module(m: &LoadedModule, info: &ElfInfo) -> framehop::Module<SectionBytes> {
    let si = framehop::ExplicitModuleSectionInfo {
        base_svma: 0,
        text_svma: info.svma(".text"),
        text: None,
        got_svma: info.svma(".got"),
        eh_frame_svma: info.svma(".eh_frame"),
        eh_frame: info.bytes(".eh_frame"),
        eh_frame_hdr_svma: info.svma(".eh_frame_hdr"),
        eh_frame_hdr: info.bytes(".eh_frame_hdr"),
        debug_frame: info.bytes(".debug_frame"),
        stubs_svma: None,
        stub_helper_svma: None,
        unwind_info: None,
        text_segment_svma: None,
        text_segment: None,
    };
    framehop::Module::new(m.path.clone(), m.avma.clone(), m.bias, si)
}
