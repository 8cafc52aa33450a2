//! Observability: one JSON object per test case, as Hypothesis writes and the Tyche viewer reads.
//!
//! Set `REFGEN_OBSERVABILITY` to a file ending in `.jsonl` (every property
//! appends to it) or to a directory (each property appends to
//! `<dir>/<property>_testcases.jsonl`). Each line is an object with the
//! fields of Hypothesis' observability format:
//!
//! | field | value |
//! |---|---|
//! | `type` | `"test_case"` |
//! | `run_start` | when the run started, in seconds since the Unix epoch |
//! | `property` | the property's name |
//! | `status` | `"passed"`, `"failed"` or `"gave_up"` (discarded) |
//! | `status_reason` | why it failed or was discarded (empty when it passed) |
//! | `representation` | `name(arg=value, ...)`, with each value's `Debug` |
//! | `arguments` | each argument's name and `Debug` |
//! | `how_generated` | `generated`, `edited by the guide` (a generated case the guide made by editing an earlier one), `shrinking`, `replayed from regressions`, ... |
//! | `features` | the case's labels (`label!`), and `target` when it reported a utility |
//! | `coverage` | `null` (not collected) |
//! | `timing` | `generate:arguments` and `execute:test`, in seconds |
//! | `metadata` | the guide, the replay token of the case (`choices`), the failure reason as `traceback`, the number of choices the case made (`size`), the choices made at each choice point (`sites`: site → choices, in order: a pick's as its option's label, an integer's as its offset), and the case's notes (`notes`, from `note!`) when it has any |
//!
//! The same lines are what an HTML report ([`crate::html`]) is drawn from.

use crate::case_result::{CaseResult, Status};
use crate::token;
use serde_json::{json, Map, Value};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The `how_generated` of a generated case the guide made by editing an
/// earlier one ([`crate::guide::Choices::Replay`]).
pub(crate) const EDITED: &str = "edited by the guide";
/// The `how_generated` of a shrink candidate.
pub(crate) const SHRINKING: &str = "shrinking";
/// The `how_generated` of a replay of the shrunk case that checks it fails every time.
pub(crate) const CHECKING_FLAKINESS: &str = "replayed to check flakiness";
/// The `how_generated` of the last replay of the shrunk case, for its report.
pub(crate) const MINIMAL: &str = "minimal failing case";

/// Writes the observations of one run.
#[derive(Debug)]
pub struct Observer {
    out: BufWriter<File>,
    /// The file written.
    pub path: PathBuf,
}

/// Makes the observation lines of one run of a property.
#[derive(Debug, Clone)]
pub(crate) struct Lines {
    property: String,
    guide: String,
    /// When the run started, in seconds since the Unix epoch.
    pub(crate) run_start: f64,
}

/// The file observations of `property` go to, for the setting `path`.
pub fn observation_file(path: &Path, property: &str) -> PathBuf {
    if path.extension().is_some_and(|e| e == "jsonl") {
        path.to_path_buf()
    } else {
        let stem = crate::persist::file_name(property);
        let stem = stem.trim_end_matches(".json");
        path.join(format!("{stem}_testcases.jsonl"))
    }
}

impl Observer {
    /// Opens (for appending) the file for `property` under the setting `path`.
    pub fn open(path: &Path, property: &str) -> io::Result<Observer> {
        let file = observation_file(path, property);
        if let Some(dir) = file.parent() {
            if !dir.as_os_str().is_empty() {
                fs::create_dir_all(dir)?;
            }
        }
        let out = BufWriter::new(OpenOptions::new().create(true).append(true).open(&file)?);
        Ok(Observer { out, path: file })
    }

    /// Writes one line.
    pub fn write(&mut self, line: &Value) {
        if writeln!(self.out, "{line}").and_then(|_| self.out.flush()).is_err() {
            // Observations are a by-product: a full disk must not fail the test.
        }
    }
}

impl Lines {
    /// The lines of a run of `property` under `guide` starting now.
    pub(crate) fn new(property: &str, guide: &str) -> Lines {
        let run_start = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
        Lines { property: property.to_owned(), guide: guide.to_owned(), run_start }
    }

