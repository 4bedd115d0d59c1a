//! Seeded pseudo-random numbers: xoshiro256** seeded from a `u32` through SplitMix64.
//!
//! Everything here is integer arithmetic plus `libm` for the normal deviates' logarithm, sine and
//! cosine, and the IEEE square root (correctly rounded, so the same bits on every platform: one
//! instruction natively and in wasm, where `libm::sqrt` is software), so a seed gives the same
//! numbers natively and in wasm (toolchain.md).

/// xoshiro256** generator (Blackman and Vigna), seeded by SplitMix64 from a `u32`.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
    spare_normal: Option<f64>,
}

impl Rng {
    /// A generator for `seed`; `stream` separates independent uses of one seed
    /// (e.g. matrices and tokens) so that changing `n` does not change a random matrix.
    pub fn new(seed: u32, stream: u64) -> Self {
        let mut sm = (seed as u64) ^ stream.wrapping_mul(0xD134_2543_DE82_EF95);
        let mut s = [0u64; 4];
        for slot in &mut s {
            sm = sm.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            *slot = z ^ (z >> 31);
        }
        Rng { s, spare_normal: None }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub fn uniform01(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Uniform in [a, b).
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.uniform01()
    }

    /// Standard normal deviate (Box-Muller: `r cos θ` now, `r sin θ` kept for the next call, with
    /// `r = sqrt(-2 ln u1)`, `θ = 2π u2`). `libm::sincos` is `libm::sin` and `libm::cos` with one
    /// argument reduction (the same kernels, the same bits).
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare_normal.take() {
            return z;
        }
        let u1 = 1.0 - self.uniform01(); // (0, 1]
        let u2 = self.uniform01();
        let r = (-2.0 * libm::log(u1)).sqrt();
        let theta = 2.0 * core::f64::consts::PI * u2;
        let (sin, cos) = libm::sincos(theta);
        self.spare_normal = Some(r * sin);
        r * cos
    }
}
