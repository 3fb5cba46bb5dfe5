//! `tune`: the fewest jump moves that bring a board into a target.
//!
//! # The search
//! Level by level: level k holds boards with k jumps moved (each jump moved
//! at most once, start, end or both). Level 1 is every admissible placement
//! of every jump not kept ([`placements_of`](super::placements_of)), so a
//! one-move answer is found whenever one exists. From level 2 on the search keeps only the [`BEAM`] boards of
//! the level before closest to the band (a beam search): an answer with k
//! moves is the fewest *found*, and a failure says that none was found
//! within the limit, not that none exists. Within a level, answers are
//! preferred by the squares they move in all, then by how close to the
//! middle of the band they land, then by a hash of the seed.
//!
//! # What it counts
//! [`Tuned::evaluated`] is the candidate boards whose mean the search took
//! (by an update of a solved board, or a fresh solve where the update does
//! not apply), each once: a level run again, or an answer checked afresh,
//! adds nothing. The first level goes in order of preference and stops at
//! the first answer (`tune/ordered.rs`); the placements it then never
//! evaluated are [`Tuned::ruled_out`], not evaluated
//! (docs/design-search.md §1).

use super::eval::{self, Base, JumpChange};
use super::search::{self, Candidate};
use super::{DesignError, Target};
use crate::par::*;
use crate::{Board, Jump, Seed};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

#[cfg(test)]
mod count_tests;
#[cfg(test)]
mod large_tests;
mod level;
mod ordered;

/// Boards kept from one level of the search to the next.
pub const BEAM: usize = 16;

/// In-band candidates checked afresh per level, in order of preference,
/// when the target also caps the advantage (each check computes a length
/// distribution).
pub const FAIRNESS_CHECKS: usize = 64;

/// What to tune a board toward: a [`Target`](super::Target), how many jumps may move, which
/// must not, and the seed that picks among equally good answers.
///
/// # Example
/// ```
/// use snakeladder::design::{Target, TuneOptions, tune};
/// use snakeladder::{Board, Seed};
///
/// let board = Board::builtin_default();
/// // Keep the ladder 1→38 where it is.
/// let options = TuneOptions::new(Target::new(42.0, 43.0)?, 1)
///     .with_keep(vec![(1, 38)])
///     .with_seed(Seed::new(3));
/// let tuned = tune(&board, &options)?;
/// assert!(tuned.changes.iter().all(|c| (c.before.from().get(), c.before.to().get()) != (1, 38)));
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// The target.
    pub(crate) target: Target,
    /// Most jumps moved.
    pub(crate) max_changes: usize,
    /// Jumps that must not move, as `(start, end)`.
    pub(crate) keep: Vec<(u32, u32)>,
    /// Picks among equally good answers.
    pub(crate) seed: Seed,
    /// The work, memory and time the search may spend.
    pub(crate) budget: super::Budget,
    /// Told the candidate boards evaluated so far ([`Tuned::evaluated`]).
    pub(crate) progress: crate::progress::Evaluated,
    /// A front end's stop flag (Ctrl-C), see `with_stop`.
    pub(crate) stop: crate::progress::Callback<std::sync::atomic::AtomicBool>,
}

impl TuneOptions {
    /// A target, at most `max_changes` moves, nothing kept, seed 0.
    pub fn new(target: Target, max_changes: usize) -> TuneOptions {
        TuneOptions {
            target,
            max_changes,
            keep: Vec::new(),
            seed: Seed::new(0),
            budget: super::Budget::default(),
            progress: Default::default(),
            stop: Default::default(),
        }
    }

    /// The same options with the jumps `keep`, as `(start, end)`, never
    /// moved.
    pub fn with_keep(self, keep: Vec<(u32, u32)>) -> TuneOptions {
        TuneOptions { keep, ..self }
    }

    /// The same options with `seed` picking among equally good answers.
    pub fn with_seed(self, seed: Seed) -> TuneOptions {
        TuneOptions { seed, ..self }
    }

