//! Limits of memory and work for large boards, and the figures skipped
//! when they would pass them.
//!
//! Before each large allocation the analysis estimates it: compiling the
//! chain, factoring `I − Q`, the diagonal of N, the per-jump solves, the
//! length distribution. The chain and the factorisation are essential: past
//! [`Limits::max_memory`] the analysis refuses ([`AnalysisError::Memory`],
//! exit 3 in the CLI) with the estimate in the message. The other figures
//! are optional: past either limit each is skipped and listed in
//! [`Analysis::skipped`](super::Analysis::skipped), never silently dropped.
//!
//! [`AnalysisError::Memory`]: super::AnalysisError::Memory

use crate::Board;
use crate::markov::chain::Chain;
use crate::markov::sparse::memory::Bytes;
use crate::model::error::grouped;
use serde::Serialize;
use std::fmt;

/// The default [`Limits::max_memory`]: 4 GiB. [`Limits::default`] does not
/// probe the machine; the front ends (the command, the Python package) use
/// [`Limits::machine_max_memory`] instead, which falls back to this.
pub(crate) const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The default [`Limits::max_work`]: 2·10¹⁰ multiply-adds, about half a
/// minute of one core. It is a budget for optional figures, so that a board
/// of a million squares gives its mean and variance in seconds instead of
/// running for hours on a length distribution nobody can read.
pub(crate) const DEFAULT_MAX_WORK: f64 = 2e10;

/// How far past the mean, in standard deviations, the length distribution
/// is expected to run before its tail falls below [`tolerance::TAIL`](crate::markov::tolerance::TAIL). The
/// tail of T decays geometrically at a rate set by the slowest mode of `Q`,
/// whose time scale is at most about the standard deviation, and
/// `e^{−30} ≈ 1e-13 < 1e-12`; the estimate only decides whether to try.
pub const TAIL_STD_DEVS: f64 = 30.0;

/// How many times `mean + standard deviation` turns the length distribution
/// is expected to be stepped before its tail is provably geometric and the
/// rest follows in closed form (docs/figures.md §4a): the stepping has to
/// outlast the slower modes of Q, whose time scale is the time to cross the
/// board, at most about the mean. Like [`TAIL_STD_DEVS`] it only decides
/// whether to try: the stepping itself stops at [`Limits::max_work`], and a
/// distribution cut off there is reported as truncated.
pub const GEOMETRIC_AFTER: f64 = 4.0;

/// The share of [`Limits::max_work`] a length distribution refused by its
/// estimate still gets: if it reaches its 1e-12 tail within that (its decay
/// turned geometric early), it is kept; otherwise it is skipped with the
/// estimate as before, having cost at most this share of the budget.
pub const PROBE_SHARE: f64 = 0.1;

/// Memory and work allowed to one analysis.
///
/// # Example
/// ```
/// use snakeladder::{Analysis, Board, Limits, Options};
///
/// // Tight limits: the figures every analysis has still come, optional ones
/// // that would pass a limit are skipped and say why.
/// let limits = Limits { max_memory: 64 << 20, max_work: 1e3 };
/// let analysis = Analysis::new(&Board::builtin_default(), &Options::default().limits(limits))?;
/// assert!(analysis.turns.mean > 39.0);
/// assert!(!analysis.skipped.is_empty());
/// # Ok::<(), snakeladder::AnalysisError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Limits {
    /// Bytes the analysis may allocate (estimated before allocating).
    pub max_memory: u64,
    /// Multiply-adds any one optional figure may take.
    pub max_work: f64,
}

