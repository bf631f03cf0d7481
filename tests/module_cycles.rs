//! No import cycles in src/: between top-level modules (`engines`, `exact_cover`, `plot`,
//! ...) and between sibling files. The same rules as `scripts/ci/module-cycles.py` (which prints
//! the edges for a human): every `crate::a::b` and `super::x` path of a file, comments and
//! string literals removed first and grouped `use` trees expanded, is an edge from the file's
//! module to the deepest module the path names. For the file graph, edges between a module
//! and its own ancestors are left out (a `mod.rs` declares and re-exports its children; that
//! is the module tree, not a cycle).
//!
//! Besides having no cycle, the layers keep their order: the run records (`records`) import
//! neither the runner (`experiment`) nor the charts (`plot`), and the charts import the
//! records, never the runner ([`LAYER_RULES`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn module_of(path: &Path, src: &Path) -> Module {
    let rel = path.strip_prefix(src).unwrap().with_extension("");
    let mut segs: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        segs.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segs.pop();
    }
    segs
}

/// Source without comments, string and char literals (their contents are not paths). One
/// left-to-right scan, so a quote inside a comment or a char literal starts nothing.
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let word_before = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            out.push(' ');
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if b[i] == b'r' && !word_before(i) && matches!(b.get(i + 1), Some(b'"' | b'#')) {
            // Raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat(b'#').take(hashes))
                .collect();
            j += 1;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = (j + close.len()).min(b.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), or a lifetime ('a), which stays.
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|p| i + 3 + p)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 3)
            } else {
                // A multi-byte char: 'é'.
                text[i + 1..]
                    .chars()
                    .next()
                    .filter(|c| text[i + 1 + c.len_utf8()..].starts_with('\''))
                    .map(|c| i + 2 + c.len_utf8())
            };
            match end {
                Some(e) => {
                    out.push_str("''");
                    i = e;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `crate::...`/`super::...` path in `text`, `use` trees expanded:
/// `crate::a::{b, c::{d, e}}` gives `crate::a::b`, `crate::a::c::d`, `crate::a::c::e`.
fn paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let starts = (rest.starts_with("crate::") || rest.starts_with("super::"))
            && !text[..i].ends_with(|c: char| is_ident(c) || c == ':');
        if !starts {
            i += rest.chars().next().unwrap().len_utf8();
            continue;
        }
        let (found, used) = path_at(rest);
        out.extend(found);
        i += used.max(1);
    }
    out
}

/// The paths of the path or `use` tree at the start of `text`, and the bytes it spans.
fn path_at(text: &str) -> (Vec<String>, usize) {
    let mut prefix = String::new();
    let mut i = 0;
    loop {
        let seg_len = text[i..]
            .find(|c: char| !is_ident(c))
            .unwrap_or(text.len() - i);
        prefix.push_str(&text[i..i + seg_len]);
        i += seg_len;
        let after = &text[i..];
        let ws = after.len() - after.trim_start().len();
        if after.trim_start().starts_with("::") {
            let after_colons = &text[i + ws + 2..];
            let ws2 = after_colons.len() - after_colons.trim_start().len();
            let j = i + ws + 2 + ws2;
            if text[j..].starts_with('{') {
                // A group: split at top-level commas, expand each part.
                let mut depth = 0;
                let mut end = j;
                for (k, c) in text[j..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = j + k;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let body = &text[j + 1..end];
                let mut out = Vec::new();
                let mut depth = 0;
                let mut start = 0;
                let mut parts = Vec::new();
                for (k, c) in body.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            parts.push(&body[start..k]);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                parts.push(&body[start..]);
                for part in parts {
                    let part = part.trim();
                    if part.is_empty() || part == "self" || !part.starts_with(is_ident) {
                        out.push(prefix.clone());
                        continue;
                    }
                    let (sub, _) = path_at(part);
                    out.extend(sub.into_iter().map(|s| format!("{prefix}::{s}")));
                }
                return (out, end + 1);
            }
            if text[j..].starts_with(is_ident) {
                prefix.push_str("::");
                i = j;
                continue;
            }
        }
        return (vec![prefix], i);
    }
}

/// The deepest known module `path` names, from module `here` (None if outside src/).
fn resolve(path: &str, here: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let segs: Vec<&str> = path.split("::").map(str::trim).collect();
    let (mut cur, rest): (Module, &[&str]) = if segs[0] == "crate" {
        (Vec::new(), &segs[1..])
    } else {
        let mut base = here.to_vec();
        let mut k = 0;
        while k < segs.len() && segs[k] == "super" {
            base.pop();
            k += 1;
        }
        (base, &segs[k..])
    };
    let mut best = modules.contains(&cur).then(|| cur.clone());
    for s in rest {
        cur.push(s.to_string());
        if modules.contains(&cur) {
            best = Some(cur.clone());
        } else {
            break;
        }
    }
    best
}

/// Strongly connected components of more than one node (Tarjan).
fn cycles<T: Ord + Clone>(graph: &BTreeMap<T, BTreeSet<T>>) -> Vec<Vec<T>> {
    struct State<T> {
        index: BTreeMap<T, usize>,
        low: BTreeMap<T, usize>,
        stack: Vec<T>,
        on: BTreeSet<T>,
        out: Vec<Vec<T>>,
    }
    fn visit<T: Ord + Clone>(v: &T, g: &BTreeMap<T, BTreeSet<T>>, s: &mut State<T>) {
        let n = s.index.len();
        s.index.insert(v.clone(), n);
        s.low.insert(v.clone(), n);
        s.stack.push(v.clone());
        s.on.insert(v.clone());
        for w in g.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, g, s);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(&w);
                let done = &w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(v, graph, &mut s);
        }
    }
    s.out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The cycles of the tree under `src`, one line each, with the edges that make them.
