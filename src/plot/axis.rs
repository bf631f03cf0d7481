//! Axes in plot coordinates: a log axis is drawn as a linear one over `log10` of the values,
//! with tick positions and labels chosen here, so that zeros can be clamped to a stated floor,
//! decades get readable labels (`1 ms`, `10k`) and every chart kind ticks the same way.

// Defined beside the metrics (each metric has its unit); drawn here.
pub use super::spec::Unit;

impl Unit {
    /// The value drawn in place of zero (or anything smaller) on a log axis: below any
    /// measured time (the clocks resolve about 1e-7 s), and half of the smallest non-zero
    /// count.
    pub fn log_floor(self) -> f64 {
        match self {
            Unit::Seconds => 1e-7,
            Unit::Count | Unit::Plain => 0.5,
        }
    }
}

/// One axis: its range and ticks in plot coordinates (`log10(value)` on a log axis).
#[derive(Clone, Debug)]
pub struct Axis {
    pub label: String,
    pub unit: Unit,
    pub log: bool,
    pub lo: f64,
    pub hi: f64,
    /// Labelled ticks (with grid lines), in plot coordinates.
    pub ticks: Vec<f64>,
    /// Unlabelled light grid lines.
    pub minor: Vec<f64>,
    /// Category names: tick `i` is labelled `categories[i]` (bars, boxes).
    pub categories: Vec<String>,
}

impl Axis {
    /// A log axis covering `min..=max` (values, not logs), widened to whole decades. Values
    /// below the unit's floor are drawn at the floor.
    pub fn log(label: impl Into<String>, unit: Unit, min: f64, max: f64) -> Axis {
        let floor = unit.log_floor();
        let lo_v = min.max(floor);
        let hi_v = max.max(lo_v);
        // Counts start just below the floor (0.5) rather than at 0.1: no count lies between.
        let mut lo = if unit != Unit::Seconds && lo_v < 1.0 {
            floor.log10() - 0.05
        } else {
            lo_v.log10().floor()
        };
        let mut hi = hi_v.log10().ceil();
        if hi - lo < 1.0 {
            hi = lo + 1.0;
        }
        // Data sitting exactly on a decade would touch the frame: leave a sliver of room.
        if (lo_v.log10() - lo).abs() < 1e-9 {
            lo -= 0.05;
        }
        if (hi_v.log10() - hi).abs() < 1e-9 {
            hi += 0.05;
        }
        Axis::log_range(label, unit, lo, hi)
    }

    /// A log axis over plot coordinates `lo..hi` (decimal exponents).
    pub fn log_range(label: impl Into<String>, unit: Unit, lo: f64, hi: f64) -> Axis {
        let (lo, hi) = log_bounds(lo, hi);
        let span = hi - lo;
        let first = lo.ceil() as i32;
        let last = hi.floor() as i32;
        // Decades every 1, 2 or 3 so that at most about 9 labels fit.
        let every = ((span / 9.0).ceil() as i32).max(1);
        let mut ticks = Vec::new();
        let mut minor = Vec::new();
        for e in first..=last {
            if e.rem_euclid(every) == 0 {
                ticks.push(e as f64);
            } else {
                minor.push(e as f64);
            }
        }
        // Few decades: label 2 and 5 too (fewer than two labels say nothing about the scale);
        // otherwise 2..9 as light lines, the usual log-paper look.
        for e in (lo.floor() as i32)..=(hi.ceil() as i32) {
            for m in 2..=9 {
                let t = e as f64 + (m as f64).log10();
                if t <= lo || t >= hi {
                    continue;
                }
                if span <= 2.2 && (m == 2 || m == 5) {
                    ticks.push(t);
                } else if span <= 6.0 {
                    minor.push(t);
                }
            }
        }
        ticks.sort_by(f64::total_cmp);
        Axis {
            label: label.into(),
            unit,
            log: true,
            lo,
            hi,
            ticks,
            minor,
            categories: Vec::new(),
        }
    }

