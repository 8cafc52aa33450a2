//! Sizes of valid values under `#[assume]`, by how many retries a failing value gets: a table per type.
//!
//! Two types of the derive's docs, each generated from a fixed run of
//! seeds with the plain random generator: a sorted `Vec<u8>` (the
//! condition on the whole list) and a binary search tree (the condition
//! on every subtree, `every`, and on the outermost tree only, `top`).
//! For each number of retries the table gives the share of runs that made
//! a valid value, the size distribution of the valid values (list length,
//! or number of nodes), their mean size, and the cost of a valid value:
//! the choices made by all the runs (failed attempts and discarded runs
//! included) over the valid values they gave, a count that does not depend
//! on the machine.
//!
//! Run with `cargo run --release -p refgen-benches --bin assume_sizes [-- --runs N]`.

use refgen::interpret::generate_recorded;
use refgen::prelude::*;

/// The list of the derive's docs, sorted, with `retries = $n` (`default` for the default).
macro_rules! sorted {
    ($name:ident, $($opt:tt)*) => {
        #[derive(Debug, Clone, PartialEq, Reflective)]
        #[assume(self.0.is_sorted() $($opt)*)]
        struct $name(Vec<u8>);
        impl Sized_ for $name {
            fn size(&self) -> usize {
                self.0.len()
            }
        }
    };
}

/// The tree of the derive's docs, keys in 0..=10, with the condition's options `$opt`.
macro_rules! bst {
    ($name:ident, $($opt:tt)*) => {
        #[derive(Debug, Clone, PartialEq, Reflective)]
        #[assume(is_bst(&keys(self, |t| match t { $name::Node(l, k, r) => Some((&**l, *k, &**r)), $name::Leaf => None })) $($opt)*)]
        enum $name {
            #[choice(weight = 1)]
            Leaf,
            #[choice(weight = 3)]
            Node(Box<$name>, #[choice(range = 0..=10)] u8, Box<$name>),
        }
        impl Sized_ for $name {
            fn size(&self) -> usize {
                match self {
                    $name::Leaf => 0,
                    $name::Node(l, _, r) => 1 + l.size() + r.size(),
                }
            }
        }
    };
}

/// The size of a value: a list's length, a tree's nodes.
trait Sized_ {
    fn size(&self) -> usize;
}

/// The keys of a tree in order, read through `node`.
fn keys<T>(t: &T, node: impl Fn(&T) -> Option<(&T, u8, &T)> + Copy) -> Vec<u8> {
    fn go<T>(t: &T, node: impl Fn(&T) -> Option<(&T, u8, &T)> + Copy, out: &mut Vec<u8>) {
        if let Some((l, k, r)) = node(t) {
            go(l, node, out);
            out.push(k);
            go(r, node, out);
        }
    }
    let mut out = Vec::new();
    go(t, node, &mut out);
    out
}

fn is_bst(keys: &[u8]) -> bool {
    keys.windows(2).all(|w| w[0] < w[1])
}

sorted!(Sorted0, , retries = 0);
sorted!(Sorted3, , retries = 3);
sorted!(Sorted10,);
sorted!(Sorted30, , retries = 30);
bst!(Bst0, , retries = 0);
bst!(Bst3, , retries = 3);
bst!(Bst10,);
bst!(Bst30, , retries = 30);
bst!(BstTop0, , top, retries = 0);
bst!(BstTop10, , top);

/// The size buckets of the table.
const BUCKETS: [(usize, usize, &str); 6] =
    [(0, 0, "0"), (1, 1, "1"), (2, 2, "2"), (3, 4, "3-4"), (5, 6, "5-6"), (7, usize::MAX, "7+")];

fn row<T: Reflective + Sized_>(label: &str, runs: u64) {
    let g = T::generator();
    let mut counts = [0u64; BUCKETS.len()];
    let (mut valid, mut total_size, mut choices) = (0u64, 0usize, 0usize);
    for seed in 0..runs {
        let (v, tree) = generate_recorded(&g, seed);
        choices += tree.choice_count();
        if let Ok(v) = v {
            valid += 1;
            let s = v.size();
            total_size += s;
            let b = BUCKETS.iter().position(|&(lo, hi, _)| (lo..=hi).contains(&s)).expect("a bucket");
            counts[b] += 1;
        }
    }
    let cost = choices as f64 / valid.max(1) as f64;
    let pct = |n: u64| 100.0 * n as f64 / valid.max(1) as f64;
    let cells: Vec<String> = counts.iter().map(|&c| format!("{:>5.1}", pct(c))).collect();
    println!(
        "| {label:<27} | {:>6.1} | {} | {:>5.2} | {:>8.1} |",
        100.0 * valid as f64 / runs as f64,
        cells.join(" | "),
        total_size as f64 / valid.max(1) as f64,
        cost
    );
}

fn header(what: &str) {
    let names: Vec<String> = BUCKETS.iter().map(|b| format!("{:>5}", b.2)).collect();
    println!("\n{what}: % of runs valid; % of valid values by size; mean size; choices per valid value\n");
    println!("| {:<27} | valid% | {} | mean  | choices/valid |", "type", names.join(" | "));
    println!("|{}|", ["---"; 10].join("|"));
}

fn main() {
    let mut runs = 20_000u64;
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--runs") {
        runs = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(runs);
    }
    println!("{runs} runs of the random generator per row (seeds 0..{runs})");
    header("Sorted Vec<u8>, #[assume(self.0.is_sorted())], size = length");
    row::<Sorted0>("retries = 0 (before)", runs);
    row::<Sorted3>("retries = 3", runs);
    row::<Sorted10>("retries = 10 (default)", runs);
    row::<Sorted30>("retries = 30", runs);
    header("BST, keys 0..=10, depth 6, size = nodes");
    row::<Bst0>("every, retries 0 (before)", runs);
    row::<Bst3>("every, retries 3", runs);
    row::<Bst10>("every, retries 10 (default)", runs);
    row::<Bst30>("every, retries 30", runs);
    row::<BstTop0>("top, retries 0", runs);
    row::<BstTop10>("top, retries 10", runs);
}
