//! What a token has ever rested on and used, as bits, and the count of
//! tokens that set each bit.
//!
//! On boards whose squares and jumps fit in [`MARK_BITS`], every table entry
//! carries the [`Marks`] of its end square and its jumps; the inner loop ors
//! them into registers while the token plays. When the token finishes, its
//! marks go into a [`MarkTally`]: a bit-sliced counter that adds all 128
//! bits of eight tokens at once in a fixed, branch-free sequence of word
//! operations, instead of one memory increment (and a hard-to-predict loop
//! exit) per set bit.

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

/// Bit planes of the [`MarkTally`]'s count of groups: each bit's count of
/// [`GROUP`]s has this many binary digits, so the planes spill every
/// `2^PLANES − 1` groups.
const PLANES: usize = 12;

/// Tokens whose marks are added together, by a carry-save adder tree.
const GROUP: usize = 8;

/// Tokens between spills: `GROUP` × (`2^PLANES` − 1).
#[cfg(test)]
const SPILL_TOKENS: usize = GROUP * ((1 << PLANES) - 1);

/// One carry-save adder, bit by bit: `(carry, sum)` of `a + b + c`.
#[inline(always)]
fn csa(a: u64, b: u64, c: u64) -> (u64, u64) {
    let u = a ^ b;
    ((a & b) | (u & c), u ^ c)
}

/// Per mark bit, the number of tokens whose marks had it.
///
/// A token's marks wait in a group of [`GROUP`]; a full group is added to
/// every bit's count at once, bit-sliced, by the Harley–Seal carry-save
/// tree: seven adders of five word operations fold the eight tokens and the
/// kept `ones`, `twos` and `fours` digits into new digits and one carry of
/// weight 8, and only that carry ripples through the [`PLANES`] planes of
/// eights (three operations a plane). That is about seven word operations
/// per token and word where adding each token through every plane took 24.
/// Before a plane could overflow, the digits are spilled into plain totals.
#[derive(Clone, Debug)]
pub(super) struct MarkTally {
    /// The marks of the tokens of the group being filled.
    group: [Marks; GROUP],
    /// How many of `group` are filled.
    filled: usize,
    /// The digits of weight 1, 2 and 4 of every bit's pending count.
    low: [Marks; 3],
    /// The digits of weight 8, 16, … of every bit's pending count.
    planes: [Marks; PLANES],
    /// Groups added since the last spill.
    pending: u32,
    /// Per bit, the counts already spilled.
    spilled: Vec<u64>,
}

impl Default for MarkTally {
    fn default() -> MarkTally {
        MarkTally {
            group: [[0; MARK_WORDS]; GROUP],
            filled: 0,
            low: [[0; MARK_WORDS]; 3],
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
        self.group[self.filled % GROUP] = marks;
        self.filled += 1;
        if self.filled == GROUP {
            self.add_group();
        }
    }

    /// Adds the full group to the digits, and spills them before a plane
    /// could overflow. Once every [`GROUP`] tokens: kept out of the game
    /// loop's code.
    #[inline(never)]
    fn add_group(&mut self) {
        let g = &self.group;
        for w in 0..MARK_WORDS {
            let [ones, twos, fours] = self.low.map(|d| d[w]);
            let (twos_a, o) = csa(ones, g[0][w], g[1][w]);
            let (twos_b, o) = csa(o, g[2][w], g[3][w]);
            let (fours_a, t) = csa(twos, twos_a, twos_b);
            let (twos_a, o) = csa(o, g[4][w], g[5][w]);
            let (twos_b, o) = csa(o, g[6][w], g[7][w]);
            let (fours_b, t) = csa(t, twos_a, twos_b);
            let (mut carry, f) = csa(fours, fours_a, fours_b);
            self.low[0][w] = o;
            self.low[1][w] = t;
            self.low[2][w] = f;
            for plane in &mut self.planes {
                let next = plane[w] & carry;
                plane[w] ^= carry;
                carry = next;
            }
        }
        self.filled = 0;
        self.pending += 1;
        if self.pending == (1 << PLANES) - 1 {
            Self::decode_into(&self.low, &self.planes, &mut self.spilled);
            self.low = [[0; MARK_WORDS]; 3];
            self.planes = [[0; MARK_WORDS]; PLANES];
            self.pending = 0;
        }
    }

    /// Adds the counts held in the digits `low` (weights 1, 2, 4) and
    /// `planes` (weights 8, 16, …) to `totals`, without a branch.
    fn decode_into(low: &[Marks; 3], planes: &[Marks; PLANES], totals: &mut [u64]) {
        for (bit, total) in totals.iter_mut().enumerate().take(MARK_BITS) {
            let (w, b) = (bit / 64, bit % 64);
            *total += low
                .iter()
                .chain(planes)
                .enumerate()
                .map(|(digit, plane)| ((plane[w] >> b) & 1) << digit)
                .sum::<u64>();
        }
    }

    /// Per bit, the tokens counted so far.
    pub(super) fn counts(&self) -> Vec<u64> {
        let mut totals = self.spilled.clone();
        Self::decode_into(&self.low, &self.planes, &mut totals);
        for marks in &self.group[..self.filled] {
            for (bit, total) in totals.iter_mut().enumerate().take(MARK_BITS) {
                *total += (marks[bit / 64] >> (bit % 64)) & 1;
            }
        }
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
        // Every bit set on every token of one spill period, and on a few
        // more left in a group that is not full.
        for _ in 0..SPILL_TOKENS + 5 {
            a.add([u64::MAX; MARK_WORDS]);
        }
        for count in &mut plain {
            *count += SPILL_TOKENS as u64 + 5;
        }
        a.merge(&b);
        assert_eq!(a.counts(), plain);
    }
}
