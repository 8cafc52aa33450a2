use refgen::prelude::*;

// Every mistake in `tuned(...)` and `mutate(...)` is reported, each at its tokens.
#[property(guide = tuned)]
fn tuned_without_examples(x: u8) {
    let _ = x;
}

#[property(guide = tuned(smoothing = 0.5))]
fn only_smoothing(x: u8) {
    let _ = x;
}

#[property(guide = tuned(weights = 3))]
fn weights_not_a_path(x: u8) {
    let _ = x;
}

#[property(guide = tuned(weights = "w.json", like = [1u8]))]
fn weights_and_examples(x: u8) {
    let _ = x;
}

#[property(guide = tuned(smoothing = 0.5, weights = "w.json"))]
fn weights_and_smoothing(x: u8) {
    let _ = x;
}

#[property(guide = tuned(like = [1u8], near = [3u8]))]
fn unknown_key(x: u8) {
    let _ = x;
}

#[property(guide = mutate(speed = 2))]
fn mutate_unknown_key(x: u8) {
    let _ = x;
}

#[property(guide = mutate(operators = [reroll, grow], fresh = 0.5))]
fn unknown_operator(x: u8) {
    let _ = x;
}

#[property(guide = mutate(operators = reroll))]
fn operators_not_a_list(x: u8) {
    let _ = x;
}

#[property(guide = mutate(operators = []))]
fn no_operators(x: u8) {
    let _ = x;
}

fn main() {}
