//! Every numerical tolerance of the analysis, in one place, each with the
//! reason for its size.
//!
//! Figures are computed in `f64` (unit roundoff 1.1e-16). A kernel row sums a
//! few hundred products at most on ordinary boards, so its rounding error is
//! a few times 1e-16; tolerances here leave room for that and for the
//! condition of the linear systems, and no more.

/// Largest accepted `|Σ_e K(s, e) − 1|` for a row of the compiled turn kernel.
///
/// A row sums at most [`Dice::MAX_TOTALS`](crate::Dice::MAX_TOTALS) outcomes per roll of the
/// turn, each rounded once (≤ 1.1e-16 relative), and a bonus-roll cycle
/// divides by `1 − p^L`, which can magnify that rounding by `1 / (1 − p^L)`
/// (≤ 1e3 for any die with a face below 0.999). 1e-10 is well above that
/// worst case and far below any error that would change a printed figure.
pub const ROW_SUM: f64 = 1e-10;

/// The length distribution is computed until the probability that the game
/// is still going is below this; that remainder is
/// reported as the tail.
pub const TAIL: f64 = 1e-12;

/// Largest absolute error allowed in any `P(T > t)` or `P(T = t)` the
/// length distribution computes in closed form from the geometric decay of
/// its tail instead of stepping (docs/figures.md §4a). It is a tenth of
/// [`TAIL`], the mass the distribution leaves out anyway, a ten-thousandth of
/// [`TIE`], so no quantile or mode decision can move, and below the rounding
/// the one-turn stepping itself accumulates over a long game (≈ t·k·2⁻⁵³
/// relative after t products of rows of k entries).
pub const GEOMETRIC_ERROR: f64 = 1e-13;

/// Most turns the length distribution is followed for, even if the tail is
/// still above [`TAIL`]; a board whose games last that long reports the
/// larger tail rather than running without end.
pub const MAX_DISTRIBUTION_TURNS: usize = 10_000_000;

/// Relative agreement required between the exact mean (a fraction) and the
/// `f64` mean. The `f64` solve of an ~100-state system with condition number
/// ~1e3 loses about three digits of the 16, so 1e-12 still leaves a margin.
pub const EXACT_AGREEMENT: f64 = 1e-12;

/// A pivot of the LU factorisation of `I − Q` smaller than this (relative to
/// the largest entry, 1) is treated as zero: the system is singular, some
/// state never finishes.
pub const SINGULAR_PIVOT: f64 = 1e-13;

/// Expected turns above which the sparse solver's result is checked for
/// trapped squares (a structural search) before it is trusted.
///
/// A set of squares no token can leave has no route to the finish, so in
/// `f64` it leaks only through rounding: its rows sum to 1 within
/// [`ROW_SUM`], so a token leaves it at a rate of at most 1e-10 a turn and
/// its expected turns come out at 1e10 or more (or the factorisation fails,
/// or they come out negative or infinite, which are checked too). 1e9 leaves
/// a factor of ten. A genuine board this slow only pays for the search.
pub const TRAP_SUSPECT_TURNS: f64 = 1e9;

/// A denominator of a rank-one (Sherman–Morrison or Woodbury) update of the
/// solved chain smaller than this is treated as zero: the changed board's
/// system is singular (some square would never finish) or too close to it
/// for the update to be trusted. The denominators are `1 − vᵀN·u` terms of
/// size ~1 on a healthy board; 1e-9 keeps at least seven digits of the
/// update.
pub const UPDATE_DENOMINATOR: f64 = 1e-9;

/// Relative agreement required between the mean of a changed board by the
/// rank-one update and by a fresh solve of that board, when a search
/// verifies its answer. Both lose a few digits to the ~1e3 condition number
/// of `I − Q` on a 100-square board and the update adds a handful of
/// operations, so 1e-9 leaves a margin of several digits while still
/// catching any wrong formula (whose errors are ~1e-2 or larger).
pub const UPDATE_AGREEMENT: f64 = 1e-9;

/// Survival `P(T > t)` below which the first seat's advantage, `Σ_t P(T = t)²`,
/// stops summing: the terms left out add up to at most the square of it,
/// 1e-12, the same as [`TAIL`] leaves out of the distribution, in about half
/// the turns.
pub const ADVANTAGE_TAIL: f64 = 1e-6;
/// Two terms of the `f64` length distribution closer than this, relative to
/// the larger, may be tied in exact arithmetic; a `P(T ≤ t)` closer than
/// this (absolutely) to a quantile's level may lie on either side of it.
/// Such near-ties of the mode and the quantiles are decided by recomputing
/// the terms exactly in integer arithmetic.
///
/// Each term comes from t sparse products of non-negative numbers, so its
/// relative error is at most about `t·k·u` for rows of k entries (u =
/// 1.1e-16), and a partial sum of the terms adds as much absolutely: below
/// 1e-9 for every `t·k` up to 10⁷, that is, for every distribution exact
/// arithmetic can afford to recompute.
pub const TIE: f64 = 1e-9;

/// Largest relative rounding error of one entry of the `f64` turn kernel,
/// per rounding step: an entry is a product along a turn's path of bonus
/// rolls (one rounding per roll), a closed-form cycle sum (a few), and a
/// sum of such terms merged by target (one per term). The compiler counts
/// the steps of its longest row and reports `steps × KERNEL_ROUNDING`
/// ([`crate::markov::chain::Chain::entry_rounding`]); this is the unit roundoff
/// 2⁻⁵³ doubled, for the rounding of the dice probabilities themselves.
pub const KERNEL_ROUNDING: f64 = f64::EPSILON;

/// A mean or variance whose relative error bound exceeds this is
/// recomputed exactly when exact arithmetic is affordable, and otherwise
/// printed with a warning naming the bound (every printed mean and variance
/// to 1e-9).
pub const MEAN_TRUST: f64 = 1e-9;

/// A length distribution whose tail is above this when it stops was cut
/// off (by [`MAX_DISTRIBUTION_TURNS`] or the work limit) rather than
/// finished: figures that need the whole distribution (seat odds) are
/// skipped, and the analysis warns. 1e-9 leaves the normal stopping tail
/// ([`TAIL`]) a factor of 1,000, and is far below any printed digit.
pub const TRUNCATED: f64 = 1e-9;
