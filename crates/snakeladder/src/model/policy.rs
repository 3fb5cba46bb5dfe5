//! A layout policy: thresholds on the exact figures of a board, read from
//! the command line, from a `snakeladder.toml` file, or from a board file's
//! own `"limits"` object.
//!
//! The thresholds are plain data here; the review ([`crate::review`]) holds the
//! check against an analysis.
//!
//! A policy file is found the way rustfmt and clippy find theirs: the first
//! [`Thresholds::FILE_NAME`] in the board's directory or any parent
//! (how `snakeladder validate` finds it). Its one table, `[limits]`, has the keys of
//! [`Thresholds`]; an unknown key is an error, so a typo never passes a
//! layout silently.
//!
//! ```toml
//! [limits]
//! max_mean_turns = 45
//! min_jump_use = 0.05
//! ```

use crate::model::problem::Problem;
use serde::{Deserialize, Serialize};
use std::fmt;
#[cfg(feature = "toml")]
use std::path::{Path, PathBuf};

/// The name of a policy file.
pub(crate) const POLICY_FILE_NAME: &str = "snakeladder.toml";

/// Thresholds on a board's exact figures; each is checked only when set.
///
/// Keys are the command-line flags' names in snake case.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::policy::Thresholds;
use snakeladder::review::Review;

let policy = Thresholds { min_jump_use: Some(0.3), ..Thresholds::default() };
let report = Review { policy, ..Review::default() }.check_bytes("small.json", SMALL.as_bytes());
// The ladder 3→11 is used in only 49/216 of games.
assert_eq!(report.findings.len(), 1);
assert_eq!(report.findings[0].kind, "min_jump_use");
assert!(Thresholds::default().is_empty());
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Most expected turns of one player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_mean_turns: Option<f64>,
    /// Fewest expected turns of one player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_mean_turns: Option<f64>,
    /// Most turns by which 99% of one player's games are over (the 0.99
    /// quantile of the length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_p99_turns: Option<f64>,
    /// Largest P(seat 1 wins) − P(seat 2 wins) in a game of two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_first_seat_advantage: Option<f64>,
    /// Smallest fraction of games in which each snake and ladder is used
    /// at least once; a jump used less is dead weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_jump_use: Option<f64>,
    /// Largest probability that a game of one player ends in the fewest
    /// turns possible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_shortest_game_probability: Option<f64>,
}

/// The names of the thresholds, as keys and as the kinds of the problems
/// they raise.
pub(crate) const KEYS: [&str; 6] = [
    "max_mean_turns",
    "min_mean_turns",
    "max_p99_turns",
    "max_first_seat_advantage",
    "min_jump_use",
    "max_shortest_game_probability",
];

/// A threshold whose value cannot be a limit: its key, its value and the
/// values allowed.
type BadThreshold = (&'static str, f64, &'static str);

impl Thresholds {
    /// The name of a policy file, `snakeladder.toml`.
    pub const FILE_NAME: &'static str = POLICY_FILE_NAME;

