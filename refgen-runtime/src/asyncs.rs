//! Async properties: each case's future run to completion on the thread that runs the case.
//!
//! `#[property] async fn name(...)` runs every case (generated, shrunk, replayed) through
//! [`block_on`], or through the function its `executor = path` option names: a function that takes
//! the case's future and returns its output. A case is then a call like any other, so timeouts,
//! shrinking, replay tokens and remembered failures work as for a plain `fn`.

use std::future::Future;

/// Runs `future` to completion on this thread. With the `tokio` feature, on a current-thread tokio
/// runtime made once per thread, its timers and I/O enabled; without it, on a minimal executor that
/// parks the thread until the future's waker is called (enough for futures that need no runtime of
/// their own: a future that uses tokio's timers or I/O needs the feature).
pub fn block_on<F: Future>(future: F) -> F::Output {
    run(future)
}

#[cfg(feature = "tokio")]
fn run<F: Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("refgen: cannot start a tokio runtime for an async property: {e}"));
    }
    RUNTIME.with(|rt| rt.block_on(future))
}

#[cfg(not(feature = "tokio"))]
fn run<F: Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};

    /// Wakes the thread that waits on the future.
    struct Unpark(std::thread::Thread);

    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }

    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        // A wake before the park leaves its token, so the park returns at once: no wake is lost.
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::block_on;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// Pending `n` times, waking itself each time, then ready with `n`.
    struct Countdown(u32, u32);

    impl Future for Countdown {
        type Output = u32;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if self.0 == 0 {
                return Poll::Ready(self.1);
            }
            self.0 -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    #[test]
    fn a_future_that_waits_runs_to_its_output() {
        assert_eq!(block_on(async { Countdown(5, 7).await + 1 }), 8);
        assert_eq!(block_on(async { 3 }), 3);
    }

    #[cfg(feature = "tokio")]
    #[test]
    fn tokio_timers_run_under_the_feature() {
        let t0 = std::time::Instant::now();
        let out = block_on(async {
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
            tokio::task::yield_now().await;
            5
        });
        assert_eq!(out, 5);
        assert!(t0.elapsed() >= std::time::Duration::from_millis(3));
        // The runtime is made once per thread, and serves every case after.
        assert_eq!(block_on(async { 6 }), 6);
    }

    #[test]
    fn a_future_woken_from_another_thread_completes() {
        let (tx, rx) = std::sync::mpsc::channel::<std::task::Waker>();
        let helper = std::thread::spawn(move || {
            let waker = rx.recv().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(5));
            waker.wake();
        });
        let mut sent = Some(tx);
        let out = block_on(std::future::poll_fn(move |cx| match sent.take() {
            Some(tx) => {
                tx.send(cx.waker().clone()).unwrap();
                Poll::Pending
            }
            None => Poll::Ready(42),
        }));
        helper.join().unwrap();
        assert_eq!(out, 42);
    }
}
