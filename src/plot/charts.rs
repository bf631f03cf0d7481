//! The chart kinds: each turns records into a [`Plot`] (see `draw` for the painting). Every
//! kind reduces repetitions of an instance to their median first (`data::instances`), and
//! draws only runs that answered or hit a limit; `unsupported` and `error` runs are left out
//! and counted in the caption.

use super::axis::{format_value, Axis, Unit};
use super::data::{self, is_limit, Instance, Metric, Selection};
use super::draw::{series_style, Dash, Item, LegendEntry, Marker, Pen, Plot, GREY, PALETTE};
use super::spec::UnknownName;
use super::{ChartKind, ChartSpec, PlotError};
use crate::records::summary::{quantile, summarize};
use crate::records::Record;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};
use std::collections::BTreeMap;

const WIDE: (u32, u32) = (1200, 750);

/// Builds the plot that `spec` asks for.
pub fn build(records: &[Record], spec: &ChartSpec) -> Result<Plot, PlotError> {
    let sel = data::select(records, &spec.configs, &spec.datasets)?;
    let mut plot = match spec.kind {
        ChartKind::Cactus => cactus(&sel, spec)?,
        ChartKind::Scatter => scatter(&sel, spec)?,
        ChartKind::Box => boxes(&sel, spec)?,
        ChartKind::Bars => bars(&sel, spec)?,
        ChartKind::Line => line(&sel, spec)?,
        ChartKind::Survival => survival(&sel, spec)?,
    };
    if let Some(t) = &spec.title {
        plot.title = t.clone();
    }
    if sel.not_run > 0 {
        plot.caption.push_str(&format!(
            " {} run(s) with status unsupported or error are left out.",
            sel.not_run
        ));
    }
    Ok(plot)
}

/// The metric named by the spec (default `cpu_s`).
fn spec_metric(spec: &ChartSpec) -> Result<&'static Metric, UnknownName> {
    data::metric(spec.metric.as_deref().unwrap_or("cpu_s"))
}

/// "pe96, norvig-top95 · 3 configurations · 191 instances · median of 3 repetitions".
fn subtitle(sel: &Selection<'_>) -> String {
    let mut datasets: Vec<&str> = Vec::new();
    let mut puzzles = std::collections::BTreeSet::new();
    let mut reps = 0;
    for r in &sel.records {
        if !datasets.contains(&r.dataset.as_str()) {
            datasets.push(&r.dataset);
        }
        puzzles.insert((&r.dataset, r.puzzle_index));
        reps = reps.max(r.repetition + 1);
    }
    let mut parts = vec![
        datasets.join(", "),
        plural(sel.configs.len(), "configuration"),
        plural(puzzles.len(), "instance"),
    ];
    if reps > 1 {
        parts.push(format!("median of up to {reps} repetitions"));
    }
    parts.join(" · ")
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The description of a log axis of `m`, saying where zeros are drawn if any value was
/// clamped.
fn log_label(label: &str, axis: &Axis, values: impl IntoIterator<Item = f64>) -> String {
    let clamped = values.into_iter().any(|v| axis.clamps(v));
    if clamped {
        format!(
            "{label} (log scale; 0 drawn at {})",
            format_value(axis.unit.log_floor(), axis.unit)
        )
    } else {
        format!("{label} (log scale)")
    }
}

/// A plot with nothing to draw but a message (all runs unanswered, say): still a chart with
/// its title, so that a report shows what was asked for and why it is empty.
fn empty(title: String, subtitle: String, message: String, caption: String) -> Plot {
    Plot {
        title,
        subtitle,
        x: Axis::linear("", Unit::Plain, 0.0, 1.0, true),
        y: Axis::linear("", Unit::Plain, 0.0, 1.0, true),
        items: Vec::new(),
        legend: Vec::new(),
        caption,
        size: WIDE,
        message: Some(message),
    }
}

fn min_max(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values.into_iter().fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((a, b)) => Some((a.min(v), b.max(v))),
    })
}

/// Every `stride`-th point (and the last), so that markers identify a line without hiding it.
fn thin(points: &[(f64, f64)], most: usize) -> Vec<(f64, f64)> {
    let stride = points.len().div_ceil(most).max(1);
    let mut out: Vec<(f64, f64)> = points.iter().copied().step_by(stride).collect();
    if let Some(&last) = points.last() {
        if out.last() != Some(&last) {
            out.push(last);
        }
    }
    out
}

/// A series drawn as a line with markers on every few points (so that markers identify the
/// line without hiding it).
fn marked_line(points: Vec<(f64, f64)>, colour: RGBColor, dash: Dash, marker: Marker) -> [Item; 2] {
    [
        Item::Markers {
            points: thin(&points, 12),
            marker,
            colour,
            size: 4,
            filled: true,
        },
        Item::Line {
            points,
            pen: Pen {
                colour,
                width: 2,
                dash,
            },
        },
    ]
}

