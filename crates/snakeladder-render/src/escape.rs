//! One escaper per output kind for text that came from a user or a file (a
//! file name, a JSON key, a board's name, a revision): every message that
//! carries such text goes through the escaper of where it is printed, so a
//! name cannot forge a line of output, a GitHub workflow command, a
//! terminal escape sequence or Markdown structure.
//!
//! - [`terminal`]: standard output and standard error read by people and
//!   CI logs. Control characters (newline, carriage return, ESC, C1) and
//!   the invisible or bidirectional characters of
//!   [`snakeladder::Problem::hidden_character`] are written as Rust writes them (`\n`,
//!   `\u{1b}`, `\u{202e}`); everything else is kept.
//! - [`github_data`] and [`github_property`]: the message and the property
//!   values of a GitHub Actions workflow command (`::error file=…::…`):
//!   `%`, CR and LF as GitHub decodes them (`%25`, `%0D`, `%0A`), `:` and
//!   `,` too in a property, and every other control or hidden character as
//!   [`terminal`] writes it, since GitHub prints the decoded text to a log
//!   that renders ESC sequences.
//! - [`github_path`]: the `file=` property of a workflow command, which
//!   must name the file as it is: only GitHub's own five characters
//!   encoded, and no file name with another hidden character.
//! - [`markdown`]: inline Markdown (a heading, a table cell, a sentence):
//!   every character that could be read as structure is backslash-escaped
//!   after [`visible`] put the text on one line.
//!
//! Each is idempotent on its own output's meaning: escaping already
//! escaped text never brings a control character back.

/// Whether `c` must not reach a terminal as itself: a control character
/// or an invisible or bidirectional one ([`snakeladder::Problem::hidden_character`]).
fn hidden(c: char) -> bool {
    let mut buf = [0u8; 4];
    snakeladder::Problem::hidden_character(c.encode_utf8(&mut buf)).is_some()
}

/// Pushes the escaped form of a hidden character: `\n`, `\r`, `\t` and
/// `\u{1b}` for controls (Rust's `escape_default`), `\u{202e}` for the
/// others.
fn push_escaped(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_default());
    } else {
        out.extend(c.escape_unicode());
    }
}

