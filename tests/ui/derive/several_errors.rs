use refgen::prelude::*;

// Every mistake in one type is reported together.
#[derive(Reflective)]
#[reflect(deepth = 3)]
enum Shape {
    #[choice(weight = 0)]
    Dot,
    #[choice(label = "Dot")]
    Line {
        #[choice(range = 5..=1)]
        length: u8,
        #[choice(regex = "(")]
        name: String,
        #[choice(range = 0..=1)]
        ratio: f32,
    },
}

fn main() {}
