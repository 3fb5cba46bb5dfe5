//! `generate --target-turns`: a valid board whose mean length lies in a
//! band, found by search with the solver in the loop.
//!
//! # The search
//! Random starts, then local moves. Start r lays the jumps out at random
//! ([`generate_spec`](super::random::generate_spec), seeded from the seed and r), then
//! moves one jump at a time: each step evaluates every admissible move of
//! every jump ([`Base::mean_after`]), takes an answer in the band if there
//! is one (checked afresh), and otherwise the move that brings the mean
//! closest to the band, until no move gets closer. The evaluator holds no
//! inverse: a step takes the moves to a new start square by square, each
//! column of the inverse solved once for every jump (`target/step.rs`),
//! so boards of any size are searched in memory linear in their squares. Every board on the way
//! is valid by construction: it is validated before it is used.
//!
//! Starts run [`RESTART_BATCH`] at a time on every core; the answer is the
//! first start, in order, that succeeds, so it is the same on any number
//! of threads. Once a start succeeds, the later starts of its batch stop
//! (their outcome is never used).

use super::eval::Base;
use super::random::{Layout, generate_spec};
use super::search;
use super::{DesignError, Target, mix};
use crate::par::*;
use crate::{Board, BoardSpec, Seed};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

#[cfg(test)]
mod large_tests;
mod step;

/// Random starts run at once; fixed, so results do not depend on the
/// number of threads.
pub const RESTART_BATCH: u32 = 8;

/// Most local moves from one random start.
pub const MAX_STEPS: usize = 60;

/// In-band candidates checked afresh per step, in order of preference
/// (each check solves a board, and computes a length distribution when the
/// advantage is capped).
pub const CHECKS_PER_STEP: usize = 16;

/// What to generate: a [`Layout`] for the random starts and the
/// [`Target`] to reach from them.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::design::{GenerateOptions, Layout, Target, generate_to_target};
///
/// let layout = Layout::new(100, 8, 8, Seed::new(1));
/// let options = GenerateOptions::new(layout, Target::new(30.0, 31.0)?).with_max_restarts(16);
/// assert!((30.0..=31.0).contains(&generate_to_target(&options)?.mean_turns));
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    /// Squares, jump counts, longest jump of the random starts, seed, rules
    /// and name.
    pub(crate) layout: Layout,
    /// The target.
    pub(crate) target: Target,
    /// Most random starts before giving up.
    pub(crate) max_restarts: u32,
    /// The work, memory and time the search may spend.
    pub(crate) budget: super::Budget,
    /// Told the candidate boards evaluated so far.
    pub(crate) progress: crate::progress::Evaluated,
    /// A front end's stop flag (Ctrl-C), see `with_stop`.
    pub(crate) stop: crate::progress::Callback<std::sync::atomic::AtomicBool>,
}

impl GenerateOptions {
    /// A layout and a target, at most 64 random starts.
    pub fn new(layout: Layout, target: Target) -> GenerateOptions {
        GenerateOptions {
            layout,
            target,
            max_restarts: 64,
            budget: super::Budget::default(),
            progress: Default::default(),
            stop: Default::default(),
        }
    }

    /// The same options with at most `restarts` random starts.
    pub fn with_max_restarts(self, restarts: u32) -> GenerateOptions {
        GenerateOptions {
            max_restarts: restarts,
            ..self
        }
    }

    /// The same options within `limits`: the most multiply-adds the search
    /// may do ([`Limits::max_work`](crate::Limits::max_work), counted as
    /// `src/design/budget.rs` says) and the most bytes its evaluators may
    /// hold at once ([`Limits::max_memory`](crate::Limits::max_memory)).
    /// The analysis's default limits unless given.
    pub fn with_limits(self, limits: crate::Limits) -> GenerateOptions {
        let budget = super::Budget {
            max_work: limits.max_work,
            max_memory: limits.max_memory,
            ..self.budget
        };
        GenerateOptions { budget, ..self }
    }

    /// The same options stopping the search after `limit`, with the
    /// closest board found ([`DesignError::Stopped`](super::DesignError::Stopped)).
    /// No time limit unless given.
    pub fn with_time_limit(self, limit: std::time::Duration) -> GenerateOptions {
        let budget = super::Budget {
            time_limit: Some(limit),
            ..self.budget
        };
        GenerateOptions { budget, ..self }
    }

