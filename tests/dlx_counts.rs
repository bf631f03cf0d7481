//! The `dlx` engine's node and update counts (count to 2) on a fixed sample of 17-clue,
//! top1465 and forum-hardest puzzles equal those recorded in `tests/data/dlx-counts.txt` from
//! an implementation without the struct-of-arrays links (how the file was made is in its
//! header). A faster layout or a cheaper way of setting up the givens must not change the
//! search: same choices, same covers.

use std::collections::HashMap;
use std::path::Path;
use sudolab::engines::{self, EngineSpec, Limits};
use sudolab::puzzle::{read_puzzles, Puzzle};

#[test]
fn dlx_counts_equal_the_recorded_ones() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/data/dlx-counts.txt")).unwrap();
    let mut sets: HashMap<String, Vec<Puzzle>> = HashMap::new();
    // One engine for every puzzle, sets interleaved in file order: the matrix is reused
    // between puzzles, so this also checks that nothing of one puzzle leaks into the next.
    let mut dlx = EngineSpec::new("dlx").make().unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [set, number, status, nodes, updates] = f[..] else {
            panic!("bad line {line:?}")
        };
        let puzzles = sets
            .entry(set.to_string())
            .or_insert_with(|| read_puzzles(Path::new(&format!("{root}/data/{set}.txt"))).unwrap());
        let p = &puzzles[number.parse::<usize>().unwrap() - 1];
        let o = engines::run(dlx.as_mut(), p, &Limits::solutions(2));
        let got = (
            o.status.as_str(),
            o.stats.nodes.to_string(),
            o.stats.updates.unwrap().to_string(),
        );
        assert_eq!(
            got,
            (status, nodes.to_string(), updates.to_string()),
            "{set} #{number}"
        );
        checked += 1;
    }
    assert_eq!(checked, 214);
}
