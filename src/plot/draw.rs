//! The painter: a chart is first described as a [`Plot`] (axes, items in plot coordinates,
//! legend, caption) by the chart kinds, then drawn here on any plotters backend. Keeping the
//! description apart lets the tests check what a chart shows without reading pixels, and
//! keeps the look (fonts, palette, layout) in one place.

use super::axis::Axis;
use super::error::DrawError;
use super::font::FAMILY;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008), ordered so that
/// the first colours are the most distinct on white; yellow, hard to see on white, is the
/// eighth. Four darker colours from Paul Tol's "muted" scheme follow, so that experiments with
/// up to 12 configurations (the clue study has 11) never repeat a colour: a repeated colour
/// with another dash was read as the same engine, and a dashed median as a percentile.
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xC8, 0xB4, 0x00), // yellow, darkened to be seen on white
    RGBColor(0x88, 0x22, 0x55), // wine
    RGBColor(0x11, 0x77, 0x33), // dark green
    RGBColor(0xAA, 0x44, 0x99), // purple
    RGBColor(0x8C, 0x56, 0x4B), // brown
];
pub const GREY: RGBColor = RGBColor(0x60, 0x60, 0x60);

/// Font sizes in pixels at the default chart size (1200 x 750), chosen to stay readable when
/// the report shrinks a chart to about 900 pixels wide.
const TITLE_SIZE: f64 = 26.0;
const SUBTITLE_SIZE: f64 = 16.0;
const AXIS_SIZE: f64 = 19.0;
const TICK_SIZE: f64 = 16.0;
const LEGEND_SIZE: f64 = 16.0;
pub const NOTE_SIZE: f64 = 14.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    pub colour: RGBColor,
    pub width: u32,
    pub dash: Dash,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Cross,
    /// A short horizontal bar (percentile marks).
    Bar,
}

/// Colour, line dash and marker of series `i`: 12 colours, then the same colours again with
/// another dash and marker, so that more than 12 series stay apart.
pub fn series_style(i: usize) -> (RGBColor, Dash, Marker) {
    const MARKERS: [Marker; 5] = [
        Marker::Circle,
        Marker::Square,
        Marker::TriangleUp,
        Marker::Diamond,
        Marker::TriangleDown,
    ];
    let colour = PALETTE[i % PALETTE.len()];
    let round = i / PALETTE.len();
    let dash = match round % 3 {
        0 => Dash::Solid,
        1 => Dash::Dashed,
        _ => Dash::Dotted,
    };
    (colour, dash, MARKERS[(i + round) % MARKERS.len()])
}

/// A linear coordinate whose ticks (bold points, labelled) and light grid lines are given,
/// not computed: the axes choose them (`axis`). plotters' own `WithKeyPoints` would do, but
/// it loses the default label formatting that `configure_mesh` requires for `f64`.
struct Keyed {
    lo: f64,
    hi: f64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Keyed {
    fn of(a: &Axis) -> Keyed {
        Keyed {
            lo: a.lo,
            hi: a.hi,
            bold: a.ticks.clone(),
            light: a.minor.clone(),
        }
    }
}

impl Ranged for Keyed {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (f * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Something drawn in plot coordinates.
#[derive(Clone)]
pub enum Item {
    Line {
        points: Vec<(f64, f64)>,
        pen: Pen,
    },
    Markers {
        points: Vec<(f64, f64)>,
        marker: Marker,
        colour: RGBColor,
        size: u32,
        filled: bool,
    },
    Rect {
        from: (f64, f64),
        to: (f64, f64),
        fill: RGBAColor,
        border: Option<Pen>,
    },
    Text {
        at: (f64, f64),
        /// Pixels from `at` (x right, y down).
        offset: (i32, i32),
        text: String,
        colour: RGBColor,
        h: HPos,
        v: VPos,
    },
}

#[derive(Clone)]
pub struct LegendEntry {
    pub label: String,
    pub pen: Option<Pen>,
    pub marker: Option<(Marker, RGBColor, bool)>,
}

/// A whole chart.
#[derive(Clone)]
pub struct Plot {
    pub title: String,
    pub subtitle: String,
    pub x: Axis,
    pub y: Axis,
    pub items: Vec<Item>,
    pub legend: Vec<LegendEntry>,
    /// What a reader needs to know that the picture cannot say: shown under the chart in the
    /// report.
    pub caption: String,
    pub size: (u32, u32),
    /// Shown in the middle of an empty chart.
    pub message: Option<String>,
}

fn style(size: f64) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size).into_font()).color(&BLACK)
}

/// Width in pixels of `text` at `size`.
fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    text: &str,
    size: f64,
) -> u32 {
    area.estimate_text_size(text, &style(size))
        .map(|(w, _)| w)
        .unwrap_or((text.chars().count() as f64 * size * 0.6) as u32)
}

