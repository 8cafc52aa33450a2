//! Generation speed, three ways side by side on a fixed count: this library's
//! generator (written with combinators, `impl=reflect`, or by
//! `#[derive(Reflective)]`, `impl=derive`), a hand-written function using the
//! same RNG directly, and the equivalent proptest strategy (by
//! `#[derive(Arbitrary)]` where proptest-derive can express the type; its
//! derive does not build recursive types, so the trees get the strategy a
//! proptest user writes by hand).
//!
//! Run with `cargo run --release -p refgen-benches --bin gen_speed [-- --values N]`
//! (`GEN_SPEED_ONLY=reflect|handwritten|proptest` times one of the three,
//! `GEN_SPEED_CASE=<case>` runs one case, for a profiler; `reflect` also
//! selects the `derive` lines).
//!
//! The hand-written functions draw from the RNG exactly as the library's
//! generators do, so for the same seed they build the very same values; the
//! program checks that before timing anything.
//!
//! On a busy machine, count instructions per value instead of timing (a
//! count other processes do not disturb): run one case and one line under
//! `valgrind --tool=cachegrind --cache-sim=no`, with `--values N` and with
//! `--values 0` (the check alone), and divide the difference of the two
//! counts by `5 * N` (five rounds).

use proptest::prelude::{any, Just, Strategy};
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use proptest_derive::Arbitrary;
use rand::Rng;
use refgen::combinators::{any_int, char_class, string, vec};
use refgen::interpret::generate;
use refgen::prelude::*;
use refgen::refgen_core::{rng_from_seed, DetRng};
/// Hand-written generators the tests share: Goldstein's BST and a plain binary tree.
use refgen_fixtures::handwritten::{bin_tree, Tree};
use std::hint::black_box;
use std::time::Instant;

/// The second case: a struct holding a `Vec<u32>` and a `String`.
#[derive(Debug, Clone, PartialEq)]
struct Record {
    ids: Vec<u32>,
    name: String,
}

const MAX_LEN: usize = 16;