    /// The same options within `limits`: the most multiply-adds the search
    /// may do ([`Limits::max_work`](crate::Limits::max_work), counted as
    /// `src/design/budget.rs` says) and the most bytes its evaluators may
    /// hold at once ([`Limits::max_memory`](crate::Limits::max_memory)).
    /// The analysis's default limits unless given.
    pub fn with_limits(self, limits: crate::Limits) -> TuneOptions {
        let budget = super::Budget {
            max_work: limits.max_work,
            max_memory: limits.max_memory,
            ..self.budget
        };
        TuneOptions { budget, ..self }
    }

    /// The same options stopping the search after `limit`, with the
    /// closest board found ([`DesignError::Stopped`](super::DesignError::Stopped)).
    /// No time limit unless given.
    pub fn with_time_limit(self, limit: std::time::Duration) -> TuneOptions {
        let budget = super::Budget {
            time_limit: Some(limit),
            ..self.budget
        };
        TuneOptions { budget, ..self }
    }

    /// The same options within `budget`: limits and time limit at once.
    #[doc(hidden)]
    pub fn with_budget(self, budget: super::Budget) -> TuneOptions {
        TuneOptions { budget, ..self }
    }

    /// The same options calling `progress` with the number of candidate
    /// boards evaluated so far as the search goes (from any of its threads;
    /// the count [`Tuned::evaluated`] ends at), for a front end's progress
    /// bar.
    pub fn with_progress(self, progress: impl Fn(u64) + Send + Sync + 'static) -> TuneOptions {
        TuneOptions {
            progress: crate::progress::Callback::new(std::sync::Arc::new(progress)),
            ..self
        }
    }

