//! [`ChainBuilder`]: a chain given piece by piece, checked as a whole, every
//! problem named at once.

use crate::chain::{Chain, Value};
use crate::error::{Error, Location, Part, Place, ProblemKind, Problems, Role};
use crate::read::number::is_one;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The most states a chain may have: state numbers are stored as `u32`.
///
/// ```
/// use absorbing::{ChainBuilder, MAX_STATES, ProblemKind};
/// let err = ChainBuilder::new(MAX_STATES as usize + 1).build().unwrap_err();
/// assert!(matches!(err.problems()[0].kind(), ProblemKind::TooManyStates { .. }));
/// ```
pub const MAX_STATES: u64 = u32::MAX as u64;

/// The largest denominator, in bits, an exact row or initial sum may reach
/// while it is checked. Decimals share denominators (powers of ten), so a
/// real row stays far below it; fractions with unrelated large
/// denominators can make a sum's denominator grow with every entry, and the
/// bound keeps checking one row cheap (a sum of 64 Kibit takes about a
/// millisecond to extend) whatever the input.
///
/// ```
/// // A decimal has a power of ten for its denominator: far below the bound.
/// assert!(absorbing::MAX_EXACT_BITS > 4096 * 4);
/// ```
pub const MAX_EXACT_BITS: u64 = 1 << 16;

/// Units of `f64::EPSILON` allowed per entry between a row's float sum and
/// one; see [`row_sum_tolerance`].
///
/// ```
/// use absorbing::{ROW_SUM_ULPS_PER_ENTRY, row_sum_tolerance};
/// assert_eq!(row_sum_tolerance(2), 2.0 * ROW_SUM_ULPS_PER_ENTRY * f64::EPSILON);
/// ```
pub const ROW_SUM_ULPS_PER_ENTRY: f64 = 4.0;

/// The largest accepted `|sum − 1|` of a row (or initial distribution) of
/// `entries` entries when some entry is a float:
/// `ROW_SUM_ULPS_PER_ENTRY × entries × f64::EPSILON`.
///
/// Why this size: a probability rounded once to `f64` is off by at most half
/// an ulp (`ε/2` relative), and the sum is taken with compensation, so a
/// row of correctly rounded entries is within about `(n/2 + 1) ε` of one;
/// four ulps per entry leave room for entries computed with a few float
/// operations (`1.0 - p`, `p * q`) and no more. PRISM's convention of
/// `1e-6` would accept a third written as `0.333333`, and every answer
/// would silently carry that error; a chain meant exactly is better given
/// with fractions (`"1/3"`), which are checked exactly.
///
/// ```
/// use absorbing::row_sum_tolerance;
/// assert_eq!(row_sum_tolerance(1), 4.0 * f64::EPSILON);
/// assert!(row_sum_tolerance(3) < 1e-14);
/// assert_eq!(row_sum_tolerance(0), row_sum_tolerance(1));
/// ```
pub fn row_sum_tolerance(entries: usize) -> f64 {
    ROW_SUM_ULPS_PER_ENTRY * entries.max(1) as f64 * f64::EPSILON
}

/// An `f64` as a float [`Value`].
///
/// ```
/// use absorbing::Value;
/// assert_eq!(Value::from(0.5), Value::Float(0.5));
/// ```
impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Float(x)
    }
}

/// A rational as an exact [`Value`].
///
/// ```
/// use absorbing::Value;
/// use num_rational::BigRational;
/// let third = BigRational::new(1.into(), 3.into());
/// assert_eq!(Value::from(third.clone()), Value::Exact(third));
/// ```
impl From<BigRational> for Value {
    fn from(r: BigRational) -> Value {
        Value::Exact(r)
    }
}

/// Where an item came from, kept compactly: its index in the Rust API, or a
/// line and column of one of the builder's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pos {
    Item(usize),
    Line { file: u8, line: u64, column: u64 },
}

/// A file index meaning "no file".
pub(crate) const NO_FILE: u8 = u8::MAX;

#[derive(Clone, Debug)]
struct Entry {
    from: u64,
    to: u64,
    value: Value,
    /// Written as a decimal in a file (see [`sum_to_one`]).
    decimal: bool,
    pos: Pos,
}

#[derive(Clone, Debug)]
struct Item {
    state: u64,
    value: Value,
    pos: Pos,
}

