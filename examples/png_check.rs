//! Says whether a screenshot shows a page or nothing: `scripts/ci/check-reports.sh` runs it on
//! each report rendered by headless Chromium.
//!
//!     cargo run --release --example png_check -- SHOT.png [MIN_INK_PERCENT] [MIN_COLOURS]
//!
//! Prints `WIDTHxHEIGHT, ink P%, C colours` and exits 0 when the image is at least 200x200
//! pixels, at least MIN_INK_PERCENT (default 1) of its pixels are not near-white ("ink") and
//! it has at least MIN_COLOURS (default 6) distinct colours (4 bits per channel): a blank,
//! near-uniform or text-only page fails with exit 1 and the reason; an unreadable file
//! fails with exit 2.

use std::collections::HashSet;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: png_check SHOT.png [MIN_INK_PERCENT] [MIN_COLOURS]");
        return ExitCode::from(2);
    };
    let min_ink: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let min_colours: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(6);
    let img = match image::open(path) {
        Ok(i) => i.to_rgb8(),
        Err(e) => {
            eprintln!("{path}: not a readable image: {e}");
            return ExitCode::from(2);
        }
    };
    let (w, h) = img.dimensions();
    let mut ink = 0u64;
    let mut colours = HashSet::new();
    for p in img.pixels() {
        let [r, g, b] = p.0;
        if r.min(g).min(b) < 235 {
            ink += 1;
        }
        colours.insert((r >> 4, g >> 4, b >> 4));
    }
    let ink_pct = 100.0 * ink as f64 / (w as f64 * h as f64).max(1.0);
    println!("{w}x{h}, ink {ink_pct:.2}%, {} colours", colours.len());
    let mut bad = Vec::new();
    if w < 200 || h < 200 {
        bad.push(format!("only {w}x{h} pixels"));
    }
    if ink_pct < min_ink {
        bad.push(format!(
            "nearly blank: {ink_pct:.2}% of the pixels are not white (at least {min_ink}% expected)"
        ));
    }
    if colours.len() < min_colours {
        bad.push(format!(
            "nearly uniform: {} distinct colours (at least {min_colours} expected)",
            colours.len()
        ));
    }
    if bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("{path}: {}", bad.join("; "));
        ExitCode::from(1)
    }
}
