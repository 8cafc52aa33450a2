//! A bug-finding benchmark in the manner of Etna: mutants of data structures x properties, the derived type (with its `#[assume]`) under every guide against a hand-written generator valid by construction.
//!
//! Run with `cargo run --release --example bugfind` (10 trials per task, at
//! most 100,000 tests or 5 s per trial); a quick run:
//! `cargo run --release --example bugfind -- --trials 2 --tests 10000 --secs 0.5 --workload bst`.
//!
//! Flags: `--trials N`, `--tests N` (valid cases per trial), `--secs S` (per
//! trial), `--seed S`, `--workload NAME` (repeatable: `bst`, `avl`, `rbt`,
//! `heap`, `lang`, `sorted`, `avl-sizes`), `--setup NAME` (repeatable: `hand`, `synth` (the
//! generator `#[synth]` writes from the workload's validity predicate, rewritten in the forms it
//! reads, under the default guide; `bst`, `avl`, `rbt` and `heap`), `random`, `auto`, `rl`,
//! `rl(diverse)`, `cgs`, `sa`, `mutate`, `mutate(splice=0)`, `mutate(graft=0)`, and the guide alone:
//! `rl(grow=0)`, `rl(diverse,grow=0)`, `cgs(grow=0)`, `sa(grow=0)`; without rotations:
//! `mutate(rotate=0)`, `auto(rotate=0)`), `--task MUTANT/PROPERTY`
//! (repeatable: only these tasks, by the names the per-task lines print;
//! the discovery run skips the other pairs), `--per-task`
//! (a line per task and setup too: trials solved, mean time to failure,
//! the tests to failure of each trial that failed), `--rate` (each trial
//! runs its whole budget, going on past failures: per task and setup, the
//! share of valid tests that fail and each trial's first failing test; per
//! setup, the tasks with a failing test and the median first one. It tells
//! a setup that cannot make a bug's input from one that makes it late: with
//! `--trials 1 --tests 5000`, the derived AVL tree under `auto` fails about
//! as often as the hand-written generator's trees once its trees have
//! grown, but its first failure comes 5 to 50 times later), `--curve N`
//! (per setup, a line more: how the valid values grow over a trial, by
//! window of `N` tests: the mean size and the share of values of 7 or more
//! elements in the first ten windows, over every measured trial that reached
//! the window; with `--rate` every trial reaches every window of its budget,
//! without it a trial's windows stop at its failure), `--notes` (per setup,
//! what its cost run did: valid, discarded and rejected cases, the time
//! spent making values and testing them, and the guide's own notes, such
//! as how many cases each mutation operator made and how many of them
//! the validity condition rejected; and how many of its tests tested a
//! value tested before in the run, which a deterministic property learns
//! nothing from: each value's `Debug` text is hashed, so with `--notes` the
//! cost run, and its `loop_us`, are slower), `--floor` (instead of the
//! tables: per workload, what one value of its first property's arguments
//! costs to make, in µs, three ways: by the hand-written generator; by the
//! derived generator parsing the same values' reflected choices (a strict
//! parse, every `#[assume]` checked, no failed attempt; `parsed` counts the
//! values the derived type can make: a hand-written term deeper than the
//! derived type's depth limit it cannot); and by the derived generator's
//! plain random generation, per valid value, its failed attempts and
//! discarded runs included; and, where the workload has one, by the
//! synthesized generator, per valid value, with its ratio to the
//! hand-written generator's. The first two say whether the derived generator
//! itself runs at hand-written speed; the gap between the last two is what
//! searching for a valid value costs), `--golden` (instead of the tables: per
//! workload and setup, the first property on the correct code for `--tests`
//! cases with no time limit: its counts, a fingerprint of the values it
//! tested in order, and the guide's notes; a change meant to keep behaviour
//! keeps this output: `cargo run --release --example bugfind -- --golden
//! --tests 3000 | diff examples/bugfind/golden.txt -`), `--cost` (instead of
//! the tables: per workload and setup, µs per valid test of the first
//! property on the correct code, the whole loop, and its ratio to the derived
//! type under plain random generation).
//!
//! Workloads (`examples/bugfind/`): Etna's BST (8 mutants, 18 properties), an
//! AVL tree (insert, delete and rotation mutants), Etna's red-black tree (15
//! mutants, 10 properties; validity an `every` and a `top` `#[assume]`: the
//! invariants on every subtree, a black root at the top), a leftist heap, and a small
//! typed expression language (booleans, integers, `if`, `let`, functions)
//! whose evaluator's mutants break substitution or evaluation, tested by
//! "well-typed terms keep their type". The mutant is chosen at run time (a
//! switch the data structure code reads), so one binary runs every task.
//!
//! A task is a (mutant, property) pair that fails in a discovery run (one
//! trial of the hand-written generator and one of the derived type under the
//! default guide, each with the full budget); the correct code must pass
//! every property there. Per setup, the table gives: tasks solved (in at
//! least one trial), tasks solved in every trial, the mean time to failure
//! (over the trials that failed), the median tests to failure, the cost per
//! valid test (all the time of all trials over all their tests), the property
//! loop's cost (`loop_us`: µs per valid test of the workload's first property
//! on the correct code, one run of the whole budget), the valid
//! values tested, and their size distribution (the size of the main
//! structure: nodes of the first tree, length of the list, nodes of the
//! term). Then the tasks not solved in every trial. Values are deterministic
//! given the seeds; a trial stopped by its time limit depends on the machine.
//!
//! The `sorted` workload has no bugs: it is the sorted `Vec<u8>` of the
//! derive's docs (`#[assume(self.0.is_sorted())]`, no `with`), and its table
//! gives the size distribution of valid lists under each guide; `avl-sizes`
//! gives that of the AVL workload's derived trees, on the correct code (whole
//! runs: the bug-finding tables' sizes stop at each trial's first failure).

