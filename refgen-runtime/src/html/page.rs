//! The two pages: the report of one run, and the comparison of a property's runs under guides.

use super::data::RunLog;
use super::svg::{bar_chart, line_chart, num, Series, COLOURS};
use super::{escape, RunEnd, Verdict};
use crate::observe::Taken;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A choice point with more distinct choices than this is drawn as a histogram of ranges.
const MAX_BARS: usize = 20;
/// The number of ranges of such a histogram.
const BINS: u64 = 10;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;padding:0 1em}\
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}h3{font-size:1em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}\
th:first-child,td:first-child{text-align:left}pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap}\
.verdict{display:inline-block;padding:.2em .6em;border-radius:.3em;color:#fff;font-weight:bold}\
.passed{background:#1a7f37}.failed{background:#cf222e}.gave-up{background:#9a6700}\
.grid{stroke:#e4e4e4}.tick,.legend,.label,.value{font-size:11px;fill:#333}.axis{font-size:12px;fill:#222}\
.empty,.note{color:#666}ol.trace li{font-family:monospace;margin:.2em 0;white-space:pre-wrap}";

/// The page around `body`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n{body}</body></html>\n",
        escape(title)
    )
}

/// How the choices of a choice point are grouped into rows: one row per
/// choice, or (with many distinct integer choices) one per range of choices.
enum Bins {
    Each(Vec<Taken>),
    /// `count` ranges of `width` choices from `lo`, the last ending at `hi`.
    Ranges {
        lo: u64,
        hi: u64,
        width: u64,
        count: u64,
    },
}

impl Bins {
    /// The rows for the choices counted in `all`.
    fn of(all: &BTreeMap<Taken, u64>) -> Bins {
        let offsets: Vec<u64> =
            all.keys().filter_map(|t| if let Taken::Offset(c) = t { Some(*c) } else { None }).collect();
        if all.len() <= MAX_BARS || offsets.len() < all.len() {
            return Bins::Each(all.keys().cloned().collect());
        }
        let (lo, hi) = (offsets[0], offsets[offsets.len() - 1]);
        let width = ((hi - lo) / BINS).saturating_add(1);
        // As many ranges as it takes to reach `hi`, at most `BINS`: none starts past it.
        Bins::Ranges { lo, hi, width, count: (hi - lo) / width + 1 }
    }

    /// The rows of `counts`, an integer's labelled with `noun` and its value or range, a pick's with its option's label.
    fn rows(&self, counts: &BTreeMap<Taken, u64>, noun: &str) -> Vec<(String, u64)> {
        match self {
            Bins::Each(keys) => keys
                .iter()
                .map(|t| {
                    let label = match t {
                        Taken::Offset(c) => format!("{noun} {c}"),
                        Taken::Option(l) => l.clone(),
                    };
                    (label, counts.get(t).copied().unwrap_or(0))
                })
                .collect(),
            &Bins::Ranges { lo, hi, width, count } => {
                let mut bins = vec![0u64; count as usize];
                for (t, n) in counts {
                    if let Taken::Offset(c) = *t {
                        bins[((c.clamp(lo, hi) - lo) / width).min(count - 1) as usize] += n;
                    }
                }
                bins.iter()
                    .enumerate()
                    .map(|(i, n)| {
                        let a = lo + i as u64 * width;
                        let b = (a + width - 1).min(hi);
                        (format!("{noun} {a}–{b}"), *n)
                    })
                    .collect()
            }
        }
    }
}

/// The rows of the bar chart of `counts`.
fn rows(counts: &BTreeMap<Taken, u64>, noun: &str) -> Vec<(String, u64)> {
    Bins::of(counts).rows(counts, noun)
}

/// The histogram rows of a run's sizes (choices per case).
fn size_rows(run: &RunLog) -> Vec<(String, u64)> {
    let mut counts: BTreeMap<Taken, u64> = BTreeMap::new();
    for c in run.searched() {
        *counts.entry(Taken::Offset(c.size as u64)).or_insert(0) += 1;
    }
    rows(&counts, "size")
}

/// A table of the counts of runs, one row per run.
fn counts_table(runs: &[&RunLog]) -> String {
    let mut out = String::from(
        "<table class=\"counts\"><tr><th>guide</th><th>cases</th><th>valid</th><th>valid rate</th><th>distinct valid</th><th>discarded</th><th>failed</th><th>best utility</th><th>mean choices per case</th></tr>",
    );
    for run in runs {
        let s = run.summary();
        let rate = if s.cases == 0 { 0.0 } else { 100.0 * s.valid as f64 / s.cases as f64 };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{rate:.1}%</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td></tr>",
            escape(&run.guide),
            s.cases,
            s.valid,
            s.distinct_valid,
            s.discarded,
            s.failed,
            s.best_utility.map_or("–".to_owned(), num),
            s.mean_size
        );
    }
    out.push_str("</table>");
    out
}

/// The chart of a run's counts over its cases.
fn timeline_chart(run: &RunLog) -> String {
    let t = run.timeline();
    let f = |v: &[u64]| v.iter().map(|&n| n as f64).collect::<Vec<_>>();
    let series = [
        Series::steps("valid", f(&t.valid)),
        Series::steps("distinct valid", f(&t.distinct_valid)),
        Series::steps("discarded", f(&t.discarded)),
        Series::steps("failing", f(&t.failed)),
    ];
    line_chart(&series, "cases run", "cases")
}

/// The HTML report of one run (see [`super::report_page`]).
pub(super) fn report(run: &RunLog, end: &RunEnd) -> String {
    let mut b = String::new();
    let (class, word) = match end.verdict {
        Verdict::Passed => ("passed", "passed"),
        Verdict::Failed => ("failed", "failed"),
        Verdict::GaveUp => ("gave-up", "did not pass"),
    };
    let _ = write!(
        b,
        "<h1>Property <code>{}</code></h1>\n<section id=\"outcome\"><h2>Outcome</h2><p><span class=\"verdict {class}\">{word}</span> under the guide <b>{}</b>.</p><pre>{}</pre>",
        escape(&run.property),
        escape(&run.guide),
        escape(end.text.trim_end())
    );
    b.push_str(&counts_table(&[run]));
    b.push_str("</section>\n");

    let _ = writeln!(
        b,
        "<section id=\"timeline\"><h2>Cases over time</h2><p class=\"note\">Counts after each case of the search (shrinking not included); distinct valid values have different <code>Debug</code>s.</p>{}</section>",
        timeline_chart(run)
    );

    b.push_str("<section id=\"sites\"><h2>Choices at each choice point</h2><p class=\"note\">How often each choice was taken at each choice point over the search's cases: the distribution the generator actually produced under this guide. A pick's choice is shown by its option's label; an integer's by its offset from the low end of its range.</p>");
    let sites = run.site_counts();
    if sites.is_empty() {
        b.push_str("<p class=\"empty\">(no choices were made)</p>");
    }
    for (site, counts) in &sites {
        let _ = write!(b, "<h3><code>{}</code></h3>{}", escape(site), bar_chart(&rows(counts, "choice")));
    }
    b.push_str("</section>\n");

    let _ = writeln!(
        b,
        "<section id=\"sizes\"><h2>Value sizes</h2><p class=\"note\">The number of choices each case made.</p>{}</section>",
        bar_chart(&size_rows(run))
    );

    b.push_str("<section id=\"labels\"><h2>Labels and utilities</h2>");
    let labels = run.label_counts();
    if labels.is_empty() {
        b.push_str(
            "<p class=\"empty\">(no labels; label cases with <code>label!</code> or <code>classify!</code>)</p>",
        );
    } else {
        let mut rows: Vec<_> = labels.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        b.push_str("<p class=\"note\">How many passing cases had each label.</p>");
        b.push_str(&bar_chart(&rows));
    }
    let utilities = run.utilities();
    if utilities.is_empty() {
        b.push_str("<p class=\"empty\">(no utilities; report one with <code>target!</code>, <code>maximize!</code> or <code>minimize!</code>)</p>");
    } else {
        let mut best = f64::NEG_INFINITY;
        let points: Vec<_> = utilities.iter().map(|&(i, u)| ((i + 1) as f64, u)).collect();
        let best_points = points
            .iter()
            .map(|&(x, u)| {
                best = best.max(u);
                (x, best)
            })
            .collect();
        let series = [
            Series { name: "utility of the case".to_owned(), points },
            Series { name: "best so far".to_owned(), points: best_points },
        ];
        b.push_str(&line_chart(&series, "cases run", "utility"));
    }
    b.push_str("</section>\n");

    let _ = write!(b, "<section id=\"guide\"><h2>Guide: {}</h2>", escape(&run.guide));
    for note in &end.notes {
        let _ = write!(b, "<p>{}</p>", escape(note));
    }
    if end.notes.is_empty() && end.section.is_none() {
        b.push_str("<p class=\"empty\">(the guide said nothing about the run)</p>");
    }
    b.push_str("</section>\n");
    if let Some(s) = &end.section {
        let _ = write!(b, "<section id=\"guide-section\"><h2>{}</h2>", escape(&s.title));
        for line in &s.lines {
            let _ = write!(b, "<p>{}</p>", escape(line));
        }
        for (name, points) in &s.curves {
            let _ = write!(b, "<h3>{}</h3>", escape(name));
            b.push_str(&line_chart(&[Series::steps(name.clone(), points.iter().copied())], "step", "value"));
        }
        b.push_str("</section>\n");
    }

    let trace = run.shrink_trace();
    if !trace.is_empty() {
        b.push_str("<section id=\"shrink\"><h2>Shrink trace</h2><p class=\"note\">The failing case the search found, then every smaller failing case the shrinker kept.</p><ol class=\"trace\">");
        for c in trace {
            let _ = write!(b, "<li>{}</li>", escape(&c.representation));
        }
        b.push_str("</ol></section>\n");
    }
    page(&format!("{} ({})", run.property, run.guide), &b)
}

/// The page comparing runs (see [`super::compare_page`]).
pub(super) fn compare(runs: &[RunLog]) -> String {
    let mut b = String::from("<h1>Guides compared</h1>\n<p class=\"note\">The runs of each property under different guides, side by side: the last run of each guide in the observation lines.</p>\n");
    let properties: Vec<&str> = runs.iter().map(|r| r.property.as_str()).collect::<BTreeSet<_>>().into_iter().collect();
    if properties.is_empty() {
        b.push_str("<p class=\"empty\">(no runs)</p>");
    }
    for property in properties {
        // The last run of each guide, in the order the guides first appear.
        let mut chosen: Vec<&RunLog> = Vec::new();
        for run in runs.iter().filter(|r| r.property == property) {
            match chosen.iter_mut().find(|c| c.guide == run.guide) {
                Some(c) => *c = run,
                None => chosen.push(run),
            }
        }
        let _ = write!(b, "<section class=\"property\"><h2>Property <code>{}</code></h2>", escape(property));
        b.push_str(&leaders(&chosen));
        b.push_str(&counts_table(&chosen));
        let over = |name: &str, pick: fn(&super::data::Timeline) -> &Vec<u64>| {
            let series: Vec<Series> = chosen
                .iter()
                .map(|r| Series::steps(r.guide.clone(), pick(&r.timeline()).iter().map(|&n| n as f64)))
                .collect();
            format!("<h3>{name} over cases run</h3>{}", line_chart(&series, "cases run", name))
        };
        b.push_str(&over("distinct valid values", |t| &t.distinct_valid));
        b.push_str(&over("valid cases", |t| &t.valid));
        b.push_str("<h3>Choices at each choice point</h3><p class=\"note\">The share of each choice at each choice point, per guide.</p>");
        let per_guide: Vec<_> = chosen.iter().map(|r| r.site_counts()).collect();
        let sites: BTreeSet<&String> = per_guide.iter().flat_map(|m| m.keys()).collect();
        for site in sites {
            let mut all: BTreeMap<Taken, u64> = BTreeMap::new();
            for m in &per_guide {
                for (c, n) in m.get(site).into_iter().flatten() {
                    *all.entry(c.clone()).or_insert(0) += n;
                }
            }
            let bins = Bins::of(&all);
            let labels = bins.rows(&all, "choice");
            let _ = write!(b, "<h4><code>{}</code></h4><table class=\"sites\"><tr><th>choice</th>", escape(site));
            for (i, r) in chosen.iter().enumerate() {
                let _ = write!(b, "<th style=\"color:{}\">{}</th>", COLOURS[i % COLOURS.len()], escape(&r.guide));
            }
            b.push_str("</tr>");
            let guide_rows: Vec<Vec<u64>> = per_guide
                .iter()
                .map(|m| {
                    bins.rows(m.get(site).unwrap_or(&BTreeMap::new()), "choice").into_iter().map(|r| r.1).collect()
                })
                .collect();
            for (j, (label, _)) in labels.iter().enumerate() {
                let _ = write!(b, "<tr><td>{}</td>", escape(label));
                for g in &guide_rows {
                    let total: u64 = g.iter().sum();
                    let share = if total == 0 { 0.0 } else { g[j] as f64 / total as f64 };
                    let _ = write!(
                        b,
                        "<td style=\"background:rgba(0,114,178,{:.2})\">{:.1}%</td>",
                        share * 0.8,
                        100.0 * share
                    );
                }
                b.push_str("</tr>");
            }
            b.push_str("</table>");
        }
        b.push_str("</section>\n");
    }
    page("Guides compared", &b)
}

/// Which guide led on each measure: the most distinct valid values, the
/// highest valid rate, the best utility (each with its value).
fn leaders(runs: &[&RunLog]) -> String {
    let summaries: Vec<_> = runs.iter().map(|r| (r.guide.as_str(), r.summary())).collect();
    let best = |key: &dyn Fn(&super::data::Summary) -> Option<f64>| {
        summaries.iter().filter_map(|(g, s)| key(s).map(|v| (*g, v))).fold(None::<(&str, f64)>, |acc, (g, v)| match acc
        {
            Some((_, best)) if best >= v => acc,
            _ => Some((g, v)),
        })
    };
    let mut items = Vec::new();
    if let Some((g, v)) = best(&|s| Some(s.distinct_valid as f64)) {
        items.push(format!("most distinct valid values: <b>{}</b> ({})", escape(g), num(v)));
    }
    if let Some((g, v)) = best(&|s| (s.cases > 0).then(|| 100.0 * s.valid as f64 / s.cases as f64)) {
        items.push(format!("highest valid rate: <b>{}</b> ({v:.1}%)", escape(g)));
    }
    if let Some((g, v)) = best(&|s| s.best_utility) {
        items.push(format!("best utility: <b>{}</b> ({})", escape(g), num(v)));
    }
    if let Some((g, _)) = summaries.iter().find(|(_, s)| s.failed > 0) {
        items.push(format!("first to fail: <b>{}</b>", escape(g)));
    }
    format!("<ul class=\"leaders\">{}</ul>", items.iter().map(|i| format!("<li>{i}</li>")).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every integer choice in `lo..=hi` taken `n` times.
    fn uniform(lo: u64, hi: u64, n: u64) -> BTreeMap<Taken, u64> {
        (lo..=hi).map(|c| (Taken::Offset(c), n)).collect()
    }

    /// The `(first, last)` choice of each range row, read back from its label.
    fn ranges(rows: &[(String, u64)]) -> Vec<(u64, u64)> {
        rows.iter()
            .map(|(label, _)| {
                let (a, b) = label.trim_start_matches("choice ").split_once('–').expect(label);
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect()
    }

    /// The ranges of a histogram tile the choices seen: in order, none
    /// inverted, none past the largest choice, and no count lost.
    #[test]
    fn integer_ranges_stay_within_the_choices_seen() {
        for (lo, hi) in [(0, 20), (0, 27), (3, 24), (0, 21), (0, 99), (0, 1000), (5, 5 + 20)] {
            let counts = uniform(lo, hi, 2);
            let rows = rows(&counts, "choice");
            let r = ranges(&rows);
            assert_eq!(r[0].0, lo, "{rows:?}");
            assert_eq!(r.last().unwrap().1, hi, "{rows:?}");
            for w in r.windows(2) {
                assert_eq!(w[0].1 + 1, w[1].0, "{rows:?}");
            }
            assert!(r.iter().all(|(a, b)| a <= b), "{rows:?}");
            assert!(rows.len() as u64 <= BINS);
            assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 2 * (hi - lo + 1));
            assert!(rows.iter().all(|r| r.1 > 0), "a uniform count leaves no range empty: {rows:?}");
        }
    }
}
