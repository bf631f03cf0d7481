//! The HTML report: one self-contained page (inline CSS and SVG, PNG as data URIs, no
//! scripts, nothing fetched) that can be mailed or archived beside the CSV it was made from.
//! Every text that comes from a CSV or a sidecar is HTML-escaped.

use super::PlotError;
use crate::records::error::{FileAction, FileError};
use crate::records::summary::{secs, summarize, unsolved_text};
use crate::records::Record;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// A chart as the report embeds it.
#[derive(Clone, Debug)]
pub enum Content {
    Svg(String),
    Png(Vec<u8>),
}

/// What a study asks, shown right under the report's title: an experiment file's `question`
/// and `description`. A sidecar keeps them from the file it was run with (since they exist);
/// for older runs `sudolab report` reads them from the experiment file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    pub experiment: String,
    pub question: Option<String>,
    pub description: Option<String>,
}

impl About {
    /// The sidecar's `experiment`, `question` and `description` (absent = `None`).
    pub fn from_sidecar(m: &serde_json::Value) -> About {
        let text = |k: &str| {
            m.get(k)
                .and_then(|v| v.as_str())
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        About {
            experiment: text("experiment").unwrap_or_default(),
            question: text("question"),
            description: text("description"),
        }
    }

    fn is_empty(&self) -> bool {
        self.question.is_none() && self.description.is_none()
    }
}

/// One chart of the report and the caption under it.
#[derive(Clone, Debug)]
pub struct Figure {
    pub caption: String,
    pub content: Content,
}

const STYLE: &str = "
body { font-family: 'DejaVu Sans', Verdana, sans-serif; margin: 2em auto; max-width: 1200px;
       padding: 0 1.5em; color: #222; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
p.meta { color: #555; margin-top: 0; }
p.question { font-size: 1.15em; margin: 0.3em 0; }
p.description { color: #333; margin: 0.2em 0 0.6em; max-width: 60em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.92em; }
th, td { padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
th { background: #f3f3f3; }
th:first-child, td:first-child { text-align: left; }
table:not(.meta) td:not(:first-child):not(:nth-child(4)) { white-space: nowrap; }
table.meta td { text-align: left; font-family: 'DejaVu Sans Mono', monospace; word-break: break-all; }
table.meta td:first-child { font-family: inherit; white-space: nowrap; color: #555; }
figure { margin: 1.5em 0 2.5em; }
figure svg, figure img { max-width: 100%; height: auto; display: block; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #444; margin-top: 0.4em; max-width: 60em; }
";

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding), for PNG data URIs: a few lines rather than a
/// dependency.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A metadata value as one table cell: strings as they are, arrays of strings joined by
/// spaces (a command line), anything else as compact JSON.
fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(a) if a.iter().all(|x| x.is_string()) => a
            .iter()
            .filter_map(|x| x.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// Flattens nested objects to `a.b` keys, in the sidecar's order.
fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, x, out);
            }
        }
        other => out.push((prefix.to_string(), cell(other))),
    }
}

fn count(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(x) if x.fract() == 0.0 => format!("{x:.0}"),
        Some(x) => format!("{x:.1}"),
    }
}

fn summary_table(html: &mut String, records: &[Record]) {
    html.push_str(
        "<table><tr><th>configuration</th><th>runs</th><th>solved</th><th>unsolved</th>\
         <th>median CPU</th><th>mean CPU</th><th>PAR-2</th><th>median nodes</th>\
         <th>median guesses</th></tr>\n",
    );
    for l in summarize(records) {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&l.config),
            l.runs,
            l.solved,
            l.instances,
            escape(&unsolved_text(&l)),
            secs(l.median_cpu_s),
            secs(l.mean_cpu_s),
            secs(l.par2_s),
            count(l.median_nodes),
            count(l.median_guesses),
        );
    }
    html.push_str("</table>\n");
}

