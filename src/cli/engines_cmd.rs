//! `sudolab engines`: the registry, for people.

use crate::engines::ENGINES;
use std::io::Write;
use std::process::ExitCode;

/// Text describing every engine: name, summary, source, counters, limits.
pub fn describe_engines() -> String {
    let mut s = String::new();
    for e in ENGINES {
        s.push_str(&format!("{}\n", e.name));
        s.push_str(&format!("    {}\n", e.summary));
        s.push_str(&format!("    source:       {}\n", e.source));
        s.push_str(&format!("    nodes:        {}\n", e.nodes));
        s.push_str(&format!("    counters:     {}\n", e.counters));
        s.push_str(&format!("    sizes:        {}\n", e.sides));
        s.push_str(&format!("    capabilities: {}\n\n", e.capabilities));
    }
    s.push_str(
        "Every engine: guesses = branch points with two or more alternatives; \
         backtracks = dead ends (nodes with no alternative at all: a cell with no digit \
         allowed, a contradiction, an item with no option).\n",
    );
    s
}

pub fn run() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(describe_engines().as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