fn series_legend(i: usize, label: String, with_line: bool) -> LegendEntry {
    let (colour, dash, m) = series_style(i);
    LegendEntry {
        label,
        pen: with_line.then_some(Pen {
            colour,
            width: 2,
            dash,
        }),
        marker: Some((m, colour, true)),
    }
}

/// Instances grouped by configuration, in the selection's order.
fn by_config<'a, 'b>(
    sel: &'b Selection<'a>,
    inst: &'b [Instance<'a>],
) -> Vec<(&'a str, usize, Vec<&'b Instance<'a>>)> {
    sel.configs
        .iter()
        .map(|&(c, colour)| (c, colour, inst.iter().filter(|i| i.config == c).collect()))
        .collect()
}

/// The metric's values of the answered instances, ascending: the points of a cactus plot
/// and of a survival function.
fn answered_values(insts: &[&Instance<'_>]) -> Vec<f64> {
    let mut values: Vec<f64> = insts
        .iter()
        .filter(|i| i.answered)
        .filter_map(|i| i.value)
        .collect();
    values.sort_by(f64::total_cmp);
    values
}

fn cactus(sel: &Selection<'_>, spec: &ChartSpec) -> Result<Plot, PlotError> {
    let m = spec_metric(spec)?;
    let inst = data::instances(&sel.records, m);
    let groups = by_config(sel, &inst);
    let title = format!("Cactus plot: {}", m.label);
    let total = groups.iter().map(|g| g.2.len()).max().unwrap_or(0);
    let mut series = Vec::new();
    let mut missing = Vec::new();
    for (c, colour, insts) in &groups {
        let values = answered_values(insts);
        if values.is_empty() && insts.iter().any(|i| i.answered) {
            missing.push(*c);
            continue;
        }
        series.push((*c, *colour, insts.len(), values));
    }
    let limit = (m.unit == Unit::Seconds)
        .then(|| data::uniform_time_limit(&sel.records))
        .flatten();
    let mut caption = format!(
        "Cactus plot. For each configuration, the {} of its answered runs sorted in increasing \
         order: a point (k, v) means that k instances were each answered within v. Runs that \
         hit a limit are not drawn; the legend gives each configuration's count answered.",
        m.name
    );
    if !missing.is_empty() {
        caption.push_str(&format!(
            " No `{}` value for: {}.",
            m.name,
            missing.join(", ")
        ));
    }
    if series.iter().all(|s| s.3.is_empty()) {
        return Ok(empty(
            title,
            subtitle(sel),
            "no answered run to draw".into(),
            caption,
        ));
    }
    let Some((lo, hi)) = min_max(series.iter().flat_map(|s| s.3.iter().copied()).chain(limit))
    else {
        return Ok(empty(
            title,
            subtitle(sel),
            "no answered run to draw".into(),
            caption,
        ));
    };
    let mut y = Axis::log("", m.unit, lo, hi);
    y.label = log_label(m.label, &y, series.iter().flat_map(|s| s.3.iter().copied()));
    let x = Axis::linear(
        format!("instances answered (of {total})"),
        Unit::Plain,
        0.0,
        total as f64,
        true,
    );
    let mut items = Vec::new();
    let mut legend = Vec::new();
    if let Some(t) = limit {
        items.push(Item::Line {
            points: vec![(x.lo, y.pos(t)), (x.hi, y.pos(t))],
            pen: Pen {
                colour: GREY,
                width: 1,
                dash: Dash::Dashed,
            },
        });
        items.push(Item::Text {
            at: (x.lo, y.pos(t)),
            offset: (8, -4),
            text: format!("time limit {}", format_value(t, Unit::Seconds)),
            colour: GREY,
            h: HPos::Left,
            v: VPos::Bottom,
        });
        caption.push_str(" The dashed line is the time limit every run had.");
    }
    for (c, colour_i, n, values) in &series {
        let (colour, dash, mk) = series_style(*colour_i);
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(k, &v)| ((k + 1) as f64, y.pos(v)))
            .collect();
        items.extend(marked_line(points, colour, dash, mk));
        legend.push(series_legend(
            *colour_i,
            format!("{c} ({}/{n})", values.len()),
            true,
        ));
    }
    Ok(Plot {
        title,
        subtitle: subtitle(sel),
        x,
        y,
        items,
        legend,
        caption,
        size: WIDE,
        message: None,
    })
}