fn cycle_report(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|p| module_of(p, src)).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for p in &files {
        let here = module_of(p, src);
        let text = strip(&std::fs::read_to_string(p).unwrap());
        for path in paths(&text) {
            if let Some(target) = resolve(&path, &here, &modules) {
                if target != here {
                    edges.entry(here.clone()).or_default().insert(target);
                }
            }
        }
    }
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut tree: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (a, targets) in &edges {
        for b in targets {
            if !a.is_empty() && !b.is_empty() && a[0] != b[0] {
                top.entry(a[0].clone()).or_default().insert(b[0].clone());
            }
            if !a.starts_with(b) && !b.starts_with(a) {
                tree.entry(a.clone()).or_default().insert(b.clone());
            }
        }
    }
    let mut report = Vec::new();
    for comp in cycles(&top) {
        let mut line = format!("cycle between top-level modules: {}", comp.join(" <-> "));
        for a in &comp {
            for b in top[a].iter().filter(|b| comp.contains(b)) {
                let from: Vec<String> = edges
                    .iter()
                    .filter(|(x, ts)| {
                        x.first() == Some(a) && ts.iter().any(|t| t.first() == Some(b))
                    })
                    .map(|(x, _)| x.join("::"))
                    .collect();
                line += &format!("\n  {a} -> {b} (from {})", from.join(", "));
            }
        }
        report.push(line);
    }
    for comp in cycles(&tree) {
        let names: Vec<String> = comp.iter().map(|m| m.join("::")).collect();
        report.push(format!("cycle between files: {}", names.join(" <-> ")));
    }
    report
}

/// Top-level modules that must not name others: (module, the modules it must not import).
const LAYER_RULES: &[(&str, &[&str])] = &[
    ("records", &["experiment", "plot", "cli"]),
    ("plot", &["experiment", "cli"]),
];

/// Every path of a file under `src/<module>/` that names a module `rules` forbid it, one line
/// each: `file: path (names module)`. Paths are resolved as for cycles, so a `super::` that
/// climbs out of the module counts as well as a `crate::` path.
fn layer_report(src: &Path, rules: &[(&str, &[&str])]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let modules: BTreeSet<Module> = files.iter().map(|p| module_of(p, src)).collect();
    let mut report = Vec::new();
    for p in &files {
        let here = module_of(p, src);
        let Some((_, banned)) = rules
            .iter()
            .find(|(m, _)| here.first().map(String::as_str) == Some(*m))
        else {
            continue;
        };
        let text = strip(&std::fs::read_to_string(p).unwrap());
        for path in paths(&text) {
            let Some(target) = resolve(&path, &here, &modules) else {
                continue;
            };
            if let Some(top) = target.first().filter(|t| banned.contains(&t.as_str())) {
                let file = p.strip_prefix(src).unwrap().display();
                report.push(format!("{file}: {path} (names {top})"));
            }
        }
    }
    report
}

