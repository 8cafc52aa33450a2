use refgen::prelude::*;

#[derive(Reflective)]
struct Code {
    #[choice(regex = "[0-9]{3}")]
    code: u32,
}

fn main() {}
