use refgen::prelude::*;

// A recursive field of a type whose arguments have no default: it must give them.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(lo: i32, hi: i32))]
enum Tree {
    Leaf,
    #[choice(when = *lo <= *hi)]
    Node(Box<Tree>, #[choice(range = *lo..=*hi)] i32, Box<Tree>),
}

fn main() {}