/// The survival function of the metric per configuration, as a count: after the `k`-th
/// smallest answered value, `n - k` runs of the configuration's `n` are still unanswered
/// (the runs stopped by a limit never are: they are censored at the limit).
fn survival(sel: &Selection<'_>, spec: &ChartSpec) -> Result<Plot, PlotError> {
    let m = spec_metric(spec)?;
    let inst = data::instances(&sel.records, m);
    let groups = by_config(sel, &inst);
    let title = format!("Survival function: {}", m.label);
    let mut series = Vec::new();
    for (c, colour, insts) in &groups {
        series.push((*c, *colour, insts.len(), answered_values(insts)));
    }
    let limit = (m.unit == Unit::Seconds)
        .then(|| data::uniform_time_limit(&sel.records))
        .flatten();
    let mut caption = format!(
        "Survival function. For each configuration of n runs, a point (v, k) means that k runs \
         had not been answered within {} v; runs stopped by a limit are never answered, so the \
         line ends at their count. Both axes are logarithmic: a heavy-tailed distribution \
         (Gomes et al. 2000) decays along a straight line instead of dropping off.",
        m.name
    );
    let values = series.iter().flat_map(|s| s.3.iter().copied()).chain(limit);
    let (Some((lo, hi)), Some(most)) = (min_max(values), series.iter().map(|s| s.2).max()) else {
        return Ok(empty(
            title,
            subtitle(sel),
            "no answered run to draw".into(),
            caption,
        ));
    };
    let mut x = Axis::log("", m.unit, lo, hi);
    x.label = log_label(m.label, &x, series.iter().flat_map(|s| s.3.iter().copied()));
    let y = Axis::log(
        "runs not yet answered (log scale)",
        Unit::Count,
        1.0,
        most as f64,
    );
    let mut items = Vec::new();
    let mut legend = Vec::new();
    let right = limit.map_or(x.hi, |t| x.pos(t));
    if let Some(t) = limit {
        items.push(Item::Line {
            points: vec![(x.pos(t), y.lo), (x.pos(t), y.hi)],
            pen: Pen {
                colour: GREY,
                width: 1,
                dash: Dash::Dashed,
            },
        });
        caption.push_str(" The dashed line is the time limit every run had.");
    }
    for (c, colour_i, n, values) in &series {
        let (colour, dash, mk) = series_style(*colour_i);
        // A step down at each answered value, from n runs left to n - answered.
        let mut points = Vec::with_capacity(2 * values.len() + 2);
        let mut left = *n;
        let start = values.first().map_or(right, |&v| x.pos(v));
        points.push((x.lo.min(start), y.pos(left as f64)));
        for &v in values {
            let at = x.pos(v);
            points.push((at, y.pos(left as f64)));
            left -= 1;
            if left == 0 {
                break;
            }
            points.push((at, y.pos(left as f64)));
        }
        if left > 0 {
            points.push((right, y.pos(left as f64)));
        }
        items.extend(marked_line(points, colour, dash, mk));
        legend.push(series_legend(
            *colour_i,
            format!("{c} ({}/{n} answered)", values.len()),
            true,
        ));
    }
    Ok(Plot {
        title,
        subtitle: subtitle(sel),
        x,
        y,
        items,
        legend,
        caption,
        size: WIDE,
        message: None,
    })
}