    /// The same options within `budget`: limits and time limit at once.
    #[doc(hidden)]
    pub fn with_budget(self, budget: super::Budget) -> GenerateOptions {
        GenerateOptions { budget, ..self }
    }

    /// The same options calling `progress` with the number of candidate
    /// boards evaluated so far as the search goes (from any of its threads),
    /// for a front end's progress bar.
    pub fn with_progress(self, progress: impl Fn(u64) + Send + Sync + 'static) -> GenerateOptions {
        GenerateOptions {
            progress: crate::progress::Callback::new(std::sync::Arc::new(progress)),
            ..self
        }
    }

    /// The same options, stopping the search with
    /// [`DesignError::Stopped`](super::DesignError::Stopped) at its next
    /// check of its limits once `stop` is set: for a front end's Ctrl-C.
    pub fn with_stop(self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> GenerateOptions {
        GenerateOptions {
            stop: crate::progress::Callback::new(stop),
            ..self
        }
    }
}

/// A generated board.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::design::{GenerateOptions, Layout, Target, generate_to_target};
///
/// let options = GenerateOptions::new(Layout::new(100, 8, 8, Seed::new(1)), Target::new(30.0, 31.0)?);
/// let found = generate_to_target(&options)?;
/// assert_eq!(found.board.jumps().len(), 16);
/// assert!(found.restart < 64 && found.evaluated > 0);
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Generated {
    /// The board, validated.
    pub board: Board,
    /// Its mean turns, from a fresh solve.
    pub mean_turns: f64,
    /// Its first-seat advantage, when the target caps it.
    pub first_seat_advantage: Option<f64>,
    /// The random start (0-based) the board came from.
    pub restart: u32,
    /// Local moves made from it.
    pub steps: usize,
    /// Candidate boards whose mean the search took (by an update of a
    /// solved board, or a fresh solve), over every start run. The starts
    /// run eight at a time and those beside the one that succeeds count
    /// what they evaluated before they stopped, so unlike the board this
    /// count depends on the number of threads.
    pub evaluated: u64,
    /// Seconds the search took.
    pub seconds: f64,
}

impl Generated {
    /// The board as a file writes it, with the layout's name (if any) and
    /// rules as given.
    #[doc(hidden)]
    pub fn spec(&self) -> BoardSpec {
        let mut spec = self.board.spec();
        spec.width = None;
        spec
    }
}

/// Generates a board in the target.
///
/// # Errors
/// [`DesignError::NotFound`] with the closest mean reached when no start
/// gets into the target, [`DesignError::TooManyJumps`] when the layout cannot be
/// made at all (too many jumps for the squares), [`DesignError::Stopped`]
/// with the closest mean found when the work or time limit is spent (each
/// step of a board of N squares solves up to N columns of the inverse, so
/// on large boards a step is costly: 10,000 squares with 400 jumps spend
/// the default `max_work` within the first), or up front when its
/// evaluators' vectors would not fit in the memory limit. Boards of any
/// size are taken.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::design::{GenerateOptions, Layout, Target, generate_to_target};
///
/// let layout = Layout::new(100, 8, 8, Seed::new(1));
/// let options = GenerateOptions::new(layout, Target::new(30.0, 31.0)?);
/// let found = generate_to_target(&options)?;
/// assert!((30.0..=31.0).contains(&found.mean_turns));
/// assert_eq!(found.board.snakes().count(), 8);
/// // The same seed, the same board.
/// assert_eq!(generate_to_target(&options)?.board, found.board);
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
pub fn generate_to_target(options: &GenerateOptions) -> Result<Generated, DesignError> {
    let progress = |n| {
        if let Some(f) = options.progress.get() {
            f(n);
        }
    };
    let progress: &(dyn Fn(u64) + Sync) = &progress;
    let clock = Instant::now();
    // The layout's own errors (size, too many jumps) are the same for
    // every seed: report them at once.
    generate_spec(&options.layout)?;
    let target = &options.target;
    options.budget.check_vectors(
        options.layout.squares,
        (options.layout.snakes + options.layout.ladders) as usize,
        // A start's evaluator per thread, and one more as a step ends.
        crate::par::current_num_threads().min(RESTART_BATCH as usize) as u64 + 1,
        Some(target),
    )?;
    let meter = super::budget::Meter::new(options.budget).with_stop(options.stop.clone());
    let counter = AtomicU64::new(0);
    // The first start of the batch that succeeded: later starts, whose
    // outcome is never used, stop at once.
    let found_at = AtomicU32::new(u32::MAX);
    let mut closest: Option<f64> = None;
    let mut fairest: Option<f64> = None;
    let mut evaluated = 0;
    let mut first = 0;
    while first < options.max_restarts {
        let batch = first..(first + RESTART_BATCH).min(options.max_restarts);
        let runs: Vec<Result<Run, DesignError>> = batch
            .clone()
            .into_par_iter()
            .map(|r| run(options, r, &counter, progress, &meter, &found_at))
            .collect();
        // Every start of the batch ran, those after the one that succeeds
        // too: all are counted.
        evaluated += runs
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|r| r.evaluated)
            .sum::<u64>();
        for (r, outcome) in batch.zip(runs) {
            let outcome = outcome?;
            if let Some(m) = outcome.closest
                && closest.is_none_or(|c| target.distance(m) < target.distance(c))
            {
                closest = Some(m);
            }
            if let Some(a) = outcome.fairest {
                fairest = Some(fairest.map_or(a, |f: f64| f.min(a)));
            }
            if let Some((checked, steps)) = outcome.found {
                return Ok(Generated {
                    board: checked.board,
                    mean_turns: checked.mean,
                    first_seat_advantage: checked.advantage,
                    restart: r,
                    steps,
                    evaluated,
                    seconds: clock.elapsed().as_secs_f64(),
                });
            }
        }
        if let Some(limit) = meter.spent() {
            return Err(DesignError::Stopped {
                limit,
                target: Some(*target),
                closest,
                evaluated,
            });
        }
        first = first.saturating_add(RESTART_BATCH);
    }
    Err(DesignError::NotFound {
        target: *target,
        restarts: options.max_restarts,
        closest: closest.unwrap_or(f64::NAN),
        fairest,
        evaluated,
    })
}

