//! The JSON outputs every front end prints or serves: the schema-versioned
//! wrapper and `analyze`'s body, built in one place so that the command's
//! `analyze --format json` and the designer server's `POST /api/analyze`
//! are the same bytes for the same board and options.

use serde::Serialize;
use snakeladder::Analysis;
use snakeladder::design::Sensitivity;

/// The version of every JSON output's shape (the `schema` key): raised
/// when a key is renamed or removed or changes meaning, not when one is
/// added.
pub const SCHEMA_VERSION: u32 = 1;

/// A JSON output: `{"schema": 1, ...the body's keys}`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Serialize)]
pub struct Versioned<'a, T: Serialize> {
    /// The version of this JSON shape: raised when a key is renamed or
    /// removed or changes meaning, not when one is added.
    pub schema: u32,
    /// The command's figures.
    #[serde(flatten)]
    pub body: &'a T,
}

/// `analyze --format json`: the analysis's own keys, then the sensitivity
/// when it was asked for (docs/schema/analyze.schema.json).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Serialize)]
pub struct Json<'a> {
    /// Every figure of the board.
    #[serde(flatten)]
    pub analysis: &'a Analysis,
    /// What one change to one jump does (`--sensitivity`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensitivity: Option<&'a Sensitivity>,
}

/// `body` as pretty JSON with the schema version, followed by a newline:
/// the bytes every JSON output is printed as.
///
/// # Errors
/// When `body`'s serialization fails (a map with non-string keys).
pub fn pretty<T: Serialize>(body: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    let mut writer = serde_json::Serializer::with_formatter(&mut out, Unsigned::default());
    Versioned {
        schema: SCHEMA_VERSION,
        body,
    }
    .serialize(&mut writer)?;
    out.push(b'\n');
    Ok(out)
}

/// `body` as pretty JSON followed by a newline, with no schema version
/// (the SARIF log has a schema of its own), and every zero written as
/// [`pretty`] writes it: never `-0.0`.
///
/// # Errors
/// When `body`'s serialization fails (a map with non-string keys).
pub fn pretty_unversioned<T: Serialize>(body: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    let mut writer = serde_json::Serializer::with_formatter(&mut out, Unsigned::default());
    body.serialize(&mut writer)?;
    out.push(b'\n');
    Ok(out)
}

/// serde_json's pretty layout, with every zero written as `0.0`, never
/// `-0.0` (issue 27: a figure is never shown as a negative zero; the text
/// outputs write theirs with [`crate::numbers::fixed`]).
#[derive(Default)]
struct Unsigned(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for Unsigned {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, x: f64) -> std::io::Result<()> {
        self.0.write_f64(w, if x == 0.0 { 0.0 } else { x })
    }
    fn write_f32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, x: f32) -> std::io::Result<()> {
        self.0.write_f32(w, if x == 0.0 { 0.0 } else { x })
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Most turns of the length distribution a JSON output lists
/// ([`Turns::cap_terms`](snakeladder::analysis::Turns::cap_terms)): 100,000 terms of `pmf` and `cdf` are about 4 MB,
/// while a board of long games (52 squares and 39 snakes, a mean of 588,000
/// turns) follows its distribution for 10 million turns, 548 MB of JSON.
pub const MAX_JSON_TERMS: usize = 100_000;

/// Most entries a per-square or per-jump list of a JSON output has
/// ([`Analysis::cap_lists`](snakeladder::Analysis::cap_lists)): 100,000 squares are about 14 MB of JSON, and
/// with the distribution's [`MAX_JSON_TERMS`] every JSON output of a board
/// within the limits stays under 50 MB, where the 998,000 squares of a
/// million-square board made 140 MB.
pub const MAX_JSON_ENTRIES: usize = 100_000;

/// The bytes of `analyze --format json` for `analysis` (and `sensitivity`
/// when it was asked for). The lists of a very large analysis are capped
/// first, as the command does: a distribution of millions of turns, or a
/// million squares, would make hundreds of megabytes of JSON, so the terms
/// past the cap go into `tail` and a list past it is named in `skipped`.
///
/// # Errors
/// As [`pretty`].
pub fn analyze(
    analysis: &mut Analysis,
    sensitivity: Option<&Sensitivity>,
) -> Result<Vec<u8>, serde_json::Error> {
    analysis.cap_lists(MAX_JSON_TERMS, MAX_JSON_ENTRIES);
    pretty(&Json {
        analysis,
        sensitivity,
    })
}

/// A board file as `generate`, `tune` and `fmt` write it: the board in the
/// one canonical layout ([`Board::to_json`](snakeladder::Board::to_json)).
///
/// # Errors
/// None today; the `Result` keeps the signature of the other writers here.
pub fn board_file(board: &snakeladder::Board) -> Result<Vec<u8>, serde_json::Error> {
    Ok(board.to_json().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakeladder::{Board, Options};

    /// A negative zero is written `0.0` (issue 27), in the layout of
    /// serde_json's pretty printer.
    #[test]
    fn no_figure_is_a_negative_zero() {
        let body = serde_json::json!({"change": -0.0, "list": [-0.0, -1.5, 0.0], "f": -0.0_f32});
        let bytes = pretty(&body).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(!text.contains("-0.0"), "{text}");
        let plain = String::from_utf8(pretty_unversioned(&body).unwrap()).unwrap();
        assert!(
            !plain.contains("-0.0") && !plain.contains("schema"),
            "{plain}"
        );
        let mut plain = serde_json::to_vec_pretty(&Versioned {
            schema: SCHEMA_VERSION,
            body: &serde_json::json!({"change": 0.0, "list": [0.0, -1.5, 0.0], "f": 0.0_f32}),
        })
        .unwrap();
        plain.push(b'\n');
        assert_eq!(text, String::from_utf8(plain).unwrap());
    }

    #[test]
    fn analyze_json_is_versioned_and_ends_with_a_newline() {
        let board = Board::builtin_default();
        let mut a = Analysis::new(&board, &Options::default()).unwrap();
        let bytes = analyze(&mut a, None).unwrap();
        assert!(bytes.starts_with(b"{\n  \"schema\": 1,\n"));
        assert_eq!(bytes.last(), Some(&b'\n'));
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(v.get("sensitivity").is_none());
        assert!(v["turns"]["mean"].as_f64().unwrap() > 39.0);
    }

    #[test]
    fn a_board_file_reads_back_as_the_same_board() {
        let board = Board::builtin_default();
        let bytes = board_file(&board).unwrap();
        assert_eq!(Board::from_json_slice(&bytes).unwrap(), board);
    }
}
