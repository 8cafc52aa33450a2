//! State machines shared by the stateful tests and examples: a key-value store, a bank account, a deep counter, a racy counter.
#![allow(dead_code)]

use refgen::combinators::{int, just, pick};
use refgen::prelude::*;
use refgen::statem::{ParallelStateMachine, StateMachine};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

// ---------------------------------------------------------------- a key-value store

/// A command on a key-value store: arguments from `#[derive(Reflective)]`.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub enum Kv {
    /// Set `key` to `value`.
    Put(#[choice(range = 0..=7)] u8, #[choice(range = 0..=99)] u32),
    /// Read `key`.
    Get(#[choice(range = 0..=7)] u8),
    /// Remove `key` (made only for a key that is present).
    Remove(#[choice(range = 0..=7)] u8),
}

/// A key-value store kept as a list of pairs, with a planted bug: once it
/// holds four pairs, `put` of a key already present adds a second pair
/// (reads see the newest) instead of replacing it, and `remove` takes out
/// the oldest pair, giving back the old value. The shortest failing
/// sequence has six commands: four keys put, one put again, removed.
#[derive(Debug, Default)]
pub struct BuggyStore {
    pairs: Vec<(u8, u32)>,
}

impl BuggyStore {
    pub fn put(&mut self, k: u8, v: u32) {
        let full = self.pairs.len() >= 4;
        match self.pairs.iter_mut().find(|p| p.0 == k) {
            Some(p) if !full => p.1 = v,
            _ => self.pairs.push((k, v)),
        }
    }
    pub fn get(&self, k: u8) -> Option<u32> {
        self.pairs.iter().rev().find(|p| p.0 == k).map(|p| p.1)
    }
    pub fn remove(&mut self, k: u8) -> Option<u32> {
        let i = self.pairs.iter().position(|p| p.0 == k)?;
        Some(self.pairs.remove(i).1)
    }
}

/// The key-value store against a `BTreeMap` model.
pub struct KvMachine;

impl StateMachine for KvMachine {
    type State = BTreeMap<u8, u32>;
    type Command = Kv;
    type Sut = BuggyStore;
    type Output = Option<u32>;

    fn initial_state() -> Self::State {
        BTreeMap::new()
    }

    /// Any command; a `Remove` of a key the model holds, when there is one.
    fn commands(state: &Self::State) -> BoxGen<Kv> {
        let keys: Vec<u8> = state.keys().copied().collect();
        if keys.is_empty() {
            return Kv::generator();
        }
        let back = keys.clone();
        let present = int(0..=keys.len() - 1).map(
            move |i| Kv::Remove(keys[i]),
            move |c: &Kv| match c {
                Kv::Remove(k) => back.iter().position(|x| x == k),
                _ => None,
            },
        );
        pick("kv", [("any", 3, Kv::generator()), ("remove present", 1, present.boxed())]).boxed()
    }

    fn precondition(state: &Self::State, c: &Kv) -> bool {
        match c {
            Kv::Remove(k) => state.contains_key(k),
            _ => true,
        }
    }

    fn next_state(state: &mut Self::State, c: &Kv) {
        match *c {
            Kv::Put(k, v) => _ = state.insert(k, v),
            Kv::Get(_) => {}
            Kv::Remove(k) => _ = state.remove(&k),
        }
    }

    fn new_sut() -> BuggyStore {
        BuggyStore::default()
    }

    fn run(sut: &mut BuggyStore, c: &Kv) -> Option<u32> {
        match *c {
            Kv::Put(k, v) => {
                sut.put(k, v);
                None
            }
            Kv::Get(k) => sut.get(k),
            Kv::Remove(k) => sut.remove(k),
        }
    }

    fn postcondition(before: &Self::State, c: &Kv, out: &Option<u32>) -> bool {
        match *c {
            Kv::Put(..) => out.is_none(),
            Kv::Get(k) | Kv::Remove(k) => *out == before.get(&k).copied(),
        }
    }
}

// ---------------------------------------------------------------- a bank account

/// A command on a bank account.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub enum Bank {
    /// Pay in an amount.
    Deposit(#[choice(range = 1..=100)] u32),
    /// Take out an amount (never more than the balance: a precondition).
    Withdraw(#[choice(range = 1..=100)] u32),
    /// Read the balance.
    Balance,
}

/// An account with a planted bug: a withdrawal from an account holding more
/// than 100 that leaves less than 20 (but not nothing) takes one more.
#[derive(Debug, Default)]
pub struct Account {
    balance: u32,
}

/// The account against a model balance.
pub struct BankMachine;

impl StateMachine for BankMachine {
    type State = u32;
    type Command = Bank;
    type Sut = Account;
    type Output = u32;

    fn initial_state() -> u32 {
        0
    }
    fn commands(_: &u32) -> BoxGen<Bank> {
        Bank::generator()
    }
    fn precondition(balance: &u32, c: &Bank) -> bool {
        match c {
            Bank::Withdraw(a) => a <= balance,
            _ => true,
        }
    }
    fn next_state(balance: &mut u32, c: &Bank) {
        match *c {
            Bank::Deposit(a) => *balance += a,
            Bank::Withdraw(a) => *balance -= a,
            Bank::Balance => {}
        }
    }
    fn new_sut() -> Account {
        Account::default()
    }
    fn run(acc: &mut Account, c: &Bank) -> u32 {
        match *c {
            Bank::Deposit(a) => acc.balance += a,
            Bank::Withdraw(a) => {
                let left = acc.balance - a;
                acc.balance = if acc.balance > 100 && (1..20).contains(&left) { left - 1 } else { left };
            }
            Bank::Balance => {}
        }
        acc.balance
    }
    fn postcondition(before: &u32, c: &Bank, out: &u32) -> bool {
        let mut after = *before;
        Self::next_state(&mut after, c);
        *out == after
    }
}

// ---------------------------------------------------------------- a deep counter

/// A command on a counter.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub enum Count {
    /// Back to zero (first: the option lenient replay takes where a case runs out).
    Reset,
    /// Take one away (only above zero: a precondition).
    Dec,
    /// Add one.
    Inc,
}

/// A counter with a planted bug past 20: the 21st step up wraps to zero.
#[derive(Debug, Default)]
pub struct WrappingCounter {
    n: u32,
}

/// The counter against a model number: the bug needs 21 more `Inc` than
/// `Dec` with no `Reset` between, which random sequences almost never make.
pub struct CounterMachine;

impl StateMachine for CounterMachine {
    type State = u32;
    type Command = Count;
    type Sut = WrappingCounter;
    type Output = u32;

    fn initial_state() -> u32 {
        0
    }
    fn commands(_: &u32) -> BoxGen<Count> {
        Count::generator()
    }
    fn precondition(n: &u32, c: &Count) -> bool {
        !matches!(c, Count::Dec) || *n > 0
    }
    fn next_state(n: &mut u32, c: &Count) {
        match c {
            Count::Inc => *n += 1,
            Count::Dec => *n -= 1,
            Count::Reset => *n = 0,
        }
    }
    fn new_sut() -> WrappingCounter {
        WrappingCounter::default()
    }
    fn run(sut: &mut WrappingCounter, c: &Count) -> u32 {
        sut.n = match c {
            Count::Inc if sut.n == 20 => 0,
            Count::Inc => sut.n + 1,
            Count::Dec => sut.n - 1,
            Count::Reset => 0,
        };
        sut.n
    }
    fn postcondition(before: &u32, c: &Count, out: &u32) -> bool {
        let mut after = *before;
        Self::next_state(&mut after, c);
        *out == after
    }
    fn len() -> std::ops::RangeInclusive<usize> {
        0..=40
    }
}

// ---------------------------------------------------------------- a racy counter

/// A command on a shared counter.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub enum Shared {
    /// Add one; gives the value after.
    Incr,
    /// Read the value.
    Get,
}

/// A counter shared by threads, with a planted race: `incr` reads, then
/// writes back one more, so two concurrent increments may count once.
#[derive(Debug, Default)]
pub struct RacyCounter {
    n: AtomicU64,
}

impl RacyCounter {
    pub fn incr(&self) -> u64 {
        let v = self.n.load(Ordering::SeqCst);
        // Some work between the read and the write: the window of the race.
        for _ in 0..64 {
            std::hint::spin_loop();
        }
        self.n.store(v + 1, Ordering::SeqCst);
        v + 1
    }
    pub fn get(&self) -> u64 {
        self.n.load(Ordering::SeqCst)
    }
}

/// The racy counter against a model number. Every sequential run agrees
/// with the model; only threads running at once find the race.
pub struct RacyMachine;

impl StateMachine for RacyMachine {
    type State = u64;
    type Command = Shared;
    type Sut = RacyCounter;
    type Output = u64;

    fn initial_state() -> u64 {
        0
    }
    fn commands(_: &u64) -> BoxGen<Shared> {
        pick("shared", [("incr", 1, just(Shared::Incr).boxed()), ("get", 1, just(Shared::Get).boxed())]).boxed()
    }
    fn next_state(n: &mut u64, c: &Shared) {
        if let Shared::Incr = c {
            *n += 1
        }
    }
    fn new_sut() -> RacyCounter {
        RacyCounter::default()
    }
    fn run(sut: &mut RacyCounter, c: &Shared) -> u64 {
        Self::run_shared(sut, c)
    }
    fn postcondition(before: &u64, c: &Shared, out: &u64) -> bool {
        match c {
            Shared::Incr => *out == before + 1,
            Shared::Get => out == before,
        }
    }
}

impl ParallelStateMachine for RacyMachine {
    fn run_shared(sut: &RacyCounter, c: &Shared) -> u64 {
        match c {
            Shared::Incr => sut.incr(),
            Shared::Get => sut.get(),
        }
    }
}
