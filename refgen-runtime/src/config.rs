//! How a property is run: cases, seed, budgets, time limits, guide, and the environment overrides.
//!
//! Build a [`Config`] with its builder methods; `#[property(...)]` builds one
//! from its options. [`Config::from_env`] applies the environment variables
//! below, which override the code for one run:
//!
//! | variable | effect |
//! |---|---|
//! | `REFGEN_CASES=n` | run `n` cases (at least 1) |
//! | `REFGEN_SEED=n` | use seed `n` (decimal or `0x` hex) |
//! | `REFGEN_MAX_SIZE=n` | the largest length of a collection of default length ([`Config::max_size`]), 1 to 10 000 |
//! | `REFGEN_MAX_TIME=secs` | a time budget for the run ([`Config::max_time`]), in seconds (`10`, `2.5`) or with a unit (`500ms`, `10s`, `2m`): no case is generated once the run has taken that long; unless `REFGEN_CASES` is set too, the run has no bound of cases, so it searches for that long |
//! | `REFGEN_REPLAY=token` | the property that printed the token runs only that case, and reports it (unshrunk: the input the report showed); every other property runs as usual and says once that the token is not its own |
//! | `REFGEN_STATS=1` | print the table of labels (see [`crate::label!`]) and the guide's notes after the run, to the standard error directly, so `cargo test` shows it without `--nocapture` |
//! | `REFGEN_OBSERVABILITY=path` | write one JSON line per case (see [`crate::observe`]); a path that cannot be written fails the run |
//! | `REFGEN_REPORT=dir` | write an HTML report of the run into `dir` (see [`crate::html`]) |
//! | `REFGEN_REGRESSIONS=off` or `=dir` | neither read nor write remembered failures, or keep them in `dir` (a relative path is taken from the test's working directory, the package root under `cargo test`; a word such as `on`, `1` or `false` is an error, not a directory: write `./on` for a directory called `on`) |
//!
//! Warnings (a corrupt regressions file set aside, a replay token printed by
//! another property) are written to standard error directly, so they show
//! even when the harness captures the output of a passing test; they are
//! also part of a failure's report and of the statistics table.

use crate::guide::Guide;
use crate::guides::AutoGuide;
use crate::hashing::fnv1a;
use std::fmt;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Makes the guide of a run. It is called on the thread that generates the
/// cases, so the guide itself need not be `Send`.
pub type GuideFactory = Arc<dyn Fn() -> Box<dyn Guide> + Send + Sync>;

/// The default number of valid cases a property must pass.
pub const DEFAULT_CASES: u64 = 256;
/// The default bound on the number of candidates the shrinker tries.
pub const DEFAULT_SHRINK_STEPS: u64 = 4096;
/// The default bound on the time the shrinker spends.
pub const DEFAULT_SHRINK_TIME: Duration = Duration::from_secs(30);
/// The default time limit of one case (generation and property together).
pub const DEFAULT_CASE_TIMEOUT: Duration = Duration::from_secs(10);
/// The default largest ratio of discarded to requested cases before a run is called vacuous.
pub const DEFAULT_MAX_DISCARD_RATIO: u64 = 4;

/// How a property is run.
#[derive(Clone)]
pub struct Config {
    /// The property's name, for reports, regression files and observations
    /// (`#[property]` uses `module::path::function`).
    pub name: String,
    /// How many valid cases must pass.
    pub cases: u64,
    /// The seed of the run; `None` derives a fixed seed from [`Config::name`],
    /// so a run is deterministic unless a seed is given.
    pub seed: Option<u64>,
    /// At most this many shrink candidates are tried.
    pub max_shrink_steps: u64,
    /// Shrinking stops after this long.
    pub max_shrink_time: Duration,
    /// One case (generation and property) may take this long; a case that
    /// takes longer fails as hanging. `None` runs cases on the calling thread
    /// with no limit.
    pub case_timeout: Option<Duration>,
    /// The run's time budget: no case is generated once the run has taken
    /// this long (the report says so, and how many cases ran). `None`: the
    /// run ends when `cases` valid cases passed.
    pub max_time: Option<Duration>,
    /// The run stops as vacuous once more than `cases * max_discard_ratio`
    /// cases were discarded. A guide's edits of earlier cases that were
    /// rejected ([`crate::runner::Report::rejected`]) are not discards: they
    /// have a budget of their own of the same size, after which the run's
    /// cases are random generation's.
    pub max_discard_ratio: u64,
    /// Where remembered failures live; `None` neither reads nor writes them.
    pub regressions: Option<PathBuf>,
    /// Run only this case (a replay token from a failure report).
    pub replay: Option<String>,
    /// Print the table of labels after the run.
    pub statistics: bool,
    /// Write one JSON line per case here (a `.jsonl` file, or a directory).
    pub observability: Option<PathBuf>,
    /// Write an HTML report of the run into this directory (see [`crate::html`]).
    pub report: Option<PathBuf>,
    /// Count the distinct values of the generated cases that passed, into
    /// [`crate::runner::Report::distinct`]; on with [`Config::statistics`].
    pub count_distinct: bool,
    /// The largest length a collection of default length is given (a `Vec`,
    /// `String`, set or map without a length range of its own; see
    /// `refgen_core::combinators::sizes`); default 100, at most 10 000.
    /// Most lengths stay short; stored failures and examples replay at any
    /// length up to it.
    pub max_size: usize,
    /// Makes the guide that answers the choices of generated cases; by
    /// default [`AutoGuide`] (random, switching to simulated annealing at
    /// the first utility, or to a learning guide when
    /// most cases are discarded).
    pub guide: GuideFactory,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("name", &self.name)
            .field("cases", &self.cases)
            .field("seed", &self.seed)
            .field("max_shrink_steps", &self.max_shrink_steps)
            .field("max_shrink_time", &self.max_shrink_time)
            .field("case_timeout", &self.case_timeout)
            .field("max_time", &self.max_time)
            .field("max_discard_ratio", &self.max_discard_ratio)
            .field("regressions", &self.regressions)
            .field("replay", &self.replay)
            .field("statistics", &self.statistics)
            .field("observability", &self.observability)
            .field("report", &self.report)
            .field("count_distinct", &self.count_distinct)
            .field("max_size", &self.max_size)
            .finish_non_exhaustive()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::new("property")
    }
}

