//! A non-finite number is never a silent one: the tests' own largest-difference helpers keep a
//! NaN (so a NaN output fails a golden comparison instead of vanishing from it).

use crate::common::{max_abs, max_diff, max_diff_f32, nan_max, nan_min};

#[test]
fn the_test_helpers_keep_a_nan() {
    assert!(nan_max(0.0, f64::NAN).is_nan() && nan_max(f64::NAN, 1.0).is_nan());
    assert!(nan_min(0.0, f64::NAN).is_nan() && nan_min(f64::NAN, 1.0).is_nan());
    assert_eq!((nan_max(-1.0, 2.0), nan_min(-1.0, 2.0)), (2.0, -1.0));
    assert!(max_diff(&[1.0, f64::NAN, 3.0], &[1.0, 2.0, 3.0]).is_nan());
    assert!(max_diff_f32(&[1.0, f32::NAN], &[1.0, 2.0]).is_nan());
    assert!(max_diff_f32(&[f32::INFINITY], &[1.0]).is_infinite());
    assert!(max_abs(&[f64::NAN, 5.0]).is_nan());
    assert_eq!(max_diff(&[1.0, 2.0], &[1.5, 4.0]), 2.0);
    assert_eq!(max_abs(&[]), 0.0);
    // A NaN output fails the comparison the golden tests make.
    let passes = max_diff_f32(&[0.5, f32::NAN], &[0.5, 0.25]) < 1e-5;
    assert!(!passes);
}

/// Bits of `f64::max`/`f64::min` on numbers that are not NaN (the folds change only NaN cases).
const SAMPLES: [f64; 7] = [0.0, -0.0, 1.5, -2.25, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE];

#[test]
fn the_core_folds_keep_a_nan_and_the_bits_of_numbers() {
    use attn_core::nan;
    for a in SAMPLES {
        assert!(nan::max(a, f64::NAN).is_nan() && nan::max(f64::NAN, a).is_nan(), "max {}", a);
        assert!(nan::min(a, f64::NAN).is_nan() && nan::min(f64::NAN, a).is_nan(), "min {}", a);
        // f64::max and f64::min leave the sign of max(0, -0) unspecified: zeros compare as numbers.
        for b in SAMPLES.into_iter().filter(|&b| !(a == 0.0 && b == 0.0)) {
            assert_eq!(nan::max(a, b).to_bits(), a.max(b).to_bits(), "max({}, {})", a, b);
            assert_eq!(nan::min(a, b).to_bits(), a.min(b).to_bits(), "min({}, {})", a, b);
        }
    }
    assert!(nan::max_of(0.0, [1.0, f64::NAN, 3.0]).is_nan());
    assert!(nan::min_of(f64::INFINITY, [1.0, f64::NAN, 3.0]).is_nan());
    assert!(nan::max_abs(&[1.0, -f64::NAN]).is_nan());
    assert_eq!(
        (nan::max_of(0.0, [1.0, 3.0]), nan::min_of(9.0, [1.0, 3.0]), nan::max_abs(&[-4.0, 3.0])),
        (3.0, 1.0, 4.0)
    );
    assert_eq!((nan::max_of(0.0, []), nan::max_abs(&[])), (0.0, 0.0));
    assert_eq!(nan::max_abs(&[1.0, f64::NEG_INFINITY]), f64::INFINITY);
}

/// `[[1,2,3],[4,5,6]]` with entry `k` replaced by `v`.
fn with(k: usize, v: f64) -> Vec<f64> {
    let mut x = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    x[k] = v;
    x
}

#[test]
fn the_residual_of_a_non_finite_state_is_nan_never_zero() {
    use attn_core::collapse::residual::{composite_norm, norm_1, norm_inf, relative_residual};
    // Finite: the documented values, unchanged.
    assert_eq!((norm_1(&with(0, 1.0), 2, 3), norm_inf(&with(0, 1.0), 2, 3)), (9.0, 15.0));
    assert!((relative_residual(&with(0, 1.0), 2, 3) - 0.3162).abs() < 1e-4);
    for k in 0..6 {
        let x = with(k, f64::NAN);
        // f64::max dropped the NaN column/row sums: the norms read 9 or 15 (or less), the residual a number.
        assert!(norm_1(&x, 2, 3).is_nan() && norm_inf(&x, 2, 3).is_nan(), "entry {}", k);
        assert!(composite_norm(&x, 2, 3).is_nan() && relative_residual(&x, 2, 3).is_nan(), "entry {}", k);
        let inf = with(k, f64::INFINITY);
        assert_eq!(norm_1(&inf, 2, 3), f64::INFINITY);
        assert!(relative_residual(&inf, 2, 3).is_nan(), "entry {} = inf", k);
    }
    // Every entry NaN: the norms folded to 0 and the residual read 0, a perfect "rank collapse".
    let all = vec![f64::NAN; 6];
    assert!(norm_1(&all, 2, 3).is_nan() && norm_inf(&all, 2, 3).is_nan() && relative_residual(&all, 2, 3).is_nan());
}

