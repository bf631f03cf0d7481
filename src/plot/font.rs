//! The chart font, embedded in the binary: plotters is built without its `ttf` feature (which
//! finds fonts through fontconfig), so text is laid out and rasterised with `ab_glyph` from
//! these bytes alone, the same on every machine. Licence: `assets/fonts/LICENSE`.

use plotters::style::{register_font, FontStyle};
use std::sync::Once;

/// DejaVu Sans (Bitstream Vera licence, DejaVu changes public domain).
pub(crate) const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, for titles.
pub(crate) const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The family name charts use. It is also what SVG `font-family` attributes say, so a
/// browser showing an SVG picks its own sans-serif (the layout was measured with DejaVu
/// Sans, whose metrics are close to the common sans-serif fonts).
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers the embedded fonts under [`FAMILY`] once per process.
pub(crate) fn ensure_registered() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are fixed at build time and parsed by the font test: failure here would be
        // a build defect, and text would then be left out rather than the program stopped.
        let _ = register_font(FAMILY, FontStyle::Normal, REGULAR);
        let _ = register_font(FAMILY, FontStyle::Bold, BOLD);
    });
}