impl Default for Limits {
    /// [`Limits::DEFAULT_MAX_MEMORY`] and
    /// [`Limits::DEFAULT_MAX_WORK`].
    fn default() -> Limits {
        Limits {
            max_memory: DEFAULT_MAX_MEMORY,
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

/// The `MemTotal` line of a `/proc/meminfo` text, in bytes.
fn mem_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    let scale = match words.next() {
        Some("kB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    value.checked_mul(scale)
}

/// A figure that can be skipped on a large board.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
use snakeladder::analysis::Figure;

let analysis = Analysis::new(&board, &Options::default().max_work(1.0))?;
let figures: Vec<Figure> = analysis.skipped.iter().map(|s| s.figure).collect();
assert!(figures.contains(&Figure::Jumps));
assert!(analysis.jumps.is_empty());
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// The length distribution: pmf, cdf, min, mode, median, quantiles.
    Distribution,
    /// Seat odds, which need the distribution.
    Players,
    /// The probability of ever resting on each square (the diagonal of N).
    RestProbabilities,
    /// Per-jump figures: use probability and mean without each jump.
    Jumps,
    /// The list of per-square figures, left out of a JSON output of a
    /// board with more squares than `MAX_JSON_ENTRIES` (`snakeladder_render::json`).
    Squares,
    /// Deciding near-ties of the mode and quantiles in exact arithmetic;
    /// when skipped, the `f64` decision stands.
    ExactTies,
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Figure::Distribution => "the length distribution (pmf, cdf, min, mode, quantiles)",
            Figure::Players => "seat odds for several players",
            Figure::RestProbabilities => "the probability of ever resting on each square",
            Figure::Jumps => "per-jump figures (uses, use probability, mean without it)",
            Figure::Squares => "the per-square figures",
            Figure::ExactTies => {
                "deciding near-ties of the mode and quantiles exactly (the floating-point choice stands)"
            }
        })
    }
}

/// What a skipped figure would have cost: the crate's own form of the
/// JSON's `reason`, `estimate`, `limit` and `needs`, which
/// [`Skipped`]'s accessors give.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Cost {
    /// More memory than [`Limits::max_memory`] allows.
    Memory {
        /// Estimated bytes.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// More work than [`Limits::max_work`] allows.
    Work {
        /// Estimated multiply-adds.
        needed: f64,
        /// The limit.
        limit: f64,
    },
    /// It needs a figure that was skipped.
    Needs {
        /// That figure.
        figure: Figure,
    },
    /// The distribution it needs was cut off with this much probability
    /// left out.
    Truncated {
        /// `P(T > turns followed)`.
        tail: f64,
    },
    /// Exact arithmetic cannot handle the board (more states than
    /// [`crate::markov::exact::MAX_EXACT_STATES`], or a turn too long to sum).
    NoExact,
    /// A list longer than a JSON output holds
    /// (`MAX_JSON_ENTRIES` of `snakeladder_render::json`).
    Output {
        /// Its entries.
        entries: u64,
        /// The most a list may have.
        limit: u64,
    },
}

/// A figure left out of an analysis, and why.
///
/// In JSON: `{"figure": "jumps", "reason": "work", "estimate": 3.4e4,
/// "limit": 10.0, "flag": "--max-work", "needs": null}`; `reason` is
/// `memory` (estimate and limit in bytes), `work` (in multiply-adds),
/// `needs` (another skipped figure, named in `needs`; no estimate),
/// `truncated` (the distribution was cut off; the estimate is the
/// probability left out), `no_exact` (beyond exact arithmetic) or `output`
/// (a list with more entries, the estimate, than a JSON output holds, the
/// limit).
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
// A work limit of one multiply-add leaves out every optional figure.
let analysis = Analysis::new(&board, &Options::default().max_work(1.0))?;
let skipped = &analysis.skipped[0];
assert_eq!(skipped.figure, snakeladder::analysis::Figure::Distribution);
assert!(skipped.to_string().contains("over the limit of 1 (--max-work)"));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
#[serde(into = "SkippedJson")]
#[non_exhaustive]
pub struct Skipped {
    /// The figure.
    pub figure: Figure,
    /// Why.
    pub(crate) cost: Cost,
}

impl Skipped {
    /// Why, as the JSON's `reason`: `memory`, `work`, `needs`,
    /// `truncated`, `no_exact` or `output`.
    ///
    /// # Example
    /// ```
    /// # const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
    /// use snakeladder::analysis::Figure;
    /// use snakeladder::{Analysis, Board, Options};
    ///
    /// let board = Board::from_json_str(SMALL)?;
    /// let analysis = Analysis::new(&board, &Options::default().max_work(1.0))?;
    /// let first = &analysis.skipped[0];
    /// assert_eq!((first.reason(), first.limit()), ("work", Some(1.0)));
    /// assert!(first.estimate().unwrap() > 1.0);
    /// // Seat odds need the skipped distribution.
    /// let odds = &analysis.skipped[1];
    /// assert_eq!((odds.reason(), odds.needs()), ("needs", Some(Figure::Distribution)));
    /// assert_eq!(odds.estimate(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reason(&self) -> &'static str {
        SkippedJson::from(*self).reason
    }

    /// The JSON's `estimate`, in the reason's unit: bytes (`memory`),
    /// multiply-adds (`work`), the probability left out (`truncated`) or
    /// entries (`output`); `None` for the other reasons.
    pub fn estimate(&self) -> Option<f64> {
        SkippedJson::from(*self).estimate
    }

    /// The JSON's `limit` the estimate passed, in the same unit; `None`
    /// when no limit was passed.
    pub fn limit(&self) -> Option<f64> {
        SkippedJson::from(*self).limit
    }

    /// The JSON's `needs`: the skipped figure this one needs, for the
    /// reason `needs`.
    pub fn needs(&self) -> Option<Figure> {
        SkippedJson::from(*self).needs
    }
}

