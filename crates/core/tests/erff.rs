//! `erff_lanes` gives `libm::erff`'s bits for every input: on every 61st `f32` bit pattern (70
//! million values, both signs, every exponent, the NaNs and infinities), around each of `libm`'s
//! branch boundaries (erff's and expf's), in every lane position, and through the model's GELU.

use attn_core::erff::{erff_lanes, LANES};
use attn_core::model::ops::gelu;

/// Compares `erff_lanes` with `libm::erff` on `values` (in chunks of LANES); the first mismatch.
fn first_mismatch(values: &[f32]) -> Option<(f32, u32, u32)> {
    for chunk in values.chunks(LANES) {
        let mut x = [0.0f32; LANES];
        x[..chunk.len()].copy_from_slice(chunk);
        let got = erff_lanes(&x);
        for (&v, g) in chunk.iter().zip(got) {
            let want = libm::erff(v);
            if g.to_bits() != want.to_bits() && !(g.is_nan() && want.is_nan()) {
                return Some((v, g.to_bits(), want.to_bits()));
            }
        }
    }
    None
}

#[test]
fn every_61st_bit_pattern_has_libms_bits() {
    let values: Vec<f32> = (0..=u32::MAX / 61).map(|k| f32::from_bits(k.wrapping_mul(61))).collect();
    assert_eq!(first_mismatch(&values), None);
}

#[test]
fn around_every_branch_boundary_and_in_every_lane() {
    // erff's |x| thresholds, and the arguments at which expf (inside erfc2) changes branch.
    let boundaries: [u32; 12] = [
        0x3180_0000,
        0x3f58_0000,
        0x3fa0_0000,
        0x4036_db6d,
        0x40c0_0000,
        0x7f80_0000,
        0x3eb1_7218,
        0x3f85_1592,
        0x3900_0000,
        0x42ae_ac50,
        0x42b1_7218,
        0x42cf_f1b5,
    ];
    let mut values = Vec::new();
    for &b in &boundaries {
        for d in 0..4096u32 {
            for bits in [b.wrapping_sub(d), b.wrapping_add(d)] {
                values.push(f32::from_bits(bits));
                values.push(-f32::from_bits(bits));
            }
        }
    }
    values.extend([0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MIN_POSITIVE, f32::MAX, -f32::MAX]);
    // Every value in every lane position.
    for shift in 0..LANES {
        assert_eq!(first_mismatch(&values[shift..]), None, "lane shift {shift}");
    }
}

#[test]
fn gelu_keeps_the_scalar_formulas_bits() {
    // Several of its blocks, both kinds of argument mixed, and the special values.
    let mut x: Vec<f32> = (0..5003).map(|i| (i as f32 - 2500.0) * 0.0031 + (i % 7) as f32 * 0.3).collect();
    let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1e-30, -1e-9, 1.193, -1.1932, 9.0];
    for (k, &v) in specials.iter().enumerate() {
        x[k * 487] = v;
    }
    let want: Vec<u32> =
        x.iter().map(|&v| (0.5 * v * (1.0 + libm::erff(v * std::f32::consts::FRAC_1_SQRT_2))).to_bits()).collect();
    gelu(&mut x);
    let got: Vec<u32> = x.iter().map(|v| v.to_bits()).collect();
    for (k, (&g, &w)) in got.iter().zip(&want).enumerate() {
        assert!(
            g == w || (f32::from_bits(g).is_nan() && f32::from_bits(w).is_nan()),
            "value {k}: {g:#x} against {w:#x}"
        );
    }
}