/// A chain given piece by piece: transitions, an initial state or
/// distribution, targets and optional state rewards. [`build`] checks it
/// whole and names every problem at once (up to
/// [`MAX_PROBLEMS`](crate::MAX_PROBLEMS)), each with its values and the
/// index of the item it is about.
///
/// Values are [`Value`]s: `f64`s are floats, checked within
/// [`row_sum_tolerance`]; exact values (a [`BigRational`], or text parsed
/// with [`str::parse`]) are checked exactly, row by row.
///
/// What [`build`] requires:
/// * a state count from 1 to [`MAX_STATES`], and every state number below it;
/// * every probability finite and not negative, each `(from, to)` given at
///   most once; zeros are accepted and dropped;
/// * every row summing to one, target rows included (their rows do not
///   matter to the questions, but must still be valid input);
/// * every non-target state with a row; a target state without one is given
///   a self-loop of probability one, as PRISM and Storm do for deadlocks;
/// * an initial distribution summing to one, and at least one target;
/// * rewards, when given, finite and not negative; states not given one
///   earn zero.
///
/// [`build`]: ChainBuilder::build
///
/// # Example
/// ```
/// use absorbing::{ChainBuilder, Value};
///
/// let half: Value = "1/2".parse()?;
/// let chain = ChainBuilder::new(3)
///     .row(0, [(1, half.clone()), (2, half)])
///     .transition(1, 0, 1.0)
///     .initial_state(0)
///     .targets([2])
///     .build()?;
/// assert_eq!(chain.len(), 3);
/// assert_eq!(chain.row(0).collect::<Vec<_>>(), [(1, 0.5), (2, 0.5)]);
/// // State 2 is a target without a row: it gets a self-loop.
/// assert_eq!(chain.row(2).collect::<Vec<_>>(), [(2, 1.0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ChainBuilder {
    /// `None` when a reader could not learn it: then one more than the
    /// largest state named.
    states: Option<u64>,
    /// Where the state count was given, for a problem about it.
    states_at: Option<Pos>,
    entries: Vec<Entry>,
    initial: Option<Vec<Item>>,
    targets: Vec<(u64, Pos)>,
    absorbing_targets: bool,
    rewards: Option<Vec<Item>>,
    /// The length of a list of rewards given one per state.
    dense_rewards: Option<usize>,
    files: Vec<Arc<Path>>,
    /// Problems found while reading the input.
    read_problems: Problems,
    /// Rows a reader could not read whole: their sums are not checked, as
    /// they would only repeat the reading problem.
    unchecked_rows: BTreeSet<u64>,
    /// Whether readers take every number as the nearest float, keeping no
    /// fraction ([`Explicit::floats`](crate::read::Explicit::floats)).
    pub(crate) floats: bool,
}