    /// What the line of one case says.
    pub(crate) fn observe(&self, r: &CaseResult, how_generated: &str) -> Observation {
        let (status, reason) = match &r.status {
            Status::Passed => (CaseStatus::Passed, String::new()),
            Status::Discarded(why) => (CaseStatus::Discarded, why.clone()),
            Status::NotInRange(v) => (CaseStatus::Discarded, format!("{v} is not a value the generator can make")),
            failed => (CaseStatus::Failed, failed.describe()),
        };
        let arguments = r.args.clone().unwrap_or_default();
        let representation = format!(
            "{}({})",
            self.property.rsplit("::").next().unwrap_or(&self.property),
            arguments.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(", ")
        );
        let mut sites: Vec<(String, Vec<Taken>)> = Vec::new();
        let choices = r.tree.sited_choices();
        // The labels of picks, when they belong to these choices.
        let options = if r.options.len() == choices.len() { &r.options[..] } else { &[] };
        for (i, (site, choice)) in choices.iter().enumerate() {
            let taken = match options.get(i) {
                Some(Some(label)) => Taken::Option((*label).to_owned()),
                _ => Taken::Offset(*choice),
            };
            match sites.iter_mut().find(|(s, _)| s == site) {
                Some((_, all)) => all.push(taken),
                None => sites.push(((*site).to_owned(), vec![taken])),
            }
        }
        Observation {
            status,
            reason,
            generator_panicked: matches!(r.status, Status::GenPanicked(_)),
            representation,
            arguments,
            how: how_generated.to_owned(),
            labels: r.labels.clone(),
            notes: r.notes.clone(),
            utility: r.utility,
            size: choices.len(),
            sites,
            choices: token::encode(&r.tree.choices()),
            gen_time: r.gen_time.as_secs_f64(),
            test_time: r.test_time.as_secs_f64(),
        }
    }

    /// The JSON line of an observation of this run.
    pub(crate) fn json(&self, o: &Observation) -> Value {
        o.to_json(&self.property, &self.guide, self.run_start)
    }
}

/// How a case ended, as its observation says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseStatus {
    /// The property held (`passed`).
    Passed,
    /// The property failed, the generator panicked, or the case hung (`failed`).
    Failed,
    /// The case was discarded (`gave_up`).
    Discarded,
}

impl CaseStatus {
    /// The status as the line writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseStatus::Passed => "passed",
            CaseStatus::Failed => "failed",
            CaseStatus::Discarded => "gave_up",
        }
    }
}

/// A choice as an observation gives it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Taken {
    /// An integer's offset from the low end of its range (a number in the line).
    Offset(u64),
    /// The label of the option a pick took (a string in the line).
    Option(String),
}

/// One case, as its observation line tells it: built by the runner and
/// written as a line, or read back from one.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// How it ended.
    pub status: CaseStatus,
    /// Why it failed or was discarded (empty when it passed).
    pub reason: String,
    /// Whether it failed because its generator panicked (a failure of
    /// another kind than the property's: a shrinker keeps the two apart).
    pub generator_panicked: bool,
    /// `name(arg=value, ...)`, with each value's `Debug`.
    pub representation: String,
    /// Each argument's name and `Debug`.
    pub arguments: Vec<(String, String)>,
    /// How it was made: `generated`, `shrinking`, `replayed from regressions`, ...
    pub how: String,
    /// Its labels (`label!`, `classify!`).
    pub labels: Vec<String>,
    /// Its notes (`note!`), in order.
    pub notes: Vec<String>,
    /// The utility it reported (`target!`, `maximize!`, `minimize!`).
    pub utility: Option<f64>,
    /// How many choices it made.
    pub size: usize,
    /// The choices made at each choice point, in order, the choice points in the order first met.
    pub sites: Vec<(String, Vec<Taken>)>,
    /// Its replay token (its choices).
    pub choices: String,
    /// Seconds spent making the value.
    pub gen_time: f64,
    /// Seconds spent running the property.
    pub test_time: f64,
}

impl Observation {
    /// The JSON line of this case, of a run of `property` under `guide` started at `run_start`.
    pub fn to_json(&self, property: &str, guide: &str, run_start: f64) -> Value {
        let arguments: Map<String, Value> =
            self.arguments.iter().map(|(n, v)| (n.clone(), Value::String(v.clone()))).collect();
        let mut features: Map<String, Value> =
            self.labels.iter().map(|l| (l.clone(), Value::String(String::new()))).collect();
        if let Some(u) = self.utility {
            features.insert("target".to_owned(), json!(u));
        }
        let sites: Map<String, Value> = self
            .sites
            .iter()
            .map(|(site, taken)| {
                let taken = taken
                    .iter()
                    .map(|t| match t {
                        Taken::Offset(c) => json!(c),
                        Taken::Option(label) => json!(label),
                    })
                    .collect();
                (site.clone(), Value::Array(taken))
            })
            .collect();
        let failed = self.status == CaseStatus::Failed;
        let mut line = json!({
            "type": "test_case",
            "run_start": run_start,
            "property": property,
            "status": self.status.as_str(),
            "status_reason": self.reason,
            "representation": self.representation,
            "arguments": arguments,
            "how_generated": self.how,
            "features": features,
            "coverage": Value::Null,
            "timing": {
                "generate:arguments": self.gen_time,
                "execute:test": self.test_time,
            },
            "metadata": {
                "traceback": if failed { Value::String(self.reason.clone()) } else { Value::Null },
                "guide": guide,
                "choices": self.choices,
                "size": self.size,
                "sites": sites,
            },
        });
        if !self.notes.is_empty() {
            line["metadata"]["notes"] = json!(self.notes);
        }
        if self.generator_panicked {
            line["metadata"]["generator_panicked"] = Value::Bool(true);
        }
        line
    }