impl Config {
    /// The defaults, for the property called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Config {
            name: name.into(),
            cases: DEFAULT_CASES,
            seed: None,
            max_shrink_steps: DEFAULT_SHRINK_STEPS,
            max_shrink_time: DEFAULT_SHRINK_TIME,
            case_timeout: Some(DEFAULT_CASE_TIMEOUT),
            max_time: None,
            max_discard_ratio: DEFAULT_MAX_DISCARD_RATIO,
            regressions: None,
            replay: None,
            statistics: false,
            observability: None,
            report: None,
            count_distinct: false,
            max_size: refgen_core::combinators::sizes::DEFAULT_MAX_SIZE,
            guide: Arc::new(|| Box::<AutoGuide>::default()),
        }
    }

    /// Run `n` valid cases.
    pub fn cases(mut self, n: u64) -> Self {
        self.cases = n;
        self
    }

    /// Use seed `seed`.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Try at most `n` shrink candidates.
    pub fn max_shrink_steps(mut self, n: u64) -> Self {
        self.max_shrink_steps = n;
        self
    }

    /// Shrink for at most `d`.
    pub fn max_shrink_time(mut self, d: Duration) -> Self {
        self.max_shrink_time = d;
        self
    }

    /// Stop a case that takes longer than `d`, and report it as hanging.
    pub fn case_timeout(mut self, d: Duration) -> Self {
        self.case_timeout = Some(d);
        self
    }

    /// Run cases on the calling thread, with no time limit (no worker thread).
    pub fn no_timeout(mut self) -> Self {
        self.case_timeout = None;
        self
    }

    /// Stop generating once the run has taken `d` (a time budget, as
    /// fuzzers take: with [`Config::cases`] at `u64::MAX`, the run searches
    /// for exactly that long).
    pub fn max_time(mut self, d: Duration) -> Self {
        self.max_time = Some(d);
        self
    }

    /// Call the run vacuous once more than `cases * ratio` cases were
    /// discarded (see [`Config::max_discard_ratio`](Config#structfield.max_discard_ratio)).
    pub fn max_discard_ratio(mut self, ratio: u64) -> Self {
        self.max_discard_ratio = ratio;
        self
    }

    /// Give collections of default length lengths up to `n` (see
    /// [`Config::max_size`](Config#structfield.max_size)).
    ///
    /// # Panics
    /// When `n` is 0 or more than 10 000.
    pub fn max_size(mut self, n: usize) -> Self {
        assert!(
            (1..=refgen_core::combinators::sizes::MAX_SIZE_LIMIT).contains(&n),
            "max_size: {n} is not a largest size; give 1 to 10 000"
        );
        self.max_size = n;
        self
    }

    /// Remember failures in `dir`, and replay those remembered there first.
    pub fn regressions(mut self, dir: impl Into<PathBuf>) -> Self {
        self.regressions = Some(dir.into());
        self
    }

    /// Neither remember failures nor replay remembered ones (what
    /// `REFGEN_REGRESSIONS=off` does), even where the run would otherwise
    /// have a regressions directory, such as `#[property]`'s default.
    pub fn no_regressions(mut self) -> Self {
        self.regressions = None;
        self
    }

    /// Run only the case `token` names (from a failure report).
    pub fn replay(mut self, token: impl Into<String>) -> Self {
        self.replay = Some(token.into());
        self
    }

    /// Print the table of labels after the run (and count distinct values, as [`Config::count_distinct`]).
    pub fn statistics(mut self, on: bool) -> Self {
        self.statistics = on;
        self.count_distinct |= on;
        self
    }

    /// Count the distinct values of the generated cases that passed
    /// ([`crate::runner::Report::distinct`]), or not. It keys every value
    /// (a formatting of its `Debug`), so it is off by default.
    pub fn count_distinct(mut self, on: bool) -> Self {
        self.count_distinct = on;
        self
    }

    /// Write one observation per case to `path` (see [`crate::observe`]).
    pub fn observability(mut self, path: impl Into<PathBuf>) -> Self {
        self.observability = Some(path.into());
        self
    }

    /// Write an HTML report of the run into the directory `dir` (see [`crate::html`]).
    pub fn report(mut self, dir: impl Into<PathBuf>) -> Self {
        self.report = Some(dir.into());
        self
    }

    /// Answer the choices of generated cases with the guide `make` returns;
    /// `make` is called on the thread that generates. The guide is exactly
    /// what `make` returns (`RlGuide::default` is the learner alone); for the
    /// guide `#[property(guide = NAME(...))]` names, use [`Config::guide_options`].
    pub fn guide<G: Guide + 'static>(mut self, make: impl Fn() -> G + Send + Sync + 'static) -> Self {
        self.guide = Arc::new(move || Box::new(make()));
        self
    }

    /// Answer the choices with the guide `options` make for `property`: the very guide
    /// `#[property(guide = NAME(...))]` makes, with the same options (`rl`'s and `cgs`'s growing share
    /// of mutation included, which `RlGuide::default()` alone does not have).
    ///
    /// ```
    /// use refgen::combinators::{int, vec};
    /// use refgen::guides::RlConfig;
    /// use refgen::{config::Config, runner::Property};
    ///
    /// let p = Property::new(|| vec(int(0u8..=9), 0..=5), |xs: Vec<u8>| xs.len() <= 5);
    /// // `#[property(guide = rl(epsilon = 0.1))]`
    /// let config = Config::new("doc").cases(50).guide_options(&p, RlConfig::default().epsilon(0.1));
    /// assert_eq!(p.check(&config).unwrap().guide, "rl(epsilon = 0.1)");
    /// ```
    pub fn guide_options<V: 'static, O>(mut self, property: &crate::runner::Property<V>, options: O) -> Self
    where
        O: crate::guides::GuideOptions<V> + Clone + Send + Sync + 'static,
    {
        let gen = property.gen.clone();
        self.guide = Arc::new(move || {
            // Relative file names (examples from a directory) start from the working directory: the
            // package's root under `cargo test`.
            let property = crate::guides::ForProperty { gen: gen(), manifest_dir: "." };
            crate::guides::guide_from(options.clone(), property)
        });
        self
    }

    /// As [`Config::guide`], for a `make` that boxes its guide itself (as
    /// `#[property(guide = ...)]`'s does, so that its errors are at the options).
    #[doc(hidden)]
    pub fn boxed_guide(mut self, make: impl Fn() -> Box<dyn Guide> + Send + Sync + 'static) -> Self {
        self.guide = Arc::new(make);
        self
    }

    /// The seed this run uses: the configured one, or one derived from the name.
    pub fn effective_seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| fnv1a(self.name.as_bytes()))
    }

    /// Apply the environment variables of the module docs. A variable that
    /// does not parse panics with a message naming it: a typo should not
    /// silently run the defaults.
    pub fn from_env(mut self) -> Self {
        if let Some(v) = env("REFGEN_CASES") {
            self.cases = parse_u64(&v).filter(|&n| n > 0).unwrap_or_else(|| {
                bad_env("REFGEN_CASES", &v, "a number of cases of at least 1 (0 would pass having tested nothing)")
            });
        }
        if let Some(v) = env("REFGEN_SEED") {
            self.seed = Some(parse_u64(&v).unwrap_or_else(|| bad_env("REFGEN_SEED", &v, "a seed (decimal or 0x hex)")));
        }
        if let Some(v) = env("REFGEN_MAX_SIZE") {
            self.max_size = parse_u64(&v)
                .filter(|n| (1..=refgen_core::combinators::sizes::MAX_SIZE_LIMIT as u64).contains(n))
                .unwrap_or_else(|| bad_env("REFGEN_MAX_SIZE", &v, "a largest length of 1 to 10000"))
                as usize;
        }
        if let Some(v) = env("REFGEN_MAX_TIME") {
            self.max_time = Some(parse_duration(&v).unwrap_or_else(|| {
                bad_env(
                    "REFGEN_MAX_TIME",
                    &v,
                    "a time budget in seconds (such as `10` or `2.5`), or with a unit (`500ms`, `10s`, `2m`)",
                )
            }));
            if env("REFGEN_CASES").is_none() {
                self.cases = u64::MAX;
            }
        }
        if let Some(v) = env("REFGEN_REPLAY") {
            self.replay = Some(v);
        }
        if let Some(v) = env("REFGEN_STATS") {
            self.statistics = !matches!(v.as_str(), "0" | "false" | "off" | "no");
            self.count_distinct |= self.statistics;
        }
        if let Some(v) = env("REFGEN_OBSERVABILITY") {
            self.observability = Some(PathBuf::from(v));
        }
        if let Some(v) = env("REFGEN_REPORT") {
            self.report = Some(PathBuf::from(v));
        }
        if let Some(v) = env("REFGEN_REGRESSIONS") {
            self.regressions = regressions_from_env(&v).unwrap_or_else(|| {
                bad_env("REFGEN_REGRESSIONS", &v, "`off` or a directory (write `./on` for a directory called `on`)")
            });
        }
        self
    }
}

