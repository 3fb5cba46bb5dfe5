//! Lines and whitespace-separated fields of the explicit text files, with
//! their line and column numbers.

/// One line: its number from 1, and its bytes without the line ending
/// (`\n` or `\r\n`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    pub(crate) number: u64,
    pub(crate) text: &'a [u8],
}

/// The lines of `bytes`, past a UTF-8 byte-order mark. A final line ending
/// does not start another line.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let empty = bytes.is_empty();
    body.split(|&b| b == b'\n')
        .filter(move |_| !empty)
        .zip(1u64..)
        .map(|(text, number)| Line {
            number,
            text: text.strip_suffix(b"\r").unwrap_or(text),
        })
}

/// One field of a line: its column (in bytes, from 1) and its bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field<'a> {
    pub(crate) column: u64,
    pub(crate) text: &'a [u8],
}

/// The fields of a line, separated by spaces and tabs (and any other ASCII
/// whitespace, such as a stray `\r`).
pub(crate) fn fields(line: &[u8]) -> impl Iterator<Item = Field<'_>> {
    let mut at = 0usize;
    std::iter::from_fn(move || {
        while at < line.len() && line[at].is_ascii_whitespace() {
            at += 1;
        }
        if at == line.len() {
            return None;
        }
        let start = at;
        while at < line.len() && !line[at].is_ascii_whitespace() {
            at += 1;
        }
        Some(Field {
            column: start as u64 + 1,
            text: &line[start..at],
        })
    })
}

/// Whether a line is blank or a comment (its first field starts with `#`),
/// as PRISM's readers skip them.
pub(crate) fn is_blank_or_comment(line: &[u8]) -> bool {
    fields(line).next().is_none_or(|f| f.text[0] == b'#')
}

/// The column (from 1) of the first non-blank byte of a line.
pub(crate) fn first_column(line: &[u8]) -> u64 {
    fields(line).next().map_or(1, |f| f.column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_or_crlf() {
        let text = b"\xEF\xBB\xBFa b\r\n\r\nc\n";
        let got: Vec<(u64, &[u8])> = lines(text).map(|l| (l.number, l.text)).collect();
        assert_eq!(got, [(1, &b"a b"[..]), (2, b""), (3, b"c")]);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"x").count(), 1);
        assert_eq!(lines(b"\n").count(), 1);
    }

    #[test]
    fn fields_carry_their_columns() {
        let got: Vec<(u64, &[u8])> = fields(b" 0\t1  0.5 ").map(|f| (f.column, f.text)).collect();
        assert_eq!(got, [(2, &b"0"[..]), (4, b"1"), (7, b"0.5")]);
        assert!(is_blank_or_comment(b"   "));
        assert!(is_blank_or_comment(b"  # Transitions (dtmc)"));
        assert!(!is_blank_or_comment(b"0 1 0.5 # not a comment"));
    }
}
