//! The encoder forward on the real all-MiniLM-L6-v2 against independent references: science.md
//! §6.5's reference values (checked against transformers' Flax model) for "The quick brown fox jumps over the lazy
//! dog.", and the NumPy float32 forward of `fixtures/make_model_golden.py` (its output
//! `fixtures/model_golden.json`): attention rows, hidden states, the four residual curves and a
//! similarity matrix for a few sentences.
//!
//! The model is read from `$ATTN_MODEL_DIR` or `~/.cache/attn/models/all-MiniLM-L6-v2`; without it
//! these tests fail, saying to run `cargo xtask fetch-model` (as `cargo xtask test` does first).

use crate::common::model::{minilm, model_dir};
use crate::common::{max_abs, max_diff_f32, nan_max};

use attn_core::model::analysis::{residual_curve, similarity, statistics, QUANTILE};
use attn_core::model::{Serial, Variant, VARIANTS};

const FOX: &str = "The quick brown fox jumps over the lazy dog.";

fn assert_close(got: &[f32], want: &[f64], tol: f64, what: &str) {
    assert!(got.len() >= want.len(), "{}: {} values, want at least {}", what, got.len(), want.len());
    for (k, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!((g as f64 - w).abs() <= tol, "{}[{}] = {}, want {} within {}", what, k, g, w, tol);
    }
}

#[test]
fn the_fox_sentence_matches_the_flax_anchors() {
    let enc = minilm();
    let e = enc.encode(FOX).unwrap();
    assert_eq!(e.ids, [101, 1996, 4248, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 1012, 102]);
    let f = enc.forward(&e, Variant::Transformer, true, &Serial);
    let d = enc.config.hidden;
    assert_close(&f.attention(1, 0).unwrap()[..4], &[0.28565, 0.05960, 0.05564, 0.01614], 1e-5, "layer 1 head 0 row 0");
    assert_close(&f.hidden[0][..4], &[-0.17657, -0.04824, 0.03770, -0.01572], 1e-5, "embedding LN row 0");
    assert_close(&f.hidden[6][..4], &[0.04644, 0.33806, 0.20821, 0.64680], 1e-5, "last layer row 0");
    assert_eq!(f.hidden[6].len(), 12 * d);
    // SAN collapses (reported, not asserted here: the golden curves below are).
    let san = residual_curve(&enc.forward(&e, Variant::San, false, &Serial));
    eprintln!("SAN residual on the fox sentence: {:?}", san);
    let stats = statistics(&f, &e, QUANTILE);
    let mass: Vec<String> = stats.iter().map(|l| format!("{:.3}", l.separator_mass.unwrap())).collect();
    eprintln!("attention mass on [CLS], [SEP], '.', ',' per layer: {}", mass.join(", "));
    // [CLS], '.' and [SEP] are 3 of 12 tokens: the trained heads put more than that share on them.
    assert!(stats.iter().all(|l| l.separator_mass.unwrap() > 0.25), "{:?}", mass);
}

fn golden() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/model_golden.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The largest `|got - want|` over `want`'s length (NaN when one is NaN).
fn prefix_diff(got: &[f32], want: &[f64]) -> f64 {
    max_diff_f32(&got[..want.len()], want)
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

#[test]
fn the_numpy_reference_agrees_on_ids_attention_hidden_states_residuals_and_similarity() {
    let g = golden();
    let dir = model_dir("model.safetensors");
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    let sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&bytes).iter().map(|b| format!("{:02x}", b)).collect()
    };
    assert_eq!(g["model_sha256"], sha.as_str(), "the fixture was made from other weights");
    let enc = minilm();
    let cases = g["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    let mut worst = [0.0f64; 4];
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let a = enc.analyse(text, &Serial).unwrap();
        let ids: Vec<u64> = a.encoding.ids.iter().map(|&i| i as u64).collect();
        let want: Vec<u64> = case["ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
        assert_eq!(ids, want, "{}", text);
        let (f, n, d) = (&a.forward, a.forward.n, a.forward.d);
        for head in case["attention"].as_array().unwrap() {
            let (l, h) = (head["layer"].as_u64().unwrap() as usize, head["head"].as_u64().unwrap() as usize);
            let p = f.attention(l, h).unwrap();
            for (r, row) in head["rows"].as_object().unwrap() {
                let r: usize = r.parse().unwrap();
                let got = &p[r * n..(r + 1) * n];
                assert_close(got, &floats(row), 1e-5, &format!("{:?} P layer {} head {} row {}", text, l, h, r));
                worst[0] = nan_max(worst[0], prefix_diff(got, &floats(row)));
            }
        }
        for layer in case["hidden"].as_array().unwrap() {
            let l = layer["layer"].as_u64().unwrap() as usize;
            for (r, row) in layer["rows"].as_object().unwrap() {
                let r: usize = r.parse().unwrap();
                let got = &f.hidden[l][r * d..(r + 1) * d];
                assert_close(got, &floats(row), 1e-4, &format!("{:?} X_{} row {}", text, l, r));
                worst[1] = nan_max(worst[1], prefix_diff(got, &floats(row)));
            }
        }
        for (v, curve) in VARIANTS.iter().zip(&a.curves) {
            assert_eq!(curve.variant, *v);
            let want = floats(&case["residual"][v.label()]);
            assert_eq!(curve.residual.len(), want.len());
            for (l, (x, y)) in curve.residual.iter().zip(&want).enumerate() {
                assert!((x - y).abs() <= 1e-4, "{:?} {} layer {}: {} vs {}", text, v.label(), l, x, y);
                worst[2] = nan_max(worst[2], (x - y).abs());
            }
        }
        let sim = &case["similarity"];
        let (l, h) = (sim["layer"].as_u64().unwrap() as usize, sim["head"].as_u64().unwrap() as usize);
        let s = similarity(f.head_output(l, h).unwrap(), n, f.d_head);
        let want: Vec<f64> = sim["s"].as_array().unwrap().iter().flat_map(floats).collect();
        assert_eq!(want.len(), n * n);
        let scale = max_abs(&want);
        for (k, (&x, y)) in s.iter().zip(&want).enumerate() {
            assert!((x as f64 - y).abs() <= 1e-4 * scale, "{:?} S[{}] = {} vs {} (scale {})", text, k, x, y, scale);
            worst[3] = nan_max(worst[3], (x as f64 - y).abs() / scale);
        }
        // The statistics run on the real text: one layer per layer, every head, pairs counted.
        let stats = statistics(f, &a.encoding, QUANTILE);
        assert_eq!(stats.len(), 6);
        assert!(stats.iter().all(|s| s.heads.len() == 12 && s.separator_mass.is_some()));
    }
    eprintln!(
        "largest differences: P {:.2e}, hidden {:.2e}, residual {:.2e}, S (relative to max |S|) {:.2e}",
        worst[0], worst[1], worst[2], worst[3]
    );
}