    /// The same options, stopping the search with
    /// [`DesignError::Stopped`](super::DesignError::Stopped) at its next
    /// check of its limits once `stop` is set: for a front end's Ctrl-C.
    pub fn with_stop(self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> TuneOptions {
        TuneOptions {
            stop: crate::progress::Callback::new(stop),
            ..self
        }
    }
}

/// A tuned board.
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::design::{Target, TuneOptions, tune};
///
/// let board = Board::builtin_default();
/// let tuned = tune(&board, &TuneOptions::new(Target::new(42.0, 43.0)?, 1))?;
/// let change = tuned.changes[0];
/// // The jump moved is on the old board, its new place on the tuned one.
/// assert!(board.jumps().contains(&change.before));
/// assert!(tuned.board.jumps().contains(&change.after.unwrap()));
/// assert!(tuned.mean_before < 42.0);
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Tuned {
    /// The board with the changes made, validated.
    pub board: Board,
    /// The changes, each jump of the original board at most once, in board
    /// order of the original jumps.
    pub changes: Vec<JumpChange>,
    /// The original board's mean turns.
    pub mean_before: f64,
    /// The tuned board's mean turns, from a fresh solve.
    pub mean_turns: f64,
    /// Its first-seat advantage, when the target caps it.
    pub first_seat_advantage: Option<f64>,
    /// Candidate boards whose mean the search took, by an update of a
    /// solved board or a fresh solve, each counted once.
    pub evaluated: u64,
    /// Placements of the first level never evaluated: it goes in order of
    /// preference and stopped at an answer, and these move more squares
    /// than the answer, so none could be preferred to it (0 unless the
    /// first level stopped so).
    pub ruled_out: u64,
    /// Seconds the search took.
    pub seconds: f64,
}

/// A board of the search: the changes made so far, and for each of its
/// jumps the original jump it came from.
#[derive(Clone)]
struct Node {
    board: Board,
    changes: Vec<JumpChange>,
    origin: HashMap<Jump, Jump>,
}

/// Tunes `board` toward `options.target`.
///
/// # Errors
/// [`DesignError::OutOfReach`] when no set of at most `max_changes` moves
/// was found, [`DesignError::KeepNotOnBoard`] for a kept jump the board does
/// not have, [`DesignError::Stopped`] when its evaluators would not fit in
/// the budget's memory or a limit is spent, and [`DesignError::Analysis`] if
/// the board cannot be analysed.
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::design::{Target, TuneOptions, tune};
///
/// // Two moves that make the classic game last 30 to 32 turns.
/// let tuned = tune(&Board::builtin_default(), &TuneOptions::new(Target::new(30.0, 32.0)?, 2))?;
/// assert!(tuned.changes.len() <= 2);
/// assert!((30.0..=32.0).contains(&tuned.mean_turns));
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
pub fn tune(board: &Board, options: &TuneOptions) -> Result<Tuned, DesignError> {
    let progress = |n| {
        if let Some(f) = options.progress.get() {
            f(n);
        }
    };
    let progress: &(dyn Fn(u64) + Sync) = &progress;
    let clock = Instant::now();
    let target = &options.target;
    let squares = board.last().get();
    options.budget.check_search_memory(
        squares,
        board.jumps().len(),
        crate::par::current_num_threads().min(BEAM),
        target,
    )?;
    let meter = super::budget::Meter::new(options.budget).with_stop(options.stop.clone());
    let kept = kept_jumps(board, &options.keep)?;
    let start = Base::new(board.clone())?;
    meter.charge(start.work());
    let mean_before = start.mean();
    let done = |node: &Node, checked: search::Checked, evaluated, ruled_out| Tuned {
        board: checked.board,
        changes: sorted(&node.changes),
        mean_before,
        mean_turns: checked.mean,
        first_seat_advantage: checked.advantage,
        evaluated,
        ruled_out,
        seconds: clock.elapsed().as_secs_f64(),
    };
    let root = Node {
        board: board.clone(),
        changes: Vec::new(),
        origin: board.jumps().iter().map(|&j| (j, j)).collect(),
    };
    // The least advantage of a board checked inside the band, to name the
    // advantage cap as what failed.
    let mut fairest: Option<f64> = None;
    let mut note = |k: &search::Checked| {
        if let (true, Some(a)) = (target.contains(k.mean), k.advantage) {
            fairest = Some(fairest.map_or(a, |f: f64| f.min(a)));
        }
    };
    if let Some(c) = search::check(board, mean_before, target)? {
        if c.meets(target) {
            return Ok(done(&root, c, 0, 0));
        }
        note(&c);
    }
    let tuner = Tuner {
        options,
        squares,
        meter,
        kept,
        evaluated: AtomicU64::new(0),
        progress,
    };
    let mut closest = mean_before;
    let mut beam = vec![root];
    for depth in 0..options.max_changes {
        // The nodes a spent budget left unexpanded in the first pass, left
        // so when a level is run again.
        let skipped: Vec<AtomicBool> = beam.iter().map(|_| AtomicBool::new(false)).collect();
        let expand = |keep: usize, run: Run| tuner.expand(&beam, &skipped, keep, run);
        // The first level in order of preference, stopping at the first
        // answer that checks out (`tune/ordered.rs`); `checked` answers of
        // the level's order were checked, all failing, when it stops short.
        let mut checked = 0;
        let mut run = Run::First;
        if depth == 0 && target.max_first_seat_advantage.is_none() && tuner.meter.spent().is_none()
        {
            let first = tuner.ordered_first_level(&beam[0], &start, &mut note)?;
            if let Some((node, k)) = first.answer {
                return Ok(done(&node, k, tuner.evaluated(), first.ruled_out));
            }
            checked = first.checked;
            if let Some(tried) = first.tried {
                run = Run::AfterOrdered(tried);
            }
        }
        let mut found = expand(level::KEPT, run)?;
        if let Some((_, _, mean)) = found.closest
            && target.distance(mean) < target.distance(closest)
        {
            closest = mean;
        }
        // Answers of this level, best first, checked afresh eight at a time.
        if let Some((node, k)) =
            tuner.check_level(&beam, &mut found, checked, &expand, &mut note)?
        {
            return Ok(done(&node, k, tuner.evaluated(), 0));
        }
        if let Some(limit) = tuner.meter.spent() {
            return Err(DesignError::Stopped {
                limit,
                target: Some(*target),
                closest: Some(closest),
                evaluated: tuner.evaluated(),
            });
        }
        let next = next_beam(&beam, found, expand)?;
        if next.is_empty() {
            break;
        }
        beam = next;
    }
    Err(DesignError::OutOfReach {
        max_changes: options.max_changes,
        target: *target,
        closest,
        fairest,
        evaluated: tuner.evaluated(),
    })
}

/// The jumps of `board` that `keep` names as `(start, end)`, which must
/// not move.
///
/// # Errors
/// [`DesignError::KeepNotOnBoard`] for a pair that is not a jump of the
/// board.
fn kept_jumps(board: &Board, keep: &[(u32, u32)]) -> Result<HashSet<Jump>, DesignError> {
    let mut kept = HashSet::new();
    for &(from, to) in keep {
        match board
            .jumps()
            .iter()
            .find(|j| j.from().get() == from && j.to().get() == to)
        {
            Some(&j) => kept.insert(j),
            None => return Err(DesignError::KeepNotOnBoard { from, to }),
        };
    }
    Ok(kept)
}

/// What every level of one search shares: its options, the budget's
/// meter, the jumps kept in place, and the count of candidates evaluated
/// (reported to `progress` as it grows).
struct Tuner<'a> {
    options: &'a TuneOptions,
    /// The board's squares, for charging candidates.
    squares: u32,
    meter: super::budget::Meter,
    kept: HashSet<Jump>,
    evaluated: AtomicU64,
    progress: &'a (dyn Fn(u64) + Sync),
}