/// The page's HTML.
pub fn html(
    records: &[Record],
    about: &[About],
    figures: &[Figure],
    metadata: &[serde_json::Value],
) -> String {
    let mut experiments: Vec<&str> = Vec::new();
    let mut groups: BTreeMap<(&str, &str), Vec<Record>> = BTreeMap::new();
    let mut order = Vec::new();
    for r in records {
        if !experiments.contains(&r.experiment.as_str()) {
            experiments.push(&r.experiment);
        }
        let key = (r.experiment.as_str(), r.dataset.as_str());
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(r.clone());
    }
    let named: Vec<&str> = experiments
        .iter()
        .copied()
        .filter(|e| !e.is_empty())
        .collect();
    let title = if named.is_empty() {
        "sudolab report".to_string()
    } else {
        format!("sudolab report: {}", named.join(", "))
    };
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    // The question first: what the study asks, then how (one pair per experiment shown).
    let mut shown: Vec<&About> = Vec::new();
    for a in about.iter().filter(|a| !a.is_empty()) {
        if !shown.contains(&a) {
            shown.push(a);
        }
    }
    let about = shown;
    for a in &about {
        // Several experiments in one report: say whose question each is.
        let whose = if about.len() > 1 && !a.experiment.is_empty() {
            format!(" ({})", escape(&a.experiment))
        } else {
            String::new()
        };
        if let Some(q) = &a.question {
            let _ = writeln!(
                html,
                "<p class=\"question\"><b>Question{whose}.</b> {}</p>",
                escape(q)
            );
        }
        if let Some(d) = &a.description {
            let _ = writeln!(html, "<p class=\"description\">{}</p>", escape(d));
        }
    }
    let configs: std::collections::BTreeSet<&str> =
        records.iter().map(|r| r.config.as_str()).collect();
    let _ = writeln!(
        html,
        "<p class=\"meta\">{} runs · {} configurations · {} datasets · made by sudolab {}</p>",
        records.len(),
        configs.len(),
        groups
            .keys()
            .map(|k| k.1)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        env!("CARGO_PKG_VERSION")
    );

    html.push_str(
        "<h2>Summary</h2>\n<p class=\"meta\">Per configuration, over instances (a \
        dataset's puzzles). Solved = answered (solved, unique, multiple or unsat); with \
        repetitions, an instance is solved only if every repetition answered, and its \
        figures are those of its median repetition by CPU time. CPU times over solved \
        instances; PAR-2 counts an unsolved instance as twice its time limit.</p>\n",
    );
    if order.len() > 1 {
        html.push_str("<h3>All datasets</h3>\n");
        summary_table(&mut html, records);
    }
    for key in &order {
        let label = match key {
            ("", d) => d.to_string(),
            (e, d) => format!("{e} / {d}"),
        };
        let _ = writeln!(html, "<h3>{}</h3>", escape(&label));
        summary_table(&mut html, &groups[key]);
    }

    if !figures.is_empty() {
        html.push_str("<h2>Charts</h2>\n");
    }
    for (i, f) in figures.iter().enumerate() {
        html.push_str("<figure>\n");
        match &f.content {
            Content::Svg(svg) => {
                // An XML prolog is not allowed inside HTML.
                let body = match svg.find("<svg") {
                    Some(at) => &svg[at..],
                    None => svg.as_str(),
                };
                html.push_str(body.trim());
                html.push('\n');
            }
            Content::Png(png) => {
                let _ = writeln!(
                    html,
                    "<img alt=\"Figure {}\" src=\"data:image/png;base64,{}\">",
                    i + 1,
                    base64(png)
                );
            }
        }
        let _ = writeln!(
            html,
            "<figcaption><b>Figure {}.</b> {}</figcaption>\n</figure>",
            i + 1,
            escape(&f.caption)
        );
    }
    // What a reader came for (the summary and the charts) comes first; the configuration and
    // machine metadata, forty rows and more, come last and folded.
    if !metadata.is_empty() {
        html.push_str(
            "<details class=\"runs\">\n<summary>Configuration and machine metadata \
             (sidecar)</summary>\n<h2>Runs</h2>\n",
        );
        for (i, m) in metadata.iter().enumerate() {
            let mut rows = Vec::new();
            flatten("", m, &mut rows);
            if metadata.len() > 1 {
                let _ = writeln!(html, "<h3>Run {}</h3>", i + 1);
            }
            html.push_str("<table class=\"meta\">\n");
            for (k, v) in rows {
                let _ = writeln!(
                    html,
                    "<tr><td>{}</td><td>{}</td></tr>",
                    escape(&k),
                    escape(&v)
                );
            }
            html.push_str("</table>\n");
        }
        html.push_str("</details>\n");
    }

    html.push_str("</body>\n</html>\n");
    html
}

/// Writes the report page to `out`.
pub fn report_figures(
    records: &[Record],
    about: &[About],
    figures: &[Figure],
    metadata: &[serde_json::Value],
    out: &Path,
) -> Result<(), PlotError> {
    std::fs::write(out, html(records, about, figures, metadata))
        .map_err(|e| FileError::new(out, FileAction::WriteReport, e).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xff, 0xfe]), "//4=");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let m = serde_json::json!({"command": ["sudolab", "run", "<x>"], "machine": {"cpus": 2}});
        let page = html(&[], &[], &[], &[m]);
        assert!(page.contains("sudolab run &lt;x&gt;"));
        assert!(page.contains("machine.cpus"));
    }
}
