//! Seeded random boards, for benchmarks and for trying big grids without
//! checking huge files in.

use super::DesignError;
use crate::model::limits::MAX_SQUARES;
use crate::model::rules::RulesSpec;
use crate::model::seed::Seed;
use crate::{Board, BoardSpec};
use rand::Rng;

/// What board to generate.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::design::Layout;
/// let board = Layout::new(10_000, 200, 200, Seed::new(7)).generate()?;
/// assert_eq!(board.last().get(), 10_000);
/// assert_eq!(board.snakes().count(), 200);
/// // The same seed gives the same board.
/// assert_eq!(Layout::new(10_000, 200, 200, Seed::new(7)).generate()?, board);
/// # Ok::<(), snakeladder::design::DesignError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The last square N.
    pub(crate) squares: u32,
    /// Number of snakes.
    pub(crate) snakes: u32,
    /// Number of ladders.
    pub(crate) ladders: u32,
    /// Longest jump, in squares (default: a quarter of the board, about the
    /// average of the classic 100-square board's longest jumps; the whole
    /// board when the jumps fill more than half the squares they may start
    /// on).
    pub(crate) max_length: Option<u32>,
    /// The seed of the generator.
    pub(crate) seed: Seed,
    /// The rules, every field defaulted when `None`.
    pub(crate) rules: Option<RulesSpec>,
    /// A name for the board.
    pub(crate) name: Option<String>,
}

impl Layout {
    /// `squares` squares, that many snakes and ladders, default length and
    /// rules.
    pub fn new(squares: u32, snakes: u32, ladders: u32, seed: Seed) -> Layout {
        Layout {
            squares,
            snakes,
            ladders,
            max_length: None,
            seed,
            rules: None,
            name: None,
        }
    }

    /// The same layout with jumps of at most `squares` squares (instead of
    /// a quarter of the board).
    pub fn with_max_length(self, squares: u32) -> Layout {
        Layout {
            max_length: Some(squares),
            ..self
        }
    }

    /// The same layout under `rules` (instead of the default rules).
    #[doc(hidden)]
    pub fn with_rules(self, rules: RulesSpec) -> Layout {
        Layout {
            rules: Some(rules),
            ..self
        }
    }

    /// The same layout under the rules of a validated rule set (instead of
    /// the default rules).
    ///
    /// # Example
    /// ```
    /// use snakeladder::design::Layout;
    /// use snakeladder::{Board, Overshoot, Seed};
    ///
    /// let bounce = Board::from_json_str(r#"{"squares": 10, "rules": {"overshoot": "bounce"}}"#)?;
    /// let layout = Layout::new(60, 4, 4, Seed::new(1)).with_board_rules(bounce.rules());
    /// assert_eq!(layout.generate()?.rules().overshoot(), Overshoot::Bounce);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_board_rules(self, rules: &crate::Rules) -> Layout {
        self.with_rules(rules.spec())
    }

    /// The same layout with the board named `name`.
    pub fn with_name(self, name: impl Into<String>) -> Layout {
        Layout {
            name: Some(name.into()),
            ..self
        }
    }

    /// The last square N.
    pub fn squares(&self) -> u32 {
        self.squares
    }

    /// Number of snakes.
    pub fn snakes(&self) -> u32 {
        self.snakes
    }

    /// Number of ladders.
    pub fn ladders(&self) -> u32 {
        self.ladders
    }

    /// The seed of the generator.
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// Generates a valid board (docs/generate.md):
    ///
    /// 1. the start squares of all jumps, a uniform random set of distinct
    ///    squares of 1..N−1 (never the start square);
    /// 2. which of them are snakes, uniform among the assignments that leave
    ///    every snake a free square below and every ladder one above within
    ///    the maximum length (a free square: one no jump starts on; N is
    ///    always free);
    /// 3. each end, uniform among the free squares within the maximum length
    ///    in the jump's direction.
    ///
    /// Ends are spread like the starts: no end square collects the jumps that
    /// would overshoot the board, as clamping lengths to the board did. No jump
    /// ends where another starts, so the board is valid under `chains: forbid`.
    ///
    /// # Errors
    /// [`DesignError`] for a size out of range, too many jumps, no layout
    /// found, or a layout the rules refuse (then try another seed).
    ///
    /// # Example
    /// ```
    /// use snakeladder::Seed;
    /// use snakeladder::design::Layout;
    ///
    /// let board = Layout::new(100, 8, 6, Seed::new(7)).with_name("seven").generate()?;
    /// assert_eq!((board.snakes().count(), board.ladders().count()), (8, 6));
    /// assert_eq!(board.name(), Some("seven"));
    /// // The same seed, the same board.
    /// assert_eq!(Layout::new(100, 8, 6, Seed::new(7)).with_name("seven").generate()?, board);
    /// # Ok::<(), snakeladder::design::DesignError>(())
    /// ```
    pub fn generate(&self) -> Result<Board, DesignError> {
        Ok(Board::from_spec(&generate_spec(self)?)?)
    }
}