#[test]
fn layers_import_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let report = layer_report(&src, LAYER_RULES);
    assert!(
        report.is_empty(),
        "imports against the layers (`records` is below `experiment` and `plot`, `plot` below \
         `experiment`; move the item down to the layer both can see):\n{}",
        report.join("\n")
    );
}

/// The layer rule finds `crate::` paths, grouped `use`s and `super::` paths that climb out of
/// a module, and nothing in comments or in an allowed direction.
#[test]
fn the_layer_rule_finds_upward_imports() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |rel: &str, text: &str| write_file(src, rel, text);
    write("lib.rs", "pub mod low;\npub mod high;\n");
    write("high/mod.rs", "pub mod run;\nuse crate::low::Row;\n");
    write("high/run.rs", "use super::super::low::Row;\n");
    write("low/mod.rs", "pub mod row;\n// use crate::high::run;\n");
    write("low/row.rs", "use super::Row;\n");
    let rules: &[(&str, &[&str])] = &[("low", &["high"])];
    assert!(layer_report(src, rules).is_empty());

    write(
        "low/row.rs",
        "use crate::{high::run::go, low};\nfn f() { super::super::high::x() }\n",
    );
    assert_eq!(
        layer_report(src, rules),
        vec![
            "low/row.rs: crate::high::run::go (names high)",
            "low/row.rs: super::super::high::x (names high)",
        ]
    );
}

#[test]
fn src_has_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let report = cycle_report(&src);
    assert!(
        report.is_empty(),
        "import cycles in src/ (move the shared items where both sides can use them; \
         `python3 scripts/ci/module-cycles.py --edges` lists every edge):\n{}",
        report.join("\n")
    );
}

/// Writes `text` to `src/rel`, creating its directories.
fn write_file(src: &Path, rel: &str, text: &str) {
    let p = src.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The checker finds what it must: a cycle through a grouped `use`, through an inline path,
/// through `super::`, and none through comments, strings or a one-way import.
#[test]
fn the_checker_finds_cycles_and_only_cycles() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |rel: &str, text: &str| write_file(src, rel, text);
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    write(
        "a/mod.rs",
        "pub mod x;\npub mod y;\nuse crate::{c::{self, Thing}, b};\n",
    );
    write("b.rs", "fn f() { let _ = crate::c::g(); }\n");
    write(
        "c.rs",
        "// use crate::a::x;\nconst S: &str = \"crate::a::x\";\nconst R: &str = r#\"crate::b\"#;\n\
         fn f<'a>(c: &'a char) -> char { '\"' }\n",
    );
    write("a/x.rs", "use super::y::Y;\n");
    write("a/y.rs", "use super::super::b;\n");
    assert!(cycle_report(src).is_empty(), "{:?}", cycle_report(src));

    // c -> a (an inline path) closes a -> c and a -> b -> c, at both levels.
    write("c.rs", "fn f() { crate::a::x::go() }\n");
    let r = cycle_report(src);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(
        r[0].starts_with("cycle between top-level modules: a <-> b <-> c\n"),
        "{r:?}"
    );
    assert!(r[0].contains("c -> a (from c)"), "{r:?}");
    assert_eq!(r[1], "cycle between files: a::x <-> a::y <-> b <-> c");
    write("c.rs", "");

    // Siblings through `super::` and a grouped use.
    write("a/y.rs", "use super::{x::{X}};\n");
    let r = cycle_report(src);
    assert_eq!(r, vec!["cycle between files: a::x <-> a::y".to_string()]);
}

#[test]
fn use_trees_expand() {
    assert_eq!(
        paths("use crate::a::{b, c::{d, e as f}, self};"),
        vec![
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "crate::a"
        ]
    );
    assert_eq!(
        paths("x = super::super::m::f(1);"),
        vec!["super::super::m::f"]
    );
    assert!(paths(&strip("/* crate::a */ \"crate::b\" // crate::c")).is_empty());
}