    /// A linear axis over `min..=max` with "nice" ticks (steps of 1, 2 or 5 times a power of
    /// ten); `from_zero` makes it start at 0.
    pub fn linear(
        label: impl Into<String>,
        unit: Unit,
        min: f64,
        max: f64,
        from_zero: bool,
    ) -> Axis {
        let (min, max) = linear_bounds(min, max);
        let (mut lo, mut hi) = if from_zero {
            (0.0_f64.min(min), max.max(0.0))
        } else {
            (min, max)
        };
        if hi - lo <= 0.0 {
            // Widened relative to the value: `lo + 1.0` is `lo` again once |lo| > 2^53.
            hi = lo + lo.abs().max(1.0);
        }
        let step = nice_step((hi - lo) / 8.0);
        let pad = if from_zero { 0.0 } else { step * 0.3 };
        lo -= pad;
        hi += step * 0.3;
        // Ticks by index, not by adding `step` until past `hi`: the sum stalls where `step`
        // is below the spacing of floats near `lo`, and the loop then never ended.
        let first = (lo / step).ceil();
        let count = ((hi + step * 1e-9) / step).floor() - first + 1.0;
        let ticks = (0..count.clamp(0.0, 20.0) as u32)
            .map(|i| {
                let t = (first + f64::from(i)) * step;
                if t.abs() < step * 1e-9 {
                    0.0
                } else {
                    t
                }
            })
            .collect();
        Axis {
            label: label.into(),
            unit,
            log: false,
            lo,
            hi,
            ticks,
            minor: Vec::new(),
            categories: Vec::new(),
        }
    }

    /// A category axis: `names[0]` at the top (on a vertical axis) down to the last.
    pub fn categories(label: impl Into<String>, names: Vec<String>) -> Axis {
        let n = names.len().max(1) as f64;
        Axis {
            label: label.into(),
            unit: Unit::Plain,
            log: false,
            lo: -0.6,
            hi: n - 0.4,
            ticks: (0..names.len()).map(|i| i as f64).collect(),
            minor: Vec::new(),
            categories: names,
        }
    }

    /// Plot coordinate of category `i` (the first category is at the top).
    pub fn category_pos(&self, i: usize) -> f64 {
        (self.categories.len() - 1 - i) as f64
    }

    /// Plot coordinate of a value (clamped to the floor on a log axis).
    pub fn pos(&self, v: f64) -> f64 {
        if self.log {
            v.max(self.unit.log_floor()).log10()
        } else {
            v
        }
    }

    /// Whether `v` would be drawn at the floor rather than where it is.
    pub fn clamps(&self, v: f64) -> bool {
        self.log && v < self.unit.log_floor()
    }

    /// The tick label at plot coordinate `t`.
    pub fn tick_label(&self, t: f64) -> String {
        if !self.categories.is_empty() {
            let n = self.categories.len();
            let i = t.round();
            if i < 0.0 || i as usize >= n {
                return String::new();
            }
            return self.categories[n - 1 - i as usize].clone();
        }
        let v = if self.log { 10f64.powf(t) } else { t };
        format_value(v, self.unit)
    }
}

/// The widest plot range a log axis draws, in decimal exponents: every positive finite
/// `f64` is within 10^-324..10^309.
const LOG_LIMIT: f64 = 330.0;

/// `lo..hi` made finite and bounded, as decimal exponents: an infinite or NaN end (a value of
/// infinity or NaN in a chart) would make the decade loops run to `i32::MAX` and allocate
/// until the process is killed.
fn log_bounds(lo: f64, hi: f64) -> (f64, f64) {
    let bound =
        |v: f64, default: f64| if v.is_nan() { default } else { v }.clamp(-LOG_LIMIT, LOG_LIMIT);
    let lo = bound(lo, 0.0);
    let hi = bound(hi, lo + 1.0);
    if hi > lo {
        (lo, hi)
    } else {
        (lo, lo + 1.0)
    }
}

/// `min..max` made finite for a linear axis: infinities become the largest finite values (a
/// tick step of a finite span exists), NaN the other end (or 0).
fn linear_bounds(min: f64, max: f64) -> (f64, f64) {
    // A quarter of f64::MAX, so that padding and the span (`hi - lo`) stay finite.
    const LIMIT: f64 = f64::MAX / 4.0;
    let bound = |v: f64, default: f64| if v.is_nan() { default } else { v }.clamp(-LIMIT, LIMIT);
    let min = bound(min, if max.is_nan() { 0.0 } else { max });
    let max = bound(max, min);
    (min, max.max(min))
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * p >= raw * 0.999 {
            return m * p;
        }
    }
    10.0 * p
}

/// A value as a tick or bar label: seconds with a unit chosen for the magnitude, counts with
/// k/M/G suffixes, at most three significant digits.
pub fn format_value(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Seconds => {
            let (scale, suffix) = match v.abs() {
                0.0 => (1.0, "s"),
                a if a < 0.99995e-6 => (1e9, "ns"),
                a if a < 0.99995e-3 => (1e6, "µs"),
                a if a < 0.99995 => (1e3, "ms"),
                _ => (1.0, "s"),
            };
            format!("{} {suffix}", short(v * scale))
        }
        Unit::Count => {
            let (scale, suffix) = match v.abs() {
                a if a < 9999.5 => (1.0, ""),
                a if a < 0.99995e6 => (1e-3, "k"),
                a if a < 0.99995e9 => (1e-6, "M"),
                _ => (1e-9, "G"),
            };
            format!("{}{suffix}", short(v * scale))
        }
        Unit::Plain => short(v),
    }
}