/// The JSON shape of [`Skipped`]: every key always present.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Serialize)]
struct SkippedJson {
    figure: Figure,
    reason: &'static str,
    estimate: Option<f64>,
    limit: Option<f64>,
    flag: Option<&'static str>,
    needs: Option<Figure>,
}

impl From<Skipped> for SkippedJson {
    fn from(s: Skipped) -> SkippedJson {
        let (reason, estimate, limit, flag, needs) = match s.cost {
            Cost::Memory { needed, limit } => (
                "memory",
                Some(needed as f64),
                Some(limit as f64),
                Some("--max-memory"),
                None,
            ),
            Cost::Work { needed, limit } => {
                ("work", Some(needed), Some(limit), Some("--max-work"), None)
            }
            Cost::Needs { figure } => ("needs", None, None, None, Some(figure)),
            Cost::Truncated { tail } => ("truncated", Some(tail), None, None, None),
            Cost::NoExact => ("no_exact", None, None, None, None),
            Cost::Output { entries, limit } => (
                "output",
                Some(entries as f64),
                Some(limit as f64),
                None,
                None,
            ),
        };
        SkippedJson {
            figure: s.figure,
            reason,
            estimate,
            limit,
            flag,
            needs,
        }
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipped {}: ", self.figure)?;
        match self.cost {
            Cost::Memory { needed, limit } => write!(
                f,
                "it needs about {} of memory, over the limit of {} (--max-memory)",
                Bytes(needed),
                Bytes(limit)
            ),
            Cost::Work { needed, limit } => write!(
                f,
                "it needs about {} multiply-adds, over the limit of {} (--max-work)",
                multiply_adds(needed),
                multiply_adds(limit)
            ),
            Cost::Needs { figure } => write!(f, "it needs {figure}, which was skipped"),
            Cost::Truncated { tail } => write!(
                f,
                "the length distribution was cut off with {tail:.2e} of the probability left out"
            ),
            Cost::NoExact => write!(f, "the board is beyond exact arithmetic"),
            Cost::Output { entries, limit } => write!(
                f,
                "its {} entries are more than the {} a JSON output lists",
                grouped(entries),
                grouped(limit)
            ),
        }
    }
}

/// A count of multiply-adds for people: whole below 10,000 (`0`, `10`),
/// else two significant digits in scientific notation (`3.8e5`).
fn multiply_adds(x: f64) -> String {
    if x < 1e4 {
        format!("{x:.0}")
    } else {
        format!("{x:.1e}")
    }
}

impl Limits {
    /// The default [`Limits::max_memory`]: 4 GiB. [`Limits::default`] does
    /// not probe the machine; the front ends use
    /// [`Limits::machine_max_memory`] instead.
    pub const DEFAULT_MAX_MEMORY: u64 = DEFAULT_MAX_MEMORY;

    /// The front ends' default memory limit, one for every command and
    /// Python function that takes one: half the machine's memory
    /// (`MemTotal` of `/proc/meminfo`), or [`Limits::DEFAULT_MAX_MEMORY`]
    /// where that cannot be read. Half, so that one analysis cannot push
    /// the machine into swap, yet a large board is not refused on a large
    /// machine.
    pub fn machine_max_memory() -> u64 {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| mem_total(&text))
            .map_or(DEFAULT_MAX_MEMORY, |m| m / 2)
    }

    /// The default [`Limits::max_work`]: 2·10¹⁰ multiply-adds, about half a
    /// minute of one core, a budget for the optional figures.
    pub const DEFAULT_MAX_WORK: f64 = DEFAULT_MAX_WORK;

    /// `None` when `bytes` and `work` are within the limits, else the reason
    /// to skip `figure`.
    pub fn check(&self, figure: Figure, bytes: u64, work: f64) -> Option<Skipped> {
        let cost = if bytes > self.max_memory {
            Cost::Memory {
                needed: bytes,
                limit: self.max_memory,
            }
        } else if work > self.max_work {
            Cost::Work {
                needed: work,
                limit: self.max_work,
            }
        } else {
            return None;
        };
        Some(Skipped { figure, cost })
    }
}

