//! The inner loop and its accumulators.
//!
//! Per roll the loop does only what cannot wait: draw the total, look the
//! roll up, add one to that table entry's count, and note the square it
//! rests on (and any jump it uses) to count the tokens that ever rest (use)
//! there. On boards whose squares and jumps fit in 128 bits, the noting is
//! an or of the entry's precomputed bits into two registers, counted bit by
//! bit when the token finishes; on larger ones it stamps the square (and
//! jumps) in memory with the token's number. Rests per square and uses per
//! jump are recovered from the entry counts at the end of each *cluster* of
//! games, which also gives their standard errors (below). Turns and rolls
//! are summed exactly per token.
//!
//! # Standard errors of rests and uses
//! Games are grouped in clusters of a fixed number of consecutive games
//! within a batch (a function of the board and the number of games only,
//! so still independent of the thread count). With `x_b` a cluster's total (say, uses of a jump),
//! `m_b` its tokens, `n = Σ m_b` and `x̄ = Σ x_b / n`, the standard error of
//! the per-token mean is the ratio (cluster-sampling) estimator
//! `se² = B/(B − 1) · Σ_b (x_b − m_b x̄)² / n²` over `B` clusters; with equal
//! `m_b` it is the textbook batch-means error. It needs only the integer
//! sums `Σ x_b`, `Σ x_b²`, `Σ m_b x_b` and `Σ m_b²`.

use super::marks::{MarkTally, Marks, entry_marks};
use super::sampler::{DiceStream, Sample, Six, Uniform16};
use super::six::{Cell, OFFSET, ROWS, SixTable, six_games};
use super::stats::Tally;
use super::table::{EXTRA, FINISHED, NO_NEXT, PATH, TableEntry};
use super::{
    BATCH_GAMES, JumpEstimate, MAX_ROLLS_PER_TOKEN, MoveTable, PlayersEstimate, SimulationConfig,
    SimulationReport, SquareEstimate,
};
use crate::{Board, Dice, Square};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Fewest games in a cluster: 256 games of ~40 rolls make the per-cluster
/// flush (one pass over the table) cost well under one operation per roll
/// on a small board, and still give thousands of clusters per million games.
const MIN_CLUSTER_GAMES: u64 = 256;

/// Clusters aimed at when there are games enough for more than this many
/// of [`MIN_CLUSTER_GAMES`]: a standard error from `B` clusters is itself
/// off by about `1/√(2B)`, 2% here, while larger clusters make the flushes
/// negligible (10 million games: 8,192-game clusters, 3% of the time saved).
const TARGET_CLUSTERS: u64 = 1024;

/// Games between two looks at a simulation's stop flag inside a batch
/// ([`SimulationConfig::with_stop`]) of [`Engine::batch`]: a batch of long
/// games (tens of thousands of turns each) takes a minute, 64 of them a
/// few milliseconds; a look costs one load per 64 games of short ones.
/// (The loop of one six-faced die, [`Engine::six_batch`], does not look:
/// it runs only on boards of at most 128 squares and jumps, whose batch
/// takes a fraction of a second.)
const STOP_EVERY_GAMES: u64 = 64;

/// Whether a stop flag is given and set.
fn is_set(stop: Option<&AtomicBool>) -> bool {
    stop.is_some_and(|s| s.load(Ordering::Relaxed))
}

