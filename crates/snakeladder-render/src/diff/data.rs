//! What a layout change does to the game: two analyses compared, for a
//! reviewer of the change (`snakeladder diff OLD NEW`).
//!
//! [`Diff::new`] takes the exact analyses of the old and the new board and
//! lists the headline figures side by side with their change, the jumps
//! added, removed and moved (with their use before and after), the squares
//! whose probability of being rested on changed most, and the rule changes.
//! [`RenderDiff`](super::RenderDiff) shows it as text, Markdown or HTML;
//! it serialises as `diff --format json`.

use crate::vocabulary::{FIRST_SEAT_ADVANTAGE, MEAN_TURNS, MEDIAN, P90, P99, ROUNDS, SHORTEST};
use serde::Serialize;
use snakeladder::{Analysis, Board, JumpKind};
use std::collections::BTreeMap;

/// How many squares [`Diff::squares`] lists.
pub(crate) const SQUARES_SHOWN: usize = 10;

/// A rest-probability change smaller than this is no change: the figures
/// are exact up to `f64` rounding of sums of ~N terms, far below it.
pub(crate) const SQUARE_CHANGE_EPSILON: f64 = 1e-9;

/// One board of a comparison.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Side {
    /// Where it was read from (a path, `-`, `REV:path`).
    pub source: String,
    /// Its name, if the file gives one.
    pub name: Option<String>,
    /// Its fingerprint.
    pub fingerprint: String,
}

/// A headline figure before and after.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FigureChange {
    /// A stable name (`mean`, `seat1_advantage_2`); the `--fail-if`
    /// expressions use it.
    pub name: String,
    /// What it is, for people.
    pub label: String,
    /// Its value on the old board (`None` when not computed).
    pub old: Option<f64>,
    /// Its value on the new board.
    pub new: Option<f64>,
    /// A bound on how far `new − old` may be from the exact change: the
    /// two figures' own error bounds added (the mean's, docs/figures.md
    /// §2b). Given only where it reaches half a unit of the last digit the
    /// change is printed with (four decimals, or four of the mantissa from
    /// 1e12 up): a change printed below its own error is noise (issue 27).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_error: Option<f64>,
}

impl FigureChange {
    /// `new − old`.
    pub fn change(&self) -> Option<f64> {
        Some(self.new? - self.old?)
    }

    /// `(new − old) / |old|`, `None` when old is 0.
    pub fn relative_change(&self) -> Option<f64> {
        let (old, new) = (self.old?, self.new?);
        (old != 0.0).then(|| (new - old) / old.abs())
    }
}

/// How a jump changed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// The schema keeps the name it was published under.
#[cfg_attr(feature = "schema", schemars(rename = "JumpChange"))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JumpDiffKind {
    /// Only on the new board.
    Added,
    /// Only on the old board.
    Removed,
    /// One end moved: the same kind from the same square or to the same
    /// square.
    Moved,
}

/// A jump as one board has it, with its use.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct JumpSide {
    /// Start square.
    pub from: u32,
    /// End square.
    pub to: u32,
    /// Probability that one player's game uses it at least once (`None`
    /// when per-jump figures were skipped).
    pub use_probability: Option<f64>,
}

/// A changed jump.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JumpDiff {
    /// Added, removed or moved.
    pub change: JumpDiffKind,
    /// Snake or ladder.
    pub kind: JumpKind,
    /// On the old board.
    pub old: Option<JumpSide>,
    /// On the new board.
    pub new: Option<JumpSide>,
}

/// A square whose probability of ever being rested on changed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SquareDiff {
    /// The square.
    pub square: u32,
    /// Before (0 where a token cannot rest, e.g. a jump's start).
    pub old: f64,
    /// After.
    pub new: f64,
}

/// A rule that differs.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct RuleDiff {
    /// The field (`squares`, `dice`, `overshoot`...).
    pub field: String,
    /// Before, as JSON.
    pub old: String,
    /// After, as JSON.
    pub new: String,
    /// Before, in the words of the rules' one-line description
    /// ([`snakeladder::Rules::in_words`]): what the text, Markdown and HTML
    /// show. Not in the JSON, whose `old` and `new` say it for a program.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub old_words: String,
    /// After, in words.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub new_words: String,
}

impl RuleDiff {
    /// The rule's name for a person: `overshoot`, `extra turn`, `squares`.
    pub fn label(&self) -> String {
        self.field.trim_start_matches("rules.").replace('_', " ")
    }
}

/// The comparison of two boards.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Diff {
    /// The old board.
    pub old: Side,
    /// The new board.
    pub new: Side,
    /// Headline figures.
    pub figures: Vec<FigureChange>,
    /// Jumps added, removed and moved, by square.
    pub jumps: Vec<JumpDiff>,
    /// The squares whose rest probability changed most (at most
    /// ten), largest change first.
    pub squares: Vec<SquareDiff>,
    /// Rule and size changes.
    pub rules: Vec<RuleDiff>,
    /// Why a figure shown as "–" is missing: each figure an analysis
    /// skipped, with its board (`old: skipped seat odds: it needs …`). A
    /// figure is never missing without a line here.
    pub skipped: Vec<String>,
    /// The two length distributions `P(T = t)` (`pmf[t − 1]`), old then new,
    /// for charts; not serialised.
    #[serde(skip)]
    pub pmfs: [Vec<f64>; 2],
}