/// The first derived case: the depth-4 tree of the first case, as a derived enum.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 4)]
enum DTree {
    #[choice(weight = 1)]
    Leaf,
    #[choice(weight = 3)]
    Node(Box<DTree>, #[choice(range = 0..=10)] i64, Box<DTree>),
}

/// The second derived case: the record of the second case, as a derived
/// struct (proptest's strategy derived too).
#[derive(Debug, Clone, PartialEq, Reflective, Arbitrary)]
struct DRecord {
    #[choice(len = 0..=16, each(range = 0..=u32::MAX))]
    #[proptest(strategy = "proptest::collection::vec(any::<u32>(), 0..=MAX_LEN)")]
    ids: Vec<u32>,
    #[choice(regex = "[ -~]{0,16}")]
    #[proptest(strategy = "proptest_name()")]
    name: String,
}

/// The third derived case: a recursive JSON-like value.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 3)]
enum Json {
    Null,
    Bool(bool),
    #[choice(weight = 2)]
    Num(#[choice(range = -1000..=1000)] i64),
    #[choice(weight = 2)]
    Str(#[choice(regex = "[a-z]{0,8}")] String),
    #[choice(weight = 2)]
    Arr(#[choice(len = 0..=3)] Vec<Json>),
    #[choice(weight = 2)]
    Obj(#[choice(len = 0..=3)] Vec<Member>),
}

/// A member of a JSON object (a derived struct inside the derived enum).
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Member {
    #[choice(regex = "[a-z]{1,4}")]
    key: String,
    value: Json,
}

/// [`Json`]'s depth budget.
const JSON_DEPTH: usize = 3;

fn record_gen() -> BoxGen<Record> {
    (vec(any_int::<u32>(), 0..=MAX_LEN), string(char_class(&[(' ', '~')]), 0..=MAX_LEN))
        .map(|(ids, name)| Record { ids, name }, |r: &Record| Some((r.ids.clone(), r.name.clone())))
        .boxed()
}

/// The two trees of the benchmark (the fixtures' and the derived one), built alike.
trait Binary: Clone + std::fmt::Debug + 'static {
    fn leaf() -> Self;
    fn node(l: Self, x: i64, r: Self) -> Self;
}

impl Binary for Tree {
    fn leaf() -> Self {
        Tree::Leaf
    }
    fn node(l: Self, x: i64, r: Self) -> Self {
        Tree::node(l, x, r)
    }
}

impl Binary for DTree {
    fn leaf() -> Self {
        DTree::Leaf
    }
    fn node(l: Self, x: i64, r: Self) -> Self {
        DTree::Node(Box::new(l), x, Box::new(r))
    }
}

fn hand_tree<T: Binary>(rng: &mut DetRng, depth: usize) -> T {
    // At the bottom (`recursive`'s one-option pick, the derived enum's depth budget) only
    // `Leaf` is offered, and a choice with one answer draws nothing.
    let weights: &[u64] = if depth == 0 { &[1] } else { &[1, 3] };
    if hand_pick(rng, weights) == 0 {
        return T::leaf();
    }
    let l = hand_tree(rng, depth - 1);
    let x = rng.random_range(0..=10u64) as i64;
    let r = hand_tree(rng, depth - 1);
    T::node(l, x, r)
}

/// An option drawn by weight as a pick draws it: one draw below the total
/// weight, then the option it falls in; no draw when there is one option.
fn hand_pick(rng: &mut DetRng, weights: &[u64]) -> usize {
    if weights.len() == 1 {
        return 0;
    }
    let mut x = rng.random_range(0..weights.iter().sum::<u64>());
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    unreachable!("the draw is below the total weight")
}

/// `n` chars drawn uniformly from `lo..=hi` (contiguous ASCII).
fn hand_chars(rng: &mut DetRng, n: u64, lo: u8, hi: u8) -> String {
    (0..n).map(|_| char::from(lo + rng.random_range(0..=(hi - lo) as u64) as u8)).collect()
}

fn hand_drecord(rng: &mut DetRng) -> DRecord {
    let n = rng.random_range(0..=MAX_LEN as u64) as usize;
    let ids = (0..n).map(|_| rng.random_range(0..=u32::MAX as u64) as u32).collect();
    let m = rng.random_range(0..=MAX_LEN as u64);
    DRecord { ids, name: hand_chars(rng, m, b' ', b'~') }
}

/// A JSON value made by the derived generator running `level` derived generators deep.
fn hand_json(rng: &mut DetRng, level: usize) -> Json {
    // The derive orders the options Null, Bool, Num, Str (built from primitives: the only
    // ones offered at the budget), Obj (another type), Arr (the type itself).
    const WEIGHTS: [u64; 6] = [1, 1, 2, 2, 2, 2];
    let offered = if level >= JSON_DEPTH { &WEIGHTS[..4] } else { &WEIGHTS[..] };
    match hand_pick(rng, offered) {
        0 => Json::Null,
        1 => Json::Bool(rng.random_range(0..2u64) == 1),
        2 => {
            // Integer choices count outward from zero: 0, 1, -1, 2, -2, ...
            let k = rng.random_range(0..=2000u64) as i64;
            Json::Num(if k % 2 == 1 { (k + 1) / 2 } else { -k / 2 })
        }
        3 => {
            let n = rng.random_range(0..=8u64);
            Json::Str(hand_chars(rng, n, b'a', b'z'))
        }
        5 => {
            let n = rng.random_range(0..=3u64);
            Json::Arr((0..n).map(|_| hand_json(rng, level + 1)).collect())
        }
        _ => {
            let n = rng.random_range(0..=3u64);
            // Each member is a derived struct: one more level for the value inside it.
            Json::Obj(
                (0..n)
                    .map(|_| {
                        let len = 1 + rng.random_range(0..=3u64);
                        let key = hand_chars(rng, len, b'a', b'z');
                        Member { key, value: hand_json(rng, level + 2) }
                    })
                    .collect(),
            )
        }
    }
}

fn hand_record(rng: &mut DetRng) -> Record {
    let DRecord { ids, name } = hand_drecord(rng);
    Record { ids, name }
}

fn proptest_tree<T: Binary>(depth: usize) -> proptest::strategy::BoxedStrategy<T> {
    if depth == 0 {
        return Just(T::leaf()).boxed();
    }
    let sub = proptest_tree::<T>(depth - 1);
    proptest::prop_oneof![
        1 => Just(T::leaf()),
        3 => (sub.clone(), 0..=10i64, sub).prop_map(|(l, x, r)| T::node(l, x, r)),
    ]
    .boxed()
}

fn proptest_name() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::char::range(' ', '~'), 0..=MAX_LEN).prop_map(|cs| cs.into_iter().collect())
}

fn proptest_key(len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::char::range('a', 'z'), len).prop_map(|cs| cs.into_iter().collect())
}

fn proptest_json(level: usize) -> proptest::strategy::BoxedStrategy<Json> {
    let base = || {
        proptest::prop_oneof![
            1 => Just(Json::Null),
            1 => any::<bool>().prop_map(Json::Bool),
            2 => (-1000..=1000i64).prop_map(Json::Num),
            2 => proptest_key(0..=8).prop_map(Json::Str),
        ]
    };
    if level >= JSON_DEPTH {
        return base().boxed();
    }
    let member = (proptest_key(1..=4), proptest_json(level + 2)).prop_map(|(key, value)| Member { key, value });
    proptest::prop_oneof![
        6 => base(),
        2 => proptest::collection::vec(proptest_json(level + 1), 0..=3).prop_map(Json::Arr),
        2 => proptest::collection::vec(member, 0..=3).prop_map(Json::Obj),
    ]
    .boxed()
}

fn proptest_record() -> impl Strategy<Value = Record> {
    (
        proptest::collection::vec(any::<u32>(), 0..=MAX_LEN),
        proptest::collection::vec(proptest::char::range(' ', '~'), 0..=MAX_LEN),
    )
        .prop_map(|(ids, name)| Record { ids, name: name.into_iter().collect() })
}

/// The best time, over `ROUNDS` rounds, to make `n` values with `make`.
fn time<T>(n: usize, mut make: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        black_box(make());
    }
    start.elapsed().as_secs_f64()
}