/// What the inner loop needs, borrowed.
pub(super) struct Engine<'a> {
    table: &'a MoveTable,
    /// The simulation's stop flag: a batch that finds it set ends early,
    /// its games for the caller to drop.
    stop: Option<&'a AtomicBool>,
    jumps: usize,
    players: u32,
    /// Games per cluster, a power of two: large enough that the flush costs
    /// at most about 1/32 of a table pass per game, and that there are
    /// about [`TARGET_CLUSTERS`] clusters when the games allow.
    cluster_games: u64,
    /// Per table entry, the [`Marks`] of what the roll rests on and uses,
    /// when the board's squares and jumps fit in them.
    marks: Option<Vec<Marks>>,
    /// The table entries whose roll takes a jump, with their path id.
    jumping: Vec<(usize, u32)>,
    /// The table for the loop of one six-faced die ([`super::six`]), when
    /// the board has one and its marks fit.
    six: Option<SixTable>,
    /// That loop's cells, each with every count zero, for the next batch
    /// to take: a batch leaves its counts zero (each cluster's flush clears
    /// them), so a worker's cells are made once per run, not once per
    /// accumulator (rayon makes one per piece of work it splits off, and
    /// writing 2 MiB of cells each time cost a tenth of a second's run).
    free_cells: Mutex<Vec<Box<[Cell; ROWS]>>>,
}