    /// The names of the thresholds, as keys and as the kinds of the
    /// findings they raise.
    pub const KEYS: [&'static str; 6] = KEYS;

    /// Whether no threshold is set (and no analysis is needed).
    pub fn is_empty(&self) -> bool {
        self.entries().iter().all(|(_, v)| v.is_none())
    }

    /// Each key with its value.
    pub fn entries(&self) -> [(&'static str, Option<f64>); 6] {
        [
            (KEYS[0], self.max_mean_turns),
            (KEYS[1], self.min_mean_turns),
            (KEYS[2], self.max_p99_turns),
            (KEYS[3], self.max_first_seat_advantage),
            (KEYS[4], self.min_jump_use),
            (KEYS[5], self.max_shortest_game_probability),
        ]
    }

    /// These thresholds with a negative zero made `0`, so that no message
    /// names a limit of "-0".
    pub fn unsigned(&self) -> Thresholds {
        let z = |v: Option<f64>| v.map(|x| if x == 0.0 { 0.0 } else { x });
        Thresholds {
            max_mean_turns: z(self.max_mean_turns),
            min_mean_turns: z(self.min_mean_turns),
            max_p99_turns: z(self.max_p99_turns),
            max_first_seat_advantage: z(self.max_first_seat_advantage),
            min_jump_use: z(self.min_jump_use),
            max_shortest_game_probability: z(self.max_shortest_game_probability),
        }
    }

    /// The thresholds set in `over` replace these.
    pub fn overridden_by(&self, over: &Thresholds) -> Thresholds {
        Thresholds {
            max_mean_turns: over.max_mean_turns.or(self.max_mean_turns),
            min_mean_turns: over.min_mean_turns.or(self.min_mean_turns),
            max_p99_turns: over.max_p99_turns.or(self.max_p99_turns),
            max_first_seat_advantage: over
                .max_first_seat_advantage
                .or(self.max_first_seat_advantage),
            min_jump_use: over.min_jump_use.or(self.min_jump_use),
            max_shortest_game_probability: over
                .max_shortest_game_probability
                .or(self.max_shortest_game_probability),
        }
    }

    /// The stricter of each pair of thresholds: a board's own limits can
    /// tighten a policy, never loosen it.
    ///
    /// # Example
    /// ```
    /// use snakeladder::policy::Thresholds;
    /// let policy = Thresholds { max_mean_turns: Some(45.0), min_jump_use: Some(0.05), ..Default::default() };
    /// let board = Thresholds { max_mean_turns: Some(50.0), min_jump_use: Some(0.1), ..Default::default() };
    /// let both = policy.tightened_by(&board);
    /// assert_eq!(both.max_mean_turns, Some(45.0));
    /// assert_eq!(both.min_jump_use, Some(0.1));
    /// ```
    pub fn tightened_by(&self, other: &Thresholds) -> Thresholds {
        fn pick(a: Option<f64>, b: Option<f64>, stricter: fn(f64, f64) -> f64) -> Option<f64> {
            match (a, b) {
                (Some(a), Some(b)) => Some(stricter(a, b)),
                (a, b) => a.or(b),
            }
        }
        Thresholds {
            max_mean_turns: pick(self.max_mean_turns, other.max_mean_turns, f64::min),
            min_mean_turns: pick(self.min_mean_turns, other.min_mean_turns, f64::max),
            max_p99_turns: pick(self.max_p99_turns, other.max_p99_turns, f64::min),
            max_first_seat_advantage: pick(
                self.max_first_seat_advantage,
                other.max_first_seat_advantage,
                f64::min,
            ),
            min_jump_use: pick(self.min_jump_use, other.min_jump_use, f64::max),
            max_shortest_game_probability: pick(
                self.max_shortest_game_probability,
                other.max_shortest_game_probability,
                f64::min,
            ),
        }
    }

    /// Every threshold whose value cannot be a limit, as a
    /// [`Problem::LimitOutOfRange`]: turns must be finite and not negative,
    /// fractions and probabilities in 0..=1, the seat advantage in −1..=1.
    ///
    /// # Example
    /// ```
    /// use snakeladder::Problem;
    /// use snakeladder::policy::Thresholds;
    /// let limits = Thresholds { min_jump_use: Some(1.5), ..Thresholds::default() };
    /// let problems = limits.out_of_range();
    /// assert!(matches!(problems[..], [Problem::LimitOutOfRange { key: "min_jump_use", .. }]));
    /// assert_eq!(problems[0].to_string(), "limits.min_jump_use: 1.5 is out of range (0..=1)");
    /// ```
    pub fn out_of_range(&self) -> Vec<Problem> {
        self.bad_thresholds()
            .into_iter()
            .map(|(key, value, range)| Problem::LimitOutOfRange { key, value, range })
            .collect()
    }

    fn bad_thresholds(&self) -> Vec<BadThreshold> {
        self.entries()
            .into_iter()
            .filter_map(|(key, value)| {
                let value = value?;
                let (ok, range) = match key {
                    "max_mean_turns" | "min_mean_turns" | "max_p99_turns" => {
                        (value.is_finite() && value >= 0.0, "0 or more")
                    }
                    "max_first_seat_advantage" => ((-1.0..=1.0).contains(&value), "-1..=1"),
                    _ => ((0.0..=1.0).contains(&value), "0..=1"),
                };
                (!ok).then_some((key, value, range))
            })
            .collect()
    }
}

#[cfg(feature = "toml")]
/// Why a policy file could not be used (with the `toml` feature, which
/// reads policy files).
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::policy::PolicyError;

let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
let err = PolicyError::Io { path: "snakeladder.toml".into(), source: missing };
assert!(err.to_string().starts_with("snakeladder.toml: cannot read"));
# #[cfg(feature = "toml")]
# {
// With the `toml` feature, reading a policy says where it is wrong.
let text = "[limits]\nmax_mean_turns = -1\n";
let err = snakeladder::policy::parse_policy(text, "p.toml".as_ref()).unwrap_err();
assert!(matches!(err, PolicyError::Range { line: 2, .. }));
# }
```
"##
)]
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PolicyError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a policy: malformed TOML, an unknown key, a value
    /// of the wrong type.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Toml {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A threshold out of its range, at its value's line and column.
    #[error("{}:{line}:{column}: {problem}", path.display())]
    Range {
        /// The file.
        path: PathBuf,
        /// 1-based line of the value.
        line: usize,
        /// 1-based column of the value, in characters.
        column: usize,
        /// The threshold, a [`Problem::LimitOutOfRange`].
        problem: Problem,
    },
}

/// What the key at `path` of a policy file must be, for messages.
#[cfg(feature = "toml")]
fn policy_must_be(path: &str) -> String {
    match path.strip_prefix("limits.").unwrap_or(path) {
        "limits" => "a table of thresholds ([limits])".to_string(),
        "max_mean_turns" | "min_mean_turns" | "max_p99_turns" => {
            "a number of turns, 0 or more".to_string()
        }
        "max_first_seat_advantage" => "a number from -1 to 1".to_string(),
        "min_jump_use" | "max_shortest_game_probability" => "a number from 0 to 1".to_string(),
        _ => String::new(),
    }
}

#[cfg(feature = "toml")]
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(default)]
    limits: Thresholds,
}

#[cfg(feature = "toml")]
/// Parses the text of a policy file; `path` names it in errors.
///
/// # Errors
/// [`PolicyError::Toml`] for malformed TOML or an unknown key (with its
/// line and column), [`PolicyError::Range`] for a threshold out of range.
///
/// # Example
/// ```
/// use snakeladder::policy::parse_policy;
/// let t = parse_policy("[limits]\nmax_mean_turns = 45\n", "snakeladder.toml".as_ref())?;
/// assert_eq!(t.max_mean_turns, Some(45.0));
/// assert!(parse_policy("[limits]\nmax_turns = 45\n", "p.toml".as_ref()).is_err());
/// # Ok::<(), snakeladder::policy::PolicyError>(())
/// ```
pub fn parse_policy(text: &str, path: &Path) -> Result<Thresholds, PolicyError> {
    let toml_error = |e: toml::de::Error, message: String| {
        let (line, column) = e
            .span()
            .map(|span| line_column(text, span.start))
            .unwrap_or((1, 1));
        PolicyError::Toml {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    };
    let document = toml::de::Deserializer::parse(text).map_err(|e| {
        let mut message = e.message().trim_end().to_string();
        // toml says "duplicate key" without the key; its span holds it.
        if message == "duplicate key"
            && let Some(key) = e.span().and_then(|span| text.get(span))
        {
            message = format!("duplicate key `{}`", key.trim());
        }
        toml_error(e, message)
    })?;
    let file: PolicyFile = serde_path_to_error::deserialize(document).map_err(|e| {
        let key = crate::model::error::known_path(e.path());
        let inner = e.into_inner();
        let message = crate::model::error::explain(
            &key,
            inner.message().trim_end(),
            &crate::model::error::FileWords {
                whole: "a policy file",
                must_be: policy_must_be,
            },
        );
        toml_error(inner, message)
    })?;
    if let Some((key, value, range)) = file.limits.bad_thresholds().into_iter().next() {
        let (line, column) = value_position(text, key).unwrap_or((1, 1));
        return Err(PolicyError::Range {
            path: path.to_path_buf(),
            line,
            column,
            problem: Problem::LimitOutOfRange { key, value, range },
        });
    }
    Ok(file.limits)
}

#[cfg(feature = "toml")]
/// Reads a policy file: a regular file of at most
/// [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES), UTF-8, with
/// or without a byte-order mark.
///
/// # Errors
/// [`PolicyError::Io`] when it cannot be read (a directory, a FIFO, a
/// device, too large, not UTF-8), and those of [`parse_policy`].
pub fn read_policy(path: &Path) -> Result<Thresholds, PolicyError> {
    let io = |source| PolicyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = crate::model::read::read_regular_file(path, crate::model::limits::MAX_FILE_BYTES)
        .map_err(|e| match e {
        crate::model::read::FileReadError::Io(source) => io(source),
        too_large => io(std::io::Error::other(too_large.to_string())),
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not UTF-8 text",
        ))
    })?;
    parse_policy(text.strip_prefix('\u{feff}').unwrap_or(&text), path)
}

#[cfg(feature = "toml")]
/// The policy file for a board in `dir`: the first [`Thresholds::FILE_NAME`]
/// in `dir` or one of its parents (a relative `dir` is taken from the
/// current directory). The search stops after the repository's root (the
/// directory holding `.git`) or the user's home (`$HOME`), and before a
/// directory anyone may write to (`/tmp`): a file planted there is never
/// read.
///
/// # Errors
/// [`PolicyError::Io`] when the name is there but is not a readable
/// regular file: a directory, a broken symbolic link, a link loop, a FIFO
/// or a device is an error, never silently passed over for a policy
/// further up.
#[doc(hidden)]
pub fn find_policy_file(dir: &Path) -> Result<Option<PathBuf>, PolicyError> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .and_then(|h| std::path::absolute(h).ok());
    find_policy_file_within(dir, home.as_deref())
}

