use refgen::prelude::*;

#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Int,
    Bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Var(u8),
    Lit(u8),
}

// Arguments by reference: the generator cannot hold them.
#[synth]
fn typed(e: &Expr, ctx: &[Ty], want: &Ty) -> bool {
    match e {
        Expr::Var(i) => ctx.get(*i as usize) == Some(want),
        Expr::Lit(_) => *want == Ty::Int,
    }
}

fn main() {}
