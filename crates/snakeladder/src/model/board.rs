//! The board: squares, jumps and rules, validated once at construction.

use crate::model::chains::ChainIndex;
use crate::model::jump::{Jump, JumpKind};
use crate::model::policy::Thresholds;
use crate::model::rules::{Rules, RulesSpec};
use crate::model::square::Square;
use serde::{Deserialize, Serialize};

/// A board file as written: plain data, not yet validated.
///
/// Unknown fields are errors, so a typo such as `"ladder"` is refused rather
/// than silently ignored. Numbers are read as wide signed integers so that a
/// negative or huge square is reported by validation with its jump named.
///
/// A board file is a JSON object: serde would also read a struct written as
/// an array of its fields in order (`["name", 30, null, ...]`), which is
/// refused here.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
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
    /// Thresholds this layout must meet, tightening any policy it is
    /// checked under (`snakeladder validate`; see [`crate::policy`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Thresholds>,
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
    /// Where each jump's chain ends, resolved once (docs/chains.md).
    chains: ChainIndex,
    rules: Rules,
}

const NO_JUMP: u32 = u32::MAX;

impl Board {
    /// Puts together a board whose parts validation has checked; only
    /// validation calls it, so a `Board` that exists is valid.
    pub(super) fn assemble(
        name: Option<String>,
        last: Square,
        width: u32,
        mut jumps: Vec<Jump>,
        rules: Rules,
    ) -> Board {
        jumps.sort_by_key(|j| j.from());
        let mut jump_at = vec![NO_JUMP; last.index() + 1];
        for (i, j) in jumps.iter().enumerate() {
            jump_at[j.from().index()] = i as u32;
        }
        let chains = ChainIndex::new(&jumps, &jump_at, rules.chains());
        Board {
            name,
            last,
            width,
            jumps,
            jump_at,
            chains,
            rules,
        }
    }

    /// Every jump's chain, resolved once: its end, the jump after it, and
    /// whether it passes through another jump.
    pub(crate) fn chain_index(&self) -> &ChainIndex {
        &self.chains
    }

    /// The jumps a move takes when its first jump is `first`, in order (the
    /// jump alone under `chains: forbid`): the index of each in
    /// [`Board::jumps`].
    pub(crate) fn chain_from(&self, first: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(first), |&j| self.chains.next(j))
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
            .filter(|j| j.kind() == JumpKind::Ladder)
    }

    /// The snakes, sorted by start square.
    pub fn snakes(&self) -> impl Iterator<Item = Jump> + '_ {
        self.jumps
            .iter()
            .copied()
            .filter(|j| j.kind() == JumpKind::Snake)
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

    /// The board written back as a spec, every rule default filled in. A
    /// board keeps no policy limits, so `limits` is `None`.
    #[doc(hidden)]
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
            ladders: pairs(JumpKind::Ladder),
            snakes: pairs(JumpKind::Snake),
            rules: Some(self.rules.spec()),
            limits: None,
        }
    }
}

/// sqrt(N) when N is a perfect square, else 10 (capped at N).
pub(super) fn default_width(last: u32) -> u32 {
    let root = f64::from(last).sqrt().round() as u32;
    if root * root == last {
        root
    } else {
        10.min(last)
    }
}

// `remote = "Self"` turns the derives into inherent functions, so that the
// trait impls below can insist on an object before using them.
impl Serialize for BoardSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BoardSpec::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for BoardSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<BoardSpec, D::Error> {
        struct ObjectOnly;
        impl<'de> serde::de::Visitor<'de> for ObjectOnly {
            type Value = BoardSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("struct BoardSpec")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<BoardSpec, A::Error> {
                BoardSpec::deserialize(serde::de::value::MapAccessDeserializer::new(
                    WithoutSchemaKey(map),
                ))
            }
        }
        deserializer.deserialize_map(ObjectOnly)
    }
}

/// The key an editor reads a file's JSON Schema from; a board file may
/// carry it (`snakeladder schema board` writes the schema it can name), and
/// the reader skips it.
pub(crate) const SCHEMA_KEY: &str = "$schema";

impl BoardSpec {
    /// The key an editor reads a file's JSON Schema from (`"$schema"`); a
    /// board file may carry it, and the reader skips it.
    pub const SCHEMA_KEY: &'static str = SCHEMA_KEY;
}

/// A board file's entries less its `"$schema"`, whose value is skipped
/// whatever it is.
struct WithoutSchemaKey<A>(A);

impl<'de, A: serde::de::MapAccess<'de>> serde::de::MapAccess<'de> for WithoutSchemaKey<A> {
    type Error = A::Error;

    fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        use serde::de::IntoDeserializer;
        loop {
            let Some(key) = self.0.next_key::<String>()? else {
                return Ok(None);
            };
            if key == SCHEMA_KEY {
                self.0.next_value::<serde::de::IgnoredAny>()?;
                continue;
            }
            return seed.deserialize(key.into_deserializer()).map(Some);
        }
    }

    fn next_value_seed<V: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}