/// `REFGEN_REGRESSIONS`: `off` (in any case) turns remembering off; a
/// word that reads as a switch (`on`, `1`, `true`, `no`, ...) is refused
/// (`None`) rather than taken for a directory; anything else is a directory.
fn regressions_from_env(v: &str) -> Option<Option<PathBuf>> {
    let word = v.trim().to_ascii_lowercase();
    if word == "off" {
        Some(None)
    } else if ["on", "0", "1", "true", "false", "yes", "no", "y", "n", "enabled", "disabled", "none", "default"]
        .contains(&word.as_str())
    {
        None
    } else {
        Some(Some(PathBuf::from(v)))
    }
}

/// The variable `name` (a `REFGEN_*` name), or else its former `REFLECT_*`
/// name, still read for this release with a one-time warning to rename it.
fn env(name: &str) -> Option<String> {
    let read = |n: &str| std::env::var(n).ok().filter(|v| !v.trim().is_empty());
    read(name).or_else(|| {
        let old = name.replacen("REFGEN_", "REFLECT_", 1);
        let v = read(&old)?;
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            // Past the test harness's capture, as the runner's other warnings.
            let _ = writeln!(
                std::io::stderr(),
                "refgen: warning: the `REFLECT_*` environment variables are renamed `REFGEN_*`; \
                 {old} is read as {name} for this release only"
            );
        });
        Some(v)
    })
}