impl ChainBuilder {
    /// A chain of `states` states, `0..states`, with nothing given yet.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(1)
    ///     .transition(0, 0, 1.0)
    ///     .initial_state(0)
    ///     .targets([0])
    ///     .build()?;
    /// assert_eq!(chain.len(), 1);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn new(states: usize) -> ChainBuilder {
        let mut b = ChainBuilder::uncounted();
        b.states = Some(states as u64);
        b
    }

    /// A builder whose state count a reader sets later, or never.
    pub(crate) fn uncounted() -> ChainBuilder {
        ChainBuilder {
            states: None,
            states_at: None,
            entries: Vec::new(),
            initial: None,
            targets: Vec::new(),
            absorbing_targets: false,
            rewards: None,
            dense_rewards: None,
            files: Vec::new(),
            read_problems: Problems::default(),
            unchecked_rows: BTreeSet::new(),
            floats: false,
        }
    }

    /// The transition `from → to` with probability `p`.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let mut b = ChainBuilder::new(2);
    /// b.transition(0, 1, 0.25).transition(0, 0, 0.75).transition(1, 1, 1.0);
    /// let chain = b.initial_state(0).targets([1]).build()?;
    /// assert_eq!(chain.entries(), 3);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn transition(&mut self, from: usize, to: usize, p: impl Into<Value>) -> &mut Self {
        let pos = Pos::Item(self.entries.len());
        self.push_transition(from as u64, to as u64, p.into(), false, pos);
        self
    }

    /// Many transitions `(from, to, p)`.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(2)
    ///     .transitions([(0, 1, 1.0), (1, 1, 1.0)])
    ///     .initial_state(0)
    ///     .targets([1])
    ///     .build()?;
    /// assert_eq!(chain.entries(), 2);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn transitions<I, V>(&mut self, transitions: I) -> &mut Self
    where
        I: IntoIterator<Item = (usize, usize, V)>,
        V: Into<Value>,
    {
        for (from, to, p) in transitions {
            self.transition(from, to, p);
        }
        self
    }

    /// The transitions out of `from`, as `(to, p)`.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(3)
    ///     .row(0, [(1, 0.5), (2, 0.5)])
    ///     .row(1, [(1, 1.0)])
    ///     .row(2, [(2, 1.0)])
    ///     .initial_state(0)
    ///     .targets([2])
    ///     .build()?;
    /// assert_eq!(chain.row(0).count(), 2);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn row<I, V>(&mut self, from: usize, row: I) -> &mut Self
    where
        I: IntoIterator<Item = (usize, V)>,
        V: Into<Value>,
    {
        for (to, p) in row {
            self.transition(from, to, p);
        }
        self
    }

    /// Starts in `state` with probability one (replacing any initial
    /// distribution given before).
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(2)
    ///     .transitions([(0, 1, 1.0), (1, 1, 1.0)])
    ///     .initial_state(1)
    ///     .targets([1])
    ///     .build()?;
    /// assert_eq!(chain.initial(), [(1, 1.0)]);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn initial_state(&mut self, state: usize) -> &mut Self {
        let one = Value::Exact(BigRational::from_integer(1.into()));
        self.initial = Some(vec![Item {
            state: state as u64,
            value: one,
            pos: Pos::Item(0),
        }]);
        self
    }

    /// Starts in each state `s` with probability `p`, for each `(s, p)`
    /// (replacing any initial state given before). The probabilities must
    /// sum to one, exactly when every one is exact.
    ///
    /// ```
    /// use absorbing::{ChainBuilder, Value};
    /// let half: Value = "1/2".parse()?;
    /// let chain = ChainBuilder::new(2)
    ///     .transitions([(0, 1, 1.0), (1, 1, 1.0)])
    ///     .initial_distribution(&[(0, half.clone()), (1, half)])
    ///     .targets([1])
    ///     .build()?;
    /// assert_eq!(chain.initial(), [(0, 0.5), (1, 0.5)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn initial_distribution<V>(&mut self, distribution: &[(usize, V)]) -> &mut Self
    where
        V: Into<Value> + Clone,
    {
        self.initial = Some(
            distribution
                .iter()
                .enumerate()
                .map(|(i, (s, p))| Item {
                    state: *s as u64,
                    value: p.clone().into(),
                    pos: Pos::Item(i),
                })
                .collect(),
        );
        self
    }

    /// Adds `states` to the target set.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(3)
    ///     .row(0, [(1, 0.5), (2, 0.5)])
    ///     .initial_state(0)
    ///     .targets([1, 2])
    ///     .build()?;
    /// assert!(chain.is_target(1) && chain.is_target(2) && !chain.is_target(0));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn targets<I: IntoIterator<Item = usize>>(&mut self, states: I) -> &mut Self {
        for s in states {
            let pos = Pos::Item(self.targets.len());
            self.targets.push((s as u64, pos));
        }
        self
    }

    /// Adds the [absorbing states](ChainBuilder::absorbing_states) to the
    /// target set when the chain is built.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(3)
    ///     .row(0, [(1, 0.5), (2, 0.5)])
    ///     .transition(1, 1, 1.0)
    ///     .transition(2, 2, 1.0)
    ///     .initial_state(0)
    ///     .absorbing_targets()
    ///     .build()?;
    /// assert!(chain.is_target(1) && chain.is_target(2));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn absorbing_targets(&mut self) -> &mut Self {
        self.absorbing_targets = true;
        self
    }

    /// A reward for every state, in state order (replacing rewards given
    /// before). The list must have one reward per state.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(2)
    ///     .transitions([(0, 1, 1.0), (1, 1, 1.0)])
    ///     .initial_state(0)
    ///     .targets([1])
    ///     .state_rewards(vec![2.0, 0.0])
    ///     .build()?;
    /// assert_eq!(chain.rewards(), Some(&[2.0, 0.0][..]));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn state_rewards<V: Into<Value>>(&mut self, rewards: Vec<V>) -> &mut Self {
        self.dense_rewards = Some(rewards.len());
        self.rewards = Some(
            rewards
                .into_iter()
                .enumerate()
                .map(|(i, r)| Item {
                    state: i as u64,
                    value: r.into(),
                    pos: Pos::Item(i),
                })
                .collect(),
        );
        self
    }

    /// The reward of one state; states given none earn zero.
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let chain = ChainBuilder::new(3)
    ///     .row(0, [(1, 0.5), (2, 0.5)])
    ///     .transition(1, 0, 1.0)
    ///     .initial_state(0)
    ///     .targets([2])
    ///     .state_reward(1, 3.0)
    ///     .build()?;
    /// assert_eq!(chain.rewards(), Some(&[0.0, 3.0, 0.0][..]));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn state_reward(&mut self, state: usize, reward: impl Into<Value>) -> &mut Self {
        let rewards = self.rewards.get_or_insert_with(Vec::new);
        let pos = Pos::Item(rewards.len());
        rewards.push(Item {
            state: state as u64,
            value: reward.into(),
            pos,
        });
        self
    }

    /// The absorbing states given so far: those whose only positive
    /// transition is a self-loop of probability one (exactly one, or a
    /// float within [`row_sum_tolerance`]). This is the default target set
    /// of an explicit model ([`Explicit`](crate::read::Explicit)).
    ///
    /// ```
    /// use absorbing::ChainBuilder;
    /// let mut b = ChainBuilder::new(4);
    /// b.row(0, [(1, 0.5), (2, 0.5)])
    ///     .transition(1, 1, 1.0)
    ///     .row(2, [(2, 0.5), (3, 0.5)])
    ///     .transition(3, 3, 1.0);
    /// assert_eq!(b.absorbing_states(), [1, 3]);
    /// ```
    pub fn absorbing_states(&self) -> Vec<usize> {
        let order = sorted_order(&self.entries);
        absorbing(&self.entries, &order, &vec![false; self.entries.len()])
            .into_iter()
            .map(|s| s as usize)
            .collect()
    }

    /// Checks everything given and builds the chain, or names every problem
    /// found (see [`ChainBuilder`] for what is checked). Problems are
    /// grouped by check (state numbers and values, duplicates, row sums,
    /// targets and deadlocks, the initial distribution, rewards), each
    /// group in input order; reading problems, when the builder came from
    /// a file, come first.
    ///
    /// ```
    /// use absorbing::{ChainBuilder, ProblemKind};
    /// let err = ChainBuilder::new(2)
    ///     .transition(0, 1, 0.5)
    ///     .transition(0, 1, f64::NAN)
    ///     .initial_state(3)
    ///     .build()
    ///     .unwrap_err();
    /// let kinds: Vec<_> = err.problems().iter().map(|p| p.kind().clone()).collect();
    /// assert!(matches!(kinds[0], ProblemKind::TransitionNotFinite { from: 0, to: 1, .. }));
    /// assert!(matches!(kinds[1], ProblemKind::DuplicateTransition { from: 0, to: 1, .. }));
    /// // Then: no target, state 1 has no row, the initial state is out of range.
    /// assert!(matches!(kinds[2], ProblemKind::NoTarget));
    /// assert!(matches!(kinds[3], ProblemKind::Deadlock { state: 1 }));
    /// assert!(matches!(kinds[4], ProblemKind::StateOutOfRange { state: 3, .. }));
    /// assert_eq!(kinds.len(), 5);
    /// ```
    pub fn build(&self) -> Result<Chain, Error> {
        let mut problems = self.read_problems.clone();
        let n = self.check_states(&mut problems);
        let m = self.entries.len();
        let mut bad = vec![false; m];
        let mut unchecked = self.unchecked_rows.clone();

        // State numbers and values, in input order.
        for (i, e) in self.entries.iter().enumerate() {
            if let Some(n) = n {
                for (role, s) in [(Role::From, e.from), (Role::To, e.to)] {
                    if s >= n {
                        self.push(&mut problems, out_of_range(role, s, n), e.pos);
                        bad[i] = true;
                        unchecked.insert(e.from);
                    }
                }
            }
            if let Some(kind) = value_problem(&e.value) {
                let (from, to, value) = (e.from, e.to, e.value.clone());
                let kind = match kind {
                    ValueProblem::NotFinite => ProblemKind::TransitionNotFinite { from, to, value },
                    ValueProblem::Negative => ProblemKind::NegativeTransition { from, to, value },
                };
                self.push(&mut problems, kind, e.pos);
                bad[i] = true;
                unchecked.insert(e.from);
            }
        }

        // Duplicates, in (from, to) order.
        let order = sorted_order(&self.entries);
        let mut k = 0;
        while k < order.len() {
            let first = &self.entries[order[k]];
            let mut j = k + 1;
            while j < order.len() {
                let e = &self.entries[order[j]];
                if (e.from, e.to) != (first.from, first.to) {
                    break;
                }
                let kind = ProblemKind::DuplicateTransition {
                    from: e.from,
                    to: e.to,
                    first: self.location(first.pos, Part::Transition),
                };
                self.push(&mut problems, kind, e.pos);
                bad[order[j]] = true;
                unchecked.insert(e.from);
                j += 1;
            }
            k = j;
        }

        // Row sums.
        let mut all_exact = true;
        for row in rows(&self.entries, &order) {
            let from = self.entries[row[0]].from;
            let good: Vec<&Value> = row
                .iter()
                .filter(|&&i| !bad[i])
                .map(|&i| &self.entries[i].value)
                .collect();
            all_exact &= good.iter().all(|v| matches!(v, Value::Exact(_)));
            if unchecked.contains(&from) {
                continue;
            }
            let decimals = row.iter().all(|&i| self.entries[i].decimal);
            match sum_to_one(&good, decimals) {
                SumCheck::One => {}
                SumCheck::Rounded => all_exact = false,
                SumCheck::TooLarge => {
                    let kind = ProblemKind::ExactSumTooLarge { state: Some(from) };
                    self.push(&mut problems, kind, self.entries[row[0]].pos);
                }
                SumCheck::Off { sum, tolerance } => {
                    let kind = ProblemKind::RowSum {
                        state: from,
                        sum,
                        entries: good.len(),
                        tolerance,
                    };
                    self.push(&mut problems, kind, self.entries[row[0]].pos);
                }
            }
        }

        // Targets, and the states with no row that are not targets.
        let mut targets: Vec<u64> = Vec::new();
        for &(s, pos) in &self.targets {
            match n {
                Some(n) if s >= n => {
                    let kind = out_of_range(Role::Target, s, n);
                    self.push_at(&mut problems, kind, pos, Part::Target);
                }
                _ => targets.push(s),
            }
        }
        if self.absorbing_targets {
            targets.extend(absorbing(&self.entries, &order, &bad));
        }
        targets.sort_unstable();
        targets.dedup();
        if targets.is_empty() {
            problems.push(ProblemKind::NoTarget, self.whole());
        }
        // A row a reader could not read is still a row: it is named as
        // unreadable, and not also as missing.
        let mut with_row: Vec<u64> = self.entries.iter().map(|e| e.from).collect();
        with_row.extend(&self.unchecked_rows);
        with_row.sort_unstable();
        with_row.dedup();
        if let Some(n) = n {
            with_row.retain(|&s| s < n);
            self.deadlocks(&mut problems, n, &with_row, &targets);
        }

        // The initial distribution.
        let initial = self.check_initial(&mut problems, n);

        // Rewards.
        if let (Some(rewards), Some(n)) = (&self.rewards, n) {
            if let Some(given) = self.dense_rewards
                && given as u64 != n
            {
                problems.push(ProblemKind::RewardCount { given, states: n }, self.whole());
            }
            self.check_rewards(&mut problems, rewards, n);
        }

        problems.into_result()?;
        let n = n.expect("a chain without a valid state count has a problem");
        Ok(self.assemble(n, &order, &bad, &with_row, &targets, initial, all_exact))
    }

    /// Checks the state count; `None` when there is none to check against.
    fn check_states(&self, problems: &mut Problems) -> Option<u64> {
        let n = match self.states {
            Some(n) => n,
            None => {
                let named = self.entries.iter().flat_map(|e| [e.from, e.to]);
                let named = named.chain(self.targets.iter().map(|t| t.0));
                named.max().map_or(0, |s| s.saturating_add(1))
            }
        };
        let at = self
            .states_at
            .map_or_else(|| self.whole(), |p| self.location(p, Part::Transition));
        if n == 0 {
            problems.push(ProblemKind::NoStates, at);
            None
        } else if n > MAX_STATES {
            problems.push(ProblemKind::TooManyStates { states: n }, at);
            None
        } else {
            Some(n)
        }
    }

    /// Names the states below `n` that have no row and are not targets,
    /// without a pass over all `n` states: `n` may be far larger than the
    /// input (a header claiming 10^9 states for three lines).
    fn deadlocks(&self, problems: &mut Problems, n: u64, with_row: &[u64], targets: &[u64]) {
        let mut covered: Vec<u64> = with_row.iter().chain(targets).copied().collect();
        covered.sort_unstable();
        covered.dedup();
        let missing = n - covered.len() as u64;
        if missing == 0 {
            return;
        }
        let mut named = 0u64;
        let mut next = 0u64;
        for &c in covered.iter().chain(std::iter::once(&n)) {
            while next < c {
                if problems.is_full() {
                    problems.omit(usize::try_from(missing - named).unwrap_or(usize::MAX));
                    return;
                }
                problems.push(ProblemKind::Deadlock { state: next }, self.whole());
                named += 1;
                next += 1;
            }
            next = c + 1;
        }
    }

    fn check_initial(&self, problems: &mut Problems, n: Option<u64>) -> Vec<(u64, Value)> {
        let Some(items) = &self.initial else {
            problems.push(ProblemKind::NoInitial, self.whole());
            return Vec::new();
        };
        let mut ok = true;
        for it in items {
            if let Some(n) = n
                && it.state >= n
            {
                let kind = out_of_range(Role::Initial, it.state, n);
                self.push_at(problems, kind, it.pos, Part::Initial);
                ok = false;
            }
            if let Some(kind) = value_problem(&it.value) {
                let (state, value) = (it.state, it.value.clone());
                let kind = match kind {
                    ValueProblem::NotFinite => ProblemKind::InitialNotFinite { state, value },
                    ValueProblem::Negative => ProblemKind::NegativeInitial { state, value },
                };
                self.push_at(problems, kind, it.pos, Part::Initial);
                ok = false;
            }
        }
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| (items[i].state, i));
        for w in 1..order.len() {
            let (a, b) = (&items[order[w - 1]], &items[order[w]]);
            if a.state == b.state {
                let first_at = (0..w)
                    .rev()
                    .take_while(|&k| items[order[k]].state == b.state)
                    .last()
                    .map_or(a.pos, |k| items[order[k]].pos);
                let kind = ProblemKind::DuplicateInitial {
                    state: b.state,
                    first: self.location(first_at, Part::Initial),
                };
                self.push_at(problems, kind, b.pos, Part::Initial);
                ok = false;
            }
        }
        if items.is_empty() {
            problems.push(ProblemKind::NoInitial, self.whole());
            ok = false;
        }
        if ok {
            let values: Vec<&Value> = items.iter().map(|it| &it.value).collect();
            match sum_to_one(&values, false) {
                SumCheck::One | SumCheck::Rounded => {}
                SumCheck::TooLarge => {
                    problems.push(ProblemKind::ExactSumTooLarge { state: None }, self.whole());
                }
                SumCheck::Off { sum, tolerance } => {
                    let kind = ProblemKind::InitialSum {
                        sum,
                        entries: values.len(),
                        tolerance,
                    };
                    problems.push(kind, self.whole());
                }
            }
        }
        order
            .into_iter()
            .map(|i| (items[i].state, items[i].value.clone()))
            .collect()
    }

    fn check_rewards(&self, problems: &mut Problems, rewards: &[Item], n: u64) {
        for it in rewards {
            if it.state >= n && self.dense_rewards.is_none() {
                let kind = out_of_range(Role::Reward, it.state, n);
                self.push_at(problems, kind, it.pos, Part::Reward);
            }
            if let Some(kind) = value_problem(&it.value) {
                let (state, value) = (it.state, it.value.clone());
                let kind = match kind {
                    ValueProblem::NotFinite => ProblemKind::RewardNotFinite { state, value },
                    ValueProblem::Negative => ProblemKind::NegativeReward { state, value },
                };
                self.push_at(problems, kind, it.pos, Part::Reward);
            }
        }
        let mut order: Vec<usize> = (0..rewards.len()).collect();
        order.sort_by_key(|&i| (rewards[i].state, i));
        let mut k = 0;
        while k < order.len() {
            let first = &rewards[order[k]];
            let mut j = k + 1;
            while j < order.len() && rewards[order[j]].state == first.state {
                let kind = ProblemKind::DuplicateReward {
                    state: first.state,
                    first: self.location(first.pos, Part::Reward),
                };
                self.push_at(problems, kind, rewards[order[j]].pos, Part::Reward);
                j += 1;
            }
            k = j;
        }
    }

    /// The chain, from input with no problem: `n` is then at most the
    /// number of states with a row or a target, so every allocation here
    /// is bounded by the input's size.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        &self,
        n: u64,
        order: &[usize],
        bad: &[bool],
        with_row: &[u64],
        targets: &[u64],
        initial: Vec<(u64, Value)>,
        all_exact: bool,
    ) -> Chain {
        let n = n as usize;
        let mut offsets = Vec::with_capacity(n + 1);
        let mut cols = Vec::new();
        let mut probs = Vec::new();
        let mut exact = all_exact.then(Vec::new);
        let mut target = vec![false; n];
        for &t in targets {
            target[t as usize] = true;
        }
        let mut good = order
            .iter()
            .map(|&i| &self.entries[i])
            .zip(order.iter().map(|&i| bad[i]))
            .filter(|(e, b)| !b && !is_zero(&e.value))
            .map(|(e, _)| e)
            .peekable();
        let mut has_row = with_row.iter().peekable();
        offsets.push(0);
        for s in 0..n as u64 {
            if has_row.next_if(|&&r| r == s).is_some() {
                while let Some(e) = good.next_if(|e| e.from == s) {
                    cols.push(e.to as u32);
                    probs.push(positive_f64(&e.value));
                    if let (Some(x), Value::Exact(r)) = (exact.as_mut(), &e.value) {
                        x.push(r.clone());
                    }
                }
            } else {
                // A target with no row: absorbing, as PRISM and Storm make a
                // deadlock state.
                cols.push(s as u32);
                probs.push(1.0);
                if let Some(x) = exact.as_mut() {
                    x.push(BigRational::from_integer(1.into()));
                }
            }
            offsets.push(cols.len());
        }

        let initial: Vec<(u64, Value)> = initial.into_iter().filter(|(_, v)| !is_zero(v)).collect();
        let initial_exact = initial
            .iter()
            .map(|(s, v)| match v {
                Value::Exact(r) => Some((*s as u32, r.clone())),
                Value::Float(_) => None,
            })
            .collect::<Option<Vec<_>>>();
        let initial = initial
            .iter()
            .map(|(s, v)| (*s as u32, positive_f64(v)))
            .collect();

        let (rewards, rewards_exact) = match &self.rewards {
            None => (None, None),
            Some(items) => {
                let mut floats = vec![0.0; n];
                let mut exact = items
                    .iter()
                    .all(|it| matches!(it.value, Value::Exact(_)))
                    .then(|| vec![BigRational::zero(); n]);
                for it in items {
                    floats[it.state as usize] = it.value.to_f64();
                    if let (Some(x), Value::Exact(r)) = (exact.as_mut(), &it.value) {
                        x[it.state as usize] = r.clone();
                    }
                }
                (Some(floats), exact)
            }
        };

        Chain {
            offsets,
            cols,
            probs,
            exact,
            initial,
            initial_exact,
            target,
            rewards,
            rewards_exact,
        }
    }

    // Reading support: the readers fill a builder with positions in their
    // files, so that build's problems name lines.

    pub(crate) fn add_file(&mut self, path: Option<&Path>) -> u8 {
        match path {
            None => NO_FILE,
            Some(p) => {
                if let Some(i) = self.files.iter().position(|f| &**f == p) {
                    return i as u8;
                }
                // A builder reads at most four files (.tra, .lab, .srew or
                // a JSON file).
                self.files.push(Arc::from(p));
                (self.files.len() - 1) as u8
            }
        }
    }

    pub(crate) fn set_states(&mut self, states: u64, at: Option<Pos>) {
        self.states = Some(states);
        self.states_at = at;
    }

    pub(crate) fn states(&self) -> Option<u64> {
        self.states
    }

    pub(crate) fn push_transition(
        &mut self,
        from: u64,
        to: u64,
        value: Value,
        decimal: bool,
        pos: Pos,
    ) {
        self.entries.push(Entry {
            from,
            to,
            value,
            decimal,
            pos,
        });
    }

    pub(crate) fn skip_row_sum(&mut self, from: u64) {
        self.unchecked_rows.insert(from);
    }

    pub(crate) fn push_initial(&mut self, state: u64, value: Value, pos: Pos) {
        self.initial
            .get_or_insert_with(Vec::new)
            .push(Item { state, value, pos });
    }

    pub(crate) fn clear_initial(&mut self) {
        self.initial = None;
    }

    pub(crate) fn has_initial(&self) -> bool {
        self.initial.is_some()
    }

    pub(crate) fn push_target(&mut self, state: u64, pos: Pos) {
        self.targets.push((state, pos));
    }

    pub(crate) fn push_reward(&mut self, state: u64, value: Value, pos: Pos) {
        self.rewards
            .get_or_insert_with(Vec::new)
            .push(Item { state, value, pos });
    }

    pub(crate) fn set_rewards_given(&mut self) {
        self.rewards.get_or_insert_with(Vec::new);
    }

    pub(crate) fn problem(&mut self, kind: ProblemKind, pos: Pos) {
        let at = self.location(pos, Part::Transition);
        self.read_problems.push(kind, at);
    }

    pub(crate) fn problem_at(&mut self, kind: ProblemKind, at: Location) {
        self.read_problems.push(kind, at);
    }

    pub(crate) fn take_read_problems(&mut self) -> Problems {
        std::mem::take(&mut self.read_problems)
    }

    pub(crate) fn read_problems_full(&self) -> bool {
        self.read_problems.is_full()
    }

    pub(crate) fn file_path(&self, file: u8) -> Option<Arc<Path>> {
        self.files.get(file as usize).cloned()
    }

    fn whole(&self) -> Location {
        Location::with_file(self.files.first().cloned(), Place::Whole)
    }

    fn location(&self, pos: Pos, part: Part) -> Location {
        match pos {
            Pos::Item(index) => {
                Location::with_file(self.files.first().cloned(), Place::Item { part, index })
            }
            Pos::Line { file, line, column } => {
                Location::with_file(self.file_path(file), Place::Line { line, column })
            }
        }
    }

    fn push(&self, problems: &mut Problems, kind: ProblemKind, pos: Pos) {
        self.push_at(problems, kind, pos, Part::Transition);
    }

    fn push_at(&self, problems: &mut Problems, kind: ProblemKind, pos: Pos, part: Part) {
        problems.push(kind, self.location(pos, part));
    }
}