#[path = "bugfind/avl.rs"]
mod avl;
#[path = "bugfind/bst.rs"]
mod bst;
#[path = "bugfind/floor.rs"]
mod floor;
#[path = "bugfind/harness.rs"]
mod harness;
#[path = "bugfind/heap.rs"]
mod heap;
#[path = "bugfind/lang.rs"]
mod lang;
#[path = "bugfind/rbt.rs"]
mod rbt;
#[path = "bugfind/sizes.rs"]
mod sizes;

use harness::Budget;

fn main() {
    let mut budget = Budget { trials: 10, tests: 100_000, secs: 5.0, seed: 1 };
    let mut workloads: Vec<String> = Vec::new();
    let mut setups: Vec<String> = Vec::new();
    let mut tasks: Vec<String> = Vec::new();
    let usage = || -> ! {
        eprintln!(
            "usage: bugfind [--trials N] [--tests N] [--secs S] [--seed S] [--workload bst|avl|rbt|heap|lang|sorted|avl-sizes]... [--setup NAME]... [--task MUTANT/PROPERTY]... [--per-task] [--rate] [--curve N] [--notes] [--floor] [--golden] [--cost]"
        );
        std::process::exit(2)
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--trials" => budget.trials = value().parse().unwrap_or_else(|_| usage()),
            "--tests" => budget.tests = value().parse().unwrap_or_else(|_| usage()),
            "--secs" => budget.secs = value().parse().unwrap_or_else(|_| usage()),
            "--seed" => budget.seed = value().parse().unwrap_or_else(|_| usage()),
            "--workload" => workloads.push(value()),
            "--setup" => setups.push(value()),
            "--task" => tasks.push(value()),
            "--per-task" => harness::PER_TASK.store(true, std::sync::atomic::Ordering::Relaxed),
            "--rate" => harness::RATE.store(true, std::sync::atomic::Ordering::Relaxed),
            "--notes" => harness::NOTES.store(true, std::sync::atomic::Ordering::Relaxed),
            "--floor" => harness::FLOOR.store(true, std::sync::atomic::Ordering::Relaxed),
            "--golden" => harness::GOLDEN.store(true, std::sync::atomic::Ordering::Relaxed),
            "--cost" => harness::COST.store(true, std::sync::atomic::Ordering::Relaxed),
            "--curve" => {
                let width: usize = value().parse().unwrap_or_else(|_| usage());
                harness::CURVE.store(width.max(1), std::sync::atomic::Ordering::Relaxed)
            }
            _ => usage(),
        }
    }
    if budget.trials == 0 || budget.tests == 0 || budget.secs.is_nan() || budget.secs <= 0.0 {
        usage()
    }
    let wanted = |name: &str| workloads.is_empty() || workloads.iter().any(|w| w == name);
    let setup_ok = |name: &str| setups.is_empty() || setups.iter().any(|s| s == name);
    let task_ok = |name: &str| tasks.is_empty() || tasks.iter().any(|t| t == name);
    println!(
        "bugfind: {} trials per task, at most {} tests or {} s per trial, seed {}",
        budget.trials, budget.tests, budget.secs, budget.seed
    );
    if harness::FLOOR.load(std::sync::atomic::Ordering::Relaxed) {
        floor::print_header();
    }
    if harness::COST.load(std::sync::atomic::Ordering::Relaxed) {
        println!("{:<6} {:<20} {:>10} {:>9} {:>8}", "work", "setup", "us/valid", "x random", "valid");
    }
    for make in [bst::workload, avl::workload, rbt::workload, heap::workload, lang::workload] {
        let w = make();
        if wanted(w.name) {
            harness::run(&w, &budget, &setup_ok, &task_ok);
        }
    }
    // The size workloads have no hand-written generator to set a floor against.
    if harness::FLOOR.load(std::sync::atomic::Ordering::Relaxed)
        || harness::GOLDEN.load(std::sync::atomic::Ordering::Relaxed)
        || harness::COST.load(std::sync::atomic::Ordering::Relaxed)
    {
        return;
    }
    if wanted("sorted") {
        sizes::sorted(&budget, &setup_ok);
    }
    if wanted("avl-sizes") {
        sizes::avl(&budget, &setup_ok);
    }
}
