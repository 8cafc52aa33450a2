use refgen::prelude::*;

#[derive(Reflective)]
struct Name {
    #[choice(regex = "[a-z](b")]
    text: String,
}

fn main() {}
