use refgen::prelude::*;

#[derive(Debug, Clone, Reflective)]
struct Config {
    #[choice(range = 0..=1)]
    ratio: f32,
}

// The derive's error is the only one: uses of the type add none.
fn make() -> BoxGen<Config> {
    Config::generator()
}

fn main() {
    let _ = make();
}