/// What one random start came to.
struct Run {
    found: Option<(search::Checked, usize)>,
    closest: Option<f64>,
    /// The least advantage checked in the band.
    fairest: Option<f64>,
    evaluated: u64,
}

fn run(
    options: &GenerateOptions,
    restart: u32,
    counter: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
    meter: &super::budget::Meter,
    found_at: &AtomicU32,
) -> Result<Run, DesignError> {
    // Whether an earlier start succeeded, so that this one's outcome is
    // never used.
    let overtaken = || found_at.load(Ordering::Relaxed) < restart;
    let target = &options.target;
    let seed = mix(options.layout.seed.get(), u64::from(restart));
    let layout = Layout {
        seed: Seed::new(seed),
        ..options.layout.clone()
    };
    let mut out = Run {
        found: None,
        closest: None,
        fairest: None,
        evaluated: 0,
    };
    // A layout the rules refuse (dice that cannot finish from a square the
    // jumps lead to) is a start that failed.
    let Ok(mut board) = Board::from_spec(&generate_spec(&layout)?) else {
        return Ok(out);
    };
    let mut advantage: Option<f64> = None;
    for steps in 0..=MAX_STEPS {
        // A spent budget ends the start here; the batch then stops the
        // search with the closest mean found.
        if meter.spent().is_some() || overtaken() {
            return Ok(out);
        }
        let Ok(base) = Base::on_demand(board.clone()) else {
            return Ok(out);
        };
        meter.charge(base.work());
        let mean = base.mean();
        let here = target.distance(mean);
        if out.closest.is_none_or(|c| here < target.distance(c)) {
            out.closest = Some(mean);
        }
        if here == 0.0
            && let Some(c) = search::check(&board, mean, target)?
        {
            if c.meets(target) {
                found_at.fetch_min(restart, Ordering::Relaxed);
                out.found = Some((c, steps));
                return Ok(out);
            }
            advantage = c.advantage;
            if let Some(a) = c.advantage {
                out.fairest = Some(out.fairest.map_or(a, |f: f64| f.min(a)));
            }
        }
        if steps == MAX_STEPS {
            break;
        }
        // Each move and each column of the inverse is charged as it goes,
        // and a spent budget cuts the step short.
        let found = step::step(&base, target, here, seed, meter, &overtaken);
        let n = found.evaluated;
        out.evaluated += n;
        progress(counter.fetch_add(n, Ordering::Relaxed) + n);
        if found.cut {
            return Ok(out);
        }
        // In the band: the first that checks out wins; under a cap on the
        // advantage, the fairest of those checked is the next step.
        let mut fairest: Option<(f64, Board)> = None;
        for c in &found.inside {
            let spec = super::eval::apply(&board.spec(), &[c.change(&board)]);
            let Ok(moved) = Board::from_spec(&spec) else {
                continue;
            };
            if let Some(k) = search::check(&moved, c.mean, target)? {
                if k.meets(target) {
                    found_at.fetch_min(restart, Ordering::Relaxed);
                    out.found = Some((k, steps + 1));
                    return Ok(out);
                }
                if let Some(a) = k.advantage {
                    out.fairest = Some(out.fairest.map_or(a, |f: f64| f.min(a)));
                    if fairest.as_ref().is_none_or(|(b, _)| a < *b) {
                        fairest = Some((a, k.board));
                    }
                }
            }
        }
        let next = match fairest {
            Some((a, b)) if advantage.is_none_or(|now| a < now) => Some(b),
            Some(_) => None,
            None => found.closer.and_then(|c| {
                let spec = super::eval::apply(&board.spec(), &[c.change(&board)]);
                Board::from_spec(&spec).ok()
            }),
        };
        match next {
            Some(b) => board = b,
            None => break,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stop flag already set ends either search at its first check of
    /// its limits, naming the flag, as a front end's Ctrl-C would.
    #[test]
    fn a_stop_flag_stops_both_searches() {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let out_of_reach = Target::new(1.0, 1.01).unwrap();
        let layout = Layout::new(100, 10, 10, Seed::new(3));
        let options = GenerateOptions::new(layout, out_of_reach).with_stop(stop.clone());
        match generate_to_target(&options) {
            Err(DesignError::Stopped { limit, .. }) => assert!(limit.contains("stop"), "{limit}"),
            other => panic!("{:?}", other.map(|g| g.mean_turns)),
        }
        let options = super::super::TuneOptions::new(out_of_reach, 3).with_stop(stop);
        match super::super::tune(&crate::Board::builtin_default(), &options) {
            Err(DesignError::Stopped { limit, .. }) => assert!(limit.contains("stop"), "{limit}"),
            other => panic!("{:?}", other.map(|t| t.changes)),
        }
    }

    #[test]
    fn an_unfair_band_reports_the_fairest_board_reached() {
        let target = Target::new(30.0, 35.0)
            .unwrap()
            .with_max_first_seat_advantage(0.001)
            .unwrap();
        let mut options = GenerateOptions::new(Layout::new(100, 10, 10, Seed::new(3)), target);
        options.max_restarts = 1;
        match generate_to_target(&options) {
            Err(DesignError::NotFound {
                fairest: Some(fairest),
                closest,
                restarts: 1,
                ..
            }) => {
                assert!(fairest > 0.001 && fairest < 0.1, "{fairest}");
                assert!(target.contains(closest), "{closest}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Every start that ran is counted, those beside the one that succeeds
    /// too (until they stop): the count is of every candidate's mean taken.
    #[test]
    fn every_start_run_is_counted() {
        let options = GenerateOptions::new(
            Layout::new(60, 5, 5, Seed::new(1)),
            Target::new(10.0, 10.1).unwrap(),
        );
        let (found, taken) = search::means_taken(|| generate_to_target(&options));
        let found = found.unwrap();
        assert!(found.restart + 1 < RESTART_BATCH, "{}", found.restart);
        assert_eq!(found.evaluated, taken);
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn the_answer_does_not_depend_on_the_threads() {
        let options = GenerateOptions::new(
            Layout::new(60, 5, 5, Seed::new(9)),
            Target::new(20.0, 20.5).unwrap(),
        );
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let three = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let a = one.install(|| generate_to_target(&options)).unwrap();
        let b = three.install(|| generate_to_target(&options)).unwrap();
        // The answer, not the count of boards evaluated: the starts beside
        // the one that succeeds stop when it does, after more or fewer
        // evaluations depending on the threads.
        assert_eq!((a.board, a.restart, a.steps), (b.board, b.restart, b.steps));
    }
}
