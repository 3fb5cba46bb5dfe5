//! The board: squares, jumps and rules, validated once at construction.

use crate::error::BoardError;
use crate::rules::{Chains, Rules, RulesSpec};
use crate::validation::{self, JumpList, JumpRef, Problem, Squares};
use crate::{Jump, Square};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The largest board accepted: squares 1..=10,000,000.
pub const MAX_SQUARES: u32 = 10_000_000;

/// Board files larger than this are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The built-in default board: Milton Bradley's Chutes and Ladders with the
/// chute 48→26, the transcription most published analyses use.
pub const DEFAULT_BOARD_JSON: &str = include_str!("../boards/milton-bradley.json");

/// A board file as written: plain data, not yet validated.
///
/// Unknown fields are errors, so a typo such as `"ladder"` is refused rather
/// than silently ignored. Numbers are read as wide signed integers so that a
/// negative or huge square is reported by validation with its jump named.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// A name to show in reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The last square N; squares are 1..=N.
    pub squares: i64,
    /// Columns of the drawn serpentine grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
    /// `[foot, top]` pairs, each going up.
    #[serde(default)]
    pub ladders: Vec<[i64; 2]>,
    /// `[head, tail]` pairs, each going down.
    #[serde(default)]
    pub snakes: Vec<[i64; 2]>,
    /// The rule set; every field has a default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesSpec>,
}

/// A validated board: its last square, its jumps and its rules.
///
/// A `Board` that exists is valid: every jump is on the board and goes the
/// way its list says, no two start on one square, chains are as the rules
/// allow, the dice can roll, and the last square can be reached from every
/// square a token can reach. Nothing can change it after construction.
///
/// # Example
/// ```
/// use snakeladder::{Board, Square};
/// let board = Board::from_json_str(r#"{
///     "squares": 10,
///     "ladders": [[2, 7]],
///     "snakes": [[9, 3]]
/// }"#)?;
/// assert_eq!(board.last(), Square::new(10));
/// assert_eq!(board.jumps().len(), 2);
/// let mv = board.move_token(Square::OFF_BOARD, 2);
/// assert_eq!(mv.end, Square::new(7));
/// # Ok::<(), snakeladder::BoardError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    name: Option<String>,
    last: Square,
    width: u32,
    /// Sorted by start square.
    jumps: Vec<Jump>,
    /// For each square 0..=N, the index into `jumps` of the jump starting
    /// there, or `NO_JUMP`.
    jump_at: Vec<u32>,
    rules: Rules,
}

const NO_JUMP: u32 = u32::MAX;

impl Board {
    /// Validates a spec into a board.
    ///
    /// # Errors
    /// [`BoardError::Invalid`] listing every problem found (see [`Problem`]).
    pub fn from_spec(spec: &BoardSpec) -> Result<Board, BoardError> {
        Self::validate_spec(spec).map_err(|problems| BoardError::Invalid {
            path: None,
            problems,
        })
    }

    /// Parses and validates a board from JSON text.
    ///
    /// # Errors
    /// [`BoardError::Json`] for malformed JSON (with line and column) or
    /// [`BoardError::Invalid`] for a board that breaks the rules.
    pub fn from_json_str(json: &str) -> Result<Board, BoardError> {
        let spec = crate::error::parse_spec(json.as_bytes())?;
        Self::from_spec(&spec)
    }

    /// Parses and validates a board from JSON bytes (which must be UTF-8).
    ///
    /// # Errors
    /// As [`Board::from_json_str`].
    pub fn from_json_slice(json: &[u8]) -> Result<Board, BoardError> {
        let spec = crate::error::parse_spec(json)?;
        Self::from_spec(&spec)
    }

