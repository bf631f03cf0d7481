//! The documented usage (the block between `<!-- usage -->` and `<!-- /usage -->` in
//! docs/usage.md) against the binary's `--help`, in both directions: every subcommand and
//! option the manual shows must exist, and every subcommand and option the binary accepts
//! must be in the manual. A failure lists exactly what is missing on which side.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Subcommand -> its options, each option as the set of its spellings (`-o` and `--out` are
/// one option), `-h`/`--help` excluded: clap adds them to every subcommand.
type Usage = BTreeMap<String, BTreeSet<Spellings>>;
type Spellings = BTreeSet<String>;

fn sudolab_help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .arg("--help")
        .output()
        .expect("run sudolab --help");
    assert!(
        out.status.success(),
        "sudolab {} --help failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("--help is UTF-8")
}

/// An option spelling: `--name` (two dashes, then letters, digits and dashes) or `-x` (one
/// dash, one letter). Anything else, such as the `-` that means standard input, is not one.
fn is_option(token: &str) -> bool {
    if let Some(long) = token.strip_prefix("--") {
        long.len() > 1
            && long.starts_with(|c: char| c.is_ascii_alphabetic())
            && long.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    } else if let Some(short) = token.strip_prefix('-') {
        short.len() == 1 && short.chars().all(|c| c.is_ascii_alphabetic())
    } else {
        false
    }
}

fn is_help(option: &str) -> bool {
    option == "--help" || option == "-h"
}

/// The indented lines of one section of a `--help` page (`Options:`, `Commands:`): clap
/// starts each section with an unindented title and indents everything in it.
fn section<'a>(help: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in help.lines().filter(|line| !line.trim().is_empty()) {
        if line.starts_with(' ') {
            if inside {
                lines.push(line);
            }
        } else {
            inside = line.trim_end() == title;
        }
    }
    lines
}

/// Options of one `--help` page: the lines of its `Options:` section that start with a dash
/// at the options' indentation (clap indents descriptions and possible values further).
fn options_of_help(help: &str) -> BTreeSet<Spellings> {
    let mut options = BTreeSet::new();
    for line in section(help, "Options:") {
        let text = line.trim_start();
        if line.len() - text.len() > 6 || !text.starts_with('-') {
            continue;
        }
        let mut spellings = Spellings::new();
        for token in text.split([',', ' ']) {
            if is_option(token) && !is_help(token) {
                spellings.insert(token.to_string());
            } else if !token.is_empty() {
                break;
            }
        }
        if !spellings.is_empty() {
            options.insert(spellings);
        }
    }
    options
}

