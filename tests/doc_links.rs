//! Relative links of README.md and docs/*.md lead somewhere: the file exists, and a
//! `#anchor` into a Markdown file names one of its headings (GitHub's heading slugs). The
//! manual was moved out of the README once; this keeps its cross-references from rotting.

use std::path::{Path, PathBuf};

/// The targets of the inline links `[text](target)` and images `![alt](target)` of a
/// Markdown text, outside fenced code blocks, with their 1-based line numbers.
fn link_targets(markdown: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for (number, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push((number + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    targets
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, and every character that is not
/// a letter, a digit, `-` or `_` dropped (so `` `encode --to cnf` `` gives `encode---to-cnf`).
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.push(slug(line.trim_start_matches('#')));
        }
    }
    found
}

fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("read docs/")
        .map(|entry| entry.expect("docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn relative_links_of_readme_and_docs_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).expect("read a Markdown file");
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        for (line, target) in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !linked.exists() {
                broken.push(format!("{shown}:{line}: {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if linked.extension().is_some_and(|e| e == "md") {
                let heads = anchors(&std::fs::read_to_string(&linked).unwrap());
                if !heads.iter().any(|h| h == anchor) {
                    broken.push(format!("{shown}:{line}: {target}: no heading #{anchor}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" DIMACS CNF (`encode --to cnf`, `decode`)"),
        "dimacs-cnf-encode---to-cnf-decode"
    );
    assert_eq!(slug(" Status"), "status");
}

#[test]
fn links_are_found_outside_code_blocks_only() {
    let text = "see [a](a.md) and ![b](img/b.svg#x)\n```\n[c](c.md)\n```\n[d](d.md#e)\n";
    let targets: Vec<String> = link_targets(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(targets, ["a.md", "img/b.svg#x", "d.md#e"]);
}
