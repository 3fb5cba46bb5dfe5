//! Where a value sits in a board file: the line and column of a field
//! (`rules.dice.count`) or of a jump's pair (`snakes[0]`), so that a problem
//! can point at it the way compilers do (`boards/x.json:12:5`).
//!
//! [`Locator::new`] reads the text once, as JSON that has already been
//! parsed (a board that failed to parse has its position from the parser).
//! It records where every object member and array element starts, except
//! inside arrays nested in arrays: a jump `[4, 98]` is located as a whole.
//! [`Locator::for_paths`] records only the values on the way to the paths
//! asked for, so a file of millions of jumps with one bad jump costs a
//! handful of records.

use std::collections::HashMap;
use std::fmt;

/// A position in a text: 1-based line and column. Columns count Unicode
/// characters (code points), as editors do, not bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One step of a [`FieldPath`]: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A member of an object.
    Key(String),
    /// An element of an array (0-based).
    Index(usize),
}

/// The path of a value in a board file, shown as `rules.dice.weights[1]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(pub Vec<Segment>);

impl FieldPath {
    /// The path of a top-level key, or of nested keys written `a.b.c`.
    pub fn key(dotted: &str) -> FieldPath {
        FieldPath(
            dotted
                .split('.')
                .map(|k| Segment::Key(k.to_string()))
                .collect(),
        )
    }

    /// The same path, one array element further.
    pub fn index(mut self, i: usize) -> FieldPath {
        self.0.push(Segment::Index(i));
        self
    }

    /// Whether the path names the whole document.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(k) if i == 0 => f.write_str(k)?,
                Segment::Key(k) => write!(f, ".{k}")?,
                Segment::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A value of the document: where it starts and, for objects and arrays,
/// its members.
#[derive(Debug)]
struct Node {
    at: Position,
    children: Children,
}

#[derive(Debug)]
enum Children {
    None,
    Object(HashMap<String, Node>),
    /// The items recorded, with their indices, in increasing order.
    Array(Vec<(usize, Node)>),
}

/// The positions of the values of one JSON document.
#[derive(Debug)]
pub struct Locator {
    root: Node,
}

impl Locator {
    /// Reads a JSON document. `None` when the text is not JSON (which a
    /// board that parsed never is); the parser's own position is then the
    /// one to report.
    #[cfg(test)]
    pub fn new(text: &str) -> Option<Locator> {
        Self::read(
            text,
            &Want {
                all: true,
                ..Want::default()
            },
        )
    }

    /// Reads a JSON document, recording only the values on the way to
    /// `paths` (and their ancestors, for [`Locator::nearest`]).
    pub fn for_paths<'a>(
        text: &str,
        paths: impl IntoIterator<Item = &'a FieldPath>,
    ) -> Option<Locator> {
        let mut want = Want::default();
        for path in paths {
            let mut w = &mut want;
            for segment in &path.0 {
                w = match segment {
                    Segment::Key(k) => w.keys.entry(k.clone()).or_default(),
                    Segment::Index(i) => w.indices.entry(*i).or_default(),
                };
            }
        }
        Self::read(text, &want)
    }

    fn read(text: &str, want: &Want) -> Option<Locator> {
        let mut scanner = Scanner {
            text,
            bytes: text.as_bytes(),
            i: 0,
            at: Position { line: 1, column: 1 },
        };
        // A byte order mark is not part of the document.
        if text.starts_with('\u{feff}') {
            scanner.i = 3;
        }
        let root = scanner.value(Some(want), 0)?;
        scanner.skip_space();
        (scanner.i == scanner.bytes.len()).then_some(Locator { root })
    }

    /// Where the value at `path` starts, if the document has it.
    pub fn find(&self, path: &FieldPath) -> Option<Position> {
        let mut node = &self.root;
        for segment in &path.0 {
            node = match (segment, &node.children) {
                (Segment::Key(k), Children::Object(members)) => members.get(k)?,
                (Segment::Index(i), Children::Array(items)) => {
                    let k = items.binary_search_by_key(i, |(j, _)| *j).ok()?;
                    &items[k].1
                }
                _ => return None,
            };
        }
        Some(node.at)
    }

    /// Where the value at `path` starts or, when the document lacks it (a
    /// field left to its default), where its nearest written ancestor
    /// starts: the start of the document at worst.
    pub fn nearest(&self, path: &FieldPath) -> Position {
        (0..=path.0.len())
            .rev()
            .find_map(|n| self.find(&FieldPath(path.0[..n].to_vec())))
            .unwrap_or(self.root.at)
    }
}