fn out_of_range(role: Role, state: u64, states: u64) -> ProblemKind {
    ProblemKind::StateOutOfRange {
        role,
        state,
        states,
    }
}

enum ValueProblem {
    NotFinite,
    Negative,
}

fn value_problem(v: &Value) -> Option<ValueProblem> {
    match v {
        Value::Float(x) if !x.is_finite() => Some(ValueProblem::NotFinite),
        // -0.0 is zero, not negative.
        Value::Float(x) if *x < 0.0 => Some(ValueProblem::Negative),
        Value::Exact(r) if r.is_negative() => Some(ValueProblem::Negative),
        _ => None,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Exact(r) => r.is_zero(),
        Value::Float(x) => *x == 0.0,
    }
}

/// The `f64` of a positive value, never zero: an exact probability too
/// small for `f64` (below 5e-324) becomes the smallest positive `f64`
/// rather than zero, so that a stored entry is positive in both forms and
/// the chain's structure is the same whichever form a solver reads.
fn positive_f64(v: &Value) -> f64 {
    let x = v.to_f64();
    if x > 0.0 { x } else { f64::from_bits(1) }
}

/// Indices of the entries in `(from, to)` order, ties in input order.
fn sorted_order(entries: &[Entry]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| (entries[i].from, entries[i].to, i));
    order
}

