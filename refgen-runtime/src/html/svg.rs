//! Charts as inline SVG: line charts of series over steps, and horizontal bar charts of counts.

use super::escape;
use std::fmt::Write;

/// The colours of series, in order (distinct for readers with colour blindness: the Okabe–Ito palette).
pub(super) const COLOURS: [&str; 8] =
    ["#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442", "#000000"];

/// At most this many points of a series are drawn; longer series are thinned evenly.
const MAX_POINTS: usize = 400;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 36.0;

/// One named series of `(x, y)` points.
pub(super) struct Series {
    pub(super) name: String,
    pub(super) points: Vec<(f64, f64)>,
}

impl Series {
    /// The series of `ys` over the steps 1, 2, ...
    pub(super) fn steps(name: impl Into<String>, ys: impl IntoIterator<Item = f64>) -> Series {
        Series { name: name.into(), points: ys.into_iter().enumerate().map(|(i, y)| ((i + 1) as f64, y)).collect() }
    }
}

/// A number for an axis: an integer when it is one, otherwise three significant digits.
pub(super) fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}").trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// A range covering `lo..=hi` whose ends are multiples of a round step
/// (1, 2 or 5 times a power of ten) that splits it into at most 5 parts, and the step.
pub(super) fn nice_range(lo: f64, hi: f64) -> (f64, f64, f64) {
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    let raw = span / 5.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power);
    let (a, b) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    (a, if b > a { b } else { a + step }, step)
}

/// The multiples of `step` from `lo` to `hi`.
fn steps(lo: f64, hi: f64, step: f64) -> impl Iterator<Item = f64> {
    let n = ((hi - lo) / step).round() as usize;
    (0..=n).map(move |i| lo + step * i as f64)
}

