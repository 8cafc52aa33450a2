use refgen::prelude::*;
use refgen::statem::check_parallel;

struct Counter;

impl StateMachine for Counter {
    type State = u8;
    type Command = bool;
    type Sut = u8;
    type Output = u8;
    fn initial_state(&self) -> u8 {
        0
    }
    fn commands(&self, _: &u8) -> BoxGen<bool> {
        bool::generator()
    }
    fn next_state(&self, n: &mut u8, up: &bool) {
        *n += *up as u8;
    }
    fn new_sut(&self) -> u8 {
        0
    }
    fn run(&self, n: &mut u8, up: &bool) -> u8 {
        *n += *up as u8;
        *n
    }
}

fn main() {
    let _ = check_parallel(Counter, &Config::new("counter"));
}
