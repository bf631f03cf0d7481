//! Encodes a puzzle as CNF with a chosen encoding and writes it in DIMACS, the input format of
//! every SAT solver: prints the formula's size and the first lines of the file (the header
//! comments that let `sudolab` decode a solver's model, then `p cnf VARS CLAUSES`).
//!
//! ```text
//! cargo run --release --example encode_dimacs               # extended, the library default
//! cargo run --release --example encode_dimacs -- minimal    # or efficient, optimized, reduced
//! ```
//!
//! `sudolab encode PUZZLE --to cnf --encoding ENCODING` writes the same file.

use sudolab::cnf::{self, CnfEncoding, CnfOptions};
use sudolab::puzzle::{read_str, ReadOptions};

/// A 4x4 puzzle in the line format (2x2 boxes): small enough to read its DIMACS.
const PUZZLE: &str = "1000001001000003";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_format, puzzles) = read_str(PUZZLE, "<example>", &ReadOptions::default())?;
    let puzzle = &puzzles[0].puzzle;
    let encoding: CnfEncoding = match std::env::args().nth(1) {
        Some(name) => name.parse()?,
        None => CnfEncoding::default(),
    };
    // The other options (at-most-one encoding, givens as units or assumptions, ...) keep
    // their defaults.
    let options = CnfOptions {
        encoding,
        ..CnfOptions::default()
    };
    let formula = cnf::encode(puzzle, &options);
    println!(
        "{}: {} variables, {} clauses, {} literals",
        encoding.as_str(),
        formula.num_vars,
        formula.clauses.len(),
        formula.clauses.literals()
    );

    let mut dimacs = Vec::new();
    cnf::write_dimacs(&formula, &mut dimacs)?;
    let text = String::from_utf8(dimacs)?;
    for line in text.lines().take_while(|l| !l.starts_with('p')) {
        println!("{line}");
    }
    let clauses = text.lines().skip_while(|l| !l.starts_with('p'));
    for line in clauses.take(6) {
        println!("{line}");
    }
    println!("...");
    Ok(())
}