    /// Reads, parses and validates a board file. Errors name the file.
    ///
    /// # Errors
    /// [`BoardError::Io`] when the file cannot be read (or is a directory),
    /// [`BoardError::TooLarge`] past [`MAX_FILE_BYTES`], and the errors of
    /// [`Board::from_json_str`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Board, BoardError> {
        let path = path.as_ref();
        let bytes = crate::error::read_limited(path)?;
        Self::from_json_slice(&bytes).map_err(|e| e.with_path(path))
    }

    /// The built-in default board ([`DEFAULT_BOARD_JSON`]).
    pub fn builtin_default() -> Board {
        Board::from_json_str(DEFAULT_BOARD_JSON).expect("the built-in board is valid")
    }

    /// Every problem of a spec; empty when it makes a valid board.
    pub fn problems(spec: &BoardSpec) -> Vec<Problem> {
        Self::validate_spec(spec).err().unwrap_or_default()
    }

    fn validate_spec(spec: &BoardSpec) -> Result<Board, Vec<Problem>> {
        let mut problems = Vec::new();
        if let Some(c) = spec
            .name
            .as_deref()
            .and_then(crate::validation::hidden_character)
        {
            problems.push(Problem::NameCharacter {
                field: "name".to_string(),
                code_point: u32::from(c),
            });
        }
        let last = match u32::try_from(spec.squares) {
            Ok(n) if (2..=MAX_SQUARES).contains(&n) => Some(n),
            _ => {
                problems.push(Problem::SquaresOutOfRange {
                    squares: spec.squares,
                });
                None
            }
        };
        let rules = Rules::from_spec(&spec.rules.clone().unwrap_or_default(), &mut problems);
        let Some(last) = last else {
            return Err(problems);
        };
        let width = match spec.width {
            None => default_width(last),
            Some(w) if (1..=i64::from(last)).contains(&w) => w as u32,
            Some(w) => {
                problems.push(Problem::WidthOutOfRange { width: w });
                1
            }
        };
        // Each jump starts on its own square of 1..N-1, so more jumps than
        // that cannot all be placed; refuse them at once rather than name
        // millions of duplicates one by one.
        let jumps = spec.ladders.len() as u64 + spec.snakes.len() as u64;
        if jumps > u64::from(last - 1) {
            problems.push(Problem::TooManyJumps {
                jumps,
                squares: last,
            });
            return Err(problems);
        }
        let start = rules.as_ref().map_or(0, |r| r.start().get());
        let chains = rules.as_ref().map(Rules::chains);

        // Each jump on its own.
        let mut placed: Vec<(JumpRef, Jump)> = Vec::new();
        let written = spec
            .ladders
            .iter()
            .enumerate()
            .map(|(i, j)| (JumpList::Ladders, i, j))
            .chain(
                spec.snakes
                    .iter()
                    .enumerate()
                    .map(|(i, j)| (JumpList::Snakes, i, j)),
            );
        for (list, index, &[from, to]) in written {
            let jump = JumpRef {
                list,
                index,
                from,
                to,
            };
            let before = problems.len();
            let on_board = |s: i64| (1..=i64::from(last)).contains(&s);
            if from == i64::from(start) {
                problems.push(Problem::JumpStartsOnStart { jump, start });
            } else if from == i64::from(last) {
                problems.push(Problem::JumpStartsOnLast { jump, last });
            } else if !on_board(from) {
                problems.push(Problem::JumpStartOffBoard { jump, from, last });
            }
            if !on_board(to) {
                problems.push(Problem::JumpEndOffBoard { jump, to, last });
            }
            if from == to {
                problems.push(Problem::JumpGoesNowhere { jump });
            } else if list == JumpList::Snakes && to > from {
                problems.push(Problem::SnakeClimbs { jump });
            } else if list == JumpList::Ladders && to < from {
                problems.push(Problem::LadderDescends { jump });
            }
            if problems.len() == before {
                placed.push((
                    jump,
                    Jump::new(Square::new(from as u32), Square::new(to as u32)),
                ));
            }
        }

        // Jumps against each other. What is found must not depend on the order
        // the jumps are written in, so when two jumps start on one square both
        // are checked for chains, and cycles are sought among the others.
        let mut starts: HashMap<Square, Vec<usize>> = HashMap::with_capacity(placed.len());
        for (i, (_, j)) in placed.iter().enumerate() {
            starts.entry(j.from()).or_default().push(i);
        }
        for (i, (jump, j)) in placed.iter().enumerate() {
            let first = starts[&j.from()][0];
            if first != i {
                problems.push(Problem::DuplicateStart {
                    square: j.from().get(),
                    first: placed[first].0,
                    second: *jump,
                });
            }
        }
        match chains {
            Some(Chains::Forbid) => {
                for (jump, j) in &placed {
                    for &next in starts.get(&j.to()).map_or(&[][..], Vec::as_slice) {
                        problems.push(Problem::Chain {
                            jump: *jump,
                            square: j.to().get(),
                            next: placed[next].0,
                        });
                    }
                }
            }
            Some(Chains::Follow) => {
                let single: Vec<(JumpRef, Jump)> = placed
                    .iter()
                    .filter(|(_, j)| starts[&j.from()].len() == 1)
                    .copied()
                    .collect();
                problems.extend(cycles(&single));
            }
            None => {}
        }

        let Some(rules) = rules else {
            return Err(problems);
        };
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut jumps: Vec<Jump> = placed.into_iter().map(|(_, j)| j).collect();
        jumps.sort_by_key(|j| j.from());
        let mut jump_at = vec![NO_JUMP; last as usize + 1];
        for (i, j) in jumps.iter().enumerate() {
            jump_at[j.from().index()] = i as u32;
        }
        let board = Board {
            name: spec.name.clone(),
            last: Square::new(last),
            width,
            jumps,
            jump_at,
            rules,
        };
        match validation::trapped_squares(&board) {
            Ok(trapped) if trapped.is_empty() => Ok(board),
            Ok(trapped) => Err(vec![Problem::Unwinnable {
                squares: Squares(trapped),
            }]),
            Err(problem) => Err(vec![problem]),
        }
    }

    /// The board's name, if the file gave one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The last square N, the finish.
    pub fn last(&self) -> Square {
        self.last
    }

    /// Columns of the drawn serpentine grid.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Every jump, sorted by start square.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The ladders, sorted by start square.
    pub fn ladders(&self) -> impl Iterator<Item = Jump> + '_ {
        self.jumps
            .iter()
            .copied()
            .filter(|j| j.kind() == crate::JumpKind::Ladder)
    }

    /// The snakes, sorted by start square.
    pub fn snakes(&self) -> impl Iterator<Item = Jump> + '_ {
        self.jumps
            .iter()
            .copied()
            .filter(|j| j.kind() == crate::JumpKind::Snake)
    }

    /// The jump starting on `square`, if any.
    pub fn jump_from(&self, square: Square) -> Option<Jump> {
        self.jump_index(square).map(|i| self.jumps[i])
    }

    /// The position in [`Board::jumps`] of the jump starting on `square`.
    pub fn jump_index(&self, square: Square) -> Option<usize> {
        match self.jump_at.get(square.index()) {
            Some(&i) if i != NO_JUMP => Some(i as usize),
            _ => None,
        }
    }

    /// Whether a token can end a move on `square`: every square of the track
    /// that is not a jump start (the start square and the finish included).
    pub fn is_rest_square(&self, square: Square) -> bool {
        square <= self.last && self.jump_index(square).is_none()
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board written back as a spec, every rule default filled in.
    pub fn spec(&self) -> BoardSpec {
        let pairs = |kind| {
            self.jumps
                .iter()
                .filter(|j| j.kind() == kind)
                .map(|j| [i64::from(j.from().get()), i64::from(j.to().get())])
                .collect()
        };
        BoardSpec {
            name: self.name.clone(),
            squares: i64::from(self.last.get()),
            width: Some(i64::from(self.width)),
            ladders: pairs(crate::JumpKind::Ladder),
            snakes: pairs(crate::JumpKind::Snake),
            rules: Some(self.rules.spec()),
        }
    }
}