/// The rows: runs of `order` with one `from`.
fn rows<'a>(entries: &'a [Entry], order: &'a [usize]) -> impl Iterator<Item = &'a [usize]> + 'a {
    order.chunk_by(|&a, &b| entries[a].from == entries[b].from)
}

/// States whose only positive entry (among those not `bad`) is a self-loop
/// of probability one.
fn absorbing(entries: &[Entry], order: &[usize], bad: &[bool]) -> Vec<u64> {
    let mut out = Vec::new();
    for row in rows(entries, order) {
        if row.iter().any(|&i| bad[i]) {
            continue;
        }
        let mut positive = row
            .iter()
            .map(|&i| &entries[i])
            .filter(|e| !is_zero(&e.value));
        if let (Some(e), None) = (positive.next(), positive.next())
            && e.to == e.from
            && (is_one(&e.value)
                || matches!(e.value, Value::Float(x) if (x - 1.0).abs() <= row_sum_tolerance(row.len())))
            && value_problem(&e.value).is_none()
        {
            out.push(e.from);
        }
    }
    out
}

enum SumCheck {
    One,
    /// Decimals that miss one exactly, but not as floats: the chain is read
    /// as floats.
    Rounded,
    Off {
        sum: Value,
        tolerance: Option<f64>,
    },
    TooLarge,
}

