//! The bottom of the search: counts of squares per line, sums of the largest line counts, and the
//! bit tricks the kernel's row-at-a-time loops share (byte masks, byte-wise compares, set bits).
//! Nothing here knows of nodes or bounds; `bounds` and the kernel both build on it.

use crate::board::{Bits, Geometry, LINE_SLOTS, MAX_SIDE};

/// Most candidates a square can have: its row, column and two diagonals on a 32×32 board.
pub(crate) const MAX_CANDIDATES: usize = 128;

/// Lines of one family, padded: the slots past a family's last line always count 0.
pub(super) const FAMILY_SLOTS: usize = 64;

/// Lanes of a row of coverages: the longest row.
pub(super) const ROW: usize = MAX_SIDE;

/// Count the members of `set` on each line into `counts`; returns `|set|`.
#[inline(always)]
pub(super) fn count_lines<const W: usize>(
    geo: &Geometry<W>,
    set: &Bits<W>,
    counts: &mut [u8; LINE_SLOTS],
) -> usize {
    counts.fill(0);
    let mut n = 0;
    set.for_each(|s| {
        for l in geo.lines[s] {
            counts[l as usize] += 1;
        }
        n += 1;
    });
    n
}

/// Sum of the `k` largest of `counts`. The fast paths (k = 1, 2) are where most nodes are: they
/// keep a running top two per byte lane over the fixed width (plain max/min, which vectorise) and
/// merge the lanes at the end.
#[inline(always)]
pub(super) fn top_sum(counts: &[u8; FAMILY_SLOTS], k: usize) -> usize {
    const LANES: usize = 16;
    match k {
        1 => counts.iter().copied().fold(0, u8::max) as usize,
        2 => {
            let mut first = [0u8; LANES];
            let mut second = [0u8; LANES];
            for chunk in counts.chunks_exact(LANES) {
                for i in 0..LANES {
                    let c = chunk[i];
                    second[i] = second[i].max(first[i].min(c));
                    first[i] = first[i].max(c);
                }
            }
            // Merge the lanes in halves, so that each step is again lane by lane: merged one at
            // a time, they compiled to chains of byte extracts and compares, and the line bound
            // took 21.7% of γ(Q_15)'s samples (17.6% so).
            let mut width = LANES;
            while width > 1 {
                width /= 2;
                for i in 0..width {
                    let (a, b) = (first[i], first[i + width]);
                    second[i] = second[i].max(second[i + width]).max(a.min(b));
                    first[i] = a.max(b);
                }
            }
            first[0] as usize + second[0] as usize
        }
        _ => {
            // The k-th largest count t, by binary search on how many lines hold at least t; the
            // sum is then every count above t and enough copies of t. Six passes of compares
            // over the family vectorise; a histogram of the counts would not, and its
            // increments of one bin (the empty lines, mostly) wait on each other (25% of 12x19's
            // time went there).
            const _: () = assert!(MAX_SIDE < 64, "the search steps reach counts up to 63");
            let at_least = |t: u8| counts.iter().map(|&c| (c >= t) as u8).sum::<u8>() as usize;
            let mut t = 0u8;
            for step in [32, 16, 8, 4, 2, 1] {
                if at_least(t + step) >= k {
                    t += step;
                }
            }
            let above: u16 = counts
                .iter()
                .map(|&c| if c > t { c as u16 } else { 0 })
                .sum();
            above as usize + (k - at_least(t + 1)) * t as usize
        }
    }
}

/// Bit i: whether byte i of `x` is at least `t`, for bytes below 128 and `t` ≤ 128 (coverages
/// are at most 4·32 − 3). Eight compares in one word: byte i of (x | 0x80..) − t·0x01.. keeps
/// its top bit exactly when x_i + 128 − t ≥ 128, and no byte borrows from the next.
#[inline(always)]
pub(super) fn bytes_at_least(x: u64, t: u8) -> u8 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ge = ((x | HIGH) - ONES * t as u64) & HIGH;
    // Gather the eight top bits into one byte.
    ((ge >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The positions of the set bits of `mask`, lowest first.
#[inline(always)]
pub(super) fn ones64(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

#[inline(always)]
pub(super) fn ones32(mask: u32) -> impl Iterator<Item = usize> {
    ones64(mask.into())
}

/// Bit i of `bits` as byte i: 0xFF if set, 0 if not.
#[inline(always)]
pub(super) fn byte_mask(bits: u32) -> [u8; ROW] {
    let mut out = [0u8; ROW];
    for (chunk, byte) in out.chunks_exact_mut(8).zip(bits.to_le_bytes()) {
        chunk.copy_from_slice(&BYTE_MASKS[byte as usize].to_le_bytes());
    }
    out
}

/// `BYTE_MASKS[b]`: byte i is 0xFF where bit i of b is set.
static BYTE_MASKS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::XorShift;

    #[test]
    fn bytes_at_least_compares_each_byte() {
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..2000 {
            let x = rng.next();
            let bytes = (x & 0x7f7f_7f7f_7f7f_7f7f).to_le_bytes();
            let word = u64::from_le_bytes(bytes);
            for t in 0..=128u8 {
                let want = (0..8).fold(0u8, |m, i| m | ((bytes[i] >= t) as u8) << i);
                assert_eq!(bytes_at_least(word, t), want, "{bytes:?} >= {t}");
            }
        }
    }

    #[test]
    fn top_sums() {
        let mut c = [0u8; FAMILY_SLOTS];
        c[..5].copy_from_slice(&[3, 7, 7, 1, 5]);
        assert_eq!(top_sum(&c, 1), 7);
        assert_eq!(top_sum(&c, 2), 14);
        assert_eq!(top_sum(&c, 3), 19);
        assert_eq!(top_sum(&c, 9), 23);
        c[2] = 2;
        assert_eq!(top_sum(&c, 2), 12);
        // Both largest in one lane, and in different lanes.
        let mut c = [0u8; FAMILY_SLOTS];
        c[3] = 9;
        c[19] = 8;
        c[35] = 1;
        assert_eq!(top_sum(&c, 2), 17);
        c[4] = 8;
        assert_eq!(top_sum(&c, 2), 17);
        c[63] = 9;
        assert_eq!(top_sum(&c, 2), 18);
    }

    #[test]
    fn top_sums_agree_with_sorting() {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        for case in 0..2000 {
            let mut c = [0u8; FAMILY_SLOTS];
            // Few or many lines in use, short or full-length (up to MAX_SIDE squares).
            let used = 1 + (case % FAMILY_SLOTS);
            for v in c[..used].iter_mut() {
                let x = rng.next();
                *v = (x % (MAX_SIDE as u64 + 1)) as u8 >> (case % 3);
            }
            let mut sorted = c;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            for k in 0..=FAMILY_SLOTS + 2 {
                let want: usize = sorted.iter().take(k).map(|&v| v as usize).sum();
                assert_eq!(top_sum(&c, k), want, "case {case}, k = {k}, counts {c:?}");
            }
        }
    }
}
