use refgen::prelude::*;

// A per-case limit is `timeout_ms = N` or `timeout = none`; a run budget is a positive `max_time_ms`.
#[property(timeout = 5, max_time_ms = 0)]
fn p(x: u8) {
    let _ = x;
}

#[property(timeout_ms = 100, timeout = none)]
fn q(x: u8) {
    let _ = x;
}

#[property(timeout, max_time_ms = "10s")]
fn r(x: u8) {
    let _ = x;
}

fn main() {}