/// `text` cut (with an ellipsis) to fit `max` pixels.
fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    text: &str,
    size: f64,
    max: u32,
) -> String {
    if text_width(area, text, size) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (1..chars.len()).rev() {
        let cut: String = chars[..keep].iter().collect::<String>() + "…";
        if text_width(area, &cut, size) <= max {
            return cut;
        }
    }
    "…".into()
}

fn shape(pen: Pen) -> ShapeStyle {
    pen.colour.stroke_width(pen.width)
}

/// Draws a polyline in pixel coordinates with the pen's dash.
fn path<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    points: Vec<(i32, i32)>,
    pen: Pen,
) -> Result<(), DrawError> {
    match pen.dash {
        Dash::Solid => root
            .draw(&PathElement::new(points, shape(pen)))
            .map_err(DrawError::of),
        Dash::Dashed => root
            .draw(&DashedPathElement::new(points, 9, 6, shape(pen)))
            .map_err(DrawError::of),
        Dash::Dotted => root
            .draw(&DashedPathElement::new(points, 2, 5, shape(pen)))
            .map_err(DrawError::of),
    }
}

/// Draws a marker centred at a pixel.
fn marker<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    (x, y): (i32, i32),
    m: Marker,
    colour: RGBColor,
    size: u32,
    filled: bool,
) -> Result<(), DrawError> {
    let s = size as i32;
    let st = if filled {
        colour.filled()
    } else {
        colour.stroke_width(2)
    };
    let outline = |pts: Vec<(i32, i32)>| -> Result<(), DrawError> {
        if filled {
            root.draw(&Polygon::new(pts, st)).map_err(DrawError::of)
        } else {
            let mut closed = pts.clone();
            closed.push(pts[0]);
            root.draw(&PathElement::new(closed, st))
                .map_err(DrawError::of)
        }
    };
    match m {
        Marker::Circle => root
            .draw(&Circle::new((x, y), s, st))
            .map_err(DrawError::of),
        Marker::Square => outline(vec![
            (x - s, y - s),
            (x + s, y - s),
            (x + s, y + s),
            (x - s, y + s),
        ]),
        Marker::Diamond => {
            let d = s + s / 3;
            outline(vec![(x, y - d), (x + d, y), (x, y + d), (x - d, y)])
        }
        Marker::TriangleUp => {
            let d = s + s / 4;
            outline(vec![
                (x, y - d),
                (x + d, y + d * 3 / 4),
                (x - d, y + d * 3 / 4),
            ])
        }
        Marker::TriangleDown => {
            let d = s + s / 4;
            outline(vec![
                (x, y + d),
                (x + d, y - d * 3 / 4),
                (x - d, y - d * 3 / 4),
            ])
        }
        Marker::Bar => root
            .draw(&PathElement::new(
                vec![(x - s, y), (x + s, y)],
                colour.stroke_width(2),
            ))
            .map_err(DrawError::of),
        Marker::Cross => {
            let st = colour.stroke_width(2);
            root.draw(&PathElement::new(vec![(x - s, y - s), (x + s, y + s)], st))
                .map_err(DrawError::of)?;
            root.draw(&PathElement::new(vec![(x - s, y + s), (x + s, y - s)], st))
                .map_err(DrawError::of)
        }
    }
}