impl<'a> Engine<'a> {
    pub(super) fn new(
        table: &'a MoveTable,
        jumps: usize,
        dice: &Dice,
        config: &'a SimulationConfig,
    ) -> Engine<'a> {
        let entries = table.entries().len() as u64;
        let per_target = config.games() / TARGET_CLUSTERS;
        // The largest power of two not above it (1 when it is 0).
        let by_games = 1 << per_target.max(1).ilog2();
        let cluster_games = (entries / 32)
            .next_power_of_two()
            .max(by_games)
            .clamp(MIN_CLUSTER_GAMES, BATCH_GAMES);
        let marks = entry_marks(table, jumps);
        Engine {
            table,
            stop: config.stop.get(),
            jumps,
            players: config.players(),
            cluster_games,
            six: marks.as_ref().and_then(|m| SixTable::new(table, m, dice)),
            free_cells: Mutex::new(Vec::new()),
            marks,
            jumping: table
                .entries()
                .iter()
                .enumerate()
                .filter(|(_, e)| e.info() & PATH != 0)
                .map(|(i, e)| (i, e.info() & PATH))
                .collect(),
        }
    }

    /// The same engine on the stamping inner loop, which larger boards use:
    /// the tests check that both loops give the same report.
    #[cfg(test)]
    pub(super) fn without_marks(mut self) -> Engine<'a> {
        self.marks = None;
        self.six = None;
        self
    }

    /// The same engine on the general marking loop instead of the
    /// six-faced one: the tests check that both give the same report.
    #[cfg(test)]
    pub(super) fn without_six(mut self) -> Engine<'a> {
        self.six = None;
        self
    }

    /// Whether the engine runs the loop of one six-faced die.
    #[cfg(test)]
    pub(super) fn six(&self) -> bool {
        self.six.is_some()
    }

    /// Whether the engine runs the marking inner loop.
    #[cfg(test)]
    pub(super) fn marks(&self) -> bool {
        self.marks.is_some()
    }

    pub(super) fn accumulator(&self) -> Accumulator {
        let squares = self.table.squares();
        Accumulator {
            turns: Tally::default(),
            rolls: Tally::default(),
            total_turns: Tally::default(),
            rounds: Tally::default(),
            seat_wins: vec![0; self.players as usize],
            // The six-faced loop counts in its cells instead.
            entry_count: if self.six.is_some() {
                Vec::new()
            } else {
                vec![0; self.table.entries().len()]
            },
            token: 0,
            rest_seen: vec![[0, 0]; squares],
            jump_seen: vec![[0, 0]; self.jumps],
            path_seen: vec![[0, 0]; self.table.paths() + 1],
            rests: Clusters::new(squares),
            uses: Clusters::new(self.jumps),
            clusters: 0,
            cluster_m_sq: 0,
            scratch_rest: vec![0; squares],
            scratch_use: vec![0; self.jumps],
            marked: MarkTally::default(),
        }
    }

    /// Plays `games` games into `acc`; `Err(rolls)` if a token runs past
    /// [`MAX_ROLLS_PER_TOKEN`]. Ends early, `acc` part-filled, once the
    /// stop flag is set (every [`STOP_EVERY_GAMES`] games).
    pub(super) fn batch<S: Sample>(
        &self,
        acc: &mut Accumulator,
        roller: &mut DiceStream<S>,
        games: u64,
    ) -> Result<(), u64> {
        let k = u64::from(self.players);
        let mut done = 0;
        while done < games {
            let cluster = self.cluster_games.min(games - done);
            // Runs of STOP_EVERY_GAMES games, the flag read between them,
            // so that the games' loop is left as it was.
            let mut played = 0;
            while played < cluster {
                if is_set(self.stop) {
                    return Ok(());
                }
                let run = STOP_EVERY_GAMES.min(cluster - played);
                for _ in 0..run {
                    let mut best = (u64::MAX, 0_u64);
                    for seat in 0..k {
                        acc.token += 1;
                        let extra = self.table.has_extra_rolls();
                        let (turns, rolls) = match (&self.marks, extra, self.table.single_jumps()) {
                            (Some(m), true, _) => {
                                marked_token::<S, true>(self.table, m, acc, roller)?
                            }
                            (Some(m), false, _) => {
                                marked_token::<S, false>(self.table, m, acc, roller)?
                            }
                            (None, true, _) => token::<S, true, false>(self.table, acc, roller)?,
                            (None, false, true) => {
                                token::<S, false, true>(self.table, acc, roller)?
                            }
                            (None, false, false) => {
                                token::<S, false, false>(self.table, acc, roller)?
                            }
                        };
                        acc.turns.record(turns);
                        // Without extra rolls every turn is one roll: the
                        // report copies the turns (see `report`).
                        if self.table.has_extra_rolls() {
                            acc.rolls.record(rolls);
                        }
                        if turns < best.0 {
                            best = (turns, seat);
                        }
                    }
                    let (rounds, winner) = best;
                    acc.seat_wins[winner as usize] += 1;
                    // One player's rounds and total turns are its turns.
                    if k > 1 {
                        acc.rounds.record(rounds);
                        acc.total_turns.record((rounds - 1) * k + winner + 1);
                    }
                }
                played += run;
            }
            acc.flush_cluster(self.table, &self.jumping, cluster * k);
            done += cluster;
        }
        Ok(())
    }

    /// [`Engine::batch`] for one six-faced die: on the loop of
    /// [`super::six`] when the engine has its table, else the general one.
    pub(super) fn six_batch(
        &self,
        acc: &mut Accumulator,
        roller: &mut DiceStream<Uniform16<Six>>,
        games: u64,
    ) -> Result<(), u64> {
        let Some(six) = &self.six else {
            return self.batch(acc, roller, games);
        };
        let k = u64::from(self.players);
        let free = self.free_cells.lock().ok().and_then(|mut f| f.pop());
        let mut cells = free.unwrap_or_else(|| six.cells());
        let entries = self.table.entries().len();
        let mut done = 0;
        while done < games {
            let cluster = self.cluster_games.min(games - done);
            let (turns, marked) = (&mut acc.turns, &mut acc.marked);
            let (seat_wins, rounds, total_turns) =
                (&mut acc.seat_wins, &mut acc.rounds, &mut acc.total_turns);
            six_games(
                six,
                &mut cells,
                roller,
                cluster,
                k,
                |rolls, seen| {
                    // Without extra rolls every turn is one roll.
                    turns.record(rolls);
                    marked.add(seen);
                },
                |best, winner| {
                    seat_wins[winner as usize] += 1;
                    if k > 1 {
                        rounds.record(best);
                        total_turns.record((best - 1) * k + winner + 1);
                    }
                },
            )?;
            // (On an error the cells, their counts not cleared, are dropped.)
            let counts = &mut cells[OFFSET..][..entries];
            acc.flush_counts(self.table, &self.jumping, cluster * k, counts, |c| {
                &mut c.count
            });
            done += cluster;
        }
        if let Ok(mut free) = self.free_cells.lock() {
            free.push(cells);
        }
        Ok(())
    }

    pub(super) fn report(
        &self,
        acc: Accumulator,
        board: &Board,
        config: &SimulationConfig,
    ) -> SimulationReport {
        let tokens = acc.turns.n;
        let mut acc = acc;
        // The tallies `batch` leaves out because they equal the turns.
        if !self.table.has_extra_rolls() {
            acc.rolls = acc.turns.clone();
        }
        if self.players == 1 {
            acc.rounds = acc.turns.clone();
            acc.total_turns = acc.turns.clone();
        }
        if self.marks.is_some() {
            let squares = self.table.squares();
            let marked = acc.marked.counts();
            for (seen, &n) in acc.rest_seen.iter_mut().zip(&marked) {
                seen[1] += n;
            }
            for (seen, &n) in acc.jump_seen.iter_mut().zip(&marked[squares..]) {
                seen[1] += n;
            }
        } else if self.table.single_jumps() {
            for (id, seen) in acc.path_seen.iter().enumerate().skip(1) {
                let j = id - 1;
                acc.jump_seen[j][1] += seen[1];
            }
        }
        let proportion = |hits: u64, n: u64| {
            let p = hits as f64 / n as f64;
            (p, (p * (1.0 - p) / n as f64).sqrt())
        };
        let jumps = board
            .jumps()
            .iter()
            .enumerate()
            .map(|(i, j)| {
                let uses = acc.uses.estimate(i, tokens, acc.clusters, acc.cluster_m_sq);
                let (p, p_se) = proportion(acc.jump_seen[i][1], tokens);
                JumpEstimate {
                    from: j.from(),
                    to: j.to(),
                    kind: j.kind(),
                    expected_uses: uses.0,
                    expected_uses_std_error: uses.1,
                    use_probability: p,
                    use_probability_std_error: p_se,
                    tokens_using: acc.jump_seen[i][1],
                }
            })
            .collect();
        let squares = (0..self.table.squares())
            .filter(|&s| board.is_rest_square(Square::new(s as u32)))
            .map(|s| {
                let rests = acc
                    .rests
                    .estimate(s, tokens, acc.clusters, acc.cluster_m_sq);
                let (p, p_se) = proportion(acc.rest_seen[s][1], tokens);
                SquareEstimate {
                    square: Square::new(s as u32),
                    expected_rests: rests.0,
                    expected_rests_std_error: rests.1,
                    rest_probability: p,
                    rest_probability_std_error: p_se,
                    tokens_resting: acc.rest_seen[s][1],
                }
            })
            .collect();
        let (win_probability, win_probability_std_error) = acc
            .seat_wins
            .iter()
            .map(|&w| proportion(w, config.games()))
            .unzip();
        let total_turns = acc.total_turns.summary();
        let rounds = acc.rounds.summary();
        let game = PlayersEstimate {
            count: self.players,
            wins: acc.seat_wins.clone(),
            win_probability,
            win_probability_std_error,
            expected_total_turns: total_turns.mean,
            expected_total_turns_std_error: total_turns.std_error,
            expected_rounds: rounds.mean,
            expected_rounds_std_error: rounds.std_error,
            total_turns,
        };
        SimulationReport {
            games: config.games(),
            seed: config.seed().get(),
            tokens,
            batch_games: BATCH_GAMES,
            has_extra_rolls: self.table.has_extra_rolls(),
            clusters: acc.clusters,
            turns: acc.turns.summary(),
            rolls: acc.rolls.summary(),
            squares,
            jumps,
            players: vec![game],
            skipped: Vec::new(),
            turns_histogram: acc.turns.histogram,
            rolls_histogram: acc.rolls.histogram,
        }
    }
}