/// Rounds per measurement; each implementation's best round is reported, so
/// a busy machine disturbs the figures less.
const ROUNDS: usize = 5;

fn bench<T: PartialEq + std::fmt::Debug>(
    case: &str,
    n: usize,
    reflective_impl: &str,
    reflective: &BoxGen<T>,
    hand: fn(&mut DetRng) -> T,
    strategy: impl Strategy<Value = T>,
) {
    if std::env::var("GEN_SPEED_CASE").is_ok_and(|c| c != case) {
        return;
    }
    // The hand-written function and the generator build the same values from the same seed.
    for seed in 0..1000 {
        let mut rng = rng_from_seed(seed);
        assert_eq!(generate(reflective, seed).unwrap(), hand(&mut rng), "seed {seed}");
    }
    let mut best = [f64::INFINITY; 3];
    let mut gen_rng = rng_from_seed(1);
    let mut rng = rng_from_seed(1);
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[1; 32]));
    let only = std::env::var("GEN_SPEED_ONLY").ok();
    let on = |imp: &str| only.as_deref().is_none_or(|o| o == imp || (o == "reflect" && imp == "derive"));
    for _ in 0..ROUNDS {
        if on(reflective_impl) {
            best[0] = best[0].min(time(n, || reflective.run_rng(&mut gen_rng).unwrap()));
        }
        if on("handwritten") {
            best[1] = best[1].min(time(n, || hand(&mut rng)));
        }
        if on("proptest") {
            best[2] = best[2].min(time(n, || strategy.new_tree(&mut runner).unwrap().current()));
        }
    }
    for (imp, secs) in [reflective_impl, "handwritten", "proptest"].iter().zip(best) {
        println!("case={case} impl={imp} values={n} secs={secs:.4} values_per_sec={:.0}", n as f64 / secs);
    }
}

fn usage() -> ! {
    eprintln!("usage: gen_speed [--values N]   (N a whole number; default 200000)");
    std::process::exit(2)
}

fn main() {
    let mut n = 200_000;
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        None => {}
        Some("--values") if args.len() == 3 => match args[2].parse() {
            Ok(v) => n = v,
            Err(_) => usage(),
        },
        Some(_) => usage(),
    }
    bench("bin_tree_depth4", n, "reflect", &bin_tree(4), |rng| hand_tree(rng, 4), proptest_tree::<Tree>(4));
    bench("vec_u32_and_string", n, "reflect", &record_gen(), hand_record, proptest_record());
    bench("derived_tree_depth4", n, "derive", &DTree::generator(), |rng| hand_tree(rng, 4), proptest_tree::<DTree>(4));
    bench("derived_record", n, "derive", &DRecord::generator(), hand_drecord, any::<DRecord>());
    bench("derived_json", n, "derive", &Json::generator(), |rng| hand_json(rng, 0), proptest_json(0));
}