/// The subcommands listed by `sudolab --help` (its `Commands:` section), `help` excluded.
fn subcommands_of_help(help: &str) -> Vec<String> {
    section(help, "Commands:")
        .into_iter()
        // A name sits at clap's two-space indentation; wrapped descriptions are deeper.
        .filter(|line| line.len() - line.trim_start().len() == 2)
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

fn binary_usage() -> Usage {
    let top = sudolab_help(&[]);
    let commands = subcommands_of_help(&top);
    assert!(
        commands.len() >= 10,
        "found only {commands:?} in `sudolab --help`: has its layout changed?"
    );
    commands
        .into_iter()
        .map(|command| {
            let options = options_of_help(&sudolab_help(&[&command]));
            (command, options)
        })
        .collect()
}

/// The usage block of the manual: lines `sudolab COMMAND ...`, continued by indented lines.
/// Each spelling found there is one entry (the manual shows one spelling per option).
fn documented_usage(doc: &str) -> Usage {
    let block = doc
        .split_once("<!-- usage -->")
        .and_then(|(_, rest)| rest.split_once("<!-- /usage -->"))
        .map(|(block, _)| block)
        .expect("docs/usage.md has a block between <!-- usage --> and <!-- /usage -->");
    let mut usage = Usage::new();
    let mut current: Option<String> = None;
    for line in block.lines() {
        if line.starts_with("```") || line.trim().is_empty() {
            continue;
        }
        let words = if let Some(rest) = line.strip_prefix("sudolab ") {
            let command = rest.split_whitespace().next().unwrap_or("").to_string();
            assert!(
                !usage.contains_key(&command),
                "docs/usage.md: `sudolab {command}` is documented twice in the usage block"
            );
            usage.insert(command.clone(), BTreeSet::new());
            current = Some(command);
            rest
        } else if line.starts_with(' ') {
            line
        } else {
            panic!("docs/usage.md: usage line neither `sudolab ...` nor indented: {line:?}");
        };
        let command = current
            .as_ref()
            .expect("docs/usage.md: the usage block starts with a `sudolab` line");
        let options = usage.get_mut(command).unwrap();
        let tokens = words.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'));
        for token in tokens.filter(|t| is_option(t) && !is_help(t)) {
            options.insert([token.to_string()].into());
        }
    }
    usage
}

/// What one side has and the other lacks, one line per subcommand: the options of `from`
/// none of whose spellings occurs in `in_`, written `-o/--out`.
fn missing(from: &Usage, in_: &Usage) -> Vec<String> {
    let mut lines = Vec::new();
    for (command, options) in from {
        match in_.get(command) {
            None => lines.push(format!("  subcommand `{command}`")),
            Some(other) => {
                let known: BTreeSet<&String> = other.iter().flatten().collect();
                let absent: Vec<String> = options
                    .iter()
                    .filter(|spellings| spellings.iter().all(|s| !known.contains(s)))
                    .map(|spellings| {
                        let names: Vec<&str> = spellings.iter().map(String::as_str).collect();
                        names.join("/")
                    })
                    .collect();
                if !absent.is_empty() {
                    lines.push(format!("  `{command}`: {}", absent.join(" ")));
                }
            }
        }
    }
    lines
}

#[test]
fn documented_usage_matches_help_both_ways() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/usage.md");
    let doc = std::fs::read_to_string(&path).expect("read docs/usage.md");
    let documented = documented_usage(&doc);
    let binary = binary_usage();
    let not_in_help = missing(&documented, &binary);
    let not_documented = missing(&binary, &documented);
    let mut report = String::new();
    if !not_in_help.is_empty() {
        report += "in docs/usage.md's usage block but not in `sudolab ... --help`:\n";
        report += &not_in_help.join("\n");
        report += "\n";
    }
    if !not_documented.is_empty() {
        report += "in `sudolab ... --help` but not in docs/usage.md's usage block:\n";
        report += &not_documented.join("\n");
        report += "\n";
    }
    assert!(report.is_empty(), "usage and --help differ:\n{report}");
}

#[test]
fn help_parser_reads_options_and_skips_descriptions() {
    let help = "Do things\n\nUsage: sudolab x [OPTIONS]\n\nArguments:\n  [FILES]...\n          \
                Files, `-` = stdin\n\nOptions:\n  -e, --engine <ENGINE>\n          Engine \
                --not-this\n\n          - cnf: also --not-this\n      --max-solutions <K>  \
                Stop\n      --dedup\n  -h, --help\n          Print help\n";
    let options: Vec<Vec<String>> = options_of_help(help)
        .into_iter()
        .map(|spellings| spellings.into_iter().collect())
        .collect();
    assert_eq!(
        options,
        [
            vec!["--dedup"],
            vec!["--engine", "-e"],
            vec!["--max-solutions"]
        ]
    );
}

#[test]
fn usage_parser_reads_commands_and_continuation_lines() {
    let doc = "text\n<!-- usage -->\n```sh\nsudolab solve [FILE...|-] [--engine NAME]\n      \
               [--box RxC] [-o PATH]\nsudolab engines\nsudolab run X [--shard i/N]\n```\n\
               <!-- /usage -->\n--outside\n";
    let usage = documented_usage(doc);
    let options = |c: &str| usage[c].iter().flatten().cloned().collect::<Vec<_>>();
    assert_eq!(usage.len(), 3);
    assert_eq!(options("solve"), ["--box", "--engine", "-o"]);
    assert!(options("engines").is_empty());
    assert_eq!(options("run"), ["--shard"]);
}

#[test]
fn a_difference_is_reported_by_side_and_subcommand() {
    let spellings = |names: &[&str]| -> Spellings { names.iter().map(|s| s.to_string()).collect() };
    let doc: Usage = [(
        "solve".to_string(),
        [spellings(&["--engine"]), spellings(&["-o"])].into(),
    )]
    .into();
    let bin: Usage = [
        (
            "solve".to_string(),
            [spellings(&["--csv"]), spellings(&["-o", "--out"])].into(),
        ),
        ("tile".to_string(), BTreeSet::new()),
    ]
    .into();
    assert_eq!(missing(&doc, &bin), ["  `solve`: --engine"]);
    assert_eq!(
        missing(&bin, &doc),
        ["  `solve`: --csv", "  subcommand `tile`"]
    );
}