fn scatter(sel: &Selection<'_>, spec: &ChartSpec) -> Result<Plot, PlotError> {
    let m = spec_metric(spec)?;
    let names: Vec<&str> = sel.configs.iter().map(|c| c.0).collect();
    let pick = |wanted: &Option<String>, default: Option<&&str>, axis: &'static str| match wanted {
        Some(w) if names.contains(&w.as_str()) => Ok(w.clone()),
        Some(w) => Err(PlotError::ScatterAxis {
            axis,
            name: w.clone(),
            known: names.join(", "),
        }),
        None => default
            .map(|s| s.to_string())
            .ok_or_else(|| PlotError::ScatterNeedsTwo {
                count: names.len(),
                known: names.join(", "),
            }),
    };
    let a = pick(&spec.x, names.first(), "x")?;
    let b_default = names.iter().find(|n| **n != a);
    let b = pick(&spec.y, b_default, "y")?;
    let inst = data::instances(&sel.records, m);
    let of = |c: &str| -> BTreeMap<(&str, u64), &Instance<'_>> {
        inst.iter()
            .filter(|i| i.config == c)
            .map(|i| ((i.dataset, i.puzzle_index), i))
            .collect()
    };
    let (ia, ib) = (of(&a), of(&b));
    // The value of an instance on its axis: None = a limit hit (drawn on the border).
    let mut pairs = Vec::new();
    let mut unmatched = 0;
    let mut no_value = 0;
    for (key, pa) in &ia {
        let Some(pb) = ib.get(key) else {
            unmatched += 1;
            continue;
        };
        let va = if pa.answered { pa.value } else { None };
        let vb = if pb.answered { pb.value } else { None };
        if (pa.answered && va.is_none()) || (pb.answered && vb.is_none()) {
            no_value += 1;
            continue;
        }
        pairs.push((va, vb));
    }
    unmatched += ib.keys().filter(|k| !ia.contains_key(*k)).count();
    let title = format!("{b} vs {a}: {}", m.label);
    let mut caption = format!(
        "Each point is one instance (dataset and puzzle): its {} with {a} (x) and with {b} (y). \
         Points above the diagonal took more with {b}. Runs that hit a limit are drawn as \
         crosses on the dashed border.",
        m.name
    );
    if unmatched > 0 {
        caption.push_str(&format!(
            " {unmatched} instance(s) run by only one of the two are left out."
        ));
    }
    if no_value > 0 {
        caption.push_str(&format!(
            " {no_value} instance(s) without a `{}` value are left out.",
            m.name
        ));
    }
    let answered = pairs.iter().flat_map(|(x, y)| [*x, *y]).flatten();
    let limit = (m.unit == Unit::Seconds)
        .then(|| data::uniform_time_limit(&sel.records))
        .flatten();
    let Some((lo, hi)) = min_max(answered.clone()) else {
        return Ok(empty(
            title,
            subtitle(sel),
            "no instance answered by either configuration".into(),
            caption,
        ));
    };
    // The border: the time limit when all runs had the same one, else a bit past the largest
    // answered value (counts have no common limit).
    let border = match limit {
        Some(t) => t.max(hi),
        None => hi * 2.0,
    };
    let any_hit = pairs.iter().any(|(x, y)| x.is_none() || y.is_none());
    let top = if any_hit { border * 1.6 } else { hi };
    let mut x = Axis::log("", m.unit, lo, top);
    x.label = log_label(&format!("{a}: {}", m.label), &x, answered.clone());
    let mut y = Axis::log("", m.unit, lo, top);
    y.label = log_label(&format!("{b}: {}", m.label), &y, answered.clone());
    let (mut both, mut hits) = (Vec::new(), Vec::new());
    let (mut above, mut below) = (0, 0);
    for (va, vb) in &pairs {
        let p = (x.pos(va.unwrap_or(border)), y.pos(vb.unwrap_or(border)));
        match (va, vb) {
            (Some(u), Some(v)) => {
                both.push(p);
                if v > u {
                    above += 1;
                } else if v < u {
                    below += 1;
                }
            }
            _ => hits.push(p),
        }
    }
    caption.push_str(&format!(
        " Of the {} answered by both, {above} took more with {b} and {below} took more with {a}.",
        both.len()
    ));
    let light = Pen {
        colour: GREY,
        width: 1,
        dash: Dash::Dashed,
    };
    let mut items = vec![Item::Line {
        points: vec![
            (x.lo.max(y.lo), x.lo.max(y.lo)),
            (x.hi.min(y.hi), x.hi.min(y.hi)),
        ],
        pen: Pen {
            colour: RGBColor(0x99, 0x99, 0x99),
            width: 1,
            dash: Dash::Solid,
        },
    }];
    if any_hit {
        let (bx, by) = (x.pos(border), y.pos(border));
        items.push(Item::Line {
            points: vec![(x.lo, by), (bx, by), (bx, y.lo)],
            pen: light,
        });
        let what = match limit {
            Some(t) => format!("limit ({})", format_value(t, Unit::Seconds)),
            None => "limit hit".to_string(),
        };
        items.push(Item::Text {
            at: (x.lo, by),
            offset: (6, -4),
            text: what,
            colour: GREY,
            h: HPos::Left,
            v: VPos::Bottom,
        });
    }
    let n_both = both.len();
    let n_hits = hits.len();
    items.push(Item::Markers {
        points: both,
        marker: Marker::Circle,
        colour: PALETTE[0],
        size: 4,
        filled: false,
    });
    items.push(Item::Markers {
        points: hits,
        marker: Marker::Cross,
        colour: PALETTE[1],
        size: 5,
        filled: false,
    });
    let legend = vec![
        LegendEntry {
            label: format!("both answered ({n_both})"),
            pen: None,
            marker: Some((Marker::Circle, PALETTE[0], false)),
        },
        LegendEntry {
            label: format!("limit hit by one or both ({n_hits})"),
            pen: None,
            marker: Some((Marker::Cross, PALETTE[1], false)),
        },
        LegendEntry {
            label: "y = x".into(),
            pen: Some(Pen {
                colour: RGBColor(0x99, 0x99, 0x99),
                width: 1,
                dash: Dash::Solid,
            }),
            marker: None,
        },
    ];
    Ok(Plot {
        title,
        subtitle: subtitle(sel),
        x,
        y,
        items,
        legend,
        caption,
        size: (1100, 820),
        message: None,
    })
}

/// Tukey's box: quartiles, whiskers to the furthest values within 1.5 IQR, outliers beyond.
#[derive(Debug, PartialEq)]
pub struct BoxStats {
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub lo: f64,
    pub hi: f64,
    pub outliers: Vec<f64>,
}

pub fn box_stats(values: &[f64]) -> Option<BoxStats> {
    let mut v = values.to_vec();
    let q1 = quantile(&mut v, 0.25)?;
    let median = quantile(&mut v, 0.5)?;
    let q3 = quantile(&mut v, 0.75)?;
    let iqr = q3 - q1;
    let (fence_lo, fence_hi) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    let inside = v
        .iter()
        .copied()
        .filter(|x| *x >= fence_lo && *x <= fence_hi);
    let lo = inside.clone().fold(q1, f64::min);
    let hi = inside.fold(q3, f64::max);
    let outliers = v
        .iter()
        .copied()
        .filter(|x| *x < fence_lo || *x > fence_hi)
        .collect();
    Some(BoxStats {
        q1,
        median,
        q3,
        lo,
        hi,
        outliers,
    })
}

