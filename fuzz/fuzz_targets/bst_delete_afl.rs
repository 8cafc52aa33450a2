//! The property `reflect_fuzz::bst_delete` as an AFL++ target (see the README's fuzzing section):
//! `cargo afl build --release --no-default-features --features afl --bin bst_delete_afl`, then
//! `cargo afl fuzz -i corpus -o out target/release/bst_delete_afl`.

fn main() {
    reflect::fuzz::afl_main(reflect_fuzz::bst_delete::property);
}
