//! The property `refgen_fuzz::bst_delete` as an AFL++ target (see the README's fuzzing section):
//! `cargo afl build --release --no-default-features --features afl --bin bst_delete_afl`, then
//! `cargo afl fuzz -i corpus -o out target/release/bst_delete_afl`.

fn main() {
    refgen::fuzz::afl_main(refgen_fuzz::bst_delete::property);
}
