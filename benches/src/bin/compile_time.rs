//! The rebuild time of a test crate of derived types and properties, with this library and with proptest-derive and `proptest!`.
//!
//! Run with `cargo run --release -p refgen-benches --bin compile_time [-- --rounds N]`. It writes two
//! crates under `target/compile_time/`: the same 24 types (12 structs, each with two ranges, a
//! regex, a `Vec`, an `Option`, a validity condition and an enum field; 12 small enums, each with a
//! boxed recursive variant) and 24 properties, one with `#[derive(Reflective)]` and `#[property]`,
//! the other with `#[derive(Arbitrary)]` and `proptest!`. Each is built once (its dependencies
//! compiled), then its test file is rewritten (a comment changed) and `cargo test --no-run` timed,
//! the two crates alternating, `--rounds` times each (default 5); the medians are printed. The
//! crates depend on this workspace's `refgen` by path and on the proptest crates the benches use,
//! built offline. proptest-derive does not derive a recursive type, so the proptest crate writes
//! each enum's strategy by hand with `prop_recursive`, as its users do.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How many structs and enums each crate declares.
const TYPES: usize = 12;

/// The refgen crate's test file, with `salt` in a comment (a rebuild of the file alone).
fn refgen_source(salt: usize) -> String {
    let mut s = format!("// build {salt}\nuse refgen::prelude::*;\n\n");
    for i in 0..TYPES {
        writeln!(
            s,
            "#[derive(Debug, Clone, PartialEq, Reflective)]
pub enum E{i} {{ A, B(u8), C(Box<E{i}>) }}

#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.a <= self.b + 100)]
pub struct S{i} {{
    #[choice(range = 0..=100)]
    pub a: u32,
    #[choice(range = 0..=1000)]
    pub b: u32,
    #[choice(with = regex(\"[a-z]{{1,8}}\"))]
    pub name: String,
    pub items: Vec<u8>,
    pub extra: Option<u16>,
    pub kind: E{i},
}}

#[property]
fn struct_{i}(s: S{i}) {{
    assert!(s.a <= s.b + 100);
}}

#[property]
fn enum_{i}(e: E{i}) {{
    let shown = format!(\"{{:?}}\", e);
    assert!(!shown.is_empty());
}}
"
        )
        .expect("a string takes writes");
    }
    s
}

/// The proptest crate's test file (see [`refgen_source`]).
fn proptest_source(salt: usize) -> String {
    let mut s = format!("// build {salt}\nuse proptest::prelude::*;\nuse proptest_derive::Arbitrary;\n\n");
    for i in 0..TYPES {
        writeln!(
            s,
            "#[derive(Debug, Clone, PartialEq)]
pub enum E{i} {{ A, B(u8), C(Box<E{i}>) }}

/// proptest-derive does not derive a recursive type: its strategy by hand.
fn arb_e{i}() -> impl Strategy<Value = E{i}> {{
    let leaf = prop_oneof![Just(E{i}::A), any::<u8>().prop_map(E{i}::B)];
    leaf.prop_recursive(4, 16, 1, |inner| inner.prop_map(|e| E{i}::C(Box::new(e))))
}}

#[derive(Debug, Clone, PartialEq, Arbitrary)]
#[proptest(filter = \"|s| s.a <= s.b + 100\")]
pub struct S{i} {{
    #[proptest(strategy = \"0u32..=100\")]
    pub a: u32,
    #[proptest(strategy = \"0u32..=1000\")]
    pub b: u32,
    #[proptest(regex = \"[a-z]{{1,8}}\")]
    pub name: String,
    pub items: Vec<u8>,
    pub extra: Option<u16>,
    #[proptest(strategy = \"arb_e{i}()\")]
    pub kind: E{i},
}}

proptest! {{
    #[test]
    fn struct_{i}(s in any::<S{i}>()) {{
        prop_assert!(s.a <= s.b + 100);
    }}

    #[test]
    fn enum_{i}(e in arb_e{i}()) {{
        let shown = format!(\"{{:?}}\", e);
        prop_assert!(!shown.is_empty());
    }}
}}
"
        )
        .expect("a string takes writes");
    }
    s
}

/// One crate of the comparison: its folder and how its test file is written.
struct Crate {
    name: &'static str,
    dir: PathBuf,
    source: fn(usize) -> String,
}

impl Crate {
    /// Writes the crate's manifest, library and test file (salt 0).
    fn write(&self, deps: &str) {
        std::fs::create_dir_all(self.dir.join("src")).expect("a folder under target/");
        std::fs::create_dir_all(self.dir.join("tests")).expect("a folder under target/");
        let manifest = format!(
            "[package]\nname = \"compile-time-{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             # Not a member of the repository's workspace.\n[workspace]\n\n[dependencies]\n{deps}\n",
            self.name
        );
        std::fs::write(self.dir.join("Cargo.toml"), manifest).expect("the manifest is written");
        std::fs::write(self.dir.join("src/lib.rs"), "//! Empty: the test file is what is built.\n")
            .expect("the library is written");
        self.salt(0);
    }

    /// Rewrites the test file with `salt` in its first line.
    fn salt(&self, salt: usize) {
        std::fs::write(self.dir.join("tests/props.rs"), (self.source)(salt)).expect("the test file is written");
    }

    /// Builds the tests; how long it took.
    fn build(&self, target: &Path) -> Duration {
        let t0 = Instant::now();
        let status = Command::new(env!("CARGO"))
            .args(["test", "--no-run", "--offline", "--quiet"])
            .arg("--manifest-path")
            .arg(self.dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", target)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "{} builds", self.name);
        t0.elapsed()
    }
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let mut rounds = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).unwrap_or(rounds),
            other => panic!("unknown argument {other}: the one option is --rounds N"),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf();
    let base = root.join("target/compile_time");
    let target = base.join("target");
    let refgen = Crate { name: "refgen", dir: base.join("refgen"), source: refgen_source };
    let proptest = Crate { name: "proptest", dir: base.join("proptest"), source: proptest_source };
    refgen.write(&format!("\n[dev-dependencies]\nrefgen = {{ path = {:?} }}", root.display().to_string()));
    proptest.write(
        "\n[dev-dependencies]\nproptest = { version = \"1\", default-features = false, features = [\"std\"] }\n\
         proptest-derive = \"0.9\"",
    );
    // Dependencies first, then the test files alone.
    println!(
        "first builds (dependencies): refgen {:.1?}, proptest {:.1?}",
        refgen.build(&target),
        proptest.build(&target)
    );
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        refgen.salt(round);
        ours.push(refgen.build(&target));
        proptest.salt(round);
        theirs.push(proptest.build(&target));
    }
    let (a, b) = (median(ours.clone()), median(theirs.clone()));

    println!("rebuild of the test file, {TYPES} structs + {TYPES} enums + {} properties, {rounds} rounds:", 2 * TYPES);
    let ms = |xs: &[Duration]| xs.iter().map(|d| d.as_millis().to_string()).collect::<Vec<_>>().join(" ");
    println!("refgen   {:>6} ms  (rounds: {} ms)", a.as_millis(), ms(&ours));
    println!("proptest {:>6} ms  (rounds: {} ms)", b.as_millis(), ms(&theirs));
    println!("ratio    {:>8.2}x", a.as_secs_f64() / b.as_secs_f64());
}