impl Diff {
    /// Compares two analysed boards. Both analyses should have seat odds
    /// for 2..=6 players ([`snakeladder::Options::default`]).
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Analysis, Board, Options};
    /// use snakeladder_render::diff::{Diff, JumpDiffKind};
    ///
    /// let old = Board::from_json_str(r#"{"squares": 30, "ladders": [[3, 11]], "snakes": [[27, 7]]}"#)?;
    /// let new = Board::from_json_str(r#"{"squares": 30, "ladders": [[3, 11]], "snakes": [[27, 9]]}"#)?;
    /// let (a, b) = (Analysis::new(&old, &Options::default())?, Analysis::new(&new, &Options::default())?);
    /// let diff = Diff::new((&old, &a, "old.json".into()), (&new, &b, "new.json".into()));
    /// assert_eq!(diff.jumps.len(), 1);
    /// assert_eq!(diff.jumps[0].change, JumpDiffKind::Moved);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(old: (&Board, &Analysis, String), new: (&Board, &Analysis, String)) -> Diff {
        let (ob, oa, osrc) = old;
        let (nb, na, nsrc) = new;
        let side = |a: &Analysis, source: String| Side {
            source,
            name: a.board.name.clone(),
            fingerprint: a.fingerprint.clone(),
        };
        let mut figures = Vec::new();
        let mut fig = |name: &str, label: &str, f: &dyn Fn(&Analysis) -> Option<f64>| {
            figures.push(FigureChange {
                name: name.to_string(),
                label: label.to_string(),
                old: f(oa),
                new: f(na),
                change_error: None,
            })
        };
        let turns = |t: Option<usize>| t.map(|t| t as f64);
        let label = |f: &crate::vocabulary::Figure| f.name.to_string();
        fig("mean", &label(&MEAN_TURNS), &|a| Some(a.turns.mean));
        fig("median", &label(&MEDIAN), &|a| turns(a.turns.median));
        fig("p90", &label(&P90), &|a| turns(a.turns.p90));
        fig("p99", &label(&P99), &|a| turns(a.turns.p99));
        fig("shortest", &label(&SHORTEST), &|a| turns(a.turns.min));
        for n in 2..=6u32 {
            let players = move |a: &Analysis| a.players.iter().find(|p| p.count == n).cloned();
            fig(
                &format!("seat1_advantage_{n}"),
                &format!("{}, {n} players", FIRST_SEAT_ADVANTAGE.name),
                &|a| players(a).map(|p| p.win_probability[0] - p.win_probability[1]),
            );
            fig(
                &format!("rounds_{n}"),
                &format!("{}, {n} players", ROUNDS.name),
                &|a| players(a).map(|p| p.expected_rounds),
            );
        }
        // The mean's change carries both means' absolute error bounds.
        let error = |a: &Analysis| a.turns.mean_error_bound * a.turns.mean.abs();
        if let Some(mean) = figures.iter_mut().find(|f| f.name == "mean") {
            let bound = error(oa) + error(na);
            let change = na.turns.mean - oa.turns.mean;
            let shown = crate::numbers::last_digit(change, 4);
            if bound.is_nan() || bound >= shown / 2.0 {
                mean.change_error = Some(if bound.is_nan() { f64::INFINITY } else { bound });
            }
        }
        Diff {
            old: side(oa, osrc),
            new: side(na, nsrc),
            figures,
            jumps: jump_changes(ob, oa, nb, na),
            squares: square_changes(oa, na),
            rules: rule_changes(ob, nb),
            skipped: [("old", oa), ("new", na)]
                .iter()
                .flat_map(|(side, a)| a.skipped.iter().map(move |s| format!("{side}: {s}")))
                .collect(),
            pmfs: [oa.turns.pmf.clone(), na.turns.pmf.clone()],
        }
    }

    /// A headline figure by name.
    pub fn figure(&self, name: &str) -> Option<&FigureChange> {
        self.figures.iter().find(|f| f.name == name)
    }
}

/// A jump of one board: its ends, its kind and its use probability.
type Written = ((u32, u32), (JumpKind, Option<f64>));

