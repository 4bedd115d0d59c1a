//! Trained heads and layers as particles (science.md §7): a head's matrices, their spectra and a
//! trained layer repeated, against NumPy references written by
//! `fixtures/trained_heads/make_trained_heads.py` from the same safetensors (`trained_heads.json`),
//! on the tiny random BERT (seed 21) and on all-MiniLM-L6-v2 (`cargo xtask fetch-model`).

use crate::common::model::{minilm as common_minilm, model_dir};
use crate::common::nan_max;
use crate::tiny_bert::{config_json, safetensors, vocab_txt};
use attn_core::model::clusters::cosine_clusters;
use attn_core::model::forward::{embed, layer};
use attn_core::model::head_spectrum::head_spectrum;
use attn_core::model::heads::head_matrices;
use attn_core::model::repeat::{head_booleans, repeat, HeadBoolean, RepeatSpec, Repeater};
use attn_core::model::tokenizer::Encoding;
use attn_core::model::{Encoder, Serial, Variant, VARIANTS};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

const SEED: u64 = 21;

fn fixture() -> &'static Value {
    static F: OnceLock<Value> = OnceLock::new();
    F.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/trained_heads/trained_heads.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

fn tiny() -> Encoder {
    let bytes = safetensors(SEED, false);
    let sha: String = Sha256::digest(&bytes).iter().map(|b| format!("{:02x}", b)).collect();
    assert_eq!(sha, fixture()["tiny_sha256"], "the tiny BERT changed: run make_trained_heads.py again");
    Encoder::load(&bytes, &config_json(""), &vocab_txt(), None).unwrap()
}

/// The shared MiniLM ([`common_minilm`]), after checking its file is the one the fixture was
/// written from.
fn minilm() -> &'static Encoder {
    static CHECKED: OnceLock<()> = OnceLock::new();
    CHECKED.get_or_init(|| {
        let bytes = std::fs::read(model_dir("model.safetensors").join("model.safetensors")).unwrap();
        let sha: String = Sha256::digest(&bytes).iter().map(|b| format!("{:02x}", b)).collect();
        assert_eq!(sha, fixture()["model_sha256"], "another all-MiniLM-L6-v2");
    });
    common_minilm()
}

/// Writes the tiny BERT's folder to `$ATTN_TINY_OUT` for the fixture's script (not a check).
#[test]
#[ignore]
fn write_tiny_bert() {
    let dir = std::env::var("ATTN_TINY_OUT").expect("ATTN_TINY_OUT");
    crate::tiny_bert::write_dir(std::path::Path::new(&dir), SEED);
}