/// Draws `plot` on `root` (which must start at pixel (0, 0)).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    plot: &Plot,
) -> Result<(), DrawError> {
    root.fill(&WHITE).map_err(DrawError::of)?;
    let (w, h) = root.dim_in_pixel();

    // Header: title and a grey subtitle, centred.
    let centre = Pos::new(HPos::Center, VPos::Top);
    let title = fit(root, &plot.title, TITLE_SIZE, w - 40);
    root.draw_text(
        &title,
        &TextStyle::from((FAMILY, TITLE_SIZE, FontStyle::Bold).into_font())
            .color(&BLACK)
            .pos(centre),
        (w as i32 / 2, 12),
    )
    .map_err(DrawError::of)?;
    let mut header = 12 + TITLE_SIZE as i32 + 8;
    if !plot.subtitle.is_empty() {
        let sub = fit(root, &plot.subtitle, SUBTITLE_SIZE, w - 40);
        root.draw_text(
            &sub,
            &style(SUBTITLE_SIZE).color(&GREY).pos(centre),
            (w as i32 / 2, header),
        )
        .map_err(DrawError::of)?;
        header += SUBTITLE_SIZE as i32 + 8;
    }
    let body = root.margin(header as u32, 10, 10, 16);

    // Legend to the right of the plot, never over the data; at most a third of the width.
    let legend_w = if plot.legend.is_empty() {
        0
    } else {
        let widest = plot
            .legend
            .iter()
            .map(|e| text_width(root, &e.label, LEGEND_SIZE))
            .max()
            .unwrap_or(0);
        (widest + 70).min(w / 3)
    };
    let (main, side) = body.split_horizontally(body.dim_in_pixel().0 - legend_w);

    // Room for tick labels and the axis description, measured rather than guessed.
    let y_tick_w = plot
        .y
        .ticks
        .iter()
        .map(|&t| text_width(root, &plot.y.tick_label(t), TICK_SIZE))
        .max()
        .unwrap_or(20);
    let y_area = y_tick_w + 16 + AXIS_SIZE as u32 + 14;
    let x_area = TICK_SIZE as u32 + AXIS_SIZE as u32 + 22;

    let xr = Keyed::of(&plot.x);
    let yr = Keyed::of(&plot.y);
    let mut chart = ChartBuilder::on(&main)
        .margin_top(6)
        .margin_right(18)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(xr, yr)
        .map_err(DrawError::of)?;
    let x_fmt = |v: &f64| plot.x.tick_label(*v);
    let y_fmt = |v: &f64| plot.y.tick_label(*v);
    let mut mesh = chart.configure_mesh();
    mesh.x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_desc(plot.x.label.as_str())
        .y_desc(plot.y.label.as_str())
        .label_style(style(TICK_SIZE))
        .axis_desc_style(style(AXIS_SIZE))
        .bold_line_style(RGBColor(0xd8, 0xd8, 0xd8).stroke_width(1))
        .light_line_style(RGBColor(0xf0, 0xf0, 0xf0).stroke_width(1))
        .axis_style(BLACK.stroke_width(1))
        .set_all_tick_mark_size(5);
    if !plot.y.categories.is_empty() {
        mesh.disable_y_mesh();
    }
    if !plot.x.categories.is_empty() {
        mesh.disable_x_mesh();
    }
    mesh.draw().map_err(DrawError::of)?;

    let px = |p: (f64, f64)| chart.backend_coord(&p);
    for item in &plot.items {
        match item {
            Item::Line { points, pen } => {
                if points.len() >= 2 {
                    path(root, points.iter().map(|&p| px(p)).collect(), *pen)?;
                }
            }
            Item::Markers {
                points,
                marker: m,
                colour,
                size,
                filled,
            } => {
                for &p in points {
                    marker(root, px(p), *m, *colour, *size, *filled)?;
                }
            }
            Item::Rect {
                from,
                to,
                fill,
                border,
            } => {
                let (a, b) = (px(*from), px(*to));
                root.draw(&Rectangle::new([a, b], fill.filled()))
                    .map_err(DrawError::of)?;
                if let Some(pen) = border {
                    root.draw(&Rectangle::new([a, b], shape(*pen)))
                        .map_err(DrawError::of)?;
                }
            }
            Item::Text {
                at,
                offset,
                text,
                colour,
                h,
                v,
            } => {
                let (x, y) = px(*at);
                root.draw_text(
                    text,
                    &style(NOTE_SIZE).color(colour).pos(Pos::new(*h, *v)),
                    (x + offset.0, y + offset.1),
                )
                .map_err(DrawError::of)?;
            }
        }
    }
    if let Some(msg) = &plot.message {
        let (cx, cy) = px(((plot.x.lo + plot.x.hi) / 2.0, (plot.y.lo + plot.y.hi) / 2.0));
        root.draw_text(
            msg,
            &style(AXIS_SIZE)
                .color(&GREY)
                .pos(Pos::new(HPos::Center, VPos::Center)),
            (cx, cy),
        )
        .map_err(DrawError::of)?;
    }

    // The legend: a sample of each series' line and marker, then its label.
    if legend_w > 0 {
        let (sx, sy) = side.get_base_pixel();
        let row = (LEGEND_SIZE * 1.6) as i32;
        let top = sy + 10;
        let max_label = legend_w.saturating_sub(62);
        let rows = ((h as i32 - top - 20) / row).max(1) as usize;
        for (i, e) in plot.legend.iter().enumerate() {
            if i + 1 == rows && plot.legend.len() > rows {
                let more = format!("… {} more", plot.legend.len() - i);
                root.draw_text(
                    &more,
                    &style(LEGEND_SIZE).color(&GREY),
                    (sx + 8, top + row * i as i32),
                )
                .map_err(DrawError::of)?;
                break;
            }
            let y = top + row * i as i32 + row / 2;
            if let Some(pen) = e.pen {
                path(root, vec![(sx + 6, y), (sx + 46, y)], pen)?;
            }
            if let Some((m, c, filled)) = e.marker {
                marker(root, (sx + 26, y), m, c, 5, filled)?;
            }
            let label = fit(root, &e.label, LEGEND_SIZE, max_label);
            root.draw_text(
                &label,
                &style(LEGEND_SIZE).pos(Pos::new(HPos::Left, VPos::Center)),
                (sx + 56, y),
            )
            .map_err(DrawError::of)?;
        }
    }
    root.present().map_err(DrawError::of)?;
    Ok(())
}
