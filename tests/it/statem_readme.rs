//! The README's smallest complete state-machine example, compiled and run as a test.

use refgen::prelude::*;
use std::collections::BTreeMap;

/// The system under test: a store that forgets nothing (and has no bug).
#[derive(Default)]
struct MyStore(Vec<(u8, u32)>);

impl MyStore {
    fn put(&mut self, k: u8, v: u32) -> Option<u32> {
        let old = self.get(k);
        self.0.retain(|p| p.0 != k);
        self.0.push((k, v));
        old
    }
    fn get(&self, k: u8) -> Option<u32> {
        self.0.iter().find(|p| p.0 == k).map(|p| p.1)
    }
}

#[derive(Debug, Clone, PartialEq, Reflective)]
enum Cmd {
    Put(#[choice(range = 0..=7)] u8, u32),
    Get(#[choice(range = 0..=7)] u8),
}

/// The model is a `BTreeMap`; the real system is `MyStore`.
#[derive(Default)]
struct Store;

impl StateMachine for Store {
    type State = BTreeMap<u8, u32>;
    type Command = Cmd;
    type Sut = MyStore;
    type Output = Option<u32>;

    fn initial_state(&self) -> Self::State {
        BTreeMap::new()
    }
    fn commands(&self, _: &Self::State) -> BoxGen<Cmd> {
        Cmd::generator()
    }
    fn next_state(&self, model: &mut Self::State, c: &Cmd) {
        if let Cmd::Put(k, v) = *c {
            model.insert(k, v);
        }
    }
    fn new_sut(&self) -> MyStore {
        MyStore::default()
    }
    fn run(&self, store: &mut MyStore, c: &Cmd) -> Option<u32> {
        match *c {
            Cmd::Put(k, v) => store.put(k, v),
            Cmd::Get(k) => store.get(k),
        }
    }
    fn postcondition(&self, model: &Self::State, c: &Cmd, out: &Option<u32>) -> bool {
        let k = match *c {
            Cmd::Put(k, _) | Cmd::Get(k) => k,
        };
        *out == model.get(&k).copied()
    }
}

#[property]
fn store_matches_its_model(commands: Commands<Store>) {
    commands.run();
}