#[test]
fn the_depth_similarity_normalisations_keep_a_nan() {
    use attn_core::depth::config::SimilarityNorm;
    use attn_core::depth::similarity::normalize;
    // S = O O^T of two tokens, one entry NaN: max-abs left the matrix unnormalised (or 0).
    for norm in [SimilarityNorm::MaxAbs, SimilarityNorm::Cosine] {
        let mut s = vec![4.0, f64::NAN, f64::NAN, 9.0];
        normalize(&mut s, 2, norm);
        assert!(s[1].is_nan() && s[2].is_nan(), "{:?}: {:?}", norm, s);
        if norm == SimilarityNorm::Cosine {
            // A NaN on the diagonal (a NaN token length) read 0 similarity with every token.
            let mut s = vec![f64::NAN, 2.0, 2.0, 9.0];
            normalize(&mut s, 2, norm);
            assert!(s[1].is_nan() && s[2].is_nan(), "{:?}: a NaN length reads {:?}", norm, s);
        }
        let mut s = vec![4.0, 2.0, 2.0, 9.0];
        normalize(&mut s, 2, norm);
        let off = if norm == SimilarityNorm::MaxAbs { 1.0 } else { 2.0 / 6.0 };
        assert_eq!(s, [0.0, off, off, 0.0], "{:?}", norm);
    }
}

#[test]
fn the_training_change_and_the_particle_spread_keep_a_nan() {
    use attn_core::particles::analysis::rank::effective_rank_of_rows;
    use attn_core::particles::analysis::spread;
    use attn_core::training::analysis::max_abs_change;
    // A NaN change read 0: the iteration looked converged.
    assert!(max_abs_change(&[1.0, f64::NAN], &[1.0, 2.0]).is_nan());
    assert_eq!(max_abs_change(&[1.0, 5.0], &[1.5, 2.0]), 3.0);
    // A NaN coordinate: the spread read the other coordinates' range (here 0).
    assert!(spread(&[0.0, f64::NAN, 0.0, 1.0], 2, 2).is_nan());
    assert_eq!(spread(&[0.0, 3.0, 0.0, 1.0], 2, 2), 2.0);
    assert!(effective_rank_of_rows(&[1.0, f64::NAN, 0.0, 1.0], 2).is_nan());
}

mod loader {
    use crate::tiny_bert::*;
    use attn_core::model::Encoder;

    fn load(bytes: &[u8], config: &str) -> Result<Encoder, String> {
        Encoder::load(bytes, config, &vocab_txt(), None).map_err(|e| e.to_string())
    }

    #[test]
    fn a_weight_that_is_not_finite_is_refused_naming_the_tensor_and_the_entry() {
        let q = "encoder.layer.0.attention.self.query.weight";
        let nan = serialize(&tensors_with(3, q, |k, v| if k == 13 { f32::NAN } else { v }));
        assert_eq!(
            load(&nan, &config_json("")).unwrap_err(),
            format!(
                "model.safetensors: tensor `{}`: entry 13 (row 1, column 5 of [8, 8]) is NaN; the weights must be finite numbers",
                q
            )
        );
        let word = "embeddings.word_embeddings.weight";
        let inf = serialize(&tensors_with(3, word, |k, v| if k == 40 { f32::INFINITY } else { v }));
        let e = load(&inf, &config_json("")).unwrap_err();
        assert!(e.contains(&format!("`{}`: entry 40 (row 5, column 0 of [16, 8]) is +inf", word)), "{}", e);
        let bias = "encoder.layer.1.output.LayerNorm.bias";
        let neg = serialize(&tensors_with(3, bias, |k, v| if k >= 6 { f32::NEG_INFINITY } else { v }));
        let e = load(&neg, &config_json("")).unwrap_err();
        assert!(e.contains(&format!("`{}`: entry 6 (of [8]) is -inf", bias)), "{}", e);
        // Two bad tensors: the first in the file is named, every time.
        let mut two = tensors_with(3, q, |_, _| f32::NAN);
        let w = two.iter_mut().find(|t| t.name == word).unwrap();
        w.data[..4].copy_from_slice(&f32::NAN.to_le_bytes());
        let e = load(&serialize(&two), &config_json("")).unwrap_err();
        assert!(e.contains(&format!("`{}`: entry 0 ", word)), "{}", e);
        // With the `bert.` prefix the message names the tensor as the lab looks it up.
        let mut prefixed = tensors_with(3, q, |k, v| if k == 2 { f32::NAN } else { v });
        prefixed.iter_mut().for_each(|t| t.name = format!("bert.{}", t.name));
        let e = load(&serialize(&prefixed), &config_json("")).unwrap_err();
        assert!(e.contains(&format!("`{}`: entry 2 (row 0, column 2", q)), "{}", e);
        // A tensor the forward does not read (the pooler) may hold anything.
        let pooler = serialize(&tensors_with(3, "pooler.dense.weight", |_, _| f32::NAN));
        assert!(load(&pooler, &config_json("")).is_ok());
    }

    #[test]
    fn a_layer_norm_eps_that_is_zero_or_subnormal_in_f32_is_refused_naming_the_key() {
        let st = safetensors(3, false);
        for eps in ["1e-50", "1e-40", "1e-39"] {
            let e = load(&st, &config_json(&format!("\"layer_norm_eps\": {}", eps))).unwrap_err();
            assert!(e.starts_with("config.json: `layer_norm_eps` is "), "{}: {}", eps, e);
            assert!(e.contains("f32's smallest normal number"), "{}", e);
        }
        for eps in ["1e-12", "1.2e-38"] {
            assert!(load(&st, &config_json(&format!("\"layer_norm_eps\": {}", eps))).is_ok(), "{}", eps);
        }
    }

    #[test]
    fn finite_weights_that_overflow_load() {
        // Refusing broken files is the loader's job; overflow is met during the forward (reported
        // by the outputs as non-finite, never as a number).
        assert!(load(&overflowing_safetensors(3, 0), &config_json("")).is_ok());
    }
}
