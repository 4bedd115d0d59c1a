//! Tokens through the layers (science.md §7.5): the PCA of the stacked hidden states, the cosine
//! histograms, clusters, mean cosines and effective ranks per layer, against a NumPy reference
//! written by `fixtures/trained_heads/make_layers_view.py` (`layers_view.json`) on the tiny random
//! BERT (seed 21, its `float32` states kept in the fixture) and on all-MiniLM-L6-v2, and their
//! invariants.

use crate::common::model::minilm;
use crate::common::nan_max;
use crate::tiny_bert::{config_json, safetensors, vocab_txt};
use attn_core::model::clusters::{cosine_clusters, cosines, mean_cosine};
use attn_core::model::layers_view::{cosine_bin, layers_view, LayersView, BINS, COMPONENTS};
use attn_core::model::{Encoder, Serial, Variant};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

fn fixture() -> &'static Value {
    static F: OnceLock<Value> = OnceLock::new();
    F.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/trained_heads/layers_view.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{:02x}", b)).collect()
}

fn tiny() -> Encoder {
    let bytes = safetensors(21, false);
    assert_eq!(sha(&bytes), fixture()["tiny_sha256"], "the tiny BERT changed: run make_layers_view.py again");
    Encoder::load(&bytes, &config_json(""), &vocab_txt(), None).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap()
}

/// The hidden states of the unmodified forward on `want`'s text, after checking its ids.
fn hidden(enc: &Encoder, want: &Value) -> (Vec<Vec<f32>>, usize) {
    let e = enc.encode(want["text"].as_str().unwrap()).unwrap();
    let ids: Vec<u32> = arr(&want["ids"]).iter().map(|v| v.as_u64().unwrap() as u32).collect();
    assert_eq!(e.ids, ids);
    let fw = enc.forward(&e, Variant::Transformer, false, &Serial);
    (fw.hidden, ids.len())
}

/// The invariants of a view of `hidden` (`n x d` each): the histograms count every pair, the axes
/// are orthonormal with their largest loading positive, the coordinates are the centred states
/// projected on them, the clusters and mean cosines are §7.3's, the effective rank in [1, min(n, d)].
fn check_invariants(v: &LayersView, hidden: &[Vec<f32>], n: usize, d: usize, cos_tol: f64) {
    let (k, p) = (v.pca.k, &v.pca);
    assert_eq!(k, COMPONENTS.min(d));
    assert_eq!((v.coords.len(), v.layers.len()), (hidden.len(), hidden.len()));
    for a in 0..k {
        let ax = &p.axes[a * d..(a + 1) * d];
        for b in 0..k {
            let dot: f64 = ax.iter().zip(&p.axes[b * d..(b + 1) * d]).map(|(x, y)| x * y).sum();
            let want = if a == b { 1.0 } else { 0.0 };
            assert!((dot - want).abs() < 1e-12, "axes {} and {}: {}", a, b, dot);
        }
        let big = ax.iter().fold(0.0f64, |m, &x| if x.abs() > m.abs() { x } else { m });
        assert!(big > 0.0, "axis {}'s largest loading is {}", a, big);
    }
    assert!(p.variance.windows(2).all(|w| w[0] >= w[1]), "{:?}", p.variance);
    assert!(p.variance.iter().sum::<f64>() <= p.total_variance * (1.0 + 1e-12));
    let rows = (hidden.len() * n) as f64;
    let mut mean = vec![0.0; d];
    for x in hidden {
        for (c, m) in mean.iter_mut().enumerate() {
            *m += (0..n).map(|i| x[i * d + c] as f64).sum::<f64>() / rows;
        }
    }
    let mut var = vec![0.0; k];
    for (x, coords) in hidden.iter().zip(&v.coords) {
        for i in 0..n {
            for a in 0..k {
                let want: f64 = (0..d).map(|c| (x[i * d + c] as f64 - mean[c]) * p.axes[a * d + c]).sum();
                let got = coords[i * k + a];
                assert!(
                    (got - want).abs() <= 1e-9 * p.total_variance.sqrt(),
                    "token {} axis {}: {} vs {}",
                    i,
                    a,
                    got,
                    want
                );
                var[a] += got * got / rows;
            }
        }
    }
    for (a, (got, want)) in var.iter().zip(&p.variance).enumerate() {
        assert!((got - want).abs() <= 1e-9 * p.total_variance, "axis {}: {} vs {}", a, got, want);
    }
    for (l, (x, s)) in hidden.iter().zip(&v.layers).enumerate() {
        let s = s.as_ref().expect("finite states");
        assert_eq!(s.histogram.len(), BINS);
        assert_eq!(s.histogram.iter().sum::<u64>(), (n * (n - 1) / 2) as u64, "layer {}", l);
        let labels = cosine_clusters(x, n, d, cos_tol);
        assert_eq!(s.labels, labels, "layer {}", l);
        assert_eq!(s.clusters, labels.iter().max().unwrap() + 1);
        assert_eq!(s.mean_cos, mean_cosine(&cosines(x, n, d), n));
        let bound = n.min(d) as f64;
        assert!((1.0..=bound).contains(&s.effective_rank), "layer {}: effective rank {}", l, s.effective_rank);
    }
}

