//! The one way a board file is written: every command that writes a board
//! (`generate -o`, `tune -o`, `fmt`) goes through [`board_json`], so boards
//! diff well in review (one jump a line, keys in a fixed order) and read
//! back the same.
//!
//! ```json
//! {
//!   "name": "Ten squares",
//!   "squares": 10,
//!   "ladders": [
//!     [2, 7]
//!   ],
//!   "snakes": [
//!     [9, 3]
//!   ],
//!   "rules": {
//!     "overshoot": "stay",
//!     "dice": { "count": 1, "faces": 6 }
//!   }
//! }
//! ```

use crate::model::board::BoardSpec;
use crate::model::error::BoardError;
use serde_json::{Map, Value};

/// The keys of a board file, in the order they are written (`$schema`, for
/// an editor, first).
const BOARD_KEYS: [&str; 8] = [
    "$schema", "name", "squares", "width", "ladders", "snakes", "rules", "limits",
];

/// The keys of `rules`, in order.
const RULES_KEYS: [&str; 6] = [
    "overshoot",
    "chains",
    "dice",
    "extra_turn",
    "entry",
    "start",
];

/// The keys of `rules.dice` and `rules.extra_turn`, written on one line.
const INLINE_KEYS: [&str; 6] = [
    "count",
    "faces",
    "weights",
    "on",
    "max_extra",
    "forfeit_after",
];

impl crate::Board {
    /// The board as a board file in the canonical layout, every rule
    /// default filled in, ending with a newline: [`Board::from_json_str`](crate::Board::from_json_str)
    /// reads it back as the same board.
    ///
    /// # Example
    /// ```
    /// use snakeladder::Board;
    /// let board = Board::from_json_str(r#"{"squares": 10, "ladders": [[2, 7]], "snakes": [[9, 3]]}"#)?;
    /// let text = board.to_json();
    /// assert!(text.contains("\"ladders\": [\n    [2, 7]\n  ],"));
    /// assert_eq!(Board::from_json_str(&text)?, board);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn to_json(&self) -> String {
        self.spec().to_json()
    }
}

impl BoardSpec {
    /// A board spec in the canonical layout, ending with a newline.
    ///
    /// # Example
    /// ```
    /// use snakeladder::Board;
    /// let board = Board::from_json_str(r#"{"squares": 10, "ladders": [[2, 7]], "snakes": [[9, 3]]}"#)?;
    /// let text = board.spec().to_json();
    /// assert!(text.contains("\"ladders\": [\n    [2, 7]\n  ],"));
    /// assert_eq!(Board::from_json_str(&text)?, board);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn to_json(&self) -> String {
        let spec = self;
        // Serializing plain data into a Value cannot fail: every key is a
        // string and every number finite or written as null.
        let value = serde_json::to_value(spec).unwrap_or(Value::Null);
        let Value::Object(map) = value else {
            return String::from("{}\n");
        };
        write_object(&map)
    }

    /// The text of a board file rewritten in the canonical layout: the same
    /// keys and values (a `"$schema"` kept), in [`BoardSpec::to_json`]'s order and
    /// lines.
    ///
    /// # Errors
    /// [`BoardError::Json`] when the text is not a board file (malformed JSON,
    /// an unknown key, a value of the wrong type): only a file that reads as a
    /// board is rewritten, so its meaning cannot change.
    ///
    /// # Example
    /// ```
    /// let text = snakeladder::internals::BoardSpec::format_json(r#"{"snakes": [[9, 3]], "squares": 10}"#)?;
    /// assert_eq!(text, "{\n  \"squares\": 10,\n  \"snakes\": [\n    [9, 3]\n  ]\n}\n");
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn format_json(text: &str) -> Result<String, BoardError> {
        crate::model::error::parse_spec(text.as_bytes())?;
        // A byte-order mark is read past, as every board reader does, and
        // not written back.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: Value =
            serde_json::from_str(text).map_err(|e| BoardError::json(None, &e, text.as_bytes()))?;
        match value {
            Value::Object(map) => Ok(write_object(&map)),
            // parse_spec accepts only an object.
            _ => Ok(String::from("{}\n")),
        }
    }
}

fn write_object(map: &Map<String, Value>) -> String {
    let mut lines = Vec::new();
    for key in BOARD_KEYS {
        let Some(value) = map.get(key) else { continue };
        let text = match (key, value) {
            ("ladders" | "snakes", Value::Array(pairs)) if !pairs.is_empty() => {
                let rows: Vec<String> =
                    pairs.iter().map(|p| format!("    {}", inline(p))).collect();
                format!("[\n{}\n  ]", rows.join(",\n"))
            }
            ("rules" | "limits", Value::Object(inner)) if !inner.is_empty() => {
                let order: Vec<&str> = if key == "rules" {
                    RULES_KEYS.to_vec()
                } else {
                    crate::model::policy::KEYS.to_vec()
                };
                let mut rows = Vec::new();
                for k in ordered(inner, &order) {
                    rows.push(format!("    {}: {}", quoted(k), inline(&inner[k])));
                }
                format!("{{\n{}\n  }}", rows.join(",\n"))
            }
            _ => inline(value),
        };
        lines.push(format!("  {}: {text}", quoted(key)));
    }
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

/// The keys of `map` in `order`, then any others (none, for a file that
/// parsed as a board) by name.
fn ordered<'a>(map: &'a Map<String, Value>, order: &[&str]) -> Vec<&'a str> {
    let mut keys: Vec<&str> = order
        .iter()
        .filter_map(|k| map.get_key_value(*k).map(|(k, _)| k.as_str()))
        .collect();
    let mut rest: Vec<&str> = map
        .keys()
        .map(String::as_str)
        .filter(|k| !order.contains(k))
        .collect();
    rest.sort_unstable();
    keys.extend(rest);
    keys
}

