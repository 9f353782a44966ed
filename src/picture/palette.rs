//! The colours of heatmap values. A value's colour depends on the value and the scale alone, never
//! on the table, so that γ = 2 has one colour in every plot drawn on one scale (the default scale
//! is the same for every plot). The ramp is computed in OKLab: lightness falls evenly from pale
//! yellow (few queens) to dark violet (many), with the hue turning through green, teal and blue as
//! viridis and cividis do. Because the order is carried by lightness, it reads in grey and under
//! the common colour-vision deficiencies; the tests check it under a deuteranopia simulation.

use thiserror::Error;

use super::svg::Rgb;
use crate::error::{ErrorKind, Kind};

/// The values a heatmap's colours run over: `lo` gets the palest colour, `hi` the darkest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    lo: usize,
    hi: usize,
}

/// Why a scale cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScaleError {
    #[error("'{0}' is not a range of values: write LO-HI, such as 1-12")]
    Syntax(String),
    #[error("the range {lo}-{hi} is empty or a single value: LO must be below HI")]
    Empty { lo: usize, hi: usize },
    #[error("the range {lo}-{hi} reaches beyond {max}: no board to 32×32 needs that many queens")]
    TooHigh { lo: usize, hi: usize, max: usize },
}

/// Highest value a scale may reach: a queen on every row of a 32×32 board.
const MAX_VALUE: usize = crate::MAX_SIDE;

impl Scale {
    /// The scale of every plot drawn without `--range`: 1 to 18 queens. That holds every γ and i
    /// known on boards to 32×32 (γ(Q_n) and i(Q_n) stay near n/2); a table that goes beyond it
    /// stretches the scale (see [`Scale::covering`]).
    pub const DEFAULT: Scale = Scale { lo: 1, hi: 18 };

    pub fn new(lo: usize, hi: usize) -> Result<Scale, ScaleError> {
        if lo >= hi {
            return Err(ScaleError::Empty { lo, hi });
        }
        if hi > MAX_VALUE {
            return Err(ScaleError::TooHigh {
                lo,
                hi,
                max: MAX_VALUE,
            });
        }
        Ok(Scale { lo, hi })
    }

    /// `LO-HI`, as `--range` takes it.
    pub fn parse(text: &str) -> Result<Scale, ScaleError> {
        let syntax = || ScaleError::Syntax(text.to_string());
        let (lo, hi) = text.trim().split_once('-').ok_or_else(syntax)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            s.parse::<usize>().map_err(|_| syntax())
        };
        Scale::new(number(lo)?, number(hi)?)
    }

    /// The default scale, stretched up to `max` if a table holds a value above 18.
    pub fn covering(max: usize) -> Scale {
        Scale {
            hi: Scale::DEFAULT.hi.max(max),
            ..Scale::DEFAULT
        }
    }

    pub fn lo(self) -> usize {
        self.lo
    }

    pub fn hi(self) -> usize {
        self.hi
    }

    pub fn contains(self, value: usize) -> bool {
        (self.lo..=self.hi).contains(&value)
    }

    /// The colour of `value` (values outside the scale take the colour of its nearer end).
    /// Small values get more of the ramp than large ones (the 0.6th power): most tables hold
    /// small numbers (1 to 5 up to 10×10), which then run from yellow to teal instead of yellow
    /// to green. Neighbouring values of the default scale keep a luminance contrast of 1.08:1 or
    /// more (1.39:1 between 1 and 2), also for a deuteranope.
    pub fn colour(self, value: usize) -> Rgb {
        let value = value.clamp(self.lo, self.hi);
        ramp(((value - self.lo) as f64 / (self.hi - self.lo) as f64).powf(SPREAD))
    }
}

impl std::fmt::Display for Scale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.lo, self.hi)
    }
}

/// OKLab lightness at the two ends. The pale end stays below white so that a cell is seen on the
/// page; the dark end stays above black so that the white numbers and the frame's white line
/// stand out on it.
const LIGHTEST: f64 = 0.96;
const DARKEST: f64 = 0.31;
/// Hue in degrees at the two ends: yellow, through green and teal and blue, to violet.
const HUE_FEW: f64 = 100.0;
const HUE_MANY: f64 = 295.0;
/// The chroma asked for; less where sRGB cannot show it at that lightness and hue.
const CHROMA: f64 = 0.15;

/// The power that spreads the values over the ramp (see [`Scale::colour`]).
const SPREAD: f64 = 0.6;

/// The colour `t` of the way along the scale (0: fewest queens, 1: most).
pub fn ramp(t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    oklch(
        LIGHTEST + (DARKEST - LIGHTEST) * t,
        CHROMA,
        HUE_FEW + (HUE_MANY - HUE_FEW) * t,
    )
}

/// The sRGB colour of OKLab lightness `lightness`, hue `hue` degrees and chroma up to `chroma`:
/// less where sRGB cannot show that much at this lightness and hue.
pub fn oklch(lightness: f64, chroma: f64, hue: f64) -> Rgb {
    let hue = hue.to_radians();
    let at = |c: f64| oklab_to_linear(lightness, c * hue.cos(), c * hue.sin());
    // Bisection: the gamut is convex along a ray of constant lightness and hue.
    let (mut inside, mut outside) = (0.0, chroma);
    if at(chroma).is_some() {
        inside = chroma;
    } else {
        for _ in 0..30 {
            let c = (inside + outside) / 2.0;
            if at(c).is_some() {
                inside = c;
            } else {
                outside = c;
            }
        }
    }
    from_linear(at(inside).expect("zero chroma is grey, inside the gamut"))
}