/// [`find_policy_file`] with the home directory given.
#[cfg(feature = "toml")]
fn find_policy_file_within(
    dir: &Path,
    home: Option<&Path>,
) -> Result<Option<PathBuf>, PolicyError> {
    let io = |path: &Path, message: String| PolicyError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(message),
    };
    let dir = std::path::absolute(dir).map_err(|source| PolicyError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    for d in dir.ancestors() {
        if world_writable(d) {
            return Ok(None);
        }
        let candidate = d.join(POLICY_FILE_NAME);
        match std::fs::symlink_metadata(&candidate) {
            // No such file, or a path through a file (the board's
            // directory does not exist): nothing to find here.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) => {}
            Err(source) => {
                return Err(PolicyError::Io {
                    path: candidate,
                    source,
                });
            }
            Ok(_) => match std::fs::metadata(&candidate) {
                Ok(m) if m.is_file() => return Ok(Some(candidate)),
                Ok(m) if m.is_dir() => {
                    return Err(io(&candidate, "is a directory, not a policy file".into()));
                }
                Ok(_) => {
                    return Err(io(&candidate, "is not a regular file".into()));
                }
                Err(e) => {
                    return Err(io(
                        &candidate,
                        format!("is a symbolic link that cannot be followed ({e})"),
                    ));
                }
            },
        }
        if d.join(".git").exists() || home.is_some_and(|h| h == d) {
            return Ok(None);
        }
    }
    Ok(None)
}

