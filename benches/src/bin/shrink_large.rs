//! Shrinking a large input: a list of up to 100,000 integers, in the shrinker and lenient replay alone.
//!
//! Run with `cargo run --release -p refgen-benches --bin shrink_large`. The generator is
//! `vec(int(0u32..=1000), 0..=100_000)`; the property fails when the list
//! has at least 50,000 elements and one of them is 1000. The minimal
//! failing list is 49,999 zeros and then 1000. For a few seeds, a failing
//! case is generated and shrunk with the default budget of the property
//! runner (4,096 tries, 30 s), each try replayed as the runner replays it; a
//! line gives the tries and the time until the minimal list was first kept,
//! then the whole shrink's tries, kept steps and time, the length reached,
//! how many elements are not zero and whether the minimal list was reached.
//! (After the minimal list, the passes of one try per element go on until
//! the budget runs out: nothing smaller exists, but only a try tells.)
//! A second line gives each pass's kept candidates and tries
//! (`ShrinkStats::passes`). `SEEDS=<n>` shrinks `n` starts.

use refgen::choice::ChoiceTree;
use refgen::combinators::{int, vec};
use refgen::config::{DEFAULT_SHRINK_STEPS, DEFAULT_SHRINK_TIME};
use refgen::interpret::{generate_recorded, lenient_source};
use refgen::refgen_core::trail::{Recorder, Trail};
use refgen::refgen_core::Gen;
use refgen::refgen_runtime::shrink::{shrink_by_ref, Budget, Pass};
use std::time::Instant;

fn fails(xs: &[u32]) -> bool {
    xs.len() >= 50_000 && xs.contains(&1000)
}

/// The smallest failing list: 49,999 zeros, then 1000.
fn minimal(xs: &[u32]) -> bool {
    xs.len() == 50_000 && xs[..49_999].iter().all(|&x| x == 0) && xs[49_999] == 1000
}

fn main() {
    let g = vec(int(0u32..=1000), 0..=100_000);
    let seeds: u64 = std::env::var("SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let budget = Budget { max_steps: DEFAULT_SHRINK_STEPS, max_time: DEFAULT_SHRINK_TIME };
    let mut shrunk = 0;
    let mut seed = 0;
    while shrunk < seeds {
        seed += 1;
        let (v, tree) = generate_recorded(&g, seed);
        if !v.is_ok_and(|v| fails(&v)) {
            continue;
        }
        shrunk += 1;
        let began = Instant::now();
        let (mut tries, mut reached) = (0u64, None);
        let mut kept = Some(Trail::new());
        let (min, stats) = shrink_by_ref(tree, budget, |cand: &ChoiceTree| {
            tries += 1;
            // As the property runner replays: into one trail kept from try to
            // try, the tree of the choices used built only for a failure.
            let mut trail = kept.take().expect("the trail is put back after each try");
            trail.clear();
            let mut rec = Recorder { inner: lenient_source(cand, 0), trail };
            let v = g.run(&mut rec).ok().filter(|v| fails(v));
            let used = v.as_ref().map(|_| rec.trail.to_tree());
            kept = Some(rec.trail);
            if reached.is_none() && v.is_some_and(|v| minimal(&v)) {
                reached = Some((tries, began.elapsed()));
            }
            used
        });
        let took = began.elapsed();
        let xs = refgen::refgen_core::parse_tree(&g, &min).expect("the shrunk tree parses");
        let (to_min, ms_to_min) = reached.map_or(("-".to_owned(), "-".to_owned()), |(n, t)| {
            (n.to_string(), format!("{:.1}", t.as_secs_f64() * 1e3))
        });
        println!(
            "seed={seed} tries_to_minimal={to_min} ms_to_minimal={ms_to_min} tries={} steps={} ms={:.1} len={} \
             nonzero={} minimal={} budget_exhausted={}",
            stats.attempts,
            stats.steps,
            took.as_secs_f64() * 1e3,
            xs.len(),
            xs.iter().filter(|&&x| x != 0).count(),
            minimal(&xs),
            stats.budget_exhausted,
        );
        let passes: Vec<String> = Pass::ALL
            .iter()
            .filter(|&&p| stats.pass(p).tries > 0)
            .map(|&p| format!("{}={}/{}", p.name(), stats.pass(p).kept, stats.pass(p).tries))
            .collect();
        println!("  passes (kept/tries): {}", passes.join(" "));
    }
}
