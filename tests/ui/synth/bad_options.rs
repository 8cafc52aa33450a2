use refgen::prelude::*;

#[derive(Debug, Clone, PartialEq)]
pub enum Chain {
    End,
    Link(Box<Chain>),
}

// `n` is not an argument; `size` is not an option.
#[synth(n = 3)]
fn exactly(c: &Chain, h: u8) -> bool {
    match c {
        Chain::End => h == 0,
        Chain::Link(next) => h >= 1 && exactly(next, h - 1),
    }
}

#[synth(size = 3)]
fn any_chain(c: &Chain) -> bool {
    match c {
        Chain::End => true,
        Chain::Link(next) => any_chain(next),
    }
}

fn main() {}

// A weight for a variant the predicate has not.
#[synth(weight(Lnk = 3))]
fn weighted(c: &Chain) -> bool {
    match c {
        Chain::End => true,
        Chain::Link(next) => weighted(next),
    }
}