/// The script's probe vectors: `x_k[c] = sin(0.37 (c + 1) (k + 1) + 0.11 k)`.
fn probe(d: usize, k: usize) -> Vec<f64> {
    (0..d).map(|c| (0.37 * (c + 1) as f64 * (k + 1) as f64 + 0.11 * k as f64).sin()).collect()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn pairs(v: &Value) -> Vec<(f64, f64)> {
    v.as_array().unwrap().iter().map(|p| (f(&p[0]), f(&p[1]))).collect()
}

/// `xᵀ M y` for `M` `d x d` row-major.
fn form(x: &[f64], m: &[f64], y: &[f64]) -> f64 {
    let d = x.len();
    (0..d).map(|i| x[i] * (0..d).map(|j| m[i * d + j] * y[j]).sum::<f64>()).sum()
}

/// Checks the heads of `entries` that carry forms (`vx`, `sxx`, `bxx`) and spectra (`v`, `s`);
/// returns (forms, spectra, largest relative form error, largest eigenvalue error / |λ_max|).
fn check_heads(enc: &Encoder, entries: &Value) -> (usize, usize, f64, f64) {
    let (mut forms, mut spectra, mut form_err, mut eig_err) = (0, 0, 0.0f64, 0.0f64);
    for e in entries.as_array().unwrap() {
        let (l, h) = (e["layer"].as_u64().unwrap() as usize, e["head"].as_u64().unwrap() as usize);
        let m = head_matrices(&enc.config, &enc.weights, l, h).unwrap();
        let d = m.d;
        if let Some(vx) = e.get("vx") {
            forms += 1;
            let (v, s, b) = (m.value(), m.symmetric(), m.bilinear());
            let xs: Vec<Vec<f64>> = (0..3).map(|k| probe(d, k)).collect();
            for (k, want) in vx.as_array().unwrap().iter().enumerate() {
                let want: Vec<f64> = want.as_array().unwrap().iter().map(f).collect();
                let scale = want.iter().fold(0.0f64, |a, w| nan_max(a, w.abs()));
                for (a, w) in want.iter().enumerate() {
                    let got: f64 = (0..d).map(|c| v[a * d + c] * xs[k][c]).sum();
                    let err = (got - w).abs() / scale;
                    form_err = nan_max(form_err, err);
                    assert!(err < 1e-12, "layer {} head {}: (V x_{})[{}] = {}, NumPy {}", l, h, k, a, got, w);
                }
            }
            for (name, mat) in [("sxx", &s), ("bxx", &b)] {
                let want = &e[name];
                let scale = (0..3)
                    .flat_map(|i| (0..3).map(move |j| (i, j)))
                    .fold(0.0f64, |a, (i, j)| nan_max(a, f(&want[i][j]).abs()));
                for i in 0..3 {
                    for j in 0..3 {
                        let got = form(&xs[i], mat, &xs[j]);
                        let err = (got - f(&want[i][j])).abs() / scale;
                        form_err = nan_max(form_err, err);
                        assert!(
                            err < 1e-12,
                            "layer {} head {}: {}[{}][{}] = {}, NumPy {}",
                            l,
                            h,
                            name,
                            i,
                            j,
                            got,
                            want[i][j]
                        );
                    }
                }
            }
        }
        if e.get("v").is_some() {
            spectra += 1;
            let sp = head_spectrum(&m).unwrap();
            for (name, ours) in [("v", &sp.v), ("s", &sp.s)] {
                assert_eq!(ours.len(), d);
                let want = pairs(&e[name]);
                let top = want[0].0.hypot(want[0].1);
                for (k, (&(re, im), &(wr, wi))) in ours.iter().zip(&want).enumerate() {
                    let err = (re - wr).hypot(im - wi) / top;
                    eig_err = nan_max(eig_err, err);
                    assert!(
                        err <= 1e-9,
                        "layer {} head {} {}[{}]: ({}, {}), NumPy ({}, {})",
                        l,
                        h,
                        name,
                        k,
                        re,
                        im,
                        wr,
                        wi
                    );
                }
                if let Some(zeros) = e.get(format!("{}_zeros_max", name)) {
                    // NumPy's eigenvalues past the block's are rounding noise about 0; ours are 0 exactly.
                    assert!(ours[want.len()..].iter().all(|&z| z == (0.0, 0.0)), "{}: {:?}", name, &ours[want.len()..]);
                    eig_err = nan_max(eig_err, f(zeros) / top);
                    assert!(f(zeros) <= 1e-9 * top, "{}: NumPy's zeros reach {}", name, zeros);
                } else {
                    assert_eq!(want.len(), d);
                }
                if name == "s" {
                    assert!(ours.iter().all(|&(_, im)| im == 0.0));
                }
            }
        }
    }
    (forms, spectra, form_err, eig_err)
}

#[test]
fn tiny_bert_heads_match_numpy_slicing_and_eigvals() {
    let enc = tiny();
    let (forms, spectra, fe, ee) = check_heads(&enc, &fixture()["tiny"]);
    println!(
        "tiny BERT: {} heads' forms (max rel. error {:.2e}), {} spectra (max error {:.2e} |λmax|)",
        forms, fe, spectra, ee
    );
    assert_eq!((forms, spectra), (4, 4), "every head of the tiny BERT");
}

#[test]
fn minilm_heads_match_numpy_slicing_and_eigvals() {
    let (forms, spectra, fe, ee) = check_heads(minilm(), &fixture()["minilm"]);
    println!(
        "MiniLM: {} heads' forms (max rel. error {:.2e}), {} spectra (max error {:.2e} |λmax|)",
        forms, fe, spectra, ee
    );
    assert_eq!((forms, spectra), (2, 4));
}

/// A transposed slice would not pass: `V_h`'s transpose and `W_k`'s place swapped with `W_q`'s
/// give other numbers on the tiny BERT.
#[test]
fn a_transposed_head_differs() {
    let enc = tiny();
    let m = head_matrices(&enc.config, &enc.weights, 1, 1).unwrap();
    let d = m.d;
    let (v, b) = (m.value(), m.bilinear());
    let x = probe(d, 0);
    let vx: Vec<f64> = (0..d).map(|a| (0..d).map(|c| v[a * d + c] * x[c]).sum()).collect();
    let vtx: Vec<f64> = (0..d).map(|a| (0..d).map(|c| v[c * d + a] * x[c]).sum()).collect();
    assert!(vx.iter().zip(&vtx).any(|(a, b)| (a - b).abs() > 1e-3));
    let y = probe(d, 1);
    assert!((form(&x, &b, &y) - form(&y, &b, &x)).abs() > 1e-6);
}

fn encoding(enc: &Encoder, text: &str) -> Encoding {
    enc.encode(text).unwrap()
}

/// `h_{L−1}` of the unmodified forward, then `t` calls of the forward's layer function.
fn by_hand(enc: &Encoder, e: &Encoding, l: usize, variant: Variant, t: usize) -> Vec<f32> {
    let (c, n) = (&enc.config, e.ids.len());
    let mut x = embed(&e.ids, c, &enc.weights);
    for lw in &enc.weights.layers[..l - 1] {
        x = layer(&x, n, c, lw, Variant::Transformer, &Serial).0;
    }
    for _ in 0..t {
        x = layer(&x, n, c, &enc.weights.layers[l - 1], variant, &Serial).0;
    }
    x
}

#[test]
fn each_heads_boolean_distance_and_leaders_over_repetitions() {
    // Two heads of 2 tokens: a Boolean P (both tokens lead) and one whose column 1 leads.
    let p = [1.0f32, 0.0, 0.0, 1.0, 0.3, 0.7, 0.2, 0.8];
    let b = head_booleans(&p, 2, 2);
    assert_eq!(b[0], HeadBoolean { boolean_distance: 0.0, leaders: vec![0, 1] });
    assert_eq!(b[1], HeadBoolean { boolean_distance: 0.3f32 as f64, leaders: vec![1] });
    // A run's listed repetitions carry each head's numbers of the layer's own P at their tokens
    // (the P the next repetition applies), here against a direct fold over P in f64.
    let enc = tiny();
    let e = encoding(&enc, "The quick brown fox jumps, the lazy dogs. A fox.");
    let (n, c) = (e.ids.len(), &enc.config);
    let spec = RepeatSpec { layer: 2, variant: Variant::Transformer, iterations: 4, every: 2, cos_tol: 0.01 };
    let run = repeat(&enc, &e, &spec, &Serial);
    assert_eq!(run.steps.len(), 3);
    for s in &run.steps {
        let x = by_hand(&enc, &e, 2, Variant::Transformer, s.iteration);
        let p = layer(&x, n, c, &enc.weights.layers[1], Variant::Transformer, &Serial).1;
        assert_eq!(s.heads.len(), c.heads);
        for (h, got) in s.heads.iter().enumerate() {
            let ph = &p[h * n * n..(h + 1) * n * n];
            let dist = ph.iter().map(|&v| (v as f64 - (v as f64).round()).abs()).fold(0.0, f64::max);
            let lead: Vec<usize> = (0..n).filter(|&j| (0..n).any(|i| ph[i * n + j] as f64 > 0.5)).collect();
            assert_eq!(got.boolean_distance.to_bits(), dist.to_bits(), "repetition {} head {}", s.iteration, h);
            assert_eq!(got.leaders, lead, "repetition {} head {}", s.iteration, h);
            assert!(got.boolean_distance > 0.0 && got.boolean_distance <= 0.5);
        }
    }
}

#[test]
fn the_repeated_layer_is_the_forward_layer_bit_for_bit() {
    let enc = tiny();
    let e = encoding(&enc, "The quick brown fox jumps, the lazy dogs. A fox.");
    for l in 1..=2 {
        for &variant in &VARIANTS {
            let mut r = Repeater::new(&enc, &e, l, variant, &Serial);
            assert_eq!(r.state(), &by_hand(&enc, &e, l, variant, 0)[..]);
            r.step(&Serial).unwrap();
            assert_eq!(r.state(), &by_hand(&enc, &e, l, variant, 1)[..], "T = 1, layer {} {:?}", l, variant);
            for _ in 1..7 {
                r.step(&Serial).unwrap();
            }
            assert_eq!(r.iteration(), 7);
            assert_eq!(r.state(), &by_hand(&enc, &e, l, variant, 7)[..], "T = 7, layer {} {:?}", l, variant);
        }
    }
    // The run's listed steps are those states' clusters.
    let spec = RepeatSpec { layer: 2, variant: Variant::San, iterations: 5, every: 2, cos_tol: 0.01 };
    let run = repeat(&enc, &e, &spec, &Serial);
    let its: Vec<usize> = run.steps.iter().map(|s| s.iteration).collect();
    assert_eq!(its, [0, 2, 4, 5]);
    for s in &run.steps {
        let x = by_hand(&enc, &e, 2, Variant::San, s.iteration);
        assert_eq!(s.labels, cosine_clusters(&x, e.ids.len(), enc.config.hidden, 0.01));
    }
}

#[test]
fn minilm_repeated_layers_match_a_numpy_float32_reference() {
    let enc = minilm();
    let fx = fixture();
    let stride = fx["stride"].as_u64().unwrap() as usize;
    let cos_tol = f(&fx["cos_tol"]);
    let d = enc.config.hidden;
    let (mut state_err, mut compared, mut skipped) = (0.0f64, 0, 0);
    for text in fx["texts"].as_array().unwrap() {
        let e = encoding(enc, text["text"].as_str().unwrap());
        let ids: Vec<u32> = text["ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
        assert_eq!(e.ids, ids);
        let n = ids.len();
        for lay in text["layers"].as_array().unwrap() {
            let l = lay["layer"].as_u64().unwrap() as usize;
            let mut r = Repeater::new(enc, &e, l, Variant::Transformer, &Serial);
            let states = lay["states"].as_array().unwrap();
            let parts = lay["partitions"].as_array().unwrap();
            let last = parts.iter().map(|p| p["iteration"].as_u64().unwrap()).max().unwrap() as usize;
            for t in 1..=last {
                r.step(&Serial).unwrap();
                if let Some(s) = states.iter().find(|s| s["iteration"] == t) {
                    for (i, row) in s["rows"].as_array().unwrap().iter().enumerate() {
                        for (k, w) in row.as_array().unwrap().iter().enumerate() {
                            let got = r.state()[i * d + k * stride] as f64;
                            let err = (got - f(w)).abs();
                            state_err = nan_max(state_err, err);
                            assert!(
                                err <= 1e-4,
                                "layer {} repetition {} token {} feature {}: {} vs {}",
                                l,
                                t,
                                i,
                                k * stride,
                                got,
                                w
                            );
                        }
                    }
                }
                if let Some(p) = parts.iter().find(|p| p["iteration"] == t) {
                    if p["margin"] == true {
                        let want: Vec<usize> =
                            p["labels"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
                        assert_eq!(
                            cosine_clusters(r.state(), n, d, cos_tol),
                            want,
                            "{} tokens, layer {} at {}",
                            n,
                            l,
                            t
                        );
                        compared += 1;
                    } else {
                        skipped += 1;
                    }
                }
            }
        }
    }
    println!("states: max error {:.2e}; partitions compared {}, without a margin {}", state_err, compared, skipped);
    assert!(compared >= 12, "only {} partitions have a margin", compared);
}

/// A repetition whose output overflows stops the run naming it; the listed steps before it stay.
#[test]
fn a_non_finite_state_stops_the_run() {
    let mut enc = tiny();
    let e = encoding(&enc, "The quick brown fox jumps, the lazy dogs. A fox.");
    // LN₁'s gain grows 1e30 fold: one repetition gives about 1e30, the next overflows f32.
    for g in &mut enc.weights.layers[1].ln1.gain {
        *g *= 1e30;
    }
    let spec = RepeatSpec { layer: 2, variant: Variant::SanSkip, iterations: 10, every: 1, cos_tol: 0.01 };
    let run = repeat(&enc, &e, &spec, &Serial);
    let stopped = run.stopped.expect("the run stops");
    let its: Vec<usize> = run.steps.iter().map(|s| s.iteration).collect();
    assert_eq!(its, (0..stopped.iteration).collect::<Vec<_>>());
    assert!((1..=3).contains(&stopped.iteration), "{:?}", stopped);
    assert!(
        stopped.what.contains(&format!("repetition {} of layer 2 (SAN+skip)", stopped.iteration)),
        "{}",
        stopped.what
    );
    assert!(stopped.what.contains("non-finite"), "{}", stopped.what);
    println!("{}", stopped.what);
}