/// Compares `v` with the reference `want` (coordinates and variances within `coord_tol` of the
/// largest, mean cosines within `tol`, effective ranks within `rank_tol` relative, histograms
/// equal but for the pairs within `edge_near` of a bin edge); returns the largest errors and the
/// histogram entries that differ.
fn compare(v: &LayersView, want: &Value, coord_tol: f64, tol: f64, rank_tol: f64) -> (f64, f64, f64, u64) {
    let (k, mut errs) = (v.pca.k, (0.0f64, 0.0f64, 0.0f64, 0u64));
    let scale = arr(&want["coords"]).iter().flat_map(arr).flat_map(arr).fold(0.0f64, |m, c| nan_max(m, f(c).abs()));
    for (l, (ours, layer)) in v.coords.iter().zip(arr(&want["coords"])).enumerate() {
        for (i, row) in arr(layer).iter().enumerate() {
            for (a, w) in arr(row).iter().enumerate() {
                let err = (ours[i * k + a] - f(w)).abs() / scale;
                errs.0 = nan_max(errs.0, err);
                assert!(err <= coord_tol, "layer {} token {} axis {}: {} vs {}", l, i, a, ours[i * k + a], w);
            }
        }
    }
    for (a, w) in arr(&want["variance"]).iter().enumerate() {
        assert!((v.pca.variance[a] - f(w)).abs() <= coord_tol * f(w), "variance {}: {} vs {}", a, v.pca.variance[a], w);
    }
    for (l, (s, w)) in v.layers.iter().zip(arr(&want["layers"])).enumerate() {
        let s = s.as_ref().expect("finite states");
        let hist: Vec<u64> = arr(&w["histogram"]).iter().map(|c| c.as_u64().unwrap()).collect();
        let diff: u64 = s.histogram.iter().zip(&hist).map(|(a, b)| a.abs_diff(*b)).sum();
        assert!(diff <= 2 * w["near_edges"].as_u64().unwrap(), "layer {}: {:?} vs {:?}", l, s.histogram, hist);
        errs.3 += diff;
        let e = (s.mean_cos - f(&w["mean_cos"])).abs();
        errs.1 = nan_max(errs.1, e);
        assert!(e <= tol, "layer {} mean cos {} vs {}", l, s.mean_cos, w["mean_cos"]);
        let e = (s.effective_rank - f(&w["effective_rank"])).abs() / f(&w["effective_rank"]);
        errs.2 = nan_max(errs.2, e);
        assert!(e <= rank_tol, "layer {} effective rank {} vs {}", l, s.effective_rank, w["effective_rank"]);
        if f(&w["margin"]) > 1e-4 {
            let labels: Vec<usize> = arr(&w["labels"]).iter().map(|c| c.as_u64().unwrap() as usize).collect();
            assert_eq!(s.labels, labels, "layer {}", l);
        }
    }
    errs
}

#[test]
fn tiny_bert_layers_view_matches_numpy() {
    let enc = tiny();
    let want = &fixture()["tiny"];
    let cos_tol = f(&fixture()["cos_tol"]);
    let (d, (ours, n)) = (enc.config.hidden, hidden(&enc, want));
    // The fixture's float32 states: the NumPy forward's, within rounding of the core's.
    let states: Vec<Vec<f32>> =
        arr(&want["states"]).iter().map(|x| arr(x).iter().flat_map(arr).map(|v| f(v) as f32).collect()).collect();
    let state_err = ours.iter().flatten().zip(states.iter().flatten()).fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    assert!(state_err <= 1e-5, "{}", state_err);
    // On the same states the analysis is the reference's to rounding; the cosines are the same
    // bits (float32 products summed in order), so the histograms are equal.
    let v = layers_view(&states, n, d, cos_tol);
    check_invariants(&v, &states, n, d, cos_tol);
    // The effective rank is §1.7's, from the Gram matrix's eigenvalues: the centred tokens' zero
    // singular values come out near sqrt(eps) of the largest (NumPy's SVD gives them near eps).
    let (ce, me, ee, hd) = compare(&v, want, 1e-12, 1e-12, 1e-6);
    assert_eq!(hd, 0);
    for (s, w) in v.layers.iter().zip(arr(&want["layers"])) {
        assert_eq!(s.as_ref().unwrap().mean_cos, f(&w["mean_cos"]), "the same sum in the same order");
    }
    // The core's own states give the same picture.
    check_invariants(&layers_view(&ours, n, d, cos_tol), &ours, n, d, cos_tol);
    println!(
        "tiny BERT, {} tokens: states within {:.1e}; coordinates within {:.1e} of the largest, mean cos {:.1e}, \
         effective rank {:.1e} relative",
        n, state_err, ce, me, ee
    );
}