fn boxes(sel: &Selection<'_>, spec: &ChartSpec) -> Result<Plot, PlotError> {
    let m = spec_metric(spec)?;
    let inst = data::instances(&sel.records, m);
    let groups = by_config(sel, &inst);
    let title = format!("Distribution: {}", m.label);
    let caption = format!(
        "Box plot of the {} of answered runs per configuration (repetitions reduced to their \
         median): the box spans the quartiles, the thick line is the median, the whiskers reach \
         the furthest run within 1.5 x IQR of the box (Tukey), and the circles beyond are \
         outliers. Runs that hit a limit are not drawn; each label gives their count.",
        m.name
    );
    let mut rows = Vec::new();
    for (c, colour, insts) in &groups {
        let values: Vec<f64> = insts
            .iter()
            .filter(|i| i.answered || m.structural)
            .filter_map(|i| i.value)
            .collect();
        let hits = insts.iter().filter(|i| !i.answered).count();
        let mut label = format!("{c} (n={}", values.len());
        if hits > 0 && !m.structural {
            label.push_str(&format!(", {hits} unanswered"));
        }
        label.push(')');
        rows.push((label, *colour, values));
    }
    let Some((lo, hi)) = min_max(rows.iter().flat_map(|r| r.2.iter().copied())) else {
        return Ok(empty(
            title,
            subtitle(sel),
            "no answered run to draw".into(),
            caption,
        ));
    };
    let mut x = Axis::log("", m.unit, lo, hi);
    x.label = log_label(m.label, &x, rows.iter().flat_map(|r| r.2.iter().copied()));
    let y = Axis::categories("", rows.iter().map(|r| r.0.clone()).collect());
    let mut items = Vec::new();
    for (i, (_, colour_i, values)) in rows.iter().enumerate() {
        let c = y.category_pos(i);
        let (colour, _, _) = series_style(*colour_i);
        let Some(b) = box_stats(values) else {
            items.push(Item::Text {
                at: (x.lo, c),
                offset: (8, 0),
                text: format!("no `{}` value", m.name),
                colour: GREY,
                h: HPos::Left,
                v: VPos::Center,
            });
            continue;
        };
        let pen = |width| Pen {
            colour,
            width,
            dash: Dash::Solid,
        };
        let h = 0.3;
        items.push(Item::Rect {
            from: (x.pos(b.q1), c - h),
            to: (x.pos(b.q3), c + h),
            fill: colour.mix(0.2),
            border: Some(pen(2)),
        });
        items.push(Item::Line {
            points: vec![(x.pos(b.median), c - h), (x.pos(b.median), c + h)],
            pen: pen(4),
        });
        for (from, to) in [(b.lo, b.q1), (b.q3, b.hi)] {
            items.push(Item::Line {
                points: vec![(x.pos(from), c), (x.pos(to), c)],
                pen: pen(2),
            });
        }
        for end in [b.lo, b.hi] {
            items.push(Item::Line {
                points: vec![(x.pos(end), c - h / 2.0), (x.pos(end), c + h / 2.0)],
                pen: pen(2),
            });
        }
        items.push(Item::Markers {
            points: b.outliers.iter().map(|&v| (x.pos(v), c)).collect(),
            marker: Marker::Circle,
            colour,
            size: 3,
            filled: false,
        });
    }
    let height = (160 + 80 * rows.len() as u32).clamp(420, 1400);
    Ok(Plot {
        title,
        subtitle: subtitle(sel),
        x,
        y,
        items,
        legend: Vec::new(),
        caption,
        size: (1200, height),
        message: None,
    })
}

/// A bar chart's value axis turns logarithmic when its largest positive value is more than
/// this many times its smallest positive one.
pub const BAR_LOG_SPAN: f64 = 10.0;

/// The value axis of a bar chart of `values`, and whether it is logarithmic: linear from 0
/// while the positive values span at most [`BAR_LOG_SPAN`]x, else log (zeros at the unit's
/// floor, said on the label). Room is left on the right for the value labels at the bar ends.
pub(super) fn bar_axis(label: &str, unit: Unit, values: &[f64]) -> (Axis, bool) {
    let positive = values.iter().copied().filter(|v| *v > 0.0);
    let max = positive.clone().fold(0.0, f64::max);
    let min = positive.fold(f64::INFINITY, f64::min);
    if max > 0.0 && max / min > BAR_LOG_SPAN {
        let lo = values.iter().copied().fold(min, f64::min);
        let data = Axis::log("", unit, lo, max);
        let mut a = Axis::log_range("", unit, data.lo, data.hi + (data.hi - data.lo) * 0.18);
        let top = data.hi;
        a.ticks.retain(|t| *t <= top);
        a.minor.retain(|t| *t <= top);
        a.label = log_label(label, &a, values.iter().copied());
        (a, true)
    } else {
        let a = Axis::linear(
            format!("{label} (linear scale)"),
            unit,
            0.0,
            if max > 0.0 { max * 1.18 } else { 1.0 },
            true,
        );
        (a, false)
    }
}