/// The longest jump when none is given: a quarter of the board, or the whole
/// board when the jumps take more than half the squares they may start on
/// (a packed board, on which short jumps often find no free end).
fn default_max_length(n: u32, jumps: u64, candidates: &[u32]) -> u32 {
    if 2 * jumps > candidates.len() as u64 {
        n
    } else {
        (n / 4).max(1)
    }
}

/// Draws of start squares [`generate_spec`] tries before giving up: on a
/// board with room to spare the first draw serves; only layouts packed to
/// within a few squares of full, with a short maximum length, need more.
const MAX_ATTEMPTS: u32 = 100;

/// The spec [`Layout::generate`] validates, for writing to a file.
///
/// # Errors
/// As [`Layout::generate`], except that the spec is not validated.
pub fn generate_spec(layout: &Layout) -> Result<BoardSpec, DesignError> {
    let n = layout.squares;
    if !(2..=MAX_SQUARES).contains(&n) {
        return Err(DesignError::Squares { squares: n });
    }
    let start = match layout.rules.as_ref().and_then(|r| r.start) {
        Some(1) => 1,
        _ => 0,
    };
    // Squares 1..N−1 less the start square.
    let candidates: Vec<u32> = (1..n).filter(|&s| s != start).collect();
    let jumps = u64::from(layout.snakes) + u64::from(layout.ladders);
    // A snake needs a free square below it: the lowest candidate at least.
    let with_snakes = layout.snakes > 0;
    // With start 0 that is square 1, which then starts no jump; with start
    // 1 the start square itself is free below every candidate.
    let room = candidates.len() as u64 - u64::from(with_snakes && start == 0);
    if jumps > room {
        return Err(DesignError::TooManyJumps {
            jumps,
            squares: n,
            room,
            with_snakes,
        });
    }
    let max_length = layout
        .max_length
        .unwrap_or(default_max_length(n, jumps, &candidates));
    if max_length == 0 {
        return Err(DesignError::MaxLength);
    }
    let mut rng = layout.seed.generator();
    let k = jumps as usize;
    let mut is_start = vec![false; n as usize + 1];
    for attempt in 1..=MAX_ATTEMPTS {
        let mut starts: Vec<u32> = rand::seq::index::sample(&mut rng, candidates.len(), k)
            .into_iter()
            .map(|i| candidates[i])
            .collect();
        starts.sort_unstable();
        for &f in &starts {
            is_start[f as usize] = true;
        }
        let placed = place(&starts, &is_start, layout, max_length, &mut rng);
        for &f in &starts {
            is_start[f as usize] = false;
        }
        if let Some((mut ladders, mut snakes)) = placed {
            ladders.sort_unstable();
            snakes.sort_unstable();
            return Ok(BoardSpec {
                name: layout.name.clone(),
                squares: i64::from(n),
                width: None,
                ladders,
                snakes,
                rules: layout.rules.clone(),
                limits: None,
            });
        }
        if attempt == MAX_ATTEMPTS {
            break;
        }
    }
    Err(DesignError::NoLayout {
        jumps,
        squares: n,
        max_length,
        attempts: MAX_ATTEMPTS,
    })
}