/// sqrt(N) when N is a perfect square, else 10 (capped at N).
fn default_width(last: u32) -> u32 {
    let root = f64::from(last).sqrt().round() as u32;
    if root * root == last {
        root
    } else {
        10.min(last)
    }
}

/// Cycles among jumps that chain (a jump ending where another starts), each
/// reported once, starting from its smallest square.
fn cycles(placed: &[(JumpRef, Jump)]) -> Vec<Problem> {
    let next: HashMap<Square, Square> = placed.iter().map(|(_, j)| (j.from(), j.to())).collect();
    let mut state: HashMap<Square, u8> = HashMap::new(); // 1: on the path, 2: done
    let mut found = Vec::new();
    let mut starts: Vec<Square> = next.keys().copied().collect();
    starts.sort();
    for start in starts {
        let mut path = Vec::new();
        let mut at = start;
        loop {
            match state.get(&at) {
                Some(1) => {
                    let pos = path.iter().position(|s| *s == at).unwrap_or(0);
                    let mut cycle: Vec<Square> = path[pos..].to_vec();
                    let min = cycle
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, s)| **s)
                        .map_or(0, |(i, _)| i);
                    cycle.rotate_left(min);
                    found.push(Problem::ChainCycle {
                        squares: Squares(cycle.into_iter().map(Square::get).collect()),
                    });
                    break;
                }
                Some(_) => break,
                None => {}
            }
            let Some(&to) = next.get(&at) else { break };
            state.insert(at, 1);
            path.push(at);
            at = to;
        }
        for s in path {
            state.insert(s, 2);
        }
    }
    found
}
