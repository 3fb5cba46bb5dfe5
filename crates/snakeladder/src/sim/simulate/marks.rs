//! What a token has ever rested on and used, as bits, and the count of
//! tokens that set each bit.
//!
//! On boards whose squares and jumps fit in [`MARK_BITS`], every table entry
//! carries the [`Marks`] of its end square and its jumps; the inner loop ors
//! them into registers while the token plays. When the token finishes, its
//! marks go into a [`MarkTally`]: a bit-sliced counter that adds all 128
//! bits at once in a fixed, branch-free sequence of word operations, instead
//! of one memory increment (and a hard-to-predict loop exit) per set bit.

use super::table::{MoveTable, PATH};

/// Words of [`Marks`]: 128 bits hold a 100-square board and its jumps.
pub(super) const MARK_WORDS: usize = 2;

/// Bits of [`Marks`].
pub(super) const MARK_BITS: usize = 64 * MARK_WORDS;

/// One bit per square (`0..=N`) then one per jump.
pub(super) type Marks = [u64; MARK_WORDS];

/// The marks of every table entry: its end square, and the jumps of its
/// path after the squares. `None` when they do not fit in [`MARK_BITS`].
pub(super) fn entry_marks(table: &MoveTable, jumps: usize) -> Option<Vec<Marks>> {
    let squares = table.squares();
    if squares + jumps > MARK_BITS {
        return None;
    }
    let set = |m: &mut Marks, bit: usize| m[bit / 64] |= 1 << (bit % 64);
    let marks = table
        .entries()
        .iter()
        .zip(table.ends())
        .map(|(e, &end)| {
            let mut m = [0; MARK_WORDS];
            set(&mut m, end as usize);
            let path = e.info() & PATH;
            if path != 0 {
                for j in table.path(path) {
                    set(&mut m, squares + j as usize);
                }
            }
            m
        })
        .collect();
    Some(marks)
}

/// Bit planes of the [`MarkTally`]: each bit's pending count has this many
/// binary digits, so the planes spill every `2^PLANES − 1` tokens.
const PLANES: usize = 8;

/// Per mark bit, the number of tokens whose marks had it.
///
/// Counts below `2^PLANES` are kept bit-sliced: digit `d` of bit `b`'s count
/// is bit `b` of `planes[d]`, and adding a token's marks is a ripple-carry
/// add of one bit to all 128 counters at once (three word operations per
/// plane and word). Before a count could overflow, the planes are spilled
/// into plain totals.
#[derive(Clone, Debug)]
pub(super) struct MarkTally {
    planes: [Marks; PLANES],
    /// Tokens added since the planes were last spilled.
    pending: u32,
    /// Per bit, the counts already spilled.
    spilled: Vec<u64>,
}

impl Default for MarkTally {
    fn default() -> MarkTally {
        MarkTally {
            planes: [[0; MARK_WORDS]; PLANES],
            pending: 0,
            spilled: vec![0; MARK_BITS],
        }
    }
}

impl MarkTally {
    /// Counts one token's marks.
    #[inline(always)]
    pub(super) fn add(&mut self, marks: Marks) {
        for (w, mut carry) in marks.into_iter().enumerate() {
            for plane in &mut self.planes {
                let next = plane[w] & carry;
                plane[w] ^= carry;
                carry = next;
            }
        }
        self.pending += 1;
        if self.pending == (1 << PLANES) - 1 {
            Self::decode_into(&self.planes, &mut self.spilled);
            self.planes = [[0; MARK_WORDS]; PLANES];
            self.pending = 0;
        }
    }

    /// Adds the counts of `planes` to `totals`: for every bit, its digits
    /// from each plane, without a branch. Once every 255 tokens: kept out
    /// of the game loop's code.
    #[inline(never)]
    fn decode_into(planes: &[Marks; PLANES], totals: &mut [u64]) {
        for (bit, total) in totals.iter_mut().enumerate().take(MARK_BITS) {
            let (w, b) = (bit / 64, bit % 64);
            *total += planes
                .iter()
                .enumerate()
                .map(|(digit, plane)| ((plane[w] >> b) & 1) << digit)
                .sum::<u64>();
        }
    }

    /// Per bit, the tokens counted so far.
    pub(super) fn counts(&self) -> Vec<u64> {
        let mut totals = self.spilled.clone();
        Self::decode_into(&self.planes, &mut totals);
        totals
    }

    /// Adds `other`'s counts to these.
    pub(super) fn merge(&mut self, other: &MarkTally) {
        for (a, b) in self.spilled.iter_mut().zip(other.counts()) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The tally against plain per-bit counting, across several spills and
    /// a merge of two tallies, with sparse and dense random marks.
    #[test]
    fn tally_counts_every_bit_like_a_plain_count() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut plain = vec![0_u64; MARK_BITS];
        let (mut a, mut b) = (MarkTally::default(), MarkTally::default());
        for token in 0..3_000 {
            let dense = token % 7 == 0;
            let mut marks = [0; MARK_WORDS];
            for word in &mut marks {
                *word = rng.random::<u64>() & rng.random::<u64>();
                if !dense {
                    *word &= rng.random::<u64>() & rng.random::<u64>();
                }
            }
            for (bit, count) in plain.iter_mut().enumerate() {
                *count += (marks[bit / 64] >> (bit % 64)) & 1;
            }
            if token % 3 == 0 { &mut b } else { &mut a }.add(marks);
        }
        // Every bit set on all 255 tokens of one spill period.
        for _ in 0..(1 << PLANES) - 1 {
            a.add([u64::MAX; MARK_WORDS]);
        }
        for count in &mut plain {
            *count += (1 << PLANES) - 1;
        }
        a.merge(&b);
        assert_eq!(a.counts(), plain);
    }
}