/// Steps 2 and 3 of [`Layout::generate`] for one draw of `starts` (sorted, marked in
/// `is_start`): the ladders and snakes, or `None` when the draw leaves some
/// jump without an end.
#[allow(clippy::type_complexity)]
fn place(
    starts: &[u32],
    is_start: &[bool],
    layout: &Layout,
    max_length: u32,
    rng: &mut impl Rng,
) -> Option<(Vec<[i64; 2]>, Vec<[i64; 2]>)> {
    let n = layout.squares;
    // free[x]: free squares among 1..=x, so that the free squares of any
    // range are counted, and the r-th of them found, without a scan.
    let mut free = vec![0u32; n as usize + 1];
    for x in 1..=n as usize {
        free[x] = free[x - 1] + u32::from(!is_start[x]);
    }
    // The squares a snake (ladder) from f may end on: lo..=hi.
    let below = |f: u32| (f.saturating_sub(max_length).max(1), f - 1);
    let above = |f: u32| (f + 1, f.saturating_add(max_length).min(n));
    let count = |(lo, hi): (u32, u32)| {
        if lo > hi {
            0
        } else {
            free[hi as usize] - free[lo as usize - 1]
        }
    };
    let can_snake: Vec<bool> = starts.iter().map(|&f| count(below(f)) > 0).collect();
    let can_ladder: Vec<bool> = starts.iter().map(|&f| count(above(f)) > 0).collect();
    let only = |snake: bool| -> Vec<usize> {
        (0..starts.len())
            .filter(|&i| can_snake[i] == snake && can_ladder[i] != snake)
            .collect()
    };
    let (only_snake, only_ladder) = (only(true), only(false));
    if (0..starts.len()).any(|i| !can_snake[i] && !can_ladder[i])
        || only_snake.len() > layout.snakes as usize
        || only_ladder.len() > layout.ladders as usize
    {
        return None;
    }
    let both: Vec<usize> = (0..starts.len())
        .filter(|&i| can_snake[i] && can_ladder[i])
        .collect();
    let mut snake = vec![false; starts.len()];
    for &i in &only_snake {
        snake[i] = true;
    }
    let more = layout.snakes as usize - only_snake.len();
    for i in rand::seq::index::sample(rng, both.len(), more) {
        snake[both[i]] = true;
    }
    let mut ladders = Vec::with_capacity(layout.ladders as usize);
    let mut snakes = Vec::with_capacity(layout.snakes as usize);
    for (i, &f) in starts.iter().enumerate() {
        let (lo, hi) = if snake[i] { below(f) } else { above(f) };
        // The r-th free square of lo..=hi, r uniform: the smallest t with
        // free[t] − free[lo − 1] > r.
        let r = rng.random_range(0..count((lo, hi)));
        let base = free[lo as usize - 1];
        let t = lo + free[lo as usize..=hi as usize].partition_point(|&c| c - base <= r) as u32;
        let pair = [i64::from(f), i64::from(t)];
        if snake[i] { &mut snakes } else { &mut ladders }.push(pair);
    }
    Some((ladders, snakes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_boards_are_valid_and_seeded() {
        for seed in 0..20 {
            let layout = Layout {
                max_length: Some(30),
                ..Layout::new(200, 20, 20, Seed::new(seed))
            };
            let board = layout.generate().unwrap();
            assert_eq!(board.jumps().len(), 40);
            assert!(board.jumps().iter().all(|j| j.length().abs() <= 30));
            assert_eq!(layout.generate().unwrap(), board);
        }
        let a = Layout::new(1000, 10, 10, Seed::new(1)).generate().unwrap();
        let b = Layout::new(1000, 10, 10, Seed::new(2)).generate().unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn refuses_what_does_not_fit() {
        assert!(matches!(
            Layout::new(30, 1, 28, Seed::new(0)).generate(),
            Err(DesignError::TooManyJumps { room: 28, .. })
        ));
        assert!(matches!(
            Layout::new(1, 0, 0, Seed::new(0)).generate(),
            Err(DesignError::Squares { squares: 1 })
        ));
        // Short jumps on a packed board: some draw must fail every time.
        let packed = Layout {
            max_length: Some(1),
            ..Layout::new(30, 0, 29, Seed::new(0))
        };
        assert!(matches!(
            packed.generate(),
            Err(DesignError::NoLayout {
                attempts: MAX_ATTEMPTS,
                ..
            })
        ));
    }

    /// What validation accepts, generate makes: N − 1 jumps (every one a
    /// ladder to N), 2 squares, and 3 jumps on 10 squares.
    #[test]
    fn generates_every_size_validation_accepts() {
        let full = Layout::new(30, 0, 29, Seed::new(3)).generate().unwrap();
        assert_eq!(full.jumps().len(), 29);
        assert!(full.jumps().iter().all(|j| j.to() == full.last()));
        let two = Layout::new(2, 0, 1, Seed::new(3)).generate().unwrap();
        assert_eq!(two.jumps().len(), 1);
        for seed in 0..20 {
            let b = Layout::new(10, 1, 2, Seed::new(seed)).generate();
            // A layout the rules refuse (a trap) is an honest error.
            if let Ok(b) = b {
                assert_eq!((b.snakes().count(), b.ladders().count()), (1, 2));
            }
        }
        // With start 1 the start square is free below every snake.
        let layout = Layout {
            rules: Some(serde_json::from_str(r#"{"start": 1}"#).unwrap()),
            ..Layout::new(30, 1, 27, Seed::new(5))
        };
        let spec = generate_spec(&layout).unwrap();
        assert_eq!(spec.snakes.len() + spec.ladders.len(), 28);
    }

    /// Ends spread like starts: the share of ladders ending on the last
    /// square (and of snakes ending on square 1) over 50 seeds of 10 + 10
    /// jumps on 100 squares. With starts uniform on 1..99 and ends uniform
    /// within 25 squares and the board, that share is Σ_{d=1..25} (1/d)/99
    /// ≈ 3.8% (standard error 0.9% over 500 jumps); clamping lengths to
    /// the board, as before, gave 13%. The bound, 8%, is 4.5 standard
    /// errors above the expected share and 5 below the old one.
    #[test]
    fn ends_do_not_pile_up_on_the_edges() {
        let (mut at_top, mut at_bottom) = (0, 0);
        for seed in 0..50 {
            let b = Layout::new(100, 10, 10, Seed::new(seed))
                .generate()
                .unwrap();
            at_top += b.ladders().filter(|j| j.to() == b.last()).count();
            at_bottom += b.snakes().filter(|j| j.to().get() == 1).count();
        }
        assert!(
            at_top < 40,
            "{at_top} of 500 ladders end on the last square"
        );
        assert!(at_bottom < 40, "{at_bottom} of 500 snakes end on square 1");
    }
}