fn bad_env(name: &str, value: &str, what: &str) -> ! {
    panic!("the environment variable {name}={value:?} is not {what}; unset it or fix its value")
}

/// Parses a duration: a number of seconds (`10`, `2.5`), or a number with
/// a unit, `ms`, `s` or `m` (`500ms`, `10s`, `2m`).
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (number, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60.0)
    } else {
        (s, 1.0)
    };
    let secs = number.trim().parse::<f64>().ok()? * scale;
    Duration::try_from_secs_f64(secs).ok()
}

/// Parses a `u64` written in decimal or `0x` hexadecimal, with optional `_` separators.
pub fn parse_u64(s: &str) -> Option<u64> {
    let s: String = s.trim().chars().filter(|&c| c != '_').collect();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations_in_seconds_or_with_a_unit() {
        assert_eq!(parse_duration("10"), Some(Duration::from_secs(10)));
        assert_eq!(parse_duration("2.5"), Some(Duration::from_millis(2500)));
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("10s"), Some(Duration::from_secs(10)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        for bad in ["", "ten", "-1", "5h", "1e400"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn parses_numbers() {
        assert_eq!(parse_u64("1_000"), Some(1000));
        assert_eq!(parse_u64("0xff"), Some(255));
        assert_eq!(parse_u64("ten"), None);
    }

    #[test]
    fn regressions_take_off_or_a_directory_and_refuse_switch_words() {
        assert_eq!(regressions_from_env("off"), Some(None));
        assert_eq!(regressions_from_env("OFF"), Some(None));
        for word in ["on", "1", "0", "true", "false", "No", "YES"] {
            assert_eq!(regressions_from_env(word), None, "{word}");
        }
        assert_eq!(regressions_from_env("./on"), Some(Some(PathBuf::from("./on"))));
        assert_eq!(regressions_from_env("target/regs"), Some(Some(PathBuf::from("target/regs"))));
    }

    #[test]
    fn seed_from_name_is_stable() {
        let a = Config::new("m::p").effective_seed();
        assert_eq!(a, Config::new("m::p").effective_seed());
        assert_ne!(a, Config::new("m::q").effective_seed());
        assert_eq!(Config::new("m::p").seed(7).effective_seed(), 7);
    }
}