/// How one run of a level is charged to the budget and counted in
/// [`Tuned::evaluated`].
#[derive(Copy, Clone)]
enum Run {
    /// The level's first run: charged, and every candidate counted.
    First,
    /// The first level run in full after its order stopped short without
    /// an answer: charged already, and its placements up to this
    /// displacement evaluated already, so counted only beyond it.
    AfterOrdered(u32),
    /// A level run again to keep more of it: neither charged nor counted.
    Again,
}

/// What checking the first level in order of preference found.
struct OrderedLevel {
    /// The first answer that checked out.
    answer: Option<(Node, search::Checked)>,
    /// Answers of the level's order checked, all failing, before it
    /// stopped.
    checked: usize,
    /// When the level was charged (the full level then is not again): the
    /// largest displacement it tried, every placement within it evaluated
    /// and counted.
    tried: Option<u32>,
    /// The level's placements never evaluated, when it stopped at an
    /// answer.
    ruled_out: u64,
}

impl Tuner<'_> {
    /// Candidates evaluated so far.
    fn evaluated(&self) -> u64 {
        self.evaluated.load(Ordering::Relaxed)
    }

    /// Counts `n` more candidates evaluated, and tells `progress`.
    fn count(&self, n: u64) {
        (self.progress)(self.evaluated.fetch_add(n, Ordering::Relaxed) + n);
    }

    /// The candidates of the level after `beam`, keeping `keep` by each
    /// order, charged and counted as `run` says. A node a spent budget
    /// leaves unexpanded is marked in `skipped` and left so when the level
    /// is run again.
    fn expand(
        &self,
        beam: &[Node],
        skipped: &[AtomicBool],
        keep: usize,
        run: Run,
    ) -> Result<level::Level, DesignError> {
        let (options, meter, squares) = (self.options, &self.meter, self.squares);
        let first = matches!(run, Run::First);
        let counted_beyond = match run {
            Run::AfterOrdered(tried) => u64::from(tried),
            Run::First | Run::Again => 0,
        };
        let target = &options.target;
        let total = |i: usize, c: &Candidate| -> u64 { moved_squares(&beam[i], c) };
        let parts: Vec<Result<level::Level, DesignError>> = beam
            .par_iter()
            .enumerate()
            .map(|(i, node)| {
                // A spent budget builds nothing more; the level then
                // stops the search below.
                if (first && meter.spent().is_some()) || skipped[i].load(Ordering::Relaxed) {
                    skipped[i].store(true, Ordering::Relaxed);
                    return Ok(level::Level::default());
                }
                let base = Base::new(node.board.clone())?;
                if first {
                    meter.charge(base.work());
                }
                let movable = |a: usize| {
                    let j = node.board.jumps()[a];
                    let original = node.origin[&j];
                    original == j && !self.kept.contains(&original)
                };
                let (parts, found) = search::candidates_by_jump(
                    &base,
                    &movable,
                    true,
                    options.seed.get(),
                    Some(meter),
                    counted_beyond,
                    &|a, cands| level::summarise(i, a, cands, target, &total, keep),
                );
                if first {
                    if squares as usize > super::MAX_UPDATE_STATES {
                        // Charged candidate by candidate.
                    } else if base.updates() {
                        meter.charge_candidates(squares, found, 0);
                    } else {
                        meter.charge_candidates(squares, 0, found);
                    }
                }
                if !matches!(run, Run::Again) {
                    self.count(found);
                }
                Ok(level::merge(parts, target, keep))
            })
            .collect();
        let mut all = Vec::with_capacity(parts.len());
        for p in parts {
            all.push(p?);
        }
        Ok(level::merge(all, target, keep))
    }

    /// The first level from `node` (the original board) in order of
    /// preference ([`ordered::Answers`]), checked eight answers at a time
    /// until one checks out or the order runs short of eight; each checked
    /// board that fails goes to `note`. `base` is the evaluator of `node`'s
    /// board. Only when it updates a solve; otherwise nothing is checked or
    /// charged. Each placement is counted as it is evaluated; the level is
    /// charged to the budget as a whole up to [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES)
    /// squares (what the full level, which follows when no answer is found,
    /// costs), placement by placement past it.
    fn ordered_first_level(
        &self,
        node: &Node,
        base: &Base,
        note: &mut impl FnMut(&search::Checked),
    ) -> Result<OrderedLevel, DesignError> {
        let (options, meter, squares) = (self.options, &self.meter, self.squares);
        let mut out = OrderedLevel {
            answer: None,
            checked: 0,
            tried: None,
            ruled_out: 0,
        };
        if !base.updates() {
            return Ok(out);
        }
        // The evaluator of the board is built once, but charged to this
        // level as well, as when the level built its own.
        meter.charge(base.work());
        let movable = |a: usize| !self.kept.contains(&node.board.jumps()[a]);
        let count: u64 = (0..node.board.jumps().len())
            .filter(|&a| movable(a))
            .map(|a| ordered::count_admissible(&node.board, a))
            .sum();
        // Past MAX_UPDATE_STATES squares each candidate is charged as it
        // is evaluated (a moved start solves a column of the inverse), and
        // the order stops once a limit is spent.
        let large = squares as usize > super::MAX_UPDATE_STATES;
        if !large {
            meter.charge_candidates(squares, count, 0);
        }
        let mut answers = ordered::Answers::new(
            base,
            &movable,
            options.target,
            options.seed.get(),
            count,
            meter,
            large,
        );
        let mut pending: Vec<Candidate> = Vec::new();
        let mut all_seen = false;
        loop {
            while pending.len() < 8 && !all_seen {
                let before = answers.evaluated();
                match answers.next_displacement() {
                    Some(more) => pending.extend(more),
                    None => all_seen = true,
                }
                self.count(answers.evaluated() - before);
            }
            // Short of eight only at the end: those answers are
            // the last of the level when every displacement was
            // tried, else left to the full level.
            if pending.is_empty() || (pending.len() < 8 && !answers.tried_all()) {
                break;
            }
            let chunk: Vec<(&Node, Candidate)> = pending
                .drain(..pending.len().min(8))
                .map(|c| (node, c))
                .collect();
            out.checked += chunk.len();
            if let Some(answer) = self.check_chunk(&chunk, note)? {
                out.answer = Some(answer);
                debug_assert!(answers.evaluated() <= count);
                out.ruled_out = count.saturating_sub(answers.evaluated());
                break;
            }
        }
        out.tried = Some(answers.tried());
        Ok(out)
    }

    /// The answers of `found` (the level after `beam`), best first,
    /// checked afresh eight at a time from the `from`-th on (the ones
    /// before were checked in order already): at most [`FAIRNESS_CHECKS`]
    /// when the target caps the advantage, else all. The level is run
    /// again in full (`expand`) when what it kept runs short.
    fn check_level(
        &self,
        beam: &[Node],
        found: &mut level::Level,
        from: usize,
        expand: &impl Fn(usize, Run) -> Result<level::Level, DesignError>,
        note: &mut impl FnMut(&search::Checked),
    ) -> Result<Option<(Node, search::Checked)>, DesignError> {
        let limit = if self.options.target.max_first_seat_advantage.is_some() {
            FAIRNESS_CHECKS
        } else {
            found.inside_count
        };
        let limit = limit.min(found.inside_count);
        let mut from = from;
        while from < limit {
            if from >= found.inside_kept() {
                *found = expand(usize::MAX, Run::Again)?;
            }
            let chunk: Vec<(&Node, Candidate)> = found
                .inside()
                .skip(from)
                .take(8.min(limit - from))
                .map(|(i, c)| (&beam[i], c))
                .collect();
            from += chunk.len();
            if let Some(answer) = self.check_chunk(&chunk, note)? {
                return Ok(Some(answer));
            }
        }
        Ok(None)
    }

    /// Checks each candidate of `chunk` on its node afresh, in parallel
    /// and each charged to the budget, and returns the first in order that
    /// meets the target; each checked board that does not goes to `note`.
    fn check_chunk(
        &self,
        chunk: &[(&Node, Candidate)],
        note: &mut impl FnMut(&search::Checked),
    ) -> Result<Option<(Node, search::Checked)>, DesignError> {
        let target = &self.options.target;
        let checked: Vec<Result<Option<(Node, search::Checked)>, DesignError>> = chunk
            .par_iter()
            .map(|&(node, c)| {
                self.meter.charge_candidates(self.squares, 0, 1);
                let Some(node) = step(node, &c) else {
                    return Ok(None);
                };
                Ok(search::check(&node.board, c.mean, target)?.map(|k| (node, k)))
            })
            .collect();
        for r in checked {
            if let Some((node, k)) = r? {
                if k.meets(target) {
                    return Ok(Some((node, k)));
                }
                note(&k);
            }
        }
        Ok(None)
    }
}