/// Which values to record: every one below (`all`), or those on the way to
/// the paths asked for.
#[derive(Debug, Default)]
struct Want {
    all: bool,
    keys: HashMap<String, Want>,
    indices: HashMap<usize, Want>,
}

impl Want {
    fn key(&self, k: &str) -> Option<&Want> {
        if self.all {
            Some(self)
        } else {
            self.keys.get(k)
        }
    }

    /// `nested` says whether the element is itself an array: under `all`,
    /// arrays in arrays are located as a whole.
    fn index(&self, i: usize, nested: bool) -> Option<&Want> {
        if self.all {
            (!nested).then_some(self)
        } else {
            self.indices.get(&i)
        }
    }
}

/// Nesting deeper than this is not recorded (serde_json refuses past 128).
const MAX_DEPTH: usize = 256;

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    at: Position,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    /// Moves past one byte, keeping the line and the column (a column is a
    /// character: UTF-8 continuation bytes do not count).
    fn bump(&mut self) {
        let b = self.bytes[self.i];
        self.i += 1;
        if b == b'\n' {
            self.at.line += 1;
            self.at.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.at.column += 1;
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        self.skip_space();
        (self.peek()? == b).then(|| self.bump())
    }

    /// Reads a value; `want` says which of its members get positions of
    /// their own (none when `None`).
    fn value(&mut self, want: Option<&Want>, depth: usize) -> Option<Node> {
        let record = want.is_some();
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_space();
        let at = self.at;
        let children = match self.peek()? {
            b'{' => {
                self.bump();
                let mut members = HashMap::new();
                self.skip_space();
                if self.peek()? == b'}' {
                    self.bump();
                } else {
                    loop {
                        self.skip_space();
                        let key = self.string()?;
                        self.expect(b':')?;
                        let inner = want.and_then(|w| w.key(&key));
                        let node = self.value(inner, depth + 1)?;
                        if inner.is_some() {
                            members.insert(key, node);
                        }
                        self.skip_space();
                        match self.peek()? {
                            b',' => self.bump(),
                            b'}' => {
                                self.bump();
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                if record {
                    Children::Object(members)
                } else {
                    Children::None
                }
            }
            b'[' => {
                self.bump();
                let mut items = Vec::new();
                self.skip_space();
                if self.peek()? == b']' {
                    self.bump();
                } else {
                    let mut i = 0;
                    loop {
                        let nested = self.peek_after_space() == Some(b'[');
                        let inner = want.and_then(|w| w.index(i, nested));
                        let node = self.value(inner, depth + 1)?;
                        // Under `all` every item is kept (an array in an
                        // array as a leaf); otherwise only those wanted.
                        if inner.is_some() || want.is_some_and(|w| w.all) {
                            items.push((i, node));
                        }
                        i += 1;
                        self.skip_space();
                        match self.peek()? {
                            b',' => self.bump(),
                            b']' => {
                                self.bump();
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                if record {
                    Children::Array(items)
                } else {
                    Children::None
                }
            }
            b'"' => {
                self.string()?;
                Children::None
            }
            _ => {
                let start = self.i;
                while matches!(self.peek(), Some(b) if !matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                {
                    self.bump();
                }
                if start == self.i {
                    return None;
                }
                Children::None
            }
        };
        Some(Node { at, children })
    }

    fn peek_after_space(&mut self) -> Option<u8> {
        self.skip_space();
        self.peek()
    }

    /// Reads a string, escapes decoded.
    fn string(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.i;
        self.bump();
        loop {
            match self.peek()? {
                b'\\' => {
                    self.bump();
                    self.peek()?;
                    self.bump();
                }
                b'"' => {
                    self.bump();
                    break;
                }
                _ => self.bump(),
            }
        }
        serde_json::from_str(&self.text[start..self.i]).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example the item's documentation gave while it was public.
    #[test]
    fn a_path_is_written_as_dotted_keys_and_indices() {
        assert_eq!(
            FieldPath::key("rules.dice.count").to_string(),
            "rules.dice.count"
        );
        assert_eq!(FieldPath::key("snakes").index(0).to_string(), "snakes[0]");
    }

    /// The example the type's documentation gave while the module was
    /// public.
    #[test]
    fn a_value_is_found_at_its_line_and_column() {
        let text = "{\n  \"squares\": 10,\n  \"snakes\": [[9, 3], [4, 8]]\n}";
        let locator = Locator::new(text).unwrap();
        let at = locator.find(&FieldPath::key("snakes").index(1));
        assert_eq!(
            at,
            Some(Position {
                line: 3,
                column: 22
            })
        );
    }

    #[track_caller]
    fn case(text: &str, path: FieldPath, line: usize, column: usize) {
        let locator = Locator::new(text).expect("valid JSON");
        assert_eq!(
            locator.find(&path),
            Some(Position { line, column }),
            "{path} in {text:?}"
        );
    }

    #[test]
    fn fields_and_jumps_on_their_lines() {
        let text = "{\n  \"squares\": 100,\n  \"ladders\": [[1, 38],\n    [4, 14]],\n  \"rules\": {\"dice\": {\"count\": 0}}\n}\n";
        case(text, FieldPath::key("squares"), 2, 14);
        case(text, FieldPath::key("ladders"), 3, 14);
        case(text, FieldPath::key("ladders").index(0), 3, 15);
        case(text, FieldPath::key("ladders").index(1), 4, 5);
        case(text, FieldPath::key("rules"), 5, 12);
        case(text, FieldPath::key("rules.dice.count"), 5, 31);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // "→" is three bytes of UTF-8 but one column.
        let text = r#"{"name": "a→b", "squares": 9}"#;
        case(text, FieldPath::key("squares"), 1, 28);
    }

    #[test]
    fn escaped_keys_and_strings_with_brackets() {
        let text = r#"{"name": "[\"}", "squ\u0061res": 5, "snakes": [[4, 2]]}"#;
        case(text, FieldPath::key("squares"), 1, 34);
        case(text, FieldPath::key("snakes").index(0), 1, 48);
    }

    #[test]
    fn crlf_and_byte_order_mark() {
        let text = "\u{feff}{\r\n\"squares\": 5,\r\n  \"snakes\": [[4, 2]]\r\n}";
        case(text, FieldPath::key("squares"), 2, 12);
        case(text, FieldPath::key("snakes").index(0), 3, 14);
    }

    #[test]
    fn weights_are_located_one_by_one() {
        let text = r#"{"rules": {"dice": {"weights": [1, -0.5, 1]}}}"#;
        case(text, FieldPath::key("rules.dice.weights").index(1), 1, 36);
    }

    #[test]
    fn inside_a_pair_nothing_is_recorded() {
        let locator = Locator::new(r#"{"snakes": [[4, 2]]}"#).unwrap();
        assert_eq!(
            locator.find(&FieldPath::key("snakes").index(0).index(1)),
            None
        );
    }

    #[test]
    fn a_missing_field_falls_back_to_its_nearest_ancestor() {
        let text = "{\n \"squares\": 5,\n \"rules\": {\"start\": 1}\n}";
        let locator = Locator::new(text).unwrap();
        assert_eq!(locator.find(&FieldPath::key("rules.dice.count")), None);
        assert_eq!(
            locator.nearest(&FieldPath::key("rules.dice.count")),
            Position {
                line: 3,
                column: 11
            }
        );
        assert_eq!(
            locator.nearest(&FieldPath::key("limits.max_mean_turns")),
            Position { line: 1, column: 1 }
        );
    }

    #[test]
    fn only_the_paths_asked_for_are_recorded() {
        let text = r#"{"squares": 10, "snakes": [[9, 3], [8, 2], [7, 1]], "rules": {"start": 1}}"#;
        let want = [FieldPath::key("snakes").index(1)];
        let locator = Locator::for_paths(text, &want).unwrap();
        assert_eq!(
            locator.find(&want[0]),
            Some(Position {
                line: 1,
                column: 36
            })
        );
        assert_eq!(
            locator.find(&FieldPath::key("snakes")),
            Some(Position {
                line: 1,
                column: 27
            })
        );
        assert_eq!(locator.find(&FieldPath::key("snakes").index(0)), None);
        assert_eq!(locator.find(&FieldPath::key("squares")), None);
        assert_eq!(locator.find(&FieldPath::key("rules.start")), None);
        let everything = Locator::new(text).unwrap();
        assert_eq!(everything.find(&want[0]), locator.find(&want[0]));
        assert_eq!(
            everything.find(&FieldPath::key("snakes").index(2)),
            Some(Position {
                line: 1,
                column: 44
            })
        );
    }

    #[test]
    fn not_json_is_none() {
        for text in ["", "{", "{\"a\": }", "[1, 2", "{} x", "\"abc"] {
            assert!(Locator::new(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn field_paths_display_as_written() {
        assert_eq!(
            FieldPath::key("rules.dice.weights").index(2).to_string(),
            "rules.dice.weights[2]"
        );
        assert!(FieldPath::default().is_root());
    }
}
