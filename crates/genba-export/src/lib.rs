//! Exporters of a [`Profile`]: a flame graph (SVG, via inferno), pprof
//! (gzipped protobuf, for `go tool pprof` and the tools that read it) and
//! speedscope's JSON. Each takes the aggregated profile and a writer. Also
//! the HTML report of a recording ([`html`]) and the Perfetto writer.
#![deny(missing_docs)]

pub mod causal;
pub mod perfetto;

use std::collections::HashMap;
use std::io::{self, Write};

use genba_analyze::profile::Class;
use genba_analyze::report::{Frame, Profile};

/// Fill colours of the class leaves, so on- and off-CPU time read apart.
const CLASS_COLOURS: [(&str, (u8, u8, u8)); 6] = [
    ("[.]", (230, 120, 40)),
    ("[k]", (200, 80, 60)),
    ("[I]", (50, 110, 210)),
    ("[L]", (160, 60, 190)),
    ("[S]", (120, 120, 120)),
    ("[B]", (60, 170, 190)),
];

/// Writes a flame graph: one tower per stack, the class as the top frame
/// (coloured by class); user frames in warm colours, kernel ones (`_[k]`)
/// in the kernel's.
pub fn flamegraph(p: &Profile, title: &str, out: &mut dyn Write) -> io::Result<()> {
    use inferno::flamegraph::color::{Color, MultiPalette, PaletteMap};
    use inferno::flamegraph::{from_lines, Options, Palette};
    let folded = p.folded();
    let mut o = Options::default();
    o.title = title.to_string();
    o.subtitle = Some(
        "[.] user  [k] kernel  [I] I/O  [L] lock  [S] waiting for a CPU  [B] other block".into(),
    );
    o.count_name = "samples".into();
    o.colors = Palette::Multi(MultiPalette::Java);
    let mut colours = PaletteMap::default();
    for (tag, (r, g, b)) in CLASS_COLOURS {
        colours.insert(tag, Color { r, g, b });
    }
    o.palette_map = Some(&mut colours);
    let mut buf = Vec::new();
    if folded.is_empty() {
        o.no_javascript = true;
    }
    from_lines(&mut o, folded.lines(), &mut buf).map_err(|e| io::Error::other(e.to_string()))?;
    out.write_all(&buf)
}

