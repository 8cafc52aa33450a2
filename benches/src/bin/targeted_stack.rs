//! Whether a utility can make a test weaker: a stack machine with a fixed number of slots, tested with and without `maximize!`.
//!
//! Run with `cargo run --release -p refgen-benches --bin targeted_stack -- --seeds 10 --cases 3000`.
//!
//! An expression is compiled to postfix code and run on a stack of `SLOTS` slots that drops a push
//! past its top (an operand is lost), so the property (the machine computes what the expression
//! evaluates to) fails on expressions that need more slots than it has. Random generation of the
//! derived type makes such expressions now and then; the utility `maximize!(stack_needed(&e))` says
//! how close an expression came. Per number of slots, over `--seeds` seeds of at most `--cases`
//! cases each, it prints how many runs failed and the median cases to the failure for:
//!
//! - `random`: plain random generation, no utility;
//! - `auto`: the default guide, no utility;
//! - `auto+maximize`: the default guide, the property reporting the utility;
//! - `sa+maximize`: simulated annealing on the utility (`guide = sa`).
//!
//! Then the same for the crate docs' `sums_stay_small` (a list of at most 20 numbers up to 100 whose
//! sum must stay below 1,900, `maximize!(sum)`), which random generation does not find.

use refgen::guides::sa::SaGuide;
use refgen::guides::{AutoGuide, RandomGuide};
use refgen::prelude::*;
use refgen::runner::RunError;

/// An arithmetic expression over small numbers.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 12)]
pub enum Expr {
    /// A number.
    #[choice(weight = 2)]
    Num(#[choice(range = 0..=9)] u8),
    /// A sum.
    Add(Box<Expr>, Box<Expr>),
    /// A product.
    Mul(Box<Expr>, Box<Expr>),
}

/// The value, wrapping.
pub fn eval(e: &Expr) -> u32 {
    match e {
        Expr::Num(n) => u32::from(*n),
        Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
        Expr::Mul(a, b) => eval(a).wrapping_mul(eval(b)),
    }
}

/// The most stack slots the postfix code of `e` needs.
pub fn stack_needed(e: &Expr) -> usize {
    match e {
        Expr::Num(_) => 1,
        Expr::Add(a, b) | Expr::Mul(a, b) => stack_needed(a).max(1 + stack_needed(b)),
    }
}

/// One instruction of the postfix code.
#[derive(Debug, Clone, Copy)]
enum Op {
    Push(u32),
    Add,
    Mul,
}

fn compile(e: &Expr, out: &mut Vec<Op>) {
    match e {
        Expr::Num(n) => out.push(Op::Push(u32::from(*n))),
        Expr::Add(a, b) | Expr::Mul(a, b) => {
            compile(a, out);
            compile(b, out);
            out.push(if matches!(e, Expr::Add(..)) { Op::Add } else { Op::Mul });
        }
    }
}

/// Runs the code on a stack of `slots` slots that drops a push past its top (the bug).
fn run_machine(code: &[Op], slots: usize) -> Option<u32> {
    let mut stack: Vec<u32> = Vec::with_capacity(slots);
    for op in code {
        match *op {
            Op::Push(x) if stack.len() < slots => stack.push(x),
            Op::Push(_) => {}
            Op::Add | Op::Mul => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                stack.push(if matches!(op, Op::Add) { a.wrapping_add(b) } else { a.wrapping_mul(b) });
            }
        }
    }
    stack.pop()
}

/// One run of the machine of `slots` slots (`None`: the sums), the cases to the failure, or `None` within `cases`.
fn run(slots: Option<usize>, setup: &str, cases: u64, seed: u64) -> Option<u64> {
    let target = setup.ends_with("+maximize");
    match slots {
        Some(slots) => check(
            Property::new(Expr::generator, move |e: Expr| {
                if target {
                    maximize!(stack_needed(&e));
                }
                let mut code = Vec::new();
                compile(&e, &mut code);
                run_machine(&code, slots) == Some(eval(&e))
            }),
            setup,
            cases,
            seed,
        ),
        None => check(
            Property::new(
                || vec(int(0u32..=100), 0..=20),
                move |xs: Vec<u32>| {
                    let total: u32 = xs.iter().sum();
                    if target {
                        maximize!(total);
                    }
                    total < 1_900
                },
            ),
            setup,
            cases,
            seed,
        ),
    }
}

/// `p` under `setup`: the cases to its failure, or `None` within `cases`.
fn check<V: std::fmt::Debug + Clone + 'static>(p: Property<V>, setup: &str, cases: u64, seed: u64) -> Option<u64> {
    let config = Config::new(format!("targeted_stack::{setup}")).cases(cases).seed(seed).no_timeout();
    let config = config.max_shrink_steps(0).no_regressions();
    let config = match setup {
        "random" => config.guide(|| RandomGuide),
        "sa+maximize" => config.guide(SaGuide::default),
        _ => config.guide(AutoGuide::default),
    };
    match p.check(&config) {
        Ok(_) => None,
        Err(RunError::Failed(f)) => Some(f.cases + f.discards + 1),
        Err(e) => panic!("{setup}: {e}"),
    }
}

fn main() {
    let (mut seeds, mut cases) = (10u64, 3000u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--seeds", Some(n)) => seeds = n,
            ("--cases", Some(n)) => cases = n,
            _ => {
                eprintln!("usage: targeted_stack [--seeds N] [--cases N]");
                std::process::exit(2);
            }
        }
    }
    println!("{:<6} {:<15} {:>6} {:>13}", "slots", "setup", "found", "median_cases");
    for slots in [Some(6usize), Some(8), None] {
        let name = slots.map_or("sums".to_owned(), |s| s.to_string());
        for setup in ["random", "auto", "auto+maximize", "sa+maximize"] {
            let mut found: Vec<u64> = (1..=seeds).filter_map(|s| run(slots, setup, cases, s)).collect();
            found.sort_unstable();
            let median = match found.len() {
                0 => "-".to_owned(),
                n => found[n / 2].to_string(),
            };
            println!("{name:<6} {setup:<15} {:>3}/{seeds:<2} {median:>13}", found.len());
        }
    }
}