/// A line chart of `series`, with a legend when there are several, and axes named `x` and `y`.
pub(super) fn line_chart(series: &[Series], x: &str, y: &str) -> String {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1): (f64, f64, f64, f64) =
        (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for &(px, py) in all().filter(|p| p.0.is_finite() && p.1.is_finite()) {
        (x0, x1, y0, y1) = (x0.min(px), x1.max(px), y0.min(py), y1.max(py));
    }
    if x0 > x1 {
        return "<p class=\"empty\">(nothing to draw)</p>".to_owned();
    }
    y0 = y0.min(0.0);
    let (x0, x1, x_step) = nice_range(x0, x1);
    let (y0, y1, y_step) = nice_range(y0, y1);
    let legend = if series.len() > 1 { 18.0 * series.len().div_ceil(3) as f64 } else { 0.0 };
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let sx = |v: f64| LEFT + (v - x0) / (x1 - x0) * pw;
    let sy = |v: f64| TOP + legend + ph - (v - y0) / (y1 - y0) * ph;
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {h}\" width=\"{WIDTH}\" height=\"{h}\" role=\"img\">",
        h = HEIGHT + legend
    );
    for vy in steps(y0, y1, y_step) {
        let _ = write!(
            out,
            "<line x1=\"{LEFT}\" x2=\"{r}\" y1=\"{gy:.1}\" y2=\"{gy:.1}\" class=\"grid\"/><text x=\"{tx}\" y=\"{ty:.1}\" class=\"tick\" text-anchor=\"end\">{vy}</text>",
            r = WIDTH - RIGHT,
            gy = sy(vy),
            tx = LEFT - 4.0,
            ty = sy(vy) + 4.0,
            vy = num(vy),
        );
    }
    for vx in steps(x0, x1, x_step) {
        let _ = write!(
            out,
            "<text x=\"{gx:.1}\" y=\"{bx}\" class=\"tick\" text-anchor=\"middle\">{vx}</text>",
            gx = sx(vx),
            bx = TOP + legend + ph + 14.0,
            vx = num(vx),
        );
    }
    let _ = write!(
        out,
        "<text x=\"{cx}\" y=\"{by}\" class=\"axis\" text-anchor=\"middle\">{x}</text><text x=\"12\" y=\"{cy}\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 12 {cy})\">{y}</text>",
        cx = LEFT + pw / 2.0,
        by = HEIGHT + legend - 4.0,
        cy = TOP + legend + ph / 2.0,
        x = escape(x),
        y = escape(y),
    );
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let every = s.points.len().div_ceil(MAX_POINTS).max(1);
        let mut pts: Vec<_> = s.points.iter().step_by(every).collect();
        if let Some(last) = s.points.last() {
            if pts.last() != Some(&last) {
                pts.push(last);
            }
        }
        let path: Vec<String> = pts
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(|&&(px, py)| format!("{:.1},{:.1}", sx(px), sy(py)))
            .collect();
        let _ = write!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"><title>{}</title></polyline>",
            path.join(" "),
            escape(&s.name)
        );
        if let [(px, py)] = pts[..] {
            let _ = write!(out, "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>", sx(*px), sy(*py));
        }
        if series.len() > 1 {
            let (lx, ly) = (LEFT + (i % 3) as f64 * 200.0, TOP + 12.0 + (i / 3) as f64 * 18.0);
            let _ = write!(
                out,
                "<rect x=\"{lx}\" y=\"{ry}\" width=\"14\" height=\"4\" fill=\"{colour}\"/><text x=\"{tx}\" y=\"{ly}\" class=\"legend\">{}</text>",
                escape(&s.name),
                ry = ly - 5.0,
                tx = lx + 18.0,
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// A horizontal bar chart: one bar per row, its label on the left and its count and share on the right.
pub(super) fn bar_chart(rows: &[(String, u64)]) -> String {
    if rows.is_empty() {
        return "<p class=\"empty\">(nothing to draw)</p>".to_owned();
    }
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let max = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1);
    let (label_w, bar_w, row_h) = (200.0, 320.0, 18.0);
    let h = row_h * rows.len() as f64 + 4.0;
    let mut out =
        format!("<svg class=\"bars\" viewBox=\"0 0 {WIDTH} {h}\" width=\"{WIDTH}\" height=\"{h}\" role=\"img\">");
    for (i, (label, n)) in rows.iter().enumerate() {
        let y = i as f64 * row_h + 2.0;
        let w = (*n as f64 / max as f64 * bar_w).max(if *n > 0 { 1.0 } else { 0.0 });
        let pct = if total == 0 { 0.0 } else { 100.0 * *n as f64 / total as f64 };
        let shown: String = if label.chars().count() > 30 {
            label.chars().take(29).chain(std::iter::once('…')).collect()
        } else {
            label.clone()
        };
        let _ = write!(
            out,
            "<g><title>{full}: {n} ({pct:.1}%)</title><text x=\"{lx}\" y=\"{ty:.1}\" class=\"label\" text-anchor=\"end\">{shown}</text><rect x=\"{label_w}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{bh}\" fill=\"{c}\"/><text x=\"{vx:.1}\" y=\"{ty:.1}\" class=\"value\">{n} ({pct:.1}%)</text></g>",
            full = escape(label),
            shown = escape(&shown),
            lx = label_w - 6.0,
            ty = y + 12.0,
            bh = row_h - 4.0,
            c = COLOURS[0],
            vx = label_w + w + 6.0,
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_end_on_round_steps() {
        assert_eq!(nice_range(1.0, 3105.0), (0.0, 4000.0, 1000.0));
        assert_eq!(nice_range(0.0, 49.0), (0.0, 50.0, 10.0));
        assert_eq!(nice_range(0.0, 1.0), (0.0, 1.0, 0.2));
        assert_eq!(nice_range(-1.0, 20.0), (-5.0, 20.0, 5.0));
        assert_eq!(nice_range(3.0, 3.0), (3.0, 4.0, 1.0));
        assert_eq!(steps(0.0, 1.0, 0.2).count(), 6);
    }
}