/// At most three significant digits, no trailing zeros (`0.5`, `12`, `250`, `1.25`).
fn short(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let digits = (2 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_naturally() {
        assert_eq!(format_value(1e-6, Unit::Seconds), "1 µs");
        assert_eq!(format_value(0.002, Unit::Seconds), "2 ms");
        assert_eq!(format_value(0.25, Unit::Seconds), "250 ms");
        assert_eq!(format_value(10.0, Unit::Seconds), "10 s");
        assert_eq!(format_value(1e-7, Unit::Seconds), "100 ns");
        assert_eq!(format_value(0.5, Unit::Count), "0.5");
        assert_eq!(format_value(12_000.0, Unit::Count), "12k");
        assert_eq!(format_value(3e6, Unit::Count), "3M");
        assert_eq!(format_value(1234.0, Unit::Count), "1234");
        assert_eq!(format_value(17.0, Unit::Plain), "17");
        assert_eq!(format_value(1.25, Unit::Plain), "1.25");
    }

    #[test]
    fn log_axes_cover_the_data_with_decade_ticks() {
        let a = Axis::log("t", Unit::Seconds, 3e-5, 0.2);
        assert!(a.lo <= 3e-5f64.log10() && a.hi >= 0.2f64.log10());
        assert_eq!(a.ticks, vec![-5.0, -4.0, -3.0, -2.0, -1.0, 0.0]);
        assert_eq!(a.tick_label(-3.0), "1 ms");
        // zeros are drawn at the floor, and the axis says so through `clamps`
        let z = Axis::log("n", Unit::Count, 0.0, 100.0);
        assert_eq!(z.pos(0.0), 0.5f64.log10());
        assert!(z.clamps(0.0) && !z.clamps(1.0));
        // a narrow range gets 2 and 5 ticks
        let n = Axis::log("t", Unit::Seconds, 0.0011, 0.009);
        assert!(n.ticks.len() >= 3, "{:?}", n.ticks);
        // a wide one thins its decades
        let w = Axis::log("n", Unit::Count, 1.0, 1e15);
        assert!(w.ticks.len() <= 10, "{:?}", w.ticks);
    }

    /// Extreme ends (finite or not) give a bounded axis at once: an infinite end made the
    /// decade loop of a log axis run to `i32::MAX` (4 GB, then the OOM killer), and equal
    /// ends past 2^53 made the tick loop of a linear axis stall forever.
    #[test]
    fn extreme_ranges_give_bounded_axes() {
        let ends = [
            0.0,
            1e-300,
            1.0,
            1e300,
            f64::MAX,
            -f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for &a in &ends {
            for &b in &ends {
                for unit in [Unit::Seconds, Unit::Count] {
                    let l = Axis::log("t", unit, a, b);
                    assert!(
                        l.lo.is_finite() && l.hi.is_finite() && l.lo < l.hi,
                        "{a} {b}"
                    );
                    assert!(l.ticks.len() + l.minor.len() <= 800, "{a} {b}");
                    for t in &l.ticks {
                        l.tick_label(*t);
                    }
                    let r = Axis::log_range("t", unit, a, b);
                    assert!(r.ticks.len() + r.minor.len() <= 800, "{a} {b}");
                }
                for from_zero in [false, true] {
                    let x = Axis::linear("x", Unit::Plain, a, b, from_zero);
                    assert!(
                        x.lo.is_finite() && x.hi.is_finite() && x.lo < x.hi,
                        "{a} {b}"
                    );
                    assert!(!x.ticks.is_empty() && x.ticks.len() <= 20, "{a} {b} {x:?}");
                }
            }
        }
    }

    #[test]
    fn linear_ticks_are_nice() {
        let a = Axis::linear("x", Unit::Plain, 0.0, 95.0, true);
        assert_eq!(a.ticks[..3], [0.0, 20.0, 40.0]);
        let c = Axis::categories("c", vec!["a".into(), "b".into(), "c".into()]);
        assert_eq!(c.tick_label(c.category_pos(0)), "a");
        assert_eq!(c.tick_label(c.category_pos(2)), "c");
    }
}