/// Plays one token from the start to the finish: `(turns, rolls)`.
///
/// `SINGLE` (every move takes at most one jump) stamps the path's slot of
/// `path_seen` on every roll, slot 0 standing for "no jump", instead of
/// branching on whether the roll took a jump.
#[inline(always)]
fn token<S: Sample, const EXTRA_ROLLS: bool, const SINGLE: bool>(
    table: &MoveTable,
    acc: &mut Accumulator,
    roller: &mut DiceStream<S>,
) -> Result<(u64, u64), u64> {
    let entries: &[TableEntry] = table.entries();
    let counts: &mut [u64] = &mut acc.entry_count;
    let rest_seen: &mut [[u64; 2]] = &mut acc.rest_seen;
    let path_seen: &mut [[u64; 2]] = &mut acc.path_seen;
    let token = acc.token;
    let ends = table.ends();
    let next = table.next();
    let width = table.rolls();
    let layer = table.squares() * width;
    let starts = table.phase_starts();
    let mut at = table.start().index() * width;
    debug_assert!(!SINGLE || table.single_jumps());
    let mut rolls = 0_u64;
    let mut turn = Turn::default();
    let mut dice = roller.clone();
    loop {
        let idx = turn.phase_base + at + dice.roll();
        let e = entries[idx];
        counts[idx] += 1;
        rolls += 1;
        // Count the token once per square it ever rests on, without a branch.
        let seen = &mut rest_seen[ends[idx] as usize];
        seen[1] += u64::from(seen[0] != token);
        seen[0] = token;
        let path = e.info() & PATH;
        if SINGLE {
            let seen = &mut path_seen[path as usize];
            seen[1] += u64::from(seen[0] != token);
            seen[0] = token;
        } else if path != 0 {
            // The chain from the first jump, stopping at a jump this token
            // already used: the rest of its chain was stamped with it, so a
            // token's stamping costs at most one step per distinct jump.
            let mut j = path - 1;
            loop {
                let seen = &mut acc.jump_seen[j as usize];
                if seen[0] == token {
                    break;
                }
                seen[0] = token;
                seen[1] += 1;
                j = next[j as usize];
                if j == NO_NEXT {
                    break;
                }
            }
        }
        at = e.row() as usize;
        if EXTRA_ROLLS {
            turn.after(e.info(), starts, layer);
        }
        if e.finished() {
            break;
        }
        if rolls >= MAX_ROLLS_PER_TOKEN {
            *roller = dice;
            return Err(rolls);
        }
    }
    *roller = dice;
    let turns = if EXTRA_ROLLS { turn.turns } else { rolls };
    Ok((turns, rolls))
}

