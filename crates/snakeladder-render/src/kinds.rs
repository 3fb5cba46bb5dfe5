//! What each kind of finding means, in one table: the one-line and full
//! descriptions SARIF's rules carry, and the anchor of each kind
//! (`#kind-KIND`) on this page, where each rule's help points.
//!
// The page is the repository's docs/problems.md (through a symbolic link
// that `cargo package` turns into the file), so docs.rs carries every
// anchor of the version it documents.
#![doc = include_str!("../docs/problems.md")]

/// The description of one kind of finding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KindDoc {
    /// The kind (`snake_climbs`, `max_mean_turns`, `json`).
    pub kind: &'static str,
    /// One line: what is wrong.
    pub short: &'static str,
    /// What is wrong and how to put it right.
    pub full: &'static str,
}

/// The kinds that are not validation problems or policy thresholds: the
/// errors of reading and of the policy check.
pub const OTHER_KINDS: [&str; 5] = [
    "json",
    "io",
    "too_large",
    "no_boards",
    snakeladder::review::Finding::UNCHECKED,
];

/// Every kind of finding `validate` reports, with its description: each of
/// [`snakeladder::Problem::KINDS`], each policy key ([`snakeladder::policy::Thresholds::KEYS`]) and
/// [`OTHER_KINDS`].
pub const KINDS: &[KindDoc] = &[
    doc(
        "squares_out_of_range",
        "The number of squares is out of range",
        "`squares`, the last square N, must be an integer from 2 to 10,000,000.",
    ),
    doc(
        "width_out_of_range",
        "The width is out of range",
        "`width`, the columns of the drawn grid, must be from 1 to the number of squares.",
    ),
    doc(
        "start_out_of_range",
        "The start square is neither 0 nor 1",
        "`rules.start` is 0 (tokens start off the board) or 1.",
    ),
    doc(
        "too_many_jumps",
        "More jumps than squares to start them on",
        "Each snake and ladder starts on its own square of 1..N−1, so a board has at most N − 1 jumps; some of these share a square.",
    ),
    doc(
        "jump_starts_on_start",
        "A jump starts on the start square",
        "A token never lands on the start square, so a jump there could never be taken: move its start.",
    ),
    doc(
        "jump_starts_on_last",
        "A jump starts on the last square",
        "Landing on the last square wins the game, so a jump there could never be taken: move its start.",
    ),
    doc(
        "jump_start_off_board",
        "A jump starts off the board",
        "A jump's start must be a square of the board, 1..N−1.",
    ),
    doc(
        "jump_end_off_board",
        "A jump ends off the board",
        "A jump's end must be a square of the board, 1..N: square 0, where tokens wait off the board, is no square a jump can send them to.",
    ),
    doc(
        "jump_goes_nowhere",
        "A jump ends where it starts",
        "A jump's two squares must differ.",
    ),
    doc(
        "snake_climbs",
        "A snake goes up",
        "A snake is written `[head, tail]` and must go down: swap its squares, or move it to `ladders`.",
    ),
    doc(
        "ladder_descends",
        "A ladder goes down",
        "A ladder is written `[foot, top]` and must go up: swap its squares, or move it to `snakes`.",
    ),
    doc(
        "duplicate_start",
        "Two jumps start on one square",
        "A square holds at most one jump's start: remove or move one of them.",
    ),
    doc(
        "chain",
        "A jump ends on another jump's start (chains forbidden)",
        "Under `\"chains\": \"forbid\"` a jump may not end where another starts: move one end, or allow chains with `\"follow\"`.",
    ),
    doc(
        "chain_cycle",
        "Jumps lead back to where they started (chains followed)",
        "Under `\"chains\": \"follow\"` every chain of jumps must end; these jumps form a loop.",
    ),
    doc(
        "dice_mixed",
        "The dice give both fair faces and weights",
        "`rules.dice` is either `{\"count\", \"faces\"}` (fair dice) or `{\"weights\"}` (one loaded die), not both.",
    ),
    doc(
        "dice_count",
        "The number of dice is out of range",
        "`rules.dice.count` must be from 1 to 100.",
    ),
    doc(
        "dice_faces",
        "A die has too few or too many faces",
        "A die has from 2 to 1000 faces (a loaded die: from 2 to 1000 weights).",
    ),
    doc(
        "dice_too_wide",
        "The dice roll too many different totals",
        "The dice may roll at most 10,000 different totals: use fewer dice or fewer faces.",
    ),
    doc(
        "weight_negative",
        "A face's weight is negative",
        "The weights of a loaded die must be zero or positive.",
    ),
    doc(
        "weight_not_finite",
        "A face's weight is not a finite number",
        "The weights of a loaded die must be finite numbers.",
    ),
    doc(
        "weight_too_small",
        "A face's chance is too small for the analysis",
        "A face whose chance (its weight over the sum) is below 2.2e-308 cannot be held by the floating-point analysis: make it 0 or larger.",
    ),
    doc(
        "weights_all_zero",
        "Every weight is zero",
        "At least one face of a loaded die must have a positive weight.",
    ),
    doc(
        "weights_overflow",
        "The weights sum past the largest number",
        "The weights of a loaded die must sum to a finite number: scale them down.",
    ),
    doc(
        "extra_turn_unrollable",
        "The bonus total cannot be rolled",
        "`rules.extra_turn.on` must be a total the dice can roll.",
    ),
    doc(
        "extra_turn_max_extra",
        "The cap on extra rolls is negative",
        "`rules.extra_turn.max_extra` must be 0 or more, or `null` for no cap.",
    ),
    doc(
        "extra_turn_forfeit_after",
        "The forfeit count is below 1",
        "`rules.extra_turn.forfeit_after` must be 1 or more, or `null` for never.",
    ),
    doc(
        "endless_extra_rolls",
        "Extra rolls could go on forever",
        "The dice roll only the bonus total and nothing caps or forfeits the extra rolls: set `max_extra` or `forfeit_after`.",
    ),
    doc(
        "too_large_to_check",
        "The board is too large to check for winnability",
        "Squares × dice totals is above 120,000,000, the most moves checked for winnability.",
    ),
    doc(
        "limit_out_of_range",
        "A threshold of the board's own limits is out of range",
        "A value of the board's `limits` must be a possible limit: turns of 0 or more, a fraction from 0 to 1.",
    ),
    doc(
        "name_character",
        "A name holds a hidden or control character",
        "A name may not hold a control character, a bidirectional mark, a zero-width or invisible character or a line separator.",
    ),
    doc(
        "unwinnable",
        "Some reachable squares can never finish",
        "A token can reach these squares but never the last square from them: the game could go on forever. Change the jumps or the overshoot rule.",
    ),
    doc(
        "max_mean_turns",
        "Layout policy: games last too long",
        "The expected number of turns of one player is above the policy's `max_mean_turns`.",
    ),
    doc(
        "min_mean_turns",
        "Layout policy: games are too short",
        "The expected number of turns of one player is below the policy's `min_mean_turns`.",
    ),
    doc(
        "max_p99_turns",
        "Layout policy: the longest games last too long",
        "99% of games are not over within the policy's `max_p99_turns` turns.",
    ),
    doc(
        "max_first_seat_advantage",
        "Layout policy: the first seat wins too often",
        "With two players, P(seat 1 wins) − P(seat 2 wins) is above the policy's `max_first_seat_advantage`.",
    ),
    doc(
        "min_jump_use",
        "Layout policy: a jump is seldom used",
        "A snake or ladder is used (at least once) in fewer games than the policy's `min_jump_use` fraction.",
    ),
    doc(
        "max_shortest_game_probability",
        "Layout policy: the shortest game is too likely",
        "The probability of the fewest turns possible is above the policy's `max_shortest_game_probability`.",
    ),
    doc(
        "json",
        "The file is not a board file",
        "The file is not JSON, or not the JSON of a board (an unknown key, a value of the wrong type); the position is where reading stopped.",
    ),
    doc(
        "io",
        "The file cannot be read",
        "The file is missing, unreadable, or not a regular file.",
    ),
    doc(
        "too_large",
        "The file is too large",
        "A board file may have at most 256 MiB.",
    ),
    doc(
        "no_boards",
        "A path holds no board file",
        "A directory given to validate holds no *.json file: a wrong path would otherwise pass.",
    ),
    doc(
        "policy_unchecked",
        "The layout policy could not be checked",
        "The board is too large for the analysis within --max-memory and --max-work, or a threshold needs a figure that was skipped: it is not passed.",
    ),
];

const fn doc(kind: &'static str, short: &'static str, full: &'static str) -> KindDoc {
    KindDoc { kind, short, full }
}

/// The description of `kind`, if it is one `validate` reports.
pub fn describe(kind: &str) -> Option<&'static KindDoc> {
    KINDS.iter().find(|d| d.kind == kind)
}

/// The anchor of a kind's description on this page (docs/problems.md):
/// `kind-KIND`, with the kind's underscores as hyphens.
pub fn anchor(kind: &str) -> String {
    format!("kind-{}", kind.replace('_', "-"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakeladder::Problem;

    #[test]
    fn every_kind_is_described_once() {
        let expected: Vec<&str> = Problem::KINDS
            .iter()
            .copied()
            .chain(snakeladder::policy::Thresholds::KEYS)
            .chain(OTHER_KINDS)
            .collect();
        let described: Vec<&str> = KINDS.iter().map(|d| d.kind).collect();
        assert_eq!(described, expected);
    }
}