fn jump_changes(ob: &Board, oa: &Analysis, nb: &Board, na: &Analysis) -> Vec<JumpDiff> {
    let uses = |b: &Board, a: &Analysis| -> BTreeMap<(u32, u32), (JumpKind, Option<f64>)> {
        b.jumps()
            .iter()
            .map(|j| {
                let (from, to) = (j.from().get(), j.to().get());
                let p = a
                    .jumps
                    .iter()
                    .find(|f| f.from.get() == from && f.to.get() == to)
                    .map(|f| f.use_probability);
                ((from, to), (j.kind(), p))
            })
            .collect()
    };
    let (old, new) = (uses(ob, oa), uses(nb, na));
    let mut removed: Vec<Written> = old
        .iter()
        .filter(|(k, _)| !new.contains_key(k))
        .map(|(k, v)| (*k, *v))
        .collect();
    let mut added: Vec<Written> = new
        .iter()
        .filter(|(k, _)| !old.contains_key(k))
        .map(|(k, v)| (*k, *v))
        .collect();
    let use_of = |(from, to): (u32, u32), p: Option<f64>| JumpSide {
        from,
        to,
        use_probability: p,
    };
    let mut out = Vec::new();
    // A removed jump and an added one of the same kind sharing an end are
    // one jump moved: the same end first, then the same start.
    for same_end in [true, false] {
        let mut i = 0;
        while i < removed.len() {
            let (r, (kind, rp)) = removed[i];
            let matched = added.iter().position(|&(a, (k, _))| {
                k == kind && if same_end { a.1 == r.1 } else { a.0 == r.0 }
            });
            match matched {
                Some(m) => {
                    let (a, (_, ap)) = added.remove(m);
                    removed.remove(i);
                    out.push(JumpDiff {
                        change: JumpDiffKind::Moved,
                        kind,
                        old: Some(use_of(r, rp)),
                        new: Some(use_of(a, ap)),
                    });
                }
                None => i += 1,
            }
        }
    }
    out.extend(removed.into_iter().map(|(r, (kind, p))| JumpDiff {
        change: JumpDiffKind::Removed,
        kind,
        old: Some(use_of(r, p)),
        new: None,
    }));
    out.extend(added.into_iter().map(|(a, (kind, p))| JumpDiff {
        change: JumpDiffKind::Added,
        kind,
        old: None,
        new: Some(use_of(a, p)),
    }));
    let key = |j: &JumpDiff| j.old.or(j.new).map(|u| (u.from, u.to));
    out.sort_by_key(key);
    out
}

fn square_changes(oa: &Analysis, na: &Analysis) -> Vec<SquareDiff> {
    let rests = |a: &Analysis| -> BTreeMap<u32, f64> {
        a.squares
            .iter()
            .filter_map(|s| Some((s.square.get(), s.rest_probability?)))
            .collect()
    };
    let (old, new) = (rests(oa), rests(na));
    let mut squares: Vec<SquareDiff> = old
        .keys()
        .chain(new.keys())
        .copied()
        .collect::<std::collections::BTreeSet<u32>>()
        .into_iter()
        .map(|s| SquareDiff {
            square: s,
            old: old.get(&s).copied().unwrap_or(0.0),
            new: new.get(&s).copied().unwrap_or(0.0),
        })
        .filter(|d| (d.new - d.old).abs() > SQUARE_CHANGE_EPSILON)
        .collect();
    squares.sort_by(|a, b| {
        (b.new - b.old)
            .abs()
            .total_cmp(&(a.new - a.old).abs())
            .then(a.square.cmp(&b.square))
    });
    squares.truncate(SQUARES_SHOWN);
    squares
}

fn rule_changes(ob: &Board, nb: &Board) -> Vec<RuleDiff> {
    let mut out = Vec::new();
    let compact = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
    for (field, old, new) in [
        ("squares", ob.last().get(), nb.last().get()),
        ("width", ob.width(), nb.width()),
    ] {
        if old != new {
            out.push(RuleDiff {
                field: field.to_string(),
                old: old.to_string(),
                new: new.to_string(),
                old_words: old.to_string(),
                new_words: new.to_string(),
            });
        }
    }
    let as_map = |b: &Board| match serde_json::to_value(b.rules().spec()) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (as_map(ob), as_map(nb));
    let (old_words, new_words) = (ob.rules().in_words(), nb.rules().in_words());
    let words = |all: &[(&str, String)], key: &str| {
        all.iter().find(|(k, _)| *k == key).map(|(_, w)| w.clone())
    };
    let null = serde_json::Value::Null;
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        let (o, n) = (old.get(key).unwrap_or(&null), new.get(key).unwrap_or(&null));
        if o != n {
            let (mut ow, mut nw) = (
                words(&old_words, key).unwrap_or_else(|| compact(o)),
                words(&new_words, key).unwrap_or_else(|| compact(n)),
            );
            // Words that do not tell the two apart (two loaded dice of as
            // many faces) are followed by the values themselves.
            if ow == nw {
                ow = format!("{ow} {}", compact(o));
                nw = format!("{nw} {}", compact(n));
            }
            out.push(RuleDiff {
                field: format!("rules.{key}"),
                old: compact(o),
                new: compact(n),
                old_words: ow,
                new_words: nw,
            });
        }
    }
    out
}

impl Diff {
    /// Whether the boards differ in layout or rules.
    pub fn same_board(&self) -> bool {
        self.old.fingerprint == self.new.fingerprint
    }
}