/// [`token`] for boards whose squares and jumps fit in [`Marks`]: instead of
/// stamping a square and a path in memory on every roll, the roll's marks
/// are or-ed into two registers, and the token's marks are counted once,
/// when it finishes (about one bit per three rolls on the default board).
#[inline(always)]
fn marked_token<S: Sample, const EXTRA_ROLLS: bool>(
    table: &MoveTable,
    marks: &[Marks],
    acc: &mut Accumulator,
    roller: &mut DiceStream<S>,
) -> Result<(u64, u64), u64> {
    let entries: &[TableEntry] = table.entries();
    // Slices of the same length as `entries`, so that one bounds check
    // covers all three.
    let counts: &mut [u64] = &mut acc.entry_count[..entries.len()];
    let marks = &marks[..entries.len()];
    let width = table.rolls();
    let layer = table.squares() * width;
    let starts = table.phase_starts();
    let mut at = table.start().index() * width;
    let mut seen: Marks = Default::default();
    // A u32 wraps to 0 exactly at MAX_ROLLS_PER_TOKEN: one increment and
    // branch on zero a roll instead of a compare with a 64-bit constant.
    const _: () = assert!(MAX_ROLLS_PER_TOKEN == 1 << u32::BITS);
    let mut rolls = 0_u32;
    let mut turn = Turn::default();
    let mut dice = roller.clone();
    loop {
        let idx = turn.phase_base + at + dice.roll();
        let e = entries[idx];
        counts[idx] += 1;
        rolls = rolls.wrapping_add(1);
        if rolls == 0 {
            *roller = dice;
            return Err(MAX_ROLLS_PER_TOKEN);
        }
        for (s, m) in seen.iter_mut().zip(marks[idx]) {
            *s |= m;
        }
        at = e.row() as usize;
        if EXTRA_ROLLS {
            turn.after(e.info(), starts, layer);
        }
        if e.finished() {
            break;
        }
    }
    *roller = dice;
    acc.marked.add(seen);
    let rolls = u64::from(rolls);
    let turns = if EXTRA_ROLLS { turn.turns } else { rolls };
    Ok((turns, rolls))
}