mod pb {
    //! The messages of pprof's profile.proto that genba writes
    //! (github.com/google/pprof/blob/main/proto/profile.proto).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Profile {
        #[prost(message, repeated, tag = "1")]
        pub sample_type: Vec<ValueType>,
        #[prost(message, repeated, tag = "2")]
        pub sample: Vec<Sample>,
        #[prost(message, repeated, tag = "4")]
        pub location: Vec<Location>,
        #[prost(message, repeated, tag = "5")]
        pub function: Vec<Function>,
        #[prost(string, repeated, tag = "6")]
        pub string_table: Vec<String>,
        #[prost(message, optional, tag = "11")]
        pub period_type: Option<ValueType>,
        #[prost(int64, tag = "12")]
        pub period: i64,
        #[prost(int64, repeated, tag = "13")]
        pub comment: Vec<i64>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct ValueType {
        #[prost(int64, tag = "1")]
        pub r#type: i64,
        #[prost(int64, tag = "2")]
        pub unit: i64,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Sample {
        #[prost(uint64, repeated, tag = "1")]
        pub location_id: Vec<u64>,
        #[prost(int64, repeated, tag = "2")]
        pub value: Vec<i64>,
        #[prost(message, repeated, tag = "3")]
        pub label: Vec<Label>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Label {
        #[prost(int64, tag = "1")]
        pub key: i64,
        #[prost(int64, tag = "2")]
        pub str: i64,
        #[prost(int64, tag = "3")]
        pub num: i64,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Location {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(message, repeated, tag = "4")]
        pub line: Vec<Line>,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Line {
        #[prost(uint64, tag = "1")]
        pub function_id: u64,
        #[prost(int64, tag = "2")]
        pub line: i64,
    }
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Function {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(int64, tag = "2")]
        pub name: i64,
        #[prost(int64, tag = "3")]
        pub system_name: i64,
        #[prost(int64, tag = "4")]
        pub filename: i64,
    }
}

#[derive(Default)]
struct Strings {
    table: Vec<String>,
    ids: HashMap<String, i64>,
}

impl Strings {
    fn new() -> Strings {
        let mut s = Strings::default();
        s.id("");
        s
    }
    fn id(&mut self, s: &str) -> i64 {
        if let Some(&i) = self.ids.get(s) {
            return i;
        }
        let i = self.table.len() as i64;
        self.table.push(s.to_string());
        self.ids.insert(s.to_string(), i);
        i
    }
}

fn split_srcline(f: &Frame) -> (String, i64) {
    match f.srcline.as_deref().and_then(|s| s.rsplit_once(':')) {
        Some((file, line)) => (file.to_string(), line.parse().unwrap_or(0)),
        None => (f.module.clone(), 0),
    }
}

/// Writes a gzipped pprof profile: sample types `samples/count` and
/// `wall/nanoseconds`, labels `class`, `thread` and `tid`; the class is
/// also the innermost frame, so `pprof -top` ranks [I], [L]... with code.
pub fn pprof(p: &Profile, out: &mut dyn Write) -> io::Result<()> {
    use prost::Message;
    let mut st = Strings::new();
    let mut prof = pb::Profile {
        sample_type: vec![
            pb::ValueType {
                r#type: st.id("samples"),
                unit: st.id("count"),
            },
            pb::ValueType {
                r#type: st.id("wall"),
                unit: st.id("nanoseconds"),
            },
        ],
        period_type: Some(pb::ValueType {
            r#type: st.id("wall"),
            unit: st.id("nanoseconds"),
        }),
        period: p.period_ns as i64,
        ..Default::default()
    };
    let mut locs: HashMap<(String, String, Option<String>, bool), u64> = HashMap::new();
    let mut funcs: HashMap<(String, String), u64> = HashMap::new();
    let (k_class, k_thread, k_tid) = (st.id("class"), st.id("thread"), st.id("tid"));
    for (tid, comm, class, frames, w) in p.stacks() {
        let leaf = Frame {
            function: class.tag().to_string(),
            module: String::new(),
            srcline: None,
            kernel: false,
        };
        let mut ids = Vec::new();
        for f in std::iter::once(&leaf).chain(frames.iter().rev().copied()) {
            let key = (
                f.function.clone(),
                f.module.clone(),
                f.srcline.clone(),
                f.kernel,
            );
            let next = prof.location.len() as u64 + 1;
            let id = *locs.entry(key).or_insert_with(|| {
                let (file, line) = split_srcline(f);
                let fkey = (f.function.clone(), file.clone());
                let fnext = prof.function.len() as u64 + 1;
                let fid = *funcs.entry(fkey).or_insert_with(|| {
                    let name = st.id(&f.function);
                    prof.function.push(pb::Function {
                        id: fnext,
                        name,
                        system_name: name,
                        filename: st.id(&file),
                    });
                    fnext
                });
                prof.location.push(pb::Location {
                    id: next,
                    line: vec![pb::Line {
                        function_id: fid,
                        line,
                    }],
                });
                next
            });
            ids.push(id);
        }
        prof.sample.push(pb::Sample {
            location_id: ids,
            value: vec![w as i64, (w * p.period_ns) as i64],
            label: vec![
                pb::Label {
                    key: k_class,
                    str: st.id(class.tag()),
                    num: 0,
                },
                pb::Label {
                    key: k_thread,
                    str: st.id(comm),
                    num: 0,
                },
                pb::Label {
                    key: k_tid,
                    str: 0,
                    num: i64::from(tid),
                },
            ],
        });
    }
    prof.comment.push(st.id("genba profile"));
    prof.string_table = std::mem::take(&mut st.table);
    let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
    gz.write_all(&prof.encode_to_vec())?;
    gz.finish()?;
    Ok(())
}

/// Writes speedscope's file format: one sampled profile per thread, weights
/// in ns, the class as the innermost frame.
pub fn speedscope(p: &Profile, title: &str, out: &mut dyn Write) -> io::Result<()> {
    use serde_json::json;
    let mut frames: Vec<serde_json::Value> = Vec::new();
    let mut frame_ids: HashMap<(String, String, Option<String>), usize> = HashMap::new();
    let mut frame_id = |f: &Frame| {
        let key = (f.function.clone(), f.module.clone(), f.srcline.clone());
        *frame_ids.entry(key).or_insert_with(|| {
            let (file, line) = split_srcline(f);
            let mut v = json!({"name": f.function, "file": file});
            if line > 0 {
                v["line"] = json!(line);
            }
            frames.push(v);
            frames.len() - 1
        })
    };
    // (tid, name, stacks as frame indexes, weights in ns)
    type ThreadSamples = (u32, String, Vec<Vec<usize>>, Vec<u64>);
    let mut by_thread: Vec<ThreadSamples> = Vec::new();
    for (tid, comm, class, fr, w) in p.stacks() {
        if by_thread.last().is_none_or(|t| t.0 != tid) {
            by_thread.push((tid, comm.to_string(), Vec::new(), Vec::new()));
        }
        let leaf = Frame {
            function: class.tag().to_string(),
            module: String::new(),
            srcline: None,
            kernel: class == Class::Kernel,
        };
        let mut stack: Vec<usize> = fr.iter().map(|f| frame_id(f)).collect();
        stack.push(frame_id(&leaf));
        let t = by_thread.last_mut().expect("pushed above");
        t.2.push(stack);
        t.3.push(w * p.period_ns);
    }
    let profiles: Vec<serde_json::Value> = by_thread
        .into_iter()
        .map(|(tid, comm, samples, weights)| {
            let total: u64 = weights.iter().sum();
            json!({"type": "sampled", "name": format!("{comm} ({tid})"), "unit": "nanoseconds",
                   "startValue": 0, "endValue": total, "samples": samples, "weights": weights})
        })
        .collect();
    let v = json!({
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "name": title,
        "exporter": "genba",
        "shared": {"frames": frames},
        "profiles": profiles,
    });
    writeln!(out, "{v}")
}

/// The page of [`html`]: tables, flame graph and timeline drawn by its own
/// script from the data embedded in it (no network, no other file).
const HTML_PAGE: &str = include_str!("report.html");

/// Writes one self-contained HTML page: `data` (the report's tables under
/// `summary`, the profile as `folded` text, the `timeline`) embedded as
/// JSON, with the classes' colours, drawn by the page's own script.
pub fn html(title: &str, mut data: serde_json::Value, out: &mut dyn Write) -> io::Result<()> {
    let colours: serde_json::Map<String, serde_json::Value> = CLASS_COLOURS
        .iter()
        .map(|(c, (r, g, b))| (c.to_string(), format!("#{r:02x}{g:02x}{b:02x}").into()))
        .collect();
    data["colours"] = colours.into();
    data["title"] = title.into();
    // inside <script>: no "</script>" or "<!--" may appear in the JSON
    let json = data
        .to_string()
        .replace("</", "<\\/")
        .replace("<!--", "<\\u0021--");
    let title: String = title
        .chars()
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            c => c.to_string(),
        })
        .collect();
    let (head, rest) = HTML_PAGE
        .split_once("__TITLE__")
        .ok_or_else(|| io::Error::other("page template without its title"))?;
    let (mid, tail) = rest
        .split_once("__DATA__")
        .ok_or_else(|| io::Error::other("page template without its data"))?;
    out.write_all(head.as_bytes())?;
    out.write_all(title.as_bytes())?;
    out.write_all(mid.as_bytes())?;
    out.write_all(json.as_bytes())?;
    out.write_all(tail.as_bytes())
}
