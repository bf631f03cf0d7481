//! Writes a small set of run records (the runner's CSV schema) for trying charts and the
//! report before or without `sudolab run`: a few engines on the sample datasets, with a
//! 20 ms time limit so that limit hits appear, and a JSON sidecar.
//!
//! `cargo run --release --example sample_records -- OUT.csv`

use std::path::Path;
use std::time::Duration;
use sudolab::engines::{self, EngineSpec, Limits};
use sudolab::puzzle::{read_file, ReadOptions};
use sudolab::records::{puzzle_text, Record, RunKey};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "sample-records.csv".into());
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let configs = ["backtrack", "human", "dlx", "sat", "sat:encoding=minimal"];
    let limits = Limits {
        time_limit: Some(Duration::from_millis(20)),
        ..Limits::solutions(2)
    };
    let mut w = csv::Writer::from_path(&out)?;
    let mut job = 0;
    for (file, reps, take) in [
        ("pe96.txt", 2, 50),
        ("norvig-top95.txt", 1, 95),
        ("rk-16x16.txt", 1, 10),
    ] {
        let (_, puzzles) = read_file(&data.join(file), &ReadOptions::default())?;
        let dataset = file.trim_end_matches(".txt");
        for (i, p) in puzzles.iter().take(take).enumerate() {
            let text = puzzle_text(&p.puzzle);
            for config in configs {
                let spec: EngineSpec = config.parse()?;
                for rep in 0..reps {
                    let mut engine = spec.make()?;
                    let outcome = engines::run(engine.as_mut(), &p.puzzle, &limits);
                    let key = RunKey {
                        experiment: "sample",
                        dataset,
                        puzzle_index: i as u64 + 1,
                        config,
                        spec: Some(&spec),
                        repetition: rep,
                        shard: "",
                        job,
                    };
                    job += 1;
                    w.serialize(Record::new(&key, &p.puzzle, &text, &limits, &outcome))?;
                }
            }
        }
    }
    w.flush()?;
    let sidecar = serde_json::json!({
        "experiment": "sample",
        "version": env!("CARGO_PKG_VERSION"),
        "command": std::env::args().collect::<Vec<_>>(),
        "time_limit_s": 0.02,
        "configs": configs,
    });
    std::fs::write(
        Path::new(&out).with_extension("json"),
        serde_json::to_string_pretty(&sidecar)?,
    )?;
    Ok(())
}