fn bars(sel: &Selection<'_>, spec: &ChartSpec) -> Result<Plot, PlotError> {
    let name = spec.metric.as_deref().unwrap_or("par2_s");
    let &(_, label) = data::bar_metric(name)?;
    // The summary of exactly the selected runs, as the report's table computes it.
    let owned: Vec<Record> = sel.all.iter().map(|r| (*r).clone()).collect();
    let lines = summarize(&owned);
    let unit = match name {
        "solved" => Unit::Plain,
        "median_nodes" | "median_guesses" => Unit::Count,
        _ => Unit::Seconds,
    };
    let mut rows = Vec::new();
    for &(c, colour) in &sel.configs {
        let Some(l) = lines.iter().find(|l| l.config == c) else {
            continue;
        };
        let (value, text) = match name {
            "solved" => (
                Some(l.solved as f64),
                format!("{}/{}", l.solved, l.instances),
            ),
            _ => {
                let v = match name {
                    "par2_s" => l.par2_s,
                    "median_cpu_s" => l.median_cpu_s,
                    "mean_cpu_s" => l.mean_cpu_s,
                    "median_nodes" => l.median_nodes,
                    _ => l.median_guesses,
                };
                let text = match (v, name) {
                    (Some(v), _) => format_value(v, unit),
                    (None, "par2_s") => "n/a: an unsolved run had no time limit".into(),
                    (None, _) => "n/a: no solved run has it".into(),
                };
                (v, text)
            }
        };
        rows.push((c.to_string(), colour, value, text));
    }
    let title = format!("{label} per configuration");
    let caption = match name {
        "par2_s" => "PAR-2 score per configuration: the mean over instances of the CPU time of \
                     an answered run and of twice the time limit for a run that hit a limit \
                     (repetitions reduced to their median), as in the SAT competitions. \
                     Lower is better."
            .to_string(),
        _ => format!("{label} per configuration, from the summary table (repetitions reduced to their median)."),
    };
    if rows.is_empty() {
        return Ok(empty(
            title,
            subtitle(sel),
            "no run to summarise".into(),
            caption,
        ));
    }
    let values: Vec<f64> = rows.iter().filter_map(|r| r.2).collect();
    let (x, log) = bar_axis(label, unit, &values);
    let caption = format!(
        "{caption} {}",
        if log {
            format!(
                "The value axis is logarithmic: the values span more than {BAR_LOG_SPAN}x, so \
                 on a linear axis the small bars would be invisible slivers."
            )
        } else {
            format!("The value axis is linear: the values span at most {BAR_LOG_SPAN}x.")
        }
    );
    let y = Axis::categories("", rows.iter().map(|r| r.0.clone()).collect());
    let mut items = Vec::new();
    for (i, (_, colour_i, value, text)) in rows.iter().enumerate() {
        let c = y.category_pos(i);
        let (colour, _, _) = series_style(*colour_i);
        // Bars start at the axis' left end: 0 on a linear axis, the floor on a log one.
        let start = if log { x.lo } else { 0.0 };
        let end = value.map_or(start, |v| x.pos(v));
        if value.is_some() {
            items.push(Item::Rect {
                from: (start, c - 0.32),
                to: (end, c + 0.32),
                fill: colour.mix(0.85),
                border: None,
            });
        }
        items.push(Item::Text {
            at: (end, c),
            offset: (6, 0),
            text: text.clone(),
            colour: if value.is_some() {
                RGBColor(0, 0, 0)
            } else {
                GREY
            },
            h: HPos::Left,
            v: VPos::Center,
        });
    }
    let height = (160 + 64 * rows.len() as u32).clamp(380, 1400);
    Ok(Plot {
        title,
        subtitle: subtitle(sel),
        x,
        y,
        items,
        legend: Vec::new(),
        caption,
        size: (1200, height),
        message: None,
    })
}

