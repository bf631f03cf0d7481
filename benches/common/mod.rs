//! What the benchmark programs share: their arguments, and a puzzle file read or a clear
//! exit. Each program uses what it needs of it.
#![allow(dead_code)]

use sudolab::puzzle::{read_puzzles, Puzzle};

/// The program's arguments, without the `--bench` that `cargo bench` passes to it.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}

/// The puzzles of `file`, or its error on stderr and exit status 2.
pub fn puzzles_or_exit(file: &str) -> Vec<Puzzle> {
    read_puzzles(std::path::Path::new(file)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    })
}
