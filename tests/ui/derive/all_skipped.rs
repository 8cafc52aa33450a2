use refgen::prelude::*;

#[derive(Reflective)]
enum Never {
    #[choice(skip)]
    A,
    #[choice(skip)]
    B(u8),
}

fn main() {}
