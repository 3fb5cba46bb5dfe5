//! A short, stable fingerprint of a board's layout and effective rules.
//!
//! Two people who quote 39.2 and 39.6 turns for "the" classic board can
//! compare fingerprints and see at once that their boards differ (the
//! transcriptions with the chute 47→26 and 48→26 do exactly this).
//!
//! # Definition
//! The fingerprint is FNV-1a (64-bit: offset basis `0xcbf29ce484222325`,
//! prime `0x100000001b3`) over a canonical text, written as 16 lowercase hex
//! digits. The canonical text (see [`canonical_text`]) has one `key=value`
//! line per item, in a fixed order: a version line, the last square, the
//! jumps sorted by start square as `from>to`, then the effective rules with
//! every default filled in. The dice are written as their exact
//! distribution (`total:numerator/denominator`), so a loaded die with equal
//! weights and a fair die are the same game and print the same fingerprint.
//! The board's name and drawing width are not part of the game and are left
//! out. The order jumps are written in, and whether a jump is listed as a
//! snake or a ladder, do not matter. std's `DefaultHasher` is not used: its
//! output may change between Rust releases.

use crate::Board;
use std::fmt::Write;

/// The canonical text the fingerprint hashes.
pub(crate) fn canonical_text(board: &Board) -> String {
    let rules = board.rules();
    let mut text = String::from("snakeladder-board-v1\n");
    let _ = writeln!(text, "squares={}", board.last());
    text.push_str("jumps=");
    for (i, j) in board.jumps().iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(text, "{comma}{}>{}", j.from(), j.to());
    }
    text.push('\n');
    let overshoot: &str = rules.overshoot().into();
    let chains: &str = rules.chains().into();
    let entry: &str = rules.entry().into();
    let _ = writeln!(text, "overshoot={overshoot}");
    let _ = writeln!(text, "chains={chains}");
    text.push_str("dice=");
    for (i, (total, p)) in rules.dice().exact_outcomes().iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(text, "{comma}{total}:{}/{}", p.numer(), p.denom());
    }
    text.push('\n');
    match rules.extra_turn() {
        None => text.push_str("extra_turn=none\n"),
        Some(x) => {
            let opt = |v: Option<u32>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
            let _ = writeln!(
                text,
                "extra_turn=on:{},max_extra:{},forfeit_after:{}",
                x.on(),
                opt(x.max_extra()),
                opt(x.forfeit_after())
            );
        }
    }
    let _ = writeln!(text, "entry={entry}");
    let _ = writeln!(text, "start={}", rules.start());
    text
}

/// FNV-1a, 64 bits.
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

impl Board {
    /// The board's fingerprint: 16 hex digits of FNV-1a over the layout and
    /// the effective rules (not the name, the drawing width or the order the
    /// jumps are listed in).
    ///
    /// # Example
    /// ```
    /// use snakeladder::Board;
    /// let a = Board::from_json_str(r#"{"squares": 20, "ladders": [[3, 9]], "snakes": [[17, 4]]}"#)?;
    /// let b = Board::from_json_str(r#"{"name": "same game", "snakes": [[17, 4]], "ladders": [[3, 9]], "squares": 20}"#)?;
    /// assert_eq!(a.fingerprint(), b.fingerprint());
    /// assert_eq!(a.fingerprint().len(), 16);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn fingerprint(&self) -> String {
        fingerprint(self)
    }
}

/// The board's fingerprint: 16 hex digits (see [`Board::fingerprint`]).
pub fn fingerprint(board: &Board) -> String {
    format!("{:016x}", fnv1a64(canonical_text(board).as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_reference_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_two_classic_transcriptions_differ() {
        let mb = Board::builtin_default();
        let aks = Board::from_json_str(include_str!("../../boards/althoen-1993.json")).unwrap();
        assert_ne!(fingerprint(&mb), fingerprint(&aks));
    }

    #[test]
    fn order_and_name_do_not_matter_but_rules_do() {
        let a = Board::from_json_str(
            r#"{"squares": 30, "ladders": [[3, 9], [5, 20]], "snakes": [[27, 4]]}"#,
        )
        .unwrap();
        let b = Board::from_json_str(r#"{"name": "x", "width": 5, "ladders": [[5, 20], [3, 9]], "snakes": [[27, 4]], "squares": 30}"#).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&b));
        let c = Board::from_json_str(r#"{"squares": 30, "ladders": [[3, 9], [5, 20]], "snakes": [[27, 4]], "rules": {"overshoot": "bounce"}}"#).unwrap();
        assert_ne!(fingerprint(&a), fingerprint(&c));
        // Explicit defaults are the same game.
        let d = Board::from_json_str(r#"{"squares": 30, "ladders": [[3, 9], [5, 20]], "snakes": [[27, 4]], "rules": {"overshoot": "stay", "dice": {"count": 1, "faces": 6}, "start": 0}}"#).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&d));
        let loaded = Board::from_json_str(r#"{"squares": 30, "ladders": [[3, 9], [5, 20]], "snakes": [[27, 4]], "rules": {"dice": {"weights": [2, 2, 2, 2, 2, 2]}}}"#).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&loaded));
    }
}
