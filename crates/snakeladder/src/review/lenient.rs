//! Reading on past a JSON-level error: a file whose JSON is well formed but
//! holds a value the board type cannot take (`"overshoot": "sideways"`, an
//! unknown key) has its other problems reported too, so that one typo does
//! not hide every jump's problem.
//!
//! The offending key is left out and the file read again, as many times as
//! there are such keys; the board that results is validated, and only the
//! problems that cannot depend on what was left out are kept (a rule left
//! out could change whether two jumps chain or the game can be won).

use crate::model::board::BoardSpec;
use crate::{Board, Problem};
use serde_json::Value;

/// Most keys left out of one file before giving up.
const MAX_DROPPED: usize = 64;

/// What reading on found: the keys left out besides the one the reader
/// stopped at (each key's path, with the message) and the problems of the
/// rest of the file.
#[derive(Debug, Default)]
pub struct ReadOn {
    /// Each key left out but the one the reader stopped at: `(path,
    /// message)`.
    pub dropped: Vec<(Vec<String>, String)>,
    /// The problems of the board without them.
    pub problems: Vec<Problem>,
    /// The spec the problems are about (for locating them).
    pub spec: BoardSpec,
}

/// The problems that do not depend on the rules: a jump's own squares, the
/// board's size, the names and limits.
fn independent_of_rules(p: &Problem) -> bool {
    matches!(
        p,
        Problem::SquaresOutOfRange { .. }
            | Problem::WidthOutOfRange { .. }
            | Problem::TooManyJumps { .. }
            | Problem::JumpStartsOnLast { .. }
            | Problem::JumpStartOffBoard { .. }
            | Problem::JumpGoesNowhere { .. }
            | Problem::SnakeClimbs { .. }
            | Problem::LadderDescends { .. }
            | Problem::DuplicateStart { .. }
            | Problem::LimitOutOfRange { .. }
            | Problem::NameCharacter { .. }
    )
}

/// Reads on past the JSON-level errors of `bytes`; `None` when the text is
/// not well-formed JSON, or the error cannot be stepped over (a required
/// key, a malformed jump pair whose removal would renumber the jumps).
pub fn read_on(bytes: &[u8]) -> Option<ReadOn> {
    let mut value: Value = serde_json::from_slice(bytes).ok()?;
    // The error the reader stopped at, reported already: the keys are
    // met in another order below (a map's keys sorted).
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let first = map_path(
        serde_path_to_error::deserialize::<_, BoardSpec>(&mut de)
            .err()?
            .path(),
    );
    let mut dropped = Vec::new();
    let mut rules_touched = false;
    for _ in 0..=MAX_DROPPED {
        match serde_path_to_error::deserialize::<_, BoardSpec>(value.clone()) {
            Ok(spec) => {
                if dropped.is_empty() {
                    return None;
                }
                let problems = match Board::from_spec(&spec) {
                    Ok(_) => Vec::new(),
                    Err(err) => err
                        .problems()
                        .iter()
                        .filter(|p| !rules_touched || independent_of_rules(p))
                        .filter(|p| !matches!(p, Problem::Unwinnable { .. }))
                        .cloned()
                        .collect(),
                };
                dropped.retain(|(path, _)| Some(path) != first.as_ref());
                return Some(ReadOn {
                    dropped,
                    problems,
                    spec,
                });
            }
            Err(e) => {
                let path = map_path(e.path())?;
                let (key, parents) = path.split_last()?;
                let parent = parents
                    .iter()
                    .try_fold(&mut value, |v, k| v.get_mut(k.as_str()))?;
                parent.as_object_mut()?.remove(key)?;
                rules_touched |= path.first().is_some_and(|k| k == "rules");
                let shown = path.join(".");
                let message = crate::model::error::explain_board(&shown, &e.inner().to_string());
                dropped.push((path, message));
            }
        }
    }
    None
}

/// The keys of a path made only of object keys; `None` when it passes
/// through a list.
fn map_path(path: &serde_path_to_error::Path) -> Option<Vec<String>> {
    path.iter()
        .map(|s| match s {
            serde_path_to_error::Segment::Map { key } => Some(key.clone()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_rule_does_not_hide_the_jumps() {
        let text = br#"{"squares": 20, "snakes": [[4, 9]], "ladders": [[12, 3]],
            "rules": {"overshoot": "sideways", "chains": "maybe"}, "name": 7}"#;
        let found = read_on(text).unwrap();
        let dropped: Vec<String> = found.dropped.iter().map(|(p, _)| p.join(".")).collect();
        assert_eq!(dropped, ["name", "rules.chains"]);
        let kinds: Vec<&str> = found.problems.iter().map(|p| p.kind()).collect();
        assert_eq!(kinds, ["ladder_descends", "snake_climbs"]);
    }

    #[test]
    fn what_cannot_be_stepped_over_is_left() {
        assert!(read_on(b"{\"squares\": 20,").is_none());
        assert!(read_on(br#"{"squares": "twenty", "snakes": [[4, 9]]}"#).is_none());
        assert!(read_on(br#"{"squares": 20, "snakes": [[4, 9], "x"]}"#).is_none());
        assert!(read_on(br#"{"squares": 20}"#).is_none());
    }
}
