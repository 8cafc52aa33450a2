use refgen::prelude::*;

// `args` given to a type that declares none.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Other(u8);

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Holder {
    #[choice(args(3))]
    other: Other,
}

fn main() {}
