//! Guides on command sequences: a counter bug past 20 that random sequences miss, found by rl, sa and mutate, over 10 seeds.
//!
//! Run with `cargo run --release -p refgen-benches --bin statem_guides`. Each cell is the
//! number of tests to the first failure within 10,000 cases (`-` when the
//! run passed). `rl` (RLCheck's configuration) and `rl diverse` (its
//! softmax policy with forgetting, `RlConfig::diverse()`) are rewarded for sequences reaching a new model state
//! (the state machine property keys its values by the state they reach);
//! `sa` maximizes the counter's model value (`maximize!`) over neighbours
//! made by editing choice trees, `sa seq` over neighbours made by
//! `statem::neighbour` (commands replaced, inserted, deleted over the model); `mutate` keeps a
//! corpus of sequences that reached new states and mutates them.

use refgen::guides::{MutateGuide, RandomGuide, RlConfig, RlGuide, SaConfig, SaGuide};
use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{neighbour, state_machine_property, Commands};
use refgen_fixtures::statem_models::CounterMachine;

const CASES: u64 = 10_000;
const SEEDS: u64 = 10;

/// Tests to the first failure of one run, or `None` when it passed.
fn run(guide: &str, seed: u64) -> Option<u64> {
    let config = Config::new(format!("statem_guides::{guide}")).seed(seed).cases(CASES).no_timeout();
    let config = match guide {
        "random" => config.guide(|| RandomGuide),
        "rl" => config.guide(RlGuide::default),
        "rl diverse" => config.guide(|| RlGuide::new(RlConfig::diverse())),
        "sa" => config.guide(|| SaGuide::new(SaConfig::default())),
        "sa seq" => config.guide(|| {
            SaGuide::with_neighbour(
                SaConfig::default(),
                Commands::<CounterMachine>::generator(),
                neighbour::<CounterMachine>,
            )
        }),
        _ => config.guide(MutateGuide::default),
    };
    // The state machine's own property, and for sa one that also reports the model's counter.
    let result = if guide.starts_with("sa") {
        Property::new(Commands::<CounterMachine>::generator, |c: Commands<CounterMachine>| {
            maximize!(c.final_state());
            c.check()
        })
        .check(&config)
    } else {
        state_machine_property::<CounterMachine>().check(&config)
    };
    match result {
        Err(RunError::Failed(f)) => Some(f.tests),
        Ok(_) => None,
        Err(e) => panic!("{e}"),
    }
}

fn main() {
    println!("counter bug past 20: tests to the first failure in {CASES} cases, per seed");
    print!("{:<12}", "guide");
    for s in 1..=SEEDS {
        print!("{:>7}", format!("s{s}"));
    }
    println!("{:>8}", "found");
    for guide in ["random", "rl", "rl diverse", "sa", "sa seq", "mutate"] {
        print!("{guide:<12}");
        let mut found = 0;
        for s in 1..=SEEDS {
            match run(guide, s) {
                Some(t) => {
                    found += 1;
                    print!("{t:>7}");
                }
                None => print!("{:>7}", "-"),
            }
        }
        println!("{:>8}", format!("{found}/{SEEDS}"));
    }
}