/// The squares moved in all by `node`'s changes with candidate `c` made
/// (the jump `c` moves counted from its original place).
fn moved_squares(node: &Node, c: &Candidate) -> u64 {
    let change = c.change(&node.board);
    let original = node.origin[&change.before];
    let mut moved: u64 = node.changes.iter().map(JumpChange::displacement).sum();
    moved += JumpChange {
        before: original,
        after: change.after,
    }
    .displacement();
    moved
}

/// The next level of the search: the [`BEAM`] boards of `found` closest to
/// the band, each once, the level run again in full (`expand`) when what
/// it kept runs short.
fn next_beam(
    beam: &[Node],
    mut found: level::Level,
    expand: impl Fn(usize, Run) -> Result<level::Level, DesignError>,
) -> Result<Vec<Node>, DesignError> {
    loop {
        let mut seen = HashSet::new();
        let mut next = Vec::with_capacity(BEAM);
        for (i, c) in found.near() {
            if next.len() == BEAM {
                break;
            }
            let Some(node) = step(&beam[i], &c) else {
                continue;
            };
            if seen.insert(node.board.jumps().to_vec()) {
                next.push(node);
            }
        }
        if next.len() == BEAM || found.complete() {
            return Ok(next);
        }
        found = expand(usize::MAX, Run::Again)?;
    }
}

/// `node` with candidate `c` made; `None` when the board that makes is not
/// valid.
fn step(node: &Node, c: &Candidate) -> Option<Node> {
    let change = c.change(&node.board);
    let original = node.origin[&change.before];
    let spec = eval::apply(&node.board.spec(), &[change]);
    let mut origin = node.origin.clone();
    origin.remove(&change.before);
    origin.insert(c.after, original);
    let mut changes = node.changes.clone();
    changes.push(JumpChange {
        before: original,
        after: Some(c.after),
    });
    Some(Node {
        board: Board::from_spec(&spec).ok()?,
        changes,
        origin,
    })
}

fn sorted(changes: &[JumpChange]) -> Vec<JumpChange> {
    let mut out = changes.to_vec();
    out.sort_by_key(|c| (c.before.from(), c.before.to()));
    out
}
