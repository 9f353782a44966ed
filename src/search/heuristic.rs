//! A quick layout to start from: its size is the first upper bound, so that the exhaustive search
//! only has to look for strictly smaller layouts.

use crate::board::{Bits, Geometry};

/// Greedy: repeatedly place the queen covering the most uncovered squares (lowest index on ties).
/// For independent domination the queen must stand on an uncovered square: exactly the squares no
/// queen attacks, so the result is independent. Deterministic, so runs are reproducible.
pub(crate) fn greedy<const W: usize>(geo: &Geometry<W>, independent: bool) -> Vec<u16> {
    let mut covered = Bits::<W>::EMPTY;
    let mut queens = Vec::new();
    while covered != geo.full {
        let uncovered = geo.full.minus(&covered);
        let pool = if independent { uncovered } else { geo.full };
        let mut best = (0, usize::MAX);
        pool.for_each(|v| {
            let gain = geo.cover[v].count_and(&uncovered);
            if gain > best.0 {
                best = (gain, v);
            }
        });
        queens.push(best.1 as u16);
        covered = covered.or(&geo.cover[best.1]);
    }
    queens
}