/// An upper estimate of the bytes compiling `board` takes at its peak: the
/// chain it becomes (the compiler builds each row twice, one at a time,
/// rather than holding every row beside the chain).
///
/// # Formula
/// A turn makes at most `L` rolls (1 without extra rolls, `max_extra + 1`
/// or `forfeit_after` with a cap, and without one at most the squares, as
/// a path of bonus rolls that comes back to a square is summed in closed
/// form; always at most the `L` at which `p(on)^L` leaves the normal range
/// of `f64`, where the compiler stops following it); each roll of each
/// total gives at most one kernel entry (16 bytes: its target and
/// probability) and, with extra rolls, the entry's rolls (8), one rest (16)
/// and a jump use (16): 56 bytes per entry. With one roll a turn the chain
/// reads rests from its rows and holds no rolls, and jump uses (16 bytes)
/// come only from the rolls that land on a jump's start: 16 bytes per
/// entry plus those;
/// and 64 per square (44 of the chain's per-state arrays, 4 for the
/// square's state number while compiling, and the discovery's flags and
/// order). Measured on a board of ten million squares and 20,000 jumps:
/// 2.9 GB at the peak when rests and rolls were held for every entry
/// (estimated at 3.7 GiB then). Boards below `KEEP_ROWS_BELOW` squares keep
/// the search's rows too: twice that.
pub fn chain_bytes(board: &Board) -> u64 {
    let rules = board.rules();
    let totals = rules.dice().rolls().len() as u64;
    let layers = match rules.extra_turn() {
        None => 1,
        Some(x) => {
            let ln_p = crate::markov::chain::Bonus::of(board).ln_p();
            let normal = ((f64::MIN_POSITIVE.ln() / ln_p).ceil().max(1.0) as u64).saturating_add(1);
            let rule = match (x.max_extra(), x.forfeit_after()) {
                (Some(m), Some(k)) => u64::from(m + 1).min(u64::from(k)),
                (Some(m), None) => u64::from(m) + 1,
                (None, Some(k)) => u64::from(k),
                (None, None) => u64::from(board.last().get()) + 1,
            };
            rule.min(normal)
        }
    };
    let squares = u64::from(board.last().get()) + 1;
    let entries = squares.saturating_mul(totals * layers);
    let entry_bytes = if rules.extra_turn().is_none() {
        // One roll a turn: a jump is taken by rolls landing on its start,
        // from at most `totals` squares before it or bouncing back from
        // beyond, and a row records the move's first jump alone, its chain
        // followed only when read (`Chain::jump_uses`; issue 27: listing
        // every chain in every row made a follow board of 40,000 squares
        // take 3.2 GB); with chains, 4 bytes a jump for the link to the
        // next.
        let jumps = board.jumps().len() as u64;
        let uses = (2 * totals).saturating_mul(jumps).min(entries);
        entries
            .saturating_mul(16)
            .saturating_add(uses.saturating_mul(16))
            .saturating_add(jumps.saturating_mul(4))
    } else {
        entries.saturating_mul(56)
    };
    let rows = squares.saturating_mul(64).saturating_add(entry_bytes);
    // A small board's search keeps its rows beside the chain
    // (`KEEP_ROWS_BELOW`): the same again.
    if board.last().index() < crate::markov::chain::KEEP_ROWS_BELOW {
        rows.saturating_mul(2)
    } else {
        rows
    }
}

/// The bytes an analysis holds beside the chain and the factored solver
/// for the figures every analysis has, at their peak: the expected turns
/// from each state, their variance and `N·t`, the expected visits
/// (32 bytes a state), and while the per-square figures are gathered the
/// expected rests and flags of every square and the figures themselves
/// (8 + 1 + 48 bytes a square). The error bounds of the mean and the
/// variance, the rolls and the solves hold at most as much at a time.
pub fn figure_bytes(chain: &Chain) -> u64 {
    let squares = chain.finish().index() as u64;
    32 * chain.len() as u64 + 57 * squares
}

