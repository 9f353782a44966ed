//! The crate's pseudo-random numbers, all from fixed seeds: the local search's restarts, the
//! estimator's probes, an audit's sample and the tests' random cases must be the same on every run,
//! machine and build, so the generators are written out here rather than taken from a crate whose
//! sequences may change.

/// Marsaglia's xorshift64 (shifts 13, 7, 17): small and fast, for the search's own choices.
#[derive(Clone, Debug)]
pub(crate) struct XorShift(u64);

impl XorShift {
    /// The generator in state `state`, which must not be 0 (0 stays 0).
    pub fn new(state: u64) -> XorShift {
        debug_assert_ne!(state, 0, "xorshift stays at 0");
        XorShift(state)
    }

    /// The generator for `seed`, any number: its state spread by the golden ratio, made odd.
    pub fn from_seed(seed: u64) -> XorShift {
        XorShift::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `n` (> 0); the remainder's slight bias is of no matter here.
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
}

/// SplitMix64 (Steele, Lea and Flood): what `plan::audit` draws its sample with. A seed given
/// to `audit` names the same sample on every machine and build, so it keeps this generator.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequences are part of the crate's results (starts, estimates, samples): pinned.
    #[test]
    fn sequences_are_fixed() {
        let mut x = XorShift::new(1);
        assert_eq!(
            [x.next(), x.next(), x.next()],
            [1082269761, 1152992998833853505, 11177516664432764457]
        );
        let mut s = SplitMix64::new(0);
        assert_eq!(
            [s.next(), s.next()],
            [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4]
        );
        assert_eq!(XorShift::from_seed(0).next(), XorShift::new(1).next());
    }
}
