use refgen::prelude::*;

// `when` without arguments, and `args` on an integer.
#[derive(Debug, Clone, PartialEq, Reflective)]
enum Light {
    #[choice(when = true)]
    On,
    Off,
}

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Holder {
    #[choice(args(3))]
    inner: u16,
}

fn main() {}