/// Whether `values` sum to one: exactly when every one is exact, else
/// within [`row_sum_tolerance`] of their number.
///
/// `decimals`: every value was written as a decimal in a file. Such a row
/// that misses one exactly but is within the float tolerance is
/// [`SumCheck::Rounded`]: it is what a float printer writes for
/// probabilities that do sum to one (PRISM exports 16 significant digits,
/// so a third is `0.3333333333333333`, and three of them miss one by
/// 1e-16), and refusing it would refuse PRISM's own files. Fractions are
/// never taken as rounded: whoever writes `1/3` means it exactly.
fn sum_to_one(values: &[&Value], decimals: bool) -> SumCheck {
    if values.iter().all(|v| matches!(v, Value::Exact(_))) {
        if small_sum_is_one(values) == Some(true) {
            return SumCheck::One;
        }
        let mut sum = BigRational::zero();
        for v in values {
            if let Value::Exact(r) = v {
                sum += r;
                if sum.denom().bits() > MAX_EXACT_BITS {
                    return SumCheck::TooLarge;
                }
            }
        }
        if sum == BigRational::from_integer(1.into()) {
            SumCheck::One
        } else if decimals
            && (compensated_sum(values.iter().map(|v| v.to_f64())) - 1.0).abs()
                <= row_sum_tolerance(values.len())
        {
            SumCheck::Rounded
        } else {
            SumCheck::Off {
                sum: Value::Exact(sum),
                tolerance: None,
            }
        }
    } else {
        let sum = compensated_sum(values.iter().map(|v| v.to_f64()));
        let tolerance = row_sum_tolerance(values.len());
        if (sum - 1.0).abs() <= tolerance {
            SumCheck::One
        } else {
            SumCheck::Off {
                sum: Value::Float(sum),
                tolerance: Some(tolerance),
            }
        }
    }
}