/// Linear sRGB of an OKLab colour (Björn Ottosson's matrices), or None outside the gamut.
fn oklab_to_linear(l: f64, a: f64, b: f64) -> Option<[f64; 3]> {
    let l_ = l + 0.396_337_777_4 * a + 0.215_803_757_3 * b;
    let m_ = l - 0.105_561_345_8 * a - 0.063_854_172_8 * b;
    let s_ = l - 0.089_484_177_5 * a - 1.291_485_548 * b;
    let (l3, m3, s3) = (l_.powi(3), m_.powi(3), s_.powi(3));
    let rgb = [
        4.076_741_662_1 * l3 - 3.307_711_591_3 * m3 + 0.230_969_929_2 * s3,
        -1.268_438_004_6 * l3 + 2.609_757_401_1 * m3 - 0.341_319_396_5 * s3,
        -0.004_196_086_3 * l3 - 0.703_418_614_7 * m3 + 1.707_614_701 * s3,
    ];
    const SLACK: f64 = 1e-9;
    rgb.iter()
        .all(|&c| (-SLACK..=1.0 + SLACK).contains(&c))
        .then(|| rgb.map(|c| c.clamp(0.0, 1.0)))
}

fn from_linear(rgb: [f64; 3]) -> Rgb {
    let encode = |c: f64| {
        let c = if c <= 0.003_130_8 {
            12.92 * c
        } else {
            1.055 * c.powf(1.0 / 2.4) - 0.055
        };
        (c * 255.0).round().clamp(0.0, 255.0) as u8
    };
    Rgb(encode(rgb[0]), encode(rgb[1]), encode(rgb[2]))
}

/// Linear-light channels of an sRGB colour.
pub fn to_linear(colour: Rgb) -> [f64; 3] {
    let decode = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [decode(colour.0), decode(colour.1), decode(colour.2)]
}

/// WCAG relative luminance.
pub fn luminance(colour: Rgb) -> f64 {
    let [r, g, b] = to_linear(colour);
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// How `colour` looks to a deuteranope (Machado, Oliveira and Fernandes 2009, severity 1).
pub fn deuteranopia(colour: Rgb) -> Rgb {
    const M: [[f64; 3]; 3] = [
        [0.367_322, 0.860_646, -0.227_968],
        [0.280_085, 0.672_501, 0.047_413],
        [-0.011_820, 0.042_940, 0.968_881],
    ];
    let c = to_linear(colour);
    let row = |r: [f64; 3]| (r[0] * c[0] + r[1] * c[1] + r[2] * c[2]).clamp(0.0, 1.0);
    from_linear([row(M[0]), row(M[1]), row(M[2])])
}

impl Kind for ScaleError {
    fn kind(&self) -> ErrorKind {
        match self {
            ScaleError::Syntax(_) | ScaleError::Empty { .. } | ScaleError::TooHigh { .. } => {
                ErrorKind::Refusal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_and_refuse() {
        assert_eq!(Scale::parse("1-12"), Ok(Scale { lo: 1, hi: 12 }));
        assert_eq!(Scale::parse(" 0-3 "), Ok(Scale { lo: 0, hi: 3 }));
        for bad in ["", "5", "a-b", "1-", "-3", "1-2-3", "+1-4", "1..4"] {
            assert_eq!(Scale::parse(bad), Err(ScaleError::Syntax(bad.into())));
        }
        assert_eq!(Scale::parse("4-4"), Err(ScaleError::Empty { lo: 4, hi: 4 }));
        assert_eq!(Scale::parse("9-2"), Err(ScaleError::Empty { lo: 9, hi: 2 }));
        assert!(matches!(
            Scale::parse("1-33"),
            Err(ScaleError::TooHigh { .. })
        ));
        assert_eq!(Scale::covering(5), Scale::DEFAULT);
        assert_eq!(Scale::covering(21).hi(), 21);
    }

    #[test]
    fn a_value_has_one_colour_on_a_scale() {
        let s = Scale::DEFAULT;
        assert_eq!(s.colour(1), ramp(0.0));
        assert_eq!(s.colour(18), ramp(1.0));
        assert_eq!(s.colour(0), s.colour(1));
        // The ends are pale yellow and dark violet.
        let (pale, dark) = (s.colour(1), s.colour(18));
        assert!(pale.0 > 230 && pale.1 > 230 && pale.2 < 210, "{pale:?}");
        assert!(dark.2 > dark.1 && luminance(dark) < 0.05, "{dark:?}");
    }

    #[test]
    fn darkness_grows_with_the_value_also_for_a_deuteranope() {
        for (name, seen) in [
            ("normal vision", (|c| c) as fn(Rgb) -> Rgb),
            ("deuteranopia", deuteranopia),
        ] {
            let colours: Vec<Rgb> = (0..=64).map(|k| seen(ramp(k as f64 / 64.0))).collect();
            for pair in colours.windows(2) {
                assert!(
                    luminance(pair[1]) < luminance(pair[0]),
                    "{name}: {:?} is not darker than {:?}",
                    pair[1],
                    pair[0]
                );
            }
            // Neighbouring values of the default scale are told apart by lightness alone.
            let s = Scale::DEFAULT;
            for v in s.lo()..s.hi() {
                let ratio = contrast(seen(s.colour(v)), seen(s.colour(v + 1)));
                assert!(ratio > 1.08, "{name}: {v} and {} at {ratio:.3}", v + 1);
            }
        }
    }
}