/// Where a token is within its turns, under an extra-roll rule: the turns
/// it has ended, the rolls of the current turn, and the table phase (layer)
/// those select (see [`MoveTable`]'s phases).
#[derive(Default)]
struct Turn {
    turns: u64,
    rolls_before: u32,
    phase: usize,
    /// `phase` × the entries of a layer: the offset of the phase's layer.
    phase_base: usize,
}

impl Turn {
    /// Moves on past a roll whose entry has `info`: another roll of the same
    /// turn (maybe in the next phase), or the next turn.
    #[inline(always)]
    fn after(&mut self, info: u32, starts: &[u32], layer: usize) {
        if info & (EXTRA | FINISHED) == EXTRA {
            self.rolls_before += 1;
            let next = self.phase + 1;
            if next < starts.len() && starts[next] <= self.rolls_before {
                self.phase = next;
                self.phase_base = next * layer;
            }
        } else {
            self.turns += 1;
            self.rolls_before = 0;
            self.phase = 0;
            self.phase_base = 0;
        }
    }
}

/// Per-index cluster sums: `Σ x_b`, `Σ x_b²`, `Σ m_b x_b`.
#[derive(Clone, Debug)]
struct Clusters {
    sum: Vec<u64>,
    sum_sq: Vec<u128>,
    cross: Vec<u128>,
}

impl Clusters {
    fn new(len: usize) -> Clusters {
        Clusters {
            sum: vec![0; len],
            sum_sq: vec![0; len],
            cross: vec![0; len],
        }
    }

    fn add(&mut self, i: usize, x: u64, m: u64) {
        self.sum[i] += x;
        self.sum_sq[i] += u128::from(x) * u128::from(x);
        self.cross[i] += u128::from(m) * u128::from(x);
    }

    fn merge(&mut self, o: &Clusters) {
        add(&mut self.sum, &o.sum);
        add(&mut self.sum_sq, &o.sum_sq);
        add(&mut self.cross, &o.cross);
    }

    /// The per-token mean of index `i` and its ratio-estimator standard
    /// error (module docs), in that order.
    fn estimate(&self, i: usize, n: u64, clusters: u64, m_sq: u128) -> (f64, f64) {
        let n_f = n as f64;
        let mean = self.sum[i] as f64 / n_f;
        let spread =
            self.sum_sq[i] as f64 - 2.0 * mean * self.cross[i] as f64 + mean * mean * m_sq as f64;
        let b = clusters as f64;
        let std_error = if clusters < 2 {
            f64::NAN
        } else {
            (b / (b - 1.0) * spread.max(0.0)).sqrt() / n_f
        };
        (mean, std_error)
    }
}

fn add<T: Copy + std::ops::AddAssign>(a: &mut [T], b: &[T]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += *y;
    }
}