/// Text safe for a terminal or a CI log: every control, invisible or
/// bidirectional character written escaped, so the text stays on its line
/// and cannot drive the terminal; and a text that starts with `::` (after
/// blanks) has its first colon written `\u{3a}`, since a CI log reads a line
/// that starts so as a workflow command (`::error::`, `::stop-commands::`)
/// and the text may be printed at the start of a line.
///
/// # Example
/// ```
/// use snakeladder_render::escape::terminal;
/// assert_eq!(terminal("a\n::error::x"), r"a\n::error::x");
/// assert_eq!(terminal("::error::x"), r"\u{3a}:error::x");
/// assert_eq!(terminal(" ::x"), r" \u{3a}:x");
/// assert_eq!(terminal("\u{1b}[31mred"), r"\u{1b}[31mred");
/// assert_eq!(terminal("\u{202e}txt"), r"\u{202e}txt");
/// assert_eq!(terminal("plain: ünïcode"), "plain: ünïcode");
/// ```
pub fn terminal(text: &str) -> String {
    let command = starts_command(text);
    if !command && !text.chars().any(hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let blanks = text.len() - text.trim_start().len();
    for (i, c) in text.char_indices() {
        if command && i == blanks {
            out.push_str("\\u{3a}");
        } else if hidden(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `text` would start a GitHub Actions workflow command were it
/// printed at the start of a line: `::` after any blanks, as the runner
/// trims them.
fn starts_command(text: &str) -> bool {
    text.trim_start().starts_with("::")
}

/// The message of a GitHub Actions workflow command: `%`, CR and LF
/// encoded as GitHub decodes them, every other control or hidden character
/// as [`terminal`] writes it.
///
/// # Example
/// ```
/// use snakeladder_render::escape::github_data;
/// assert_eq!(github_data("50%\nnext"), "50%25%0Anext");
/// assert_eq!(github_data("a\u{1b}[31m"), r"a\u{1b}[31m");
/// ```
pub fn github_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if hidden(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// A property value of a workflow command (`file=…`, `title=…`): as
/// [`github_data`], and `:` and `,` encoded too.
///
/// # Example
/// ```
/// use snakeladder_render::escape::github_property;
/// assert_eq!(github_property("a:b,c\n"), "a%3Ab%2Cc%0A");
/// ```
pub fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The `file=` property of a workflow command that names the file as it
/// is on disk, so the annotation lands on it: only the characters GitHub
/// decodes in a property encoded (`%`, CR, LF, `:`, `,`), since GitHub
/// would decode nothing else and the path would name no file. No
/// character left can end the command's line or its properties.
///
/// `None` when the path holds another control, bidirectional or invisible
/// character (ESC, U+202E): written as it is it would reach the log raw,
/// which nothing this tool prints does, and escaped it names no file. The
/// caller then gives the name as printed ([`github_property`]).
///
/// # Example
/// ```
/// use snakeladder_render::escape::github_path;
/// assert_eq!(
///     github_path("a\n::error::b,c%.json").as_deref(),
///     Some("a%0A%3A%3Aerror%3A%3Ab%2Cc%25.json")
/// );
/// assert_eq!(github_path("a\u{1b}[31m.json"), None);
/// ```
pub fn github_path(path: &str) -> Option<String> {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            c if hidden(c) => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// Replaces the characters of a file-derived string that could change how
/// the text around it reads: line and paragraph separators and controls
/// become a space; bidirectional overrides and isolates, zero-width and
/// other invisible format characters are shown as a visible `⟨U+XXXX⟩`,
/// so a name cannot reverse or hide the text after it.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}' | '\u{85}' => out.push(' '),
            c if c.is_control() => out.push(' '),
            '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{061C}'
            | '\u{FEFF}'
            | '\u{00AD}' => out.push_str(&format!("⟨U+{:04X}⟩", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The characters [`markdown`] escapes.
const MARKDOWN_SPECIAL: &str = "\\`*_[]<>#|!~&$";

/// What [`markdown`] writes inside a text GitHub would turn into a
/// reference: the word joiner U+2060 as a character reference.
///
/// GitHub links `@name` (and pings that user or team), `#123`, `GH-123`
/// and bare `http://…` or `www.…` addresses in the text of a rendered
/// document, after Markdown has been read. A backslash escape or
/// `&#64;` does not stop it: both are gone once Markdown is read, and the
/// text GitHub searches says `@name` again. A joiner between `@` and the
/// name does: the text shown is the same (it has no width and, unlike a
/// zero-width space, allows no line break), but the name no longer
/// follows the `@`. It is written as a reference, not as the character,
/// so the Markdown itself holds no invisible character (the kind
/// `validate` refuses in a name).
const UNLINK: &str = "&#8288;";

/// Escapes a file-derived string for Markdown inline text, a heading or a
/// table cell (after [`visible`], so it stays on one line): every ASCII
/// character that Markdown (GitHub's included) could read as structure
/// inside a line (`#`, `|`, `<`, `*`, `_`, `[`, `!`, `$`, backquote…) is
/// backslash-escaped, so it prints as itself. Characters that only matter
/// at the start of a line (`-`, `+`, `.`) are left alone: a heading or a
/// cell never starts a line with the escaped text.
///
/// Text that GitHub would turn into a link (a mention `@octocat` that
/// notifies that user, a reference `#1` or `GH-1`, an address `http://…`
/// or `www.…`) gets an invisible word joiner (`&#8288;`) after its `@`,
/// `#`, `-`, `:` or `www`: it reads the same, and links nothing.
///
/// # Example
/// ```
/// use snakeladder_render::escape::markdown;
/// assert_eq!(markdown("[x](http://e) *b*"), r"\[x\](http:&#8288;//e) \*b\*");
/// assert_eq!(markdown("a|b\n# c"), r"a\|b \# c");
/// assert_eq!(markdown("by @octocat, see #12"), r"by @&#8288;octocat, see \#&#8288;12");
/// ```
pub fn markdown(text: &str) -> String {
    let shown = visible(text);
    let chars: Vec<char> = shown.chars().collect();
    let mut out = String::with_capacity(shown.len());
    for (i, &c) in chars.iter().enumerate() {
        if MARKDOWN_SPECIAL.contains(c) {
            out.push('\\');
        }
        out.push(c);
        if links_after(&chars, i) {
            out.push_str(UNLINK);
        }
    }
    out
}

/// Whether GitHub could read `chars[..=i]` and what follows as the start
/// of a link it makes by itself: `@name` (a mention, or an e-mail
/// address), `#1`, `GH-1`, `scheme://` or `www.`.
fn links_after(chars: &[char], i: usize) -> bool {
    let next = chars.get(i + 1).copied();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let before = |n: usize| (i + 1 >= n).then(|| chars[i + 1 - n..=i].iter().collect::<String>());
    match chars[i] {
        '@' | '#' => word(next),
        '-' => {
            next.is_some_and(|c| c.is_ascii_digit())
                && before(3).is_some_and(|s| s.eq_ignore_ascii_case("GH-"))
        }
        ':' => chars.get(i + 1..i + 3) == Some(&['/', '/']),
        'w' | 'W' => next == Some('.') && before(3).is_some_and(|s| s.eq_ignore_ascii_case("www")),
        _ => false,
    }
}

/// A path as printed in a report: control characters (a newline, an
/// escape sequence) are shown escaped, so a file name cannot forge a line
/// of output or drive a terminal.
///
/// # Example
/// ```
/// use snakeladder_render::escape::display_path;
/// assert_eq!(display_path("boards/a\nb.json".as_ref()), r"boards/a\nb.json");
/// assert_eq!(display_path("boards/a\u{1b}[31m.json".as_ref()), r"boards/a\u{1b}[31m.json");
/// ```
pub fn display_path(path: &std::path::Path) -> String {
    terminal(&path.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character that can forge a line or drive a terminal.
    const FORGERS: [&str; 6] = ["\n", "\r", "\u{1b}", "\u{9b}", "\u{202e}", "\u{2028}"];

    #[test]
    fn no_escaper_lets_a_forging_character_through() {
        for f in FORGERS {
            let text = format!("name{f}::error::x");
            for (kind, out) in [
                ("terminal", terminal(&text)),
                ("github_data", github_data(&text)),
                ("github_property", github_property(&text)),
                ("markdown", markdown(&text)),
            ] {
                assert!(
                    snakeladder::Problem::hidden_character(&out).is_none(),
                    "{kind} kept {f:?}: {out:?}"
                );
            }
        }
    }

    #[test]
    fn escaping_twice_changes_nothing_more_for_the_terminal() {
        let once = terminal("a\n\u{1b}[2J\u{202e}b");
        assert_eq!(terminal(&once), once);
    }

    #[test]
    fn markdown_links_no_mention_reference_or_address() {
        for (text, shown) in [
            ("@octocat", "@&#8288;octocat"),
            ("@org/team", "@&#8288;org/team"),
            ("a@b.io", "a@&#8288;b.io"),
            ("#12", r"\#&#8288;12"),
            ("x/y#3", r"x/y\#&#8288;3"),
            ("GH-4 gh-5", "GH-&#8288;4 gh-&#8288;5"),
            ("https://e.com", "https:&#8288;//e.com"),
            ("www.e.com WWW.x", "www&#8288;.e.com WWW&#8288;.x"),
            // Nothing that names no one is touched.
            (
                "a @ b, # 1, GH-x, 10:30, w.x",
                r"a @ b, \# 1, GH-x, 10:30, w.x",
            ),
        ] {
            assert_eq!(markdown(text), shown, "{text}");
        }
    }

    #[test]
    fn github_encodes_its_own_characters() {
        assert_eq!(github_data("100%\r\n"), "100%25%0D%0A");
        assert_eq!(github_property("f:1,2"), "f%3A1%2C2");
    }
}
