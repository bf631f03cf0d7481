//! Says whether a screenshot shows a page or nothing: `scripts/ci/check-reports.sh` runs this
//! program on each report rendered by headless Chromium.
//!
//! ```text
//! cargo test --release --test png_check -- SHOT.png [MIN_INK_PERCENT] [MIN_COLOURS]
//! ```
//!
//! Prints `WIDTHxHEIGHT, ink P%, C colours` and exits 0 when the image is at least 200x200
//! pixels, at least MIN_INK_PERCENT (default 1) of its pixels are not near-white ("ink") and
//! it has at least MIN_COLOURS (default 6) distinct colours (4 bits per channel): a blank,
//! near-uniform or text-only page fails with exit 1 and the reason; an unreadable file
//! fails with exit 2. The file's name must end in `.png`.
//!
//! A test target without the libtest harness, so that the CI script can give it a file: run
//! by `cargo test` without a file, it checks itself instead on images it draws (a blank page,
//! a tiny one, a page of text-like grey, and a page with a coloured chart).

use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;

use image::{Rgb, RgbImage};

/// What the check measures of an image.
struct Verdict {
    width: u32,
    height: u32,
    ink_percent: f64,
    colours: usize,
}

impl Verdict {
    fn of(img: &RgbImage) -> Verdict {
        let (width, height) = img.dimensions();
        let mut ink = 0u64;
        let mut colours = HashSet::new();
        for p in img.pixels() {
            let [r, g, b] = p.0;
            if r.min(g).min(b) < 235 {
                ink += 1;
            }
            colours.insert((r >> 4, g >> 4, b >> 4));
        }
        let ink_percent = 100.0 * ink as f64 / (width as f64 * height as f64).max(1.0);
        Verdict {
            width,
            height,
            ink_percent,
            colours: colours.len(),
        }
    }

    /// The reasons the image looks like an empty page (none: it shows something).
    fn problems(&self, min_ink: f64, min_colours: usize) -> Vec<String> {
        let (w, h, ink) = (self.width, self.height, self.ink_percent);
        let mut bad = Vec::new();
        if w < 200 || h < 200 {
            bad.push(format!("only {w}x{h} pixels"));
        }
        if ink < min_ink {
            bad.push(format!(
                "nearly blank: {ink:.2}% of the pixels are not white (at least {min_ink}% expected)"
            ));
        }
        if self.colours < min_colours {
            bad.push(format!(
                "nearly uniform: {} distinct colours (at least {min_colours} expected)",
                self.colours
            ));
        }
        bad
    }
}

fn check_file(args: &[String]) -> ExitCode {
    let path = &args[0];
    let min_ink: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let min_colours: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(6);
    let img = match image::open(path) {
        Ok(i) => i.to_rgb8(),
        Err(e) => {
            eprintln!("{path}: not a readable image: {e}");
            return ExitCode::from(2);
        }
    };
    let v = Verdict::of(&img);
    println!(
        "{}x{}, ink {:.2}%, {} colours",
        v.width, v.height, v.ink_percent, v.colours
    );
    let bad = v.problems(min_ink, min_colours);
    if bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("{path}: {}", bad.join("; "));
        ExitCode::from(1)
    }
}

/// The check on drawn images, each written as PNG and read back as a screenshot is.
fn self_check() -> ExitCode {
    let white = Rgb([255, 255, 255]);
    let blank = RgbImage::from_pixel(800, 600, white);
    let tiny = RgbImage::from_fn(120, 80, |x, _| Rgb([(x * 2) as u8, 0, 255 - x as u8]));
    let grey_text = RgbImage::from_fn(800, 600, |x, y| {
        if (x / 3 + y / 7) % 5 == 0 {
            Rgb([40, 40, 40])
        } else {
            white
        }
    });
    let chart = RgbImage::from_fn(800, 600, |x, y| match (x / 100, y / 150) {
        (0, _) => white,
        (c, r) => Rgb([(c * 30) as u8, (r * 60) as u8, 200 - (c * 20) as u8]),
    });
    let cases = [
        ("blank page", blank, false),
        ("tiny image", tiny, false),
        ("text-like grey", grey_text, false),
        ("coloured chart", chart, true),
    ];
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut failed = false;
    for (name, img, shows_something) in cases {
        let path = dir.path().join("shot.png");
        img.save(&path).expect("the PNG is written");
        let read = image::open(Path::new(&path))
            .expect("the PNG reads")
            .to_rgb8();
        let problems = Verdict::of(&read).problems(1.0, 6);
        let ok = problems.is_empty() == shows_something;
        println!(
            "png_check {name}: {} ({})",
            if ok { "ok" } else { "FAILED" },
            if problems.is_empty() {
                "shows something".to_string()
            } else {
                problems.join("; ")
            }
        );
        failed |= !ok;
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    // `cargo test` passes its options and test-name filters on to every test program: a
    // screenshot is told from them by its `.png` name.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if args
        .first()
        .is_some_and(|a| a.to_lowercase().ends_with(".png"))
    {
        check_file(&args)
    } else {
        self_check()
    }
}