/// The bytes a compiled chain holds ([`Chain::held_bytes`]).
pub fn held_bytes(chain: &Chain) -> u64 {
    chain.held_bytes()
}

/// The bytes the length distribution holds beside the chain and the
/// factors ([`held_bytes`] and [`Solver::estimate`](super::solve::Solver::estimate)):
/// the probabilities of this turn and the next, and each state's chance of
/// finishing (24 bytes a state), and the banded copy of `Q` it steps with
/// ([`distribution::from_state_within`](super::distribution::from_state_within); at most 32 bytes an entry, as a
/// diagonal is stored densely only when a quarter of the states have an
/// entry on it, and any other entry takes 16, with at most 16 more for
/// its column's place in the list of columns; it is built from the chain
/// without a copy of `Q` in compressed rows). The 10,000,000-square board
/// with 20,000 jumps peaked while its distribution was probed (built then
/// by way of that copy), 1.8 GB above what it held while factoring: the
/// probe had been counted as 16 bytes a state (160 MB).
pub fn distribution_bytes(chain: &Chain) -> u64 {
    24 * chain.len() as u64 + 32 * chain.entries() as u64
}

#[cfg(test)]
mod tests {
    #[test]
    fn meminfo_total() {
        let text = "MemTotal:       24576000 kB\nMemFree:  100 kB\n";
        assert_eq!(super::mem_total(text), Some(24_576_000 * 1024));
        assert_eq!(super::mem_total("nothing here"), None);
        assert_eq!(super::mem_total("MemTotal: 12 pages"), None);
    }

    use super::*;
    use crate::design::Layout;

    /// The compile estimate is checked against the limit before anything is
    /// built, so it must bound what the chain then holds: on every board of
    /// `boards/` (one roll, extra turns, three-sixes forfeits, follow
    /// chains, two dice), and on generated boards large enough to build
    /// their rows twice (past `KEEP_ROWS_BELOW`) rather than keep them.
    #[test]
    fn the_compile_estimate_bounds_the_chain() {
        let mut boards = Board::shipped();
        for (squares, seed) in [(1_000, 1), (100_000, 2)] {
            boards.push(
                Layout::new(squares, 20, 20, crate::Seed::new(seed))
                    .generate()
                    .unwrap(),
            );
        }
        assert!(boards.len() > 10);
        for board in &boards {
            let chain = Chain::compile(board).unwrap();
            let (estimate, held) = (chain_bytes(board), chain.held_bytes());
            assert!(
                estimate >= held,
                "{} squares: estimate {estimate} < held {held}",
                board.last().get()
            );
        }
    }

    /// A board of one long chain under `follow` (a ladder from every even
    /// square to the next but one): the estimate bounds what the compile
    /// holds, and both grow linearly with the size (issue 27: a row listed
    /// every jump of every chain it took, so the compile grew with the
    /// square of the size, 3.2 GB at 40,000 squares, and the estimate with
    /// it).
    #[test]
    fn a_follow_chain_compiles_in_linear_memory() {
        let follow = |n: u32| {
            let ladders: Vec<String> = (1..n / 2)
                .map(|k| format!("[{}, {}]", 2 * k, 2 * k + 2))
                .collect();
            Board::from_json_str(&format!(
                r#"{{"squares": {n}, "ladders": [{}], "rules": {{"chains": "follow"}}}}"#,
                ladders.join(",")
            ))
            .unwrap()
        };
        let (small, large) = (follow(2_000), follow(8_000));
        let (a, b) = (
            Chain::compile(&small).unwrap(),
            Chain::compile(&large).unwrap(),
        );
        for (board, chain) in [(&small, &a), (&large, &b)] {
            let (estimate, held) = (chain_bytes(board), chain.held_bytes());
            assert!(estimate >= held, "estimate {estimate} < held {held}");
            assert!(estimate < 16 * held, "estimate {estimate}, held {held}");
        }
        // Four times the squares: about four times the memory, not sixteen.
        let grows = |x: u64, y: u64| y as f64 / x as f64;
        assert!(grows(a.held_bytes(), b.held_bytes()) < 5.0);
        assert!(grows(chain_bytes(&small), chain_bytes(&large)) < 5.0);
        assert!(a.stored_jump_uses() * 5 > b.stored_jump_uses());
        // 40,000 squares: well within `--max-memory 1G`.
        assert!(chain_bytes(&follow(40_000)) < 100 << 20);
    }
}
