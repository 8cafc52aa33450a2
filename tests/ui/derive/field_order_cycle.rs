use refgen::prelude::*;

// Two fields whose ranges name each other: neither can be made first.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Loop {
    #[choice(range = 0..=*b)]
    a: u8,
    #[choice(range = 0..=*a)]
    b: u8,
}

fn main() {}