#[test]
fn minilm_layers_view_matches_numpy() {
    let enc = minilm();
    let bytes = std::fs::read(crate::common::model::model_dir("model.safetensors").join("model.safetensors")).unwrap();
    assert_eq!(sha(&bytes), fixture()["model_sha256"], "another all-MiniLM-L6-v2");
    let want = &fixture()["minilm"];
    let cos_tol = f(&fixture()["cos_tol"]);
    let (d, (h, n)) = (enc.config.hidden, hidden(enc, want));
    let t = std::time::Instant::now();
    let v = layers_view(&h, n, d, cos_tol);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    check_invariants(&v, &h, n, d, cos_tol);
    // The core's float32 forward and NumPy's differ by about 1e-6: the statistics by as much.
    let (ce, me, ee, hd) = compare(&v, want, 1e-4, 1e-5, 1e-5);
    println!(
        "MiniLM, {} tokens x {} layers: view in {:.1} ms; coordinates within {:.1e} of the largest, mean cos {:.1e}, \
         effective rank {:.1e} relative, {} histogram entries moved",
        n,
        h.len(),
        ms,
        ce,
        me,
        ee,
        hd
    );
}

#[test]
fn cosines_fall_in_the_bins_numpy_uses() {
    // Bin b holds -1 + b/32 <= c < -1 + (b+1)/32; 1 is in the last; past ±1 in the end bins.
    assert_eq!(cosine_bin(-1.0), 0);
    assert_eq!(cosine_bin(-1.5), 0);
    assert_eq!(cosine_bin(0.0), 32);
    assert_eq!(cosine_bin(1.0), BINS - 1);
    assert_eq!(cosine_bin(1.0 + f64::EPSILON), BINS - 1);
    assert_eq!(cosine_bin(1.0 - 1.0 / 32.0), BINS - 1);
    assert_eq!(cosine_bin(0.5), 48);
    // c + 1 rounds onto an edge: the bin below all the same.
    assert_eq!(cosine_bin(-1e-20), 31);
    assert_eq!(cosine_bin(0.5f64.next_down()), 47);
    assert_eq!(cosine_bin(-1.0 + 1.0 / 32.0), 1);
    assert_eq!(cosine_bin((-1.0f64 + 1.0 / 32.0).next_down()), 0);
}

#[test]
fn a_non_finite_token_is_left_out_of_the_fit() {
    let enc = tiny();
    let (mut h, n) = hidden(&enc, &fixture()["tiny"]);
    let d = enc.config.hidden;
    let clean = layers_view(&h[..2], n, d, 0.01);
    // Layer 2 entirely NaN (an overflow): the fit is layers 0 and 1's, layer 2 has no coordinates.
    h[2].iter_mut().for_each(|v| *v = f32::NAN);
    let v = layers_view(&h, n, d, 0.01);
    assert_eq!(v.pca, clean.pca);
    assert_eq!(&v.coords[..2], &clean.coords[..]);
    assert!(v.coords[2].iter().all(|c| c.is_nan()));
    assert_eq!(v.layers[2], None, "no statistics of a non-finite layer");
    assert_eq!(v.layers[..2], clean.layers[..]);
    // One token of layer 1 with an infinite entry: only its coordinates are missing.
    h[1][3 * d + 2] = f32::INFINITY;
    let v = layers_view(&h, n, d, 0.01);
    assert!(v.coords[1][3 * COMPONENTS..4 * COMPONENTS].iter().all(|c| c.is_nan()));
    assert_eq!(v.coords[1].iter().filter(|c| c.is_nan()).count(), COMPONENTS);
    assert_eq!(v.layers[1], None);
    assert!(v.layers[0].is_some());
    // No finite token at all: nothing is fitted, nothing is a number.
    h.iter_mut().flatten().for_each(|v| *v = f32::NAN);
    let v = layers_view(&h, n, d, 0.01);
    assert!(v.pca.axes.iter().chain(&v.pca.variance).chain(v.coords.iter().flatten()).all(|c| c.is_nan()));
    assert!(v.pca.total_variance.is_nan() && v.layers.iter().all(Option::is_none));
}
