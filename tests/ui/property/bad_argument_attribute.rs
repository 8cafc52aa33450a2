use refgen::prelude::*;

#[property]
fn p(#[gen] x: u8, #[gen(int(0u8..=3))] #[gen(int(0u8..=4))] y: u8, #[inline] z: u8) {
    let _ = (x, y, z);
}

fn main() {}