fn quoted(key: &str) -> String {
    string_literal(key)
}

/// `text` as a JSON string with every hidden character (a control,
/// bidirectional or invisible character, or a line separator: those a name
/// may not hold) written as a `\u` escape. serde_json escapes only the C0
/// controls; a right-to-left override or a zero-width space written raw
/// would reorder or hide text in a reviewed diff of the file.
fn string_literal(text: &str) -> String {
    use crate::model::problem::is_hidden;
    let plain = Value::String(text.to_string()).to_string();
    if !plain.chars().any(is_hidden) {
        return plain;
    }
    let mut out = String::with_capacity(plain.len() + 16);
    for c in plain.chars() {
        if is_hidden(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A value on one line: `[2, 7]`, `{ "count": 1, "faces": 6 }`.
fn inline(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) if map.is_empty() => "{}".to_string(),
        Value::Object(map) => {
            let items: Vec<String> = ordered(map, &INLINE_KEYS)
                .into_iter()
                .map(|k| format!("{}: {}", quoted(k), inline(&map[k])))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        Value::String(text) => string_literal(text),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn every_shipped_board_is_in_the_canonical_layout_and_reads_back() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/boards");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let board = Board::from_json_str(&text).unwrap();
            let formatted = BoardSpec::format_json(&text).unwrap();
            assert_eq!(
                formatted,
                text,
                "{} is not in the canonical layout",
                path.display()
            );
            assert_eq!(
                Board::from_json_str(&board.spec().to_json()).unwrap(),
                board
            );
        }
    }

    #[test]
    fn the_layout_keeps_every_value_and_the_schema_key() {
        let text = r#"{"rules": {"start": 1, "dice": {"weights": [1.5, 0, 2e-3]}, "overshoot": "bounce"},
            "$schema": "./docs/schema/board.schema.json", "squares": 20, "ladders": [],
            "limits": {"min_jump_use": 0.05, "max_mean_turns": 45}}"#;
        assert_eq!(
            BoardSpec::format_json(text).unwrap(),
            "{\n  \"$schema\": \"./docs/schema/board.schema.json\",\n  \"squares\": 20,\n  \"ladders\": [],\n  \
             \"rules\": {\n    \"overshoot\": \"bounce\",\n    \"dice\": { \"weights\": [1.5, 0, 0.002] },\n    \"start\": 1\n  },\n  \
             \"limits\": {\n    \"max_mean_turns\": 45,\n    \"min_jump_use\": 0.05\n  }\n}\n"
        );
        let again = BoardSpec::format_json(&BoardSpec::format_json(text).unwrap()).unwrap();
        assert_eq!(
            again,
            BoardSpec::format_json(text).unwrap(),
            "formatting is idempotent"
        );
    }

    #[test]
    fn a_file_that_is_not_a_board_is_not_rewritten() {
        assert!(BoardSpec::format_json(r#"{"squares": 10, "ladder": [[2, 7]]}"#).is_err());
        assert!(BoardSpec::format_json("[1, 2]").is_err());
        assert!(BoardSpec::format_json("{").is_err());
    }

    /// A right-to-left override, a zero-width space or a C1 control in a
    /// name stays a visible escape when the file is written (serde_json
    /// would write them raw, reordering or hiding text in a reviewed diff),
    /// and reads back as the same name.
    #[test]
    fn hidden_characters_are_written_as_escapes() {
        let name = "a\u{202e}b\u{200b}c\u{85}d\u{2066}";
        let json = format!(
            r#"{{"name": {}, "squares": 10}}"#,
            serde_json::to_string(name).unwrap()
        );
        let written = BoardSpec::format_json(&json).unwrap();
        assert!(
            written.contains(r#""name": "a\u202eb\u200bc\u0085d\u2066""#),
            "{written}"
        );
        assert!(
            written
                .chars()
                .filter(|&c| c != '\n')
                .all(|c| !crate::model::problem::is_hidden(c))
        );
        let back: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(back["name"], name);
        // A plain name is written as before.
        assert!(
            BoardSpec::format_json(r#"{"name": "Ana's board", "squares": 10}"#)
                .unwrap()
                .contains(r#""name": "Ana's board""#)
        );
    }
}
