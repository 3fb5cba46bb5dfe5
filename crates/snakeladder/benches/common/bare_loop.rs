//! The bare loop the simulator is measured against (shared by the
//! `simulate` and `sim_ratio` benches): a table of next squares and a
//! xoshiro generator, nothing else.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use snakeladder::{Board, Square};

/// `next[square * 6 + face]`: where one roll of a fair die takes a token,
/// for every square up to the board's last.
pub fn move_table(board: &Board) -> Vec<u32> {
    (0..=board.last().get())
        .flat_map(|s| (1..=6).map(move |r| (s, r)))
        .map(|(s, r)| board.move_token(Square::new(s), r).end.get())
        .collect()
}

/// The plain loop: `next[square * 6 + face]`, finish when the square is N.
/// Returns the rolls made.
pub fn baseline(next: &[u32], last: u32, games: u64, seed: u64) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut rolls = 0_u64;
    for _ in 0..games {
        let mut square = 0_u32;
        while square != last {
            // Lemire's multiply: a face in 0..6 from the high bits.
            let face = ((u128::from(rng.next_u64()) * 6) >> 64) as usize;
            square = next[square as usize * 6 + face];
            rolls += 1;
        }
    }
    rolls
}
