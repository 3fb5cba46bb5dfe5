//! Data parallelism, behind the default `parallel` feature: rayon's names
//! with it, sequential stand-ins of the same names without it, so that
//! every call site reads the same either way and computes the same. Every
//! parallel site of this crate, and of crates built on it that use this
//! module, gives results independent of the number of threads (results
//! gathered in order, sums merged of integers), and one thread is one such
//! number.

#[cfg(feature = "parallel")]
pub use rayon::prelude::*;
#[cfg(feature = "parallel")]
pub use rayon::{current_num_threads, join};

#[cfg(not(feature = "parallel"))]
pub use sequential::*;

/// Folds `0..n` into accumulators made by `identity` and merges them with
/// `merge`, stopping at the first error: on rayon's current pool, or in one
/// sequential fold. `merge` must be associative and, applied to the
/// accumulators of a split range, give the accumulator of the whole range,
/// so that the result is the same however the range is split.
pub fn try_fold_merge<A, E>(
    n: u64,
    identity: impl Fn() -> A + Sync + Send,
    fold: impl Fn(A, u64) -> Result<A, E> + Sync + Send,
    merge: impl Fn(A, A) -> Result<A, E> + Sync + Send,
) -> Result<A, E>
where
    A: Send,
    E: Send,
{
    #[cfg(feature = "parallel")]
    {
        (0..n)
            .into_par_iter()
            .try_fold(&identity, fold)
            .try_reduce(&identity, merge)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = merge;
        (0..n).try_fold(identity(), fold)
    }
}

/// Runs `f` on a pool of `threads` threads (rayon's, with the feature), or
/// on the calling thread without it. The error is the pool's, as text.
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    #[cfg(feature = "parallel")]
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(pool.install(f))
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = threads;
        Ok(f())
    }
}

/// The sequential stand-ins for rayon's names.
#[cfg(not(feature = "parallel"))]
mod sequential {
    /// The number of threads work is spread over: one.
    pub fn current_num_threads() -> usize {
        1
    }

    /// Runs `a`, then `b`.
    pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA,
        B: FnOnce() -> RB,
    {
        let ra = a();
        (ra, b())
    }

    /// `par_iter` of a slice: its plain iterator.
    pub trait IntoParallelRefIterator<T> {
        /// The slice's iterator.
        fn par_iter(&self) -> std::slice::Iter<'_, T>;
    }

    impl<T> IntoParallelRefIterator<T> for [T] {
        fn par_iter(&self) -> std::slice::Iter<'_, T> {
            self.iter()
        }
    }

    /// `into_par_iter` of a range (or any iterator): itself.
    pub trait IntoParallelIterator: Sized {
        /// The iterator itself.
        fn into_par_iter(self) -> Self;
    }

    impl<I: Iterator> IntoParallelIterator for I {
        fn into_par_iter(self) -> Self {
            self
        }
    }

    /// `par_chunks` of a slice: `chunks`.
    pub trait ParallelSlice<T> {
        /// The slice in chunks of `size`.
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
    }

    impl<T> ParallelSlice<T> for [T] {
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(size)
        }
    }

    /// `par_chunks_mut` of a slice: `chunks_mut`.
    pub trait ParallelSliceMut<T> {
        /// The slice in mutable chunks of `size`.
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
    }

    impl<T> ParallelSliceMut<T> for [T] {
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(size)
        }
    }

    /// rayon's `for_each_init`: one value from `init`, lent to every call.
    pub trait ForEachInit: Iterator + Sized {
        /// Calls `op` on every item with one scratch value made by `init`.
        fn for_each_init<S>(
            self,
            init: impl FnOnce() -> S,
            mut op: impl FnMut(&mut S, Self::Item),
        ) {
            let mut scratch = init();
            self.for_each(|item| op(&mut scratch, item));
        }
    }

    impl<I: Iterator> ForEachInit for I {}
}