/// Whether anyone may write to `dir` (mode `o+w`, as `/tmp`).
#[cfg(feature = "toml")]
fn world_writable(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o002 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        false
    }
}

#[cfg(feature = "toml")]
/// Line and column of the value of `limits.KEY` in a policy file's text
/// (which parsed already).
fn value_position(text: &str, key: &str) -> Option<(usize, usize)> {
    #[derive(Deserialize)]
    struct Spans {
        #[serde(default)]
        limits: std::collections::BTreeMap<String, toml::Spanned<toml::Value>>,
    }
    let spans: Spans = toml::from_str(text).ok()?;
    let value = spans.limits.get(key)?;
    Some(line_column(text, value.span().start))
}

#[cfg(feature = "toml")]
/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

impl fmt::Display for Thresholds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set: Vec<String> = self
            .entries()
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!("{k} = {v}")))
            .collect();
        if set.is_empty() {
            f.write_str("no limits")
        } else {
            f.write_str(&set.join(", "))
        }
    }
}

#[cfg(all(test, feature = "toml"))]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_key_is_an_error_with_its_position() {
        let err = parse_policy(
            "[limits]\nmax_mean_turns = 45\nmin_jump_uses = 0.1\n",
            Path::new("p.toml"),
        )
        .unwrap_err();
        let PolicyError::Toml {
            line,
            column,
            message,
            ..
        } = err
        else {
            panic!("{err}");
        };
        assert_eq!((line, column), (3, 1));
        assert!(message.contains("min_jump_uses"), "{message}");
    }

    /// A value of the wrong type, a number past any type and a key written
    /// twice are named, in the file's words, at their position.
    #[test]
    fn type_errors_and_duplicates_name_the_key() {
        let message = |text: &str| match parse_policy(text, Path::new("p.toml")).unwrap_err() {
            PolicyError::Toml {
                line,
                column,
                message,
                ..
            } => (line, column, message),
            other => panic!("{other}"),
        };
        assert_eq!(
            message("[limits]\nmax_mean_turns = \"20\"\n"),
            (
                2,
                18,
                "`limits.max_mean_turns` must be a number of turns, 0 or more, not the text \"20\""
                    .to_string()
            )
        );
        assert_eq!(
            message("[limits]\nmin_jump_use = 1e400000000000000000000000\n").2,
            "`limits.min_jump_use`: floating-point number overflowed"
        );
        assert_eq!(
            message("[limits]\nmax_p99_turns = 99999999999999999999999\n").2,
            "`limits.max_p99_turns` must be a number of turns, 0 or more, not 99999999999999999999999"
        );
        assert_eq!(
            message("[limits]\nmax_mean_turns = 20\nmax_mean_turns = 30\n"),
            (3, 1, "duplicate key `max_mean_turns`".to_string())
        );
    }

    #[test]
    fn an_unknown_table_is_an_error() {
        assert!(parse_policy("[limit]\nmax_mean_turns = 45\n", Path::new("p.toml")).is_err());
    }

    #[test]
    fn integers_and_floats_are_both_numbers() {
        let t = parse_policy(
            "[limits]\nmax_mean_turns = 45\nmin_jump_use = 0.05\nmax_first_seat_advantage = 0.02\n",
            Path::new("p.toml"),
        )
        .unwrap();
        assert_eq!(t.max_mean_turns, Some(45.0));
        assert_eq!(t.min_jump_use, Some(0.05));
        assert_eq!(t.max_first_seat_advantage, Some(0.02));
        assert!(!t.is_empty());
        assert!(parse_policy("", Path::new("p.toml")).unwrap().is_empty());
    }

    #[test]
    fn an_out_of_range_value_has_its_position() {
        let err = parse_policy(
            "# team policy\n[limits]\nmax_mean_turns = 45\n  min_jump_use = 1.5\n",
            Path::new("p.toml"),
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                PolicyError::Range {
                    line: 4,
                    column: 18,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("p.toml:4:18: limits.min_jump_use"),
            "{err}"
        );
    }

    #[test]
    fn out_of_range_values_are_refused() {
        for text in [
            "[limits]\nmin_jump_use = 1.5\n",
            "[limits]\nmax_mean_turns = -1\n",
            "[limits]\nmax_mean_turns = nan\n",
            "[limits]\nmax_first_seat_advantage = -2\n",
        ] {
            let err = parse_policy(text, Path::new("p.toml")).unwrap_err();
            assert!(matches!(err, PolicyError::Range { .. }), "{text}: {err}");
        }
    }

    #[test]
    fn flags_override_and_boards_tighten() {
        let file = Thresholds {
            max_mean_turns: Some(40.0),
            min_mean_turns: Some(10.0),
            ..Thresholds::default()
        };
        let flags = Thresholds {
            max_mean_turns: Some(50.0),
            ..Thresholds::default()
        };
        let policy = file.overridden_by(&flags);
        assert_eq!(policy.max_mean_turns, Some(50.0));
        assert_eq!(policy.min_mean_turns, Some(10.0));
        let board = Thresholds {
            max_mean_turns: Some(60.0),
            min_mean_turns: Some(20.0),
            ..Thresholds::default()
        };
        let both = policy.tightened_by(&board);
        assert_eq!(both.max_mean_turns, Some(50.0));
        assert_eq!(both.min_mean_turns, Some(20.0));
    }

    #[test]
    fn the_nearest_policy_file_wins() {
        let root = tempfile::tempdir().unwrap();
        let deep = root.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        let find = |d: &Path| find_policy_file(d).unwrap();
        assert_eq!(find(&deep).filter(|p| p.starts_with(root.path())), None);
        std::fs::write(root.path().join(POLICY_FILE_NAME), "").unwrap();
        assert_eq!(find(&deep), Some(root.path().join(POLICY_FILE_NAME)));
        std::fs::write(root.path().join("a").join(POLICY_FILE_NAME), "").unwrap();
        assert_eq!(
            find(&deep),
            Some(root.path().join("a").join(POLICY_FILE_NAME))
        );
    }

    #[test]
    fn a_policy_name_that_is_no_file_is_an_error() {
        let root = tempfile::tempdir().unwrap();
        let deep = root.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(root.path().join(POLICY_FILE_NAME), "").unwrap();
        // A directory of that name is an error, not passed over for the
        // policy above it.
        std::fs::create_dir(deep.join(POLICY_FILE_NAME)).unwrap();
        let err = find_policy_file(&deep).unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
        std::fs::remove_dir(deep.join(POLICY_FILE_NAME)).unwrap();
        #[cfg(unix)]
        {
            let link = deep.join(POLICY_FILE_NAME);
            std::os::unix::fs::symlink("nowhere", &link).unwrap();
            let err = find_policy_file(&deep).unwrap_err().to_string();
            assert!(err.contains("symbolic link"), "{err}");
            std::fs::remove_file(&link).unwrap();
            std::os::unix::fs::symlink(&link, &link).unwrap();
            let err = find_policy_file(&deep).unwrap_err().to_string();
            assert!(err.contains("symbolic link"), "{err}");
        }
    }

    #[test]
    fn discovery_stops_at_the_repository_root_and_home() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        let deep = repo.join("boards");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(root.path().join(POLICY_FILE_NAME), "").unwrap();
        assert_eq!(
            find_policy_file_within(&deep, None).unwrap(),
            Some(root.path().join(POLICY_FILE_NAME))
        );
        std::fs::create_dir(repo.join(".git")).unwrap();
        assert_eq!(find_policy_file_within(&deep, None).unwrap(), None);
        std::fs::remove_dir(repo.join(".git")).unwrap();
        assert_eq!(find_policy_file_within(&deep, Some(&repo)).unwrap(), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let open = std::fs::Permissions::from_mode(0o777);
            std::fs::set_permissions(root.path(), open).unwrap();
            assert_eq!(find_policy_file_within(&deep, None).unwrap(), None);
        }
    }

    #[test]
    fn a_policy_with_a_byte_order_mark_reads() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join(POLICY_FILE_NAME);
        std::fs::write(&file, "\u{feff}[limits]\nmax_mean_turns = 45\n").unwrap();
        assert_eq!(read_policy(&file).unwrap().max_mean_turns, Some(45.0));
        assert!(read_policy(Path::new("/dev/zero")).is_err());
    }
}
