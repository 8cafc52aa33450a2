use refgen::prelude::*;

#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

// A value cannot be built from a pattern that leaves fields out.
#[synth]
fn nonempty(t: &Tree) -> bool {
    match t {
        Tree::Leaf => false,
        Tree::Node(..) => true,
    }
}

fn main() {}