/// Whether exact `values` sum to one, in machine words: `None` when a
/// numerator, denominator or their common denominator does not fit, and
/// the big-integer sum decides. Almost every row of a real model is of
/// small fractions, and the big-integer sum reduces at each addition.
fn small_sum_is_one(values: &[&Value]) -> Option<bool> {
    use num_integer::Integer;
    use num_traits::ToPrimitive;
    let mut common: u64 = 1;
    let mut parts = Vec::with_capacity(values.len());
    for v in values {
        let Value::Exact(r) = v else { return None };
        let (n, d) = (r.numer().to_u64()?, r.denom().to_u64()?);
        common = common.checked_mul(d / common.gcd(&d))?;
        parts.push((n, d));
    }
    let mut total: u128 = 0;
    for (n, d) in parts {
        total = total.checked_add(u128::from(n) * u128::from(common / d))?;
    }
    Some(total == u128::from(common))
}

/// Neumaier's compensated sum: its error is about one rounding of the
/// result, whatever the number of terms and their order, so the row
/// tolerance measures the entries and not the summation.
fn compensated_sum(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut c) = (0.0f64, 0.0f64);
    for x in values {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            c += (sum - t) + x;
        } else {
            c += (x - t) + sum;
        }
        sum = t;
    }
    sum + c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Value {
        s.parse().unwrap()
    }

    #[test]
    fn exact_rows_keep_their_fractions() {
        let chain = ChainBuilder::new(2)
            .row(0, [(0, q("1/3")), (1, q("2/3"))])
            .transition(1, 1, q("1"))
            .initial_state(0)
            .targets([1])
            .build()
            .unwrap();
        let exact = chain.exact.as_ref().unwrap();
        assert_eq!(exact[0], BigRational::new(1.into(), 3.into()));
        assert_eq!(chain.offsets, [0, 2, 3]);
        assert_eq!(chain.initial_exact.as_deref().unwrap()[0].0, 0);
    }

    #[test]
    fn one_float_entry_makes_the_chain_float() {
        let chain = ChainBuilder::new(2)
            .row(0, [(0, q("1/2")), (1, Value::Float(0.5))])
            .transition(1, 1, q("1"))
            .initial_state(0)
            .targets([1])
            .build()
            .unwrap();
        assert!(chain.exact.is_none());
    }

    #[test]
    fn zeros_are_dropped_and_tiny_exact_values_stay_positive() {
        let chain = ChainBuilder::new(2)
            .row(0, [(0, q("0")), (1, q("1"))])
            .row(1, [(0, q("1e-400")), (1, q("1")), (1, q("-1e-400"))])
            .initial_state(0)
            .targets([1])
            .build()
            .unwrap_err();
        // The duplicate (1, 1) is named; the row is not summed again.
        assert_eq!(chain.problems().len(), 2, "{chain}");

        let chain = ChainBuilder::new(2)
            .row(0, [(0, q("0")), (1, q("1"))])
            .row(
                1,
                [
                    (0, q("1e-400")),
                    (
                        1,
                        Value::Exact(
                            BigRational::from_integer(1.into())
                                - BigRational::new(
                                    1.into(),
                                    num_traits::pow(num_bigint::BigInt::from(10), 400),
                                ),
                        ),
                    ),
                ],
            )
            .initial_state(0)
            .targets([1])
            .build()
            .unwrap();
        assert_eq!(chain.row(0).collect::<Vec<_>>(), [(1, 1.0)]);
        assert!(chain.probs.iter().all(|&p| p > 0.0));
    }

    #[test]
    fn compensated_sum_is_exact_where_naive_is_not() {
        let xs = [1.0, 1e-16, 1e-16, -1.0];
        assert_eq!(compensated_sum(xs.into_iter()), 2e-16);
    }

    #[test]
    fn a_huge_state_count_with_few_rows_is_named_without_allocating() {
        let err = ChainBuilder::new(4_000_000_000)
            .transition(0, 0, 1.0)
            .initial_state(0)
            .targets([0])
            .build()
            .unwrap_err();
        assert_eq!(err.problems().len(), crate::MAX_PROBLEMS);
        assert_eq!(err.omitted() as u64, 4_000_000_000 - 1 - 100);
        assert_eq!(
            err.problems()[0].kind(),
            &ProblemKind::Deadlock { state: 1 }
        );
    }
}