/// Every sum a worker adds to.
#[derive(Clone, Debug)]
pub(super) struct Accumulator {
    turns: Tally,
    rolls: Tally,
    total_turns: Tally,
    rounds: Tally,
    seat_wins: Vec<u64>,
    /// Rolls that used each table entry, in the current cluster.
    entry_count: Vec<u64>,
    /// Number of the token in play (1, 2, …; 0 is never a token).
    token: u64,
    /// Per square: the last token that rested there, and how many tokens did.
    rest_seen: Vec<[u64; 2]>,
    /// Per jump: the last token that used it, and how many tokens did.
    jump_seen: Vec<[u64; 2]>,
    /// The same per path id (slot 0: no jump), when every path is one jump.
    path_seen: Vec<[u64; 2]>,
    rests: Clusters,
    uses: Clusters,
    clusters: u64,
    cluster_m_sq: u128,
    scratch_rest: Vec<u64>,
    scratch_use: Vec<u64>,
    /// Per [`Marks`] bit, the tokens that set it (when the engine marks).
    marked: MarkTally,
}

impl Accumulator {
    /// Turns the entry counts of a cluster of `m` tokens into rests per
    /// square and uses per jump, adds them to the cluster sums and clears
    /// the counts. `jumping` lists the entries that take a jump (and their
    /// path), so the pass over every entry has no branch.
    fn flush_cluster(&mut self, table: &MoveTable, jumping: &[(usize, u32)], m: u64) {
        let mut counts = std::mem::take(&mut self.entry_count);
        self.flush_counts(table, jumping, m, &mut counts, |c| c);
        self.entry_count = counts;
    }

    /// [`Accumulator::flush_cluster`] of the counts `counts` (one per table
    /// entry, here or in the six-faced loop's cells), `count` giving each
    /// one's place.
    #[inline(always)]
    fn flush_counts<C>(
        &mut self,
        table: &MoveTable,
        jumping: &[(usize, u32)],
        m: u64,
        counts: &mut [C],
        count: impl Fn(&mut C) -> &mut u64,
    ) {
        // Each roll's count goes to its first jump, then down the chains,
        // every jump before the one it leads to: linear in the jumps.
        for &(entry, path) in jumping {
            self.scratch_use[path as usize - 1] += *count(&mut counts[entry]);
        }
        // Clearing each count as it is read, rather than with a `fill`
        // after: a memset of the whole table per cluster cost as much as
        // this loop.
        for (&end, c) in table.ends().iter().zip(counts.iter_mut()) {
            self.scratch_rest[end as usize] += std::mem::take(count(c));
        }
        if !table.single_jumps() {
            let next = table.next();
            for &j in table.upstream_first() {
                let n = next[j as usize];
                if n != NO_NEXT {
                    self.scratch_use[n as usize] += self.scratch_use[j as usize];
                }
            }
        }
        for (i, x) in self.scratch_rest.iter_mut().enumerate() {
            self.rests.add(i, std::mem::take(x), m);
        }
        for (i, x) in self.scratch_use.iter_mut().enumerate() {
            self.uses.add(i, std::mem::take(x), m);
        }
        self.clusters += 1;
        self.cluster_m_sq += u128::from(m) * u128::from(m);
    }

    pub(super) fn merge(&mut self, o: &Accumulator) {
        self.turns.merge(&o.turns);
        self.rolls.merge(&o.rolls);
        self.total_turns.merge(&o.total_turns);
        self.rounds.merge(&o.rounds);
        add(&mut self.seat_wins, &o.seat_wins);
        for (a, b) in self.rest_seen.iter_mut().zip(&o.rest_seen) {
            a[1] += b[1];
        }
        for (a, b) in self.jump_seen.iter_mut().zip(&o.jump_seen) {
            a[1] += b[1];
        }
        for (a, b) in self.path_seen.iter_mut().zip(&o.path_seen) {
            a[1] += b[1];
        }
        self.marked.merge(&o.marked);
        self.rests.merge(&o.rests);
        self.uses.merge(&o.uses);
        self.clusters += o.clusters;
        self.cluster_m_sq += o.cluster_m_sq;
    }
}
