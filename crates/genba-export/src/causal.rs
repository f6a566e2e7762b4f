//! `genba causal --html`: the report as one self-contained page, drawn
//! from the same JSON as `--format json`. For each progress point, the
//! ranking and one small plot per candidate: the program's speedup against
//! the candidate's, each point with its 95% interval, as COZ's viewer draws
//! them. Plain SVG, no script, nothing fetched.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::Value;

const W: f64 = 260.0;
const H: f64 = 170.0;
/// Plot area inside the SVG: left, top, right, bottom margins.
const L: f64 = 44.0;
const T: f64 = 12.0;
const R: f64 = 10.0;
const B: f64 = 30.0;

fn esc(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '<' => "&lt;".into(),
            '>' => "&gt;".into(),
            '&' => "&amp;".into(),
            '"' => "&quot;".into(),
            c => c.to_string(),
        })
        .collect()
}

/// One candidate's plot: x the candidate's speedup (0-100%), y the
/// program's.
fn plot(label: &str, impact: f64, points: &[Value]) -> String {
    let pts: Vec<(f64, f64, f64, u64)> = points
        .iter()
        .filter_map(|p| {
            Some((
                p["speedup"].as_f64()?,
                p["program_speedup"].as_f64()? * 100.0,
                p["ci95"].as_f64().unwrap_or(0.0) * 100.0,
                p["experiments"].as_u64().unwrap_or(0),
            ))
        })
        .collect();
    // the range from the points (intervals wider than that are cut at the
    // edge), at least -10..+10%, in tens
    let lo = pts
        .iter()
        .map(|p| p.1)
        .fold(-10.0_f64, f64::min)
        .max(-100.0);
    let hi = pts.iter().map(|p| p.1).fold(10.0_f64, f64::max).min(100.0);
    let lo = ((lo - 5.0) / 10.0).floor() * 10.0;
    let hi = ((hi + 5.0) / 10.0).ceil() * 10.0;
    let x = |v: f64| L + v / 100.0 * (W - L - R);
    let y = |v: f64| T + (hi - v.clamp(lo, hi)) / (hi - lo) * (H - T - B);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<figure><svg class="plot" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="{}">"#,
        esc(label)
    );
    // grid: x every 25%, y at lo, 0, hi
    for v in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let _ = write!(
            s,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#ddd"/><text x="{0:.1}" y="{3:.1}" font-size="10" text-anchor="middle">{4}%</text>"##,
            x(v),
            T,
            H - B,
            H - B + 12.0,
            v
        );
    }
    for v in [lo, 0.0, hi] {
        let stroke = if v == 0.0 { "#888" } else { "#ddd" };
        let _ = write!(
            s,
            r##"<line x1="{L}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="{stroke}"/><text x="{2:.1}" y="{3:.1}" font-size="10" text-anchor="end">{4:+}%</text>"##,
            y(v),
            W - R,
            L - 4.0,
            y(v) + 3.0,
            v
        );
    }
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle">candidate speedup</text>"#,
        L + (W - L - R) / 2.0,
        H - 4.0
    );
    let mut sorted = pts.clone();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let line: Vec<String> = sorted
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.0), y(p.1)))
        .collect();
    let _ = write!(
        s,
        r##"<polyline points="{}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>"##,
        line.join(" ")
    );
    for p in &sorted {
        let _ = write!(
            s,
            r##"<line class="ci" x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#1f77b4"/><circle class="pt" cx="{0:.1}" cy="{3:.1}" r="3" fill="#1f77b4"><title>{4}%: {5:+.1}% ±{6:.1} ({7} experiments)</title></circle>"##,
            x(p.0),
            y(p.1 + p.2),
            y(p.1 - p.2),
            y(p.1),
            p.0,
            p.1,
            p.2,
            p.3
        );
    }
    let _ = write!(
        s,
        r#"</svg><figcaption>{} <span class="impact">impact {:.2}</span></figcaption></figure>"#,
        esc(label),
        impact
    );
    s
}

/// Writes the page for `report` (genba causal's JSON report).
pub fn causal_html(report: &Value, out: &mut dyn Write) -> io::Result<()> {
    let title = report["title"].as_str().unwrap_or("genba causal");
    let mut body = String::new();
    let _ = write!(body, "<h1>{}</h1>", esc(title));
    if let Some(d) = report["delays"].as_object() {
        let _ = write!(
            body,
            "<p>Delays: {} taken, {:.3} s in all.</p>",
            d.get("taken").and_then(Value::as_u64).unwrap_or(0),
            d.get("ns").and_then(Value::as_u64).unwrap_or(0) as f64 / 1e9
        );
    }
    for p in report["progress"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap_or("?");
        let _ = write!(
            body,
            "<h2>Progress point {} ({})</h2>",
            esc(name),
            esc(p["at"].as_str().unwrap_or("?"))
        );
        if p["kind"] == "run" {
            match p["baseline_run_ns"].as_f64() {
                Some(b) => {
                    let _ = write!(
                        body,
                        "<p>A run took {:.3} s in the baselines. Each run was one experiment.</p>",
                        b / 1e9
                    );
                }
                None => body.push_str("<p>No baseline run yet.</p>"),
            }
        } else if p["kind"] == "latency" {
            match p["baseline_latency_ns"].as_f64() {
                Some(b) => {
                    let _ = write!(
                        body,
                        "<p>{:.3} ms a call in the baselines. Program speedup here: how much shorter a call would be.</p>",
                        b / 1e6
                    );
                }
                None => body
                    .push_str("<p>No baseline yet (no call returned in the baseline windows).</p>"),
            }
        } else {
            match p["baseline_visits_per_s"].as_f64() {
                Some(b) => {
                    let _ = write!(body, "<p>{b:.1} visits a second in the baselines.</p>");
                }
                None => {
                    body.push_str("<p>No baseline yet (no visits in the baseline windows).</p>")
                }
            }
        }
        body.push_str(
            r#"<table class="rank"><tr><th>candidate</th><th>kind</th><th>impact</th></tr>"#,
        );
        let rows = p["candidates"].as_array().cloned().unwrap_or_default();
        for c in &rows {
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{:.2}</td></tr>",
                esc(c["candidate"].as_str().unwrap_or("?")),
                esc(c["kind"].as_str().unwrap_or("?")),
                c["impact"].as_f64().unwrap_or(0.0)
            );
        }
        body.push_str("</table><div class=\"plots\">");
        for c in &rows {
            body.push_str(&plot(
                c["candidate"].as_str().unwrap_or("?"),
                c["impact"].as_f64().unwrap_or(0.0),
                c["points"].as_array().map(Vec::as_slice).unwrap_or(&[]),
            ));
        }
        body.push_str("</div>");
    }
    let not_tested: Vec<String> = report["not_tested"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|n| {
            format!(
                "<li>{}: {}</li>",
                esc(n["candidate"].as_str().unwrap_or("?")),
                esc(n["why"].as_str().unwrap_or(""))
            )
        })
        .collect();
    if !not_tested.is_empty() {
        let _ = write!(body, "<h2>Not tested</h2><ul>{}</ul>", not_tested.join(""));
    }
    write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }}
table.rank {{ border-collapse: collapse; margin: .5em 0 1em; }}
table.rank td, table.rank th {{ border-bottom: 1px solid #ddd; padding: 2px 10px; text-align: left; }}
.plots {{ display: flex; flex-wrap: wrap; gap: 12px; }}
figure {{ margin: 0; }}
figcaption {{ font-size: 12px; max-width: {W}px; }}
.impact {{ color: #666; }}
</style></head><body>
{body}
</body></html>
"#,
        esc(title)
    )
}
