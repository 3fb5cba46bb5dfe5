//! Every numerical tolerance of the analysis, in one place, each with the
//! reason for its size.
//!
//! Figures are computed in `f64` (unit roundoff 1.1e-16). A kernel row sums a
//! few hundred products at most on ordinary boards, so its rounding error is
//! a few times 1e-16; tolerances here leave room for that and for the
//! condition of the linear systems, and no more.

/// Largest accepted `|Σ_e K(s, e) − 1|` for a row of the compiled turn kernel.
///
/// A row sums at most [`crate::MAX_TOTALS`] outcomes per roll of the
/// turn, each rounded once (≤ 1.1e-16 relative), and a bonus-roll cycle
/// divides by `1 − p^L`, which can magnify that rounding by `1 / (1 − p^L)`
/// (≤ 1e3 for any die with a face below 0.999). 1e-10 is well above that
/// worst case and far below any error that would change a printed figure.
pub const ROW_SUM: f64 = 1e-10;

/// A turn's chain of bonus rolls is followed until the probability that the
/// turn is still going falls below this; the rest is dropped.
///
/// It is below the resolution of a row sum of 1 (2.2e-16), so dropping it
/// changes no figure; it only matters for dice that roll the bonus total
/// with probability near 1 on very long boards, where the exact chain of
/// bonus rolls would be as long as the board.
pub const BONUS_CUTOFF: f64 = 1e-18;

/// The length distribution is computed until the probability that the game
/// is still going is below this; that remainder is
/// reported as the tail.
pub const TAIL: f64 = 1e-12;

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