fn line(sel: &Selection<'_>, spec: &ChartSpec) -> Result<Plot, PlotError> {
    let m = spec_metric(spec)?;
    let xc = data::x_column(spec.x.as_deref().unwrap_or("clues"))?;
    let inst = data::instances(&sel.records, m);
    let groups = by_config(sel, &inst);
    let title = format!("{} vs {}", m.label, xc.label);
    // config -> x -> (values, limit hits); x is never negative (counts, sizes, shares), so
    // the bits of its f64 order it as the number does.
    struct At {
        values: Vec<f64>,
        hits: usize,
    }
    let mut series = Vec::new();
    for (c, colour, insts) in &groups {
        let mut at: BTreeMap<u64, At> = BTreeMap::new();
        for i in insts {
            let Some(xv) = xc.value(i.rep) else { continue };
            let e = at.entry(xv.to_bits()).or_insert(At {
                values: Vec::new(),
                hits: 0,
            });
            if i.answered || m.structural {
                e.values.extend(i.value);
            } else if is_limit(&i.rep.status) {
                e.hits += 1;
            }
        }
        series.push((*c, *colour, at));
    }
    let stats: Vec<_> = series
        .iter()
        .map(|(c, colour, at)| {
            let pts: Vec<(f64, f64, Option<f64>, usize)> = at
                .iter()
                .filter_map(|(&xv, a)| {
                    let mut v = a.values.clone();
                    let med = quantile(&mut v, 0.5)?;
                    let p90 = (v.len() >= 5).then(|| quantile(&mut v, 0.9)).flatten();
                    Some((f64::from_bits(xv), med, p90, a.hits))
                })
                .collect();
            let hits: Vec<(f64, usize)> = at
                .iter()
                .filter(|(_, a)| a.hits > 0)
                .map(|(&xv, a)| (f64::from_bits(xv), a.hits))
                .collect();
            (*c, *colour, pts, hits)
        })
        .collect();
    let mut caption = format!(
        "For each configuration and each value of {}: the median (solid) and, where at least 5 \
         instances answered, the 90th percentile (dashed) of the {} of answered runs \
         (repetitions reduced to their median).",
        xc.name, m.name
    );
    let any_hits = stats.iter().any(|s| !s.3.is_empty());
    if any_hits {
        caption.push_str(
            " Triangles in the band at the top mark values of x where runs hit a limit, with \
             their count; those runs are not in the lines.",
        );
    }
    let ys = stats
        .iter()
        .flat_map(|s| s.2.iter().flat_map(|p| [Some(p.1), p.2]).flatten());
    let xs = stats
        .iter()
        .flat_map(|s| s.2.iter().map(|p| p.0).chain(s.3.iter().map(|h| h.0)));
    let (Some((ylo, yhi)), Some((xlo, xhi))) = (min_max(ys.clone()), min_max(xs.clone())) else {
        return Ok(empty(
            title,
            subtitle(sel),
            "no answered run to draw".into(),
            caption,
        ));
    };
    let mut distinct: Vec<f64> = xs.clone().collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let log_x = xlo > 0.0 && xhi / xlo > 10.0;
    let mut x = if log_x {
        let mut a = Axis::log("", Unit::Plain, xlo, xhi);
        a.label = format!("{} (log scale)", xc.label);
        a
    } else {
        let pad = ((xhi - xlo) * 0.04).max(0.5);
        let mut a = Axis::linear(xc.label, xc.unit, xlo - pad, xhi + pad, false);
        a.lo = xlo - pad;
        a.hi = xhi + pad;
        a.ticks.retain(|t| *t >= a.lo && *t <= a.hi);
        a
    };
    if distinct.len() <= 12 {
        // Few x values (grid sizes): tick exactly those.
        x.ticks = distinct.iter().map(|&v| x.pos(v)).collect();
        x.minor.clear();
    }
    let data_axis = Axis::log("", m.unit, ylo, yhi);
    // A band above the data for limit-hit marks, one row per configuration that has some.
    let hit_rows = stats.iter().filter(|s| !s.3.is_empty()).count();
    let row_h = (data_axis.hi - data_axis.lo) * 0.1;
    let mut y = if hit_rows > 0 {
        let mut a = Axis::log_range(
            "",
            m.unit,
            data_axis.lo,
            data_axis.hi + row_h * (hit_rows as f64 + 0.5),
        );
        let top = data_axis.hi;
        a.ticks.retain(|t| *t <= top);
        a.minor.retain(|t| *t <= top);
        a
    } else {
        data_axis.clone()
    };
    y.label = log_label(m.label, &y, ys.clone());
    let mut items = Vec::new();
    let mut legend = Vec::new();
    if hit_rows > 0 {
        items.push(Item::Line {
            points: vec![(x.lo, data_axis.hi), (x.hi, data_axis.hi)],
            pen: Pen {
                colour: RGBColor(0xaa, 0xaa, 0xaa),
                width: 1,
                dash: Dash::Solid,
            },
        });
    }
    let mut row = 0;
    let mut missing = Vec::new();
    // Growth exponents against the grid side over the upper half of a log x range (small
    // inputs are dominated by fixed costs); see `loglog_exponent`. Not against clues: hardness
    // there is no power law.
    let fit_from = (log_x && xc.name == "size").then(|| (xlo * xhi).sqrt());
    let mut fitted = 0;
    for (c, colour_i, pts, hits) in &stats {
        let (colour, dash, mk) = series_style(*colour_i);
        let median: Vec<(f64, f64)> = pts.iter().map(|p| (x.pos(p.0), y.pos(p.1))).collect();
        let p90: Vec<(f64, f64)> = pts
            .iter()
            .filter_map(|p| p.2.map(|q| (x.pos(p.0), y.pos(q))))
            .collect();
        // Short bars at the percentiles too: a lone one (a single x with enough runs) would
        // otherwise not show.
        items.push(Item::Markers {
            points: p90.clone(),
            marker: Marker::Bar,
            colour,
            size: 5,
            filled: false,
        });
        items.push(Item::Line {
            points: p90,
            pen: Pen {
                colour,
                width: 1,
                dash: Dash::Dashed,
            },
        });
        items.push(Item::Line {
            points: median.clone(),
            pen: Pen {
                colour,
                width: 2,
                dash,
            },
        });
        items.push(Item::Markers {
            points: thin(&median, 40),
            marker: mk,
            colour,
            size: 4,
            filled: true,
        });
        if !hits.is_empty() {
            let yb = data_axis.hi + row_h * (row as f64 + 0.7);
            row += 1;
            for (k, &(xv, n)) in hits.iter().enumerate() {
                items.push(Item::Markers {
                    points: vec![(x.pos(xv), yb)],
                    marker: Marker::TriangleUp,
                    colour,
                    size: 5,
                    filled: true,
                });
                // Counts centred above and below the marks in turn, so that neighbouring x
                // values (clues one apart) do not print over each other.
                let (dy, v) = if k % 2 == 0 {
                    (-8, VPos::Bottom)
                } else {
                    (8, VPos::Top)
                };
                items.push(Item::Text {
                    at: (x.pos(xv), yb),
                    offset: (0, dy),
                    text: n.to_string(),
                    colour,
                    h: HPos::Center,
                    v,
                });
            }
        }
        if pts.is_empty() && hits.is_empty() {
            missing.push(*c);
            continue;
        }
        let total_hits: usize = hits.iter().map(|h| h.1).sum();
        let mut label = if total_hits > 0 {
            format!("{c} ({total_hits} limit hits)")
        } else {
            c.to_string()
        };
        if let Some(from) = fit_from {
            let tail: Vec<(f64, f64)> = pts
                .iter()
                .filter(|p| p.0 >= from)
                .map(|p| (p.0, p.1))
                .collect();
            if let Some(b) = loglog_exponent(&tail) {
                label.push_str(&format!(" · N^{b:.2}"));
                fitted += 1;
            }
        }
        legend.push(series_legend(*colour_i, label, true));
    }
    if let (Some(from), true) = (fit_from, fitted > 0) {
        caption.push_str(&format!(
            " N^b in a legend entry: the exponent b of the least-squares line through the \
             log-log medians at {} >= {} (the upper half of the range, at least 3 values).",
            xc.name,
            format_value(
                distinct
                    .iter()
                    .copied()
                    .find(|&v| v >= from)
                    .unwrap_or(from),
                xc.unit
            )
        ));
    }
    if !missing.is_empty() {
        caption.push_str(&format!(
            " No `{}` value for: {}.",
            m.name,
            missing.join(", ")
        ));
    }
    let key = |label: &str, dash, marker| LegendEntry {
        label: label.into(),
        pen: (dash != Dash::Dotted).then_some(Pen {
            colour: GREY,
            width: 2,
            dash,
        }),
        marker,
    };
    legend.push(key("median", Dash::Solid, None));
    legend.push(key("90th percentile", Dash::Dashed, None));
    if hit_rows > 0 {
        legend.push(key(
            "runs stopped by a limit",
            Dash::Dotted,
            Some((Marker::TriangleUp, GREY, true)),
        ));
    }
    Ok(Plot {
        title,
        subtitle: subtitle(sel),
        x,
        y,
        items,
        legend,
        caption,
        size: WIDE,
        message: None,
    })
}

