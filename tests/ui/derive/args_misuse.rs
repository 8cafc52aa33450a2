use refgen::prelude::*;

// Misused arguments: a name given twice, a field's name, a range on a
// non-integer, `args` beside `range`, `args` on a collection.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(lo: i32, lo: i32, key: u8, on: bool in 0..=1))]
struct Bounded {
    #[choice(range = 0..=9, args(*lo))]
    key: u8,
    #[choice(args(1))]
    keys: Vec<u8>,
}

fn main() {}
