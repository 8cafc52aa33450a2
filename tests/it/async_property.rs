//! `#[property] async fn`: each case's future run to its output, found, shrunk, replayed by token.

use refgen::prelude::*;
use refgen::runner::RunError;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

/// A future that is pending once (waking itself) before it is ready: an `.await` that yields.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// A checksum computed asynchronously, with a planted bug: the fourth byte on is dropped.
async fn checksum(bytes: &[u8]) -> u32 {
    let mut sum = 0u32;
    for (i, b) in bytes.iter().enumerate() {
        YieldOnce(false).await;
        if i < 3 {
            sum += u32::from(*b);
        }
    }
    sum
}

#[property(cases = 200)]
async fn an_async_property_passes(xs: Vec<u8>) {
    YieldOnce(false).await;
    let head = &xs[..xs.len().min(3)];
    assert_eq!(checksum(head).await, head.iter().map(|&x| u32::from(x)).sum::<u32>());
}

#[property(cases = 1000, regressions = false)]
#[ignore = "fails by design: checked through its property() by the test below"]
async fn async_checksum_counts_every_byte(#[with(vec(int(0u8..=9), 0..=8))] xs: Vec<u8>) {
    let want: u32 = xs.iter().map(|&x| u32::from(x)).sum();
    assert_eq!(checksum(&xs).await, want);
}

#[test]
fn an_async_property_with_a_planted_bug_is_found_shrunk_and_replayed() {
    let (property, config) = async_checksum_counts_every_byte::property();
    let Err(RunError::Failed(f)) = property.check(&config.clone().seed(3)) else { panic!("the bug is found") };
    // The smallest failing input: four bytes, the dropped one the only one not zero.
    assert_eq!(f.args, vec![("xs".to_owned(), "[0, 0, 0, 1]".to_owned())], "{f}");
    let Err(RunError::Failed(again)) = property.check(&config.replay(f.token.clone())) else {
        panic!("the token replays the failure")
    };
    assert_eq!(again.args, f.args);
}

static RUN_BY_OURS: AtomicU64 = AtomicU64::new(0);

/// An executor of our own: counts the futures it runs, and runs them on the default one.
fn counting_executor<F: Future>(f: F) -> F::Output {
    RUN_BY_OURS.fetch_add(1, Ordering::Relaxed);
    refgen::asyncs::block_on(f)
}

#[property(cases = 50, executor = counting_executor)]
#[ignore = "checked through its property() by the test below"]
async fn runs_on_the_named_executor(x: u8) {
    YieldOnce(false).await;
    assert!(u32::from(x) < 256);
}

#[test]
fn the_executor_option_runs_each_case() {
    let (property, config) = runs_on_the_named_executor::property();
    let before = RUN_BY_OURS.load(Ordering::Relaxed);
    let report = property.check(&config).unwrap();
    assert_eq!(RUN_BY_OURS.load(Ordering::Relaxed) - before, report.cases);
}