/// The slope `b` of the least-squares line through `(ln x, ln y)`, i.e. the exponent of the
/// power law `y = a x^b` that fits the points best on a log-log chart; `None` with fewer than
/// 3 positive points or a single x value.
pub fn loglog_exponent(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.0 > 0.0 && p.1 > 0.0)
        .map(|p| (p.0.ln(), p.1.ln()))
        .collect();
    if logs.len() < 3 {
        return None;
    }
    let k = logs.len() as f64;
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / k;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / k;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| sxy / sxx)
}

#[cfg(test)]
mod fit_tests {
    use super::loglog_exponent;

    #[test]
    fn exponents_of_power_laws_are_recovered() {
        let cube: Vec<(f64, f64)> = [4.0, 9.0, 16.0, 25.0].map(|x| (x, 0.5 * x * x * x)).into();
        assert!((loglog_exponent(&cube).unwrap() - 3.0).abs() < 1e-9);
        let flat: Vec<(f64, f64)> = [2.0, 3.0, 5.0].map(|x| (x, 7.0)).into();
        assert!(loglog_exponent(&flat).unwrap().abs() < 1e-9);
        // Too few points, one x value, or non-positive values: no fit.
        assert_eq!(loglog_exponent(&[(1.0, 1.0), (2.0, 4.0)]), None);
        assert_eq!(loglog_exponent(&[(2.0, 1.0), (2.0, 4.0), (2.0, 3.0)]), None);
        assert_eq!(loglog_exponent(&[(1.0, 0.0), (2.0, 4.0), (3.0, 0.0)]), None);
    }
}