    /// Reads one observation line: the property, the guide, the run's start and the case.
    pub fn from_json(v: &Value) -> Result<(String, String, f64, Observation), String> {
        let text = |field: &str| v.get(field).and_then(Value::as_str).map(str::to_owned);
        let need = |field: &str| text(field).ok_or_else(|| format!("no `{field}` string"));
        if v.get("type").and_then(Value::as_str) != Some("test_case") {
            return Err("not a `test_case` observation".to_owned());
        }
        let status = match need("status")?.as_str() {
            "passed" => CaseStatus::Passed,
            "failed" => CaseStatus::Failed,
            "gave_up" => CaseStatus::Discarded,
            other => return Err(format!("unknown status `{other}`")),
        };
        let meta = v.get("metadata");
        let meta_str = |field: &str| meta.and_then(|m| m.get(field)).and_then(Value::as_str).unwrap_or("").to_owned();
        let features = v.get("features").and_then(Value::as_object);
        let labels = features.map(|f| f.keys().filter(|k| *k != "target").cloned().collect()).unwrap_or_default();
        let utility = features.and_then(|f| f.get("target")).and_then(Value::as_f64);
        let taken = |t: &Value| match t {
            Value::String(label) => Some(Taken::Option(label.clone())),
            other => other.as_u64().map(Taken::Offset),
        };
        let sites = meta
            .and_then(|m| m.get("sites"))
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(site, all)| {
                        let all = all.as_array().map(|a| a.iter().filter_map(taken).collect());
                        (site.clone(), all.unwrap_or_default())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let arguments = v
            .get("arguments")
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(n, a)| (n.clone(), a.as_str().unwrap_or_default().to_owned())).collect())
            .unwrap_or_default();
        let timing = |field: &str| v.get("timing").and_then(|t| t.get(field)).and_then(Value::as_f64).unwrap_or(0.0);
        let run_start = v.get("run_start").and_then(Value::as_f64).ok_or("no `run_start` number")?;
        let case = Observation {
            status,
            reason: text("status_reason").unwrap_or_default(),
            generator_panicked: meta
                .and_then(|m| m.get("generator_panicked"))
                .and_then(Value::as_bool)
                .unwrap_or(false),
            representation: need("representation")?,
            arguments,
            how: text("how_generated").unwrap_or_default(),
            labels,
            notes: meta
                .and_then(|m| m.get("notes"))
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
            utility,
            size: meta.and_then(|m| m.get("size")).and_then(Value::as_u64).unwrap_or(0) as usize,
            sites,
            choices: meta_str("choices"),
            gen_time: timing("generate:arguments"),
            test_time: timing("execute:test"),
        };
        Ok((need("property")?, meta_str("guide"), run_start, case))
    }

    /// Whether the case belongs to the search, not to shrinking a failure or checking it.
    pub fn searched(&self) -> bool {
        ![SHRINKING, CHECKING_FLAKINESS, MINIMAL].contains(&self.how.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_observation_reads_back_from_its_line() {
        let o = Observation {
            status: CaseStatus::Failed,
            reason: "too big".to_owned(),
            generator_panicked: true,
            representation: "p(x=3, ys=[1])".to_owned(),
            arguments: vec![("x".to_owned(), "3".to_owned()), ("ys".to_owned(), "[1]".to_owned())],
            how: SHRINKING.to_owned(),
            labels: vec!["small".to_owned()],
            notes: vec!["total = 3".to_owned()],
            utility: Some(2.5),
            size: 3,
            sites: vec![
                ("x".to_owned(), vec![Taken::Offset(3)]),
                ("Option".to_owned(), vec![Taken::Option("Some".to_owned()), Taken::Option("None".to_owned())]),
            ],
            choices: "r2.abc".to_owned(),
            gen_time: 0.25,
            test_time: 0.5,
        };
        let line = o.to_json("m::p", "rl", 12.0);
        let (property, guide, start, back) = Observation::from_json(&line).unwrap();
        assert_eq!((property.as_str(), guide.as_str(), start), ("m::p", "rl", 12.0));
        // The line's maps are ordered by key: compare the sites as sets.
        let mut sorted = o.clone();
        sorted.sites.sort();
        sorted.arguments.sort();
        let mut back = back;
        back.sites.sort();
        assert_eq!(back, sorted);
        assert_eq!(line["metadata"]["traceback"], "too big");
        assert!(!back.searched(), "a shrink candidate is not part of the search");
    }
}
