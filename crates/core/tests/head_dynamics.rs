//! One trained head as a particle system (science.md §7.6): the low-rank field against a dense
//! NumPy evaluation (`fixtures/trained_heads/make_head_dynamics.py`, `head_dynamics.json`) and
//! against the particle lab's dense `Field` given the formed `d x d` matrices, `exp(-tV_h)` in
//! low-rank form, the sphere's radius, the runs from `h_{L−1}` and a non-finite stop. On the tiny
//! random BERT (seed 21) and all-MiniLM-L6-v2 (`cargo xtask fetch-model`).

use crate::common::model::{minilm, model_dir};
use crate::common::nan_max;
use crate::tiny_bert::{config_json, safetensors, vocab_txt};
use attn_core::linalg::expm_scaled;
use attn_core::model::head_dynamics::{
    run_observed, run_to_end, HeadDynamicsSpec, HeadRun, Listed, Sample, HYPERPLANE_TOL, SAMPLES,
};
use attn_core::model::heads::{head_matrices, HeadMatrices};
use attn_core::model::repeat::Repeater;
use attn_core::model::{Encoder, Serial, Variant};
use attn_core::particles::analysis::hyperplanes::value_groups;
use attn_core::particles::config::{Model, Space};
use attn_core::particles::field::low_rank::{value_exp_factor, Bilinear, Factors, LowRankField};
use attn_core::particles::field::Field;
use attn_core::particles::init::Matrices;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

fn fixture() -> &'static Value {
    static F: OnceLock<Value> = OnceLock::new();
    F.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/trained_heads/head_dynamics.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{:02x}", b)).collect()
}

fn tiny() -> Encoder {
    let bytes = safetensors(21, false);
    assert_eq!(sha(&bytes), fixture()["tiny_sha256"], "the tiny BERT changed: run make_head_dynamics.py again");
    Encoder::load(&bytes, &config_json(""), &vocab_txt(), None).unwrap()
}

fn checked_minilm() -> &'static Encoder {
    let bytes = std::fs::read(model_dir("model.safetensors").join("model.safetensors")).unwrap();
    assert_eq!(sha(&bytes), fixture()["model_sha256"], "another all-MiniLM-L6-v2");
    minilm()
}

/// The script's probe tokens `x_k[c] = sin(0.37 (c + 1) (k + 1) + 0.11 k)`, `k < n` (`n x d`).
fn probes(n: usize, d: usize) -> Vec<f64> {
    (0..n).flat_map(|k| (0..d).map(move |c| (0.37 * (c + 1) as f64 * (k + 1) as f64 + 0.11 * k as f64).sin())).collect()
}

fn factors(m: &HeadMatrices) -> Factors<'_> {
    Factors { d: m.d, dk: m.dk, wq: &m.wq, wk: &m.wk, wv: &m.wv, wo: &m.wo }
}

fn bilinear(name: &Value) -> Bilinear {
    if name == "sym" {
        Bilinear::Sym
    } else {
        Bilinear::Raw
    }
}

fn spec(layer: usize, head: usize, bilinear: Bilinear, sphere: bool, dt: f64, until: f64) -> HeadDynamicsSpec {
    HeadDynamicsSpec { layer, head, bilinear, sphere, dt, until, cos_tol: 0.01 }
}

/// `max |a - b| / max |b|` over the columns `cols` of `a` (`n x d`) against `b` (`n x cols`).
fn rel_err(a: &[f64], d: usize, cols: &[usize], b: &Value) -> f64 {
    let (mut err, mut scale) = (0.0f64, 0.0f64);
    for (i, row) in b.as_array().unwrap().iter().enumerate() {
        for (k, want) in row.as_array().unwrap().iter().enumerate() {
            let want = want.as_f64().unwrap();
            err = nan_max(err, (a[i * d + cols[k]] - want).abs());
            scale = nan_max(scale, want.abs());
        }
    }
    err / scale
}

/// One Euler step of the low-rank field (its velocity and the stepped state, in R^d and on the
/// sphere, `sym` and `raw`) against the dense NumPy evaluation, to 1e-12.
fn check_euler_step(enc: &Encoder, entries: &Value) -> f64 {
    let f = fixture();
    let (n, dt, stride) = (f["n"].as_u64().unwrap() as usize, f["dt"].as_f64().unwrap(), f["stride"].as_u64().unwrap());
    let mut worst = 0.0f64;
    for e in entries.as_array().unwrap() {
        let (layer, head) = (e["layer"].as_u64().unwrap() as usize, e["head"].as_u64().unwrap() as usize);
        let (b, sphere) = (bilinear(&e["bilinear"]), e["sphere"].as_bool().unwrap());
        let m = head_matrices(&enc.config, &enc.weights, layer, head).unwrap();
        let d = m.d;
        let stride = if d > 64 { stride as usize } else { 1 };
        let cols: Vec<usize> = (0..d).step_by(stride).collect();
        let mut x = probes(n, d);
        if sphere {
            let r = (d as f64).sqrt();
            for row in x.chunks_mut(d) {
                let len = row.iter().map(|v| v * v).sum::<f64>().sqrt();
                row.iter_mut().for_each(|v| *v *= r / len);
            }
        }
        let mut vel = vec![0.0; n * d];
        LowRankField::new(factors(&m), b, n).velocity(&x, &mut vel, sphere).unwrap();
        let mut run = HeadRun::new(m.clone(), probes(n, d), n, spec(layer, head, b, sphere, dt, dt)).unwrap();
        run.step().unwrap();
        let (ev, ex) = (rel_err(&vel, d, &cols, &e["vel"]), rel_err(run.state(), d, &cols, &e["x1"]));
        let what = format!("layer {} head {} {:?} sphere {}", layer, head, b, sphere);
        assert!(ev <= 1e-12, "{}: velocity off by {:e} relative", what, ev);
        assert!(ex <= 1e-12, "{}: stepped state off by {:e} relative", what, ex);
        worst = nan_max(nan_max(worst, ev), ex);
    }
    worst
}

#[test]
fn one_euler_step_matches_the_dense_numpy_evaluation_on_the_tiny_bert() {
    let worst = check_euler_step(&tiny(), &fixture()["tiny"]);
    assert_eq!(fixture()["tiny"].as_array().unwrap().len(), 16, "4 heads x sym, raw x R^d, sphere");
    println!("tiny BERT: worst relative error {:e}", worst);
}

#[test]
fn one_euler_step_matches_the_dense_numpy_evaluation_on_minilm() {
    let worst = check_euler_step(checked_minilm(), &fixture()["minilm"]);
    println!("MiniLM: worst relative error {:e}", worst);
}

/// The particle lab's dense field with `Q = A` (the formed `S_h`, or `B_hᵀ` for `raw`: `<B_hᵀ
/// x_i, x_j> = x_iᵀ B_h x_j`), `K = I`, `V = V_h`, beta = 1, in R^d.
fn dense_velocity(m: &HeadMatrices, b: Bilinear, x: &[f64], n: usize) -> Vec<f64> {
    let d = m.d;
    let mut cfg = attn_core::particles::parse("preset=polytope").unwrap();
    (cfg.model, cfg.integrate_in, cfg.n, cfg.d, cfg.beta) = (Model::Euclidean, Space::X, n, d, 1.0);
    let q = match b {
        Bilinear::Sym => m.symmetric(),
        Bilinear::Raw => {
            let bh = m.bilinear();
            (0..d * d).map(|k| bh[(k % d) * d + k / d]).collect()
        }
    };
    let k = (0..d * d).map(|k| if k % (d + 1) == 0 { 1.0 } else { 0.0 }).collect();
    let mut field = Field::new(&cfg, &Matrices { q, k, v: m.value() });
    let mut out = vec![0.0; n * d];
    field.velocity(0.0, x, &mut out, false).unwrap();
    out
}

#[test]
fn the_low_rank_field_equals_the_dense_field_given_the_formed_matrices() {
    let tiny = tiny();
    let heads = [(&tiny, 1, 0), (&tiny, 2, 1), (checked_minilm(), 3, 7)];
    for (enc, layer, head) in heads {
        let m = head_matrices(&enc.config, &enc.weights, layer, head).unwrap();
        let (n, d) = (7, m.d);
        // Pseudo-random tokens of about the size of a LayerNorm's output.
        let x: Vec<f64> = (0..n * d).map(|k| ((k as f64 * 0.754877666).fract() - 0.5) * 2.5).collect();
        for b in [Bilinear::Sym, Bilinear::Raw] {
            let want = dense_velocity(&m, b, &x, n);
            let mut got = vec![0.0; n * d];
            LowRankField::new(factors(&m), b, n).velocity(&x, &mut got, false).unwrap();
            let scale = want.iter().fold(0.0f64, |s, v| nan_max(s, v.abs()));
            let err = got.iter().zip(&want).fold(0.0f64, |s, (a, b)| nan_max(s, (a - b).abs())) / scale;
            assert!(err <= 1e-12, "layer {} head {} {:?}: {:e} relative", layer, head, b, err);
        }
    }
}

#[test]
fn the_low_rank_exponential_is_exp_tv() {
    let enc = tiny();
    let f = fixture();
    let t = f["exp_t"].as_f64().unwrap();
    for (k, e) in f["tiny"].as_array().unwrap().iter().filter(|e| e.get("exp_neg_tv_x").is_some()).enumerate() {
        let (layer, head) = (e["layer"].as_u64().unwrap() as usize, e["head"].as_u64().unwrap() as usize);
        let m = head_matrices(&enc.config, &enc.weights, layer, head).unwrap();
        let (d, dk) = (m.d, m.dk);
        // I + W_o F(-t) W_v, formed, against NumPy's dense series and the particle lab's expm.
        let fm = value_exp_factor(&m.value_core(), dk, -t);
        let mut e_low = vec![0.0; d * d];
        for a in 0..d {
            for b in 0..d {
                let wo_f = |r: usize| (0..dk).map(|s| m.wo[a * dk + s] * fm[s * dk + r]).sum::<f64>();
                e_low[a * d + b] =
                    (0..dk).map(|r| wo_f(r) * m.wv[r * d + b]).sum::<f64>() + if a == b { 1.0 } else { 0.0 };
            }
        }
        let (em, s) = expm_scaled(&m.value(), d, -t);
        let dense_err = e_low.iter().zip(&em).fold(0.0f64, |acc, (a, b)| nan_max(acc, (a - b * s.exp()).abs()));
        assert!(dense_err <= 1e-12, "head {}: exp(-tV) off the dense expm by {:e}", k, dense_err);
        let x = probes(2, d);
        for (p, want) in e["exp_neg_tv_x"].as_array().unwrap().iter().enumerate() {
            for a in 0..d {
                let got: f64 = (0..d).map(|b| e_low[a * d + b] * x[p * d + b]).sum();
                let w = want[a].as_f64().unwrap();
                assert!(
                    (got - w).abs() <= 1e-12 * w.abs().max(1.0),
                    "head {} probe {} feature {}: {} vs {}",
                    k,
                    p,
                    a,
                    got,
                    w
                );
            }
        }
    }
}

#[test]
fn the_sphere_run_keeps_every_token_at_radius_sqrt_d() {
    let enc = tiny();
    let ids = enc.encode("the quick brown fox jumps over the lazy dog.").unwrap();
    for b in [Bilinear::Sym, Bilinear::Raw] {
        let mut run = HeadRun::from_encoder(&enc, &ids, spec(2, 1, b, true, 0.05, 20.0), &Serial).unwrap().unwrap();
        let result = run_to_end(&mut run);
        assert!(result.stopped.is_none(), "{:?}", result.stopped);
        assert_eq!(run.step_count(), 400);
        let r = (enc.config.hidden as f64).sqrt();
        let worst =
            result.x.chunks(enc.config.hidden).map(|row| (row.iter().map(|v| v * v).sum::<f64>().sqrt() - r).abs());
        let worst = worst.fold(0.0f64, nan_max);
        assert!(worst <= 1e-12, "{:?}: |x_i| off sqrt(d) by {:e}", b, worst);
        assert!(result.z.is_none() && result.samples.iter().all(|s| s.z.is_none() && s.hyperplanes.is_none()));
    }
}

#[test]
fn a_run_starts_from_the_unmodified_forward_and_lists_its_samples() {
    let enc = tiny();
    let ids = enc.encode("the quick brown fox jumps over the lazy dog.").unwrap();
    let s = spec(2, 0, Bilinear::Sym, false, 0.01, 3.0);
    let mut run = HeadRun::from_encoder(&enc, &ids, s, &Serial).unwrap().unwrap();
    let h1 = Repeater::new(&enc, &ids, 2, Variant::Transformer, &Serial);
    let want: Vec<f64> = h1.state().iter().map(|&v| v as f64).collect();
    assert_eq!(run.state(), &want[..], "the initial state is h_1 of the unmodified forward, as f64");
    let result = run_to_end(&mut run);
    assert_eq!(s.steps(), 300);
    assert_eq!(s.every(), 300u64.div_ceil(SAMPLES));
    let listed: Vec<u64> = result.samples.iter().map(|x| x.step).collect();
    let expected: Vec<u64> = (0..=300).step_by(3).collect();
    assert_eq!(listed, expected);
    let first = &result.samples[0];
    assert_eq!((first.t, first.z.as_ref().unwrap()), (0.0, &first.x), "z(0) = x(0)");
    let last = result.samples.last().unwrap();
    assert!((last.t - 3.0).abs() < 1e-15 && last.x.labels.len() == h1.n());
    assert!(result.stopped.is_none() && result.z.is_some());
    // The time stepping moved the tokens.
    assert_ne!(result.x, want);
}

#[test]
fn a_run_listed_in_slices_is_the_whole_run_bit_for_bit() {
    // A slice of 7 steps (not a multiple of `every`), a slice of 1, and a run stopped by overflow.
    let enc = tiny();
    let ids = enc.encode("the quick brown fox jumps over the lazy dog.").unwrap();
    for (s, slice) in [
        (spec(2, 0, Bilinear::Sym, false, 0.01, 3.0), 7),
        (spec(1, 1, Bilinear::Raw, true, 0.05, 2.0), 1),
        (spec(1, 0, Bilinear::Raw, false, 1e306, 3e306), 2),
    ] {
        let whole = run_to_end(&mut HeadRun::from_encoder(&enc, &ids, s, &Serial).unwrap().unwrap());
        let mut run = HeadRun::from_encoder(&enc, &ids, s, &Serial).unwrap().unwrap();
        let (mut listed, mut calls, mut seen) = (Listed::default(), 0, Vec::new());
        while !listed.advance(&mut run, &mut |_, sample: &Sample| seen.push(sample.step), slice) {
            calls += 1;
            assert!(run.step_count() <= calls * slice, "at most {slice} steps a call");
        }
        let sliced = listed.finish(&run);
        assert_eq!(sliced, whole, "{s:?} in slices of {slice}");
        assert_eq!(seen, whole.samples.iter().map(|x| x.step).collect::<Vec<_>>());
        assert!(calls >= 1 || sliced.stopped.is_some(), "{s:?}: more than one slice, or stopped in the first");
    }
}

#[test]
fn a_non_finite_state_stops_the_run_naming_the_step() {
    let enc = tiny();
    let ids = enc.encode("the quick brown fox").unwrap();
    let mut run =
        HeadRun::from_encoder(&enc, &ids, spec(1, 0, Bilinear::Raw, false, 1e306, 3e306), &Serial).unwrap().unwrap();
    let before = run.state().to_vec();
    let result = run_to_end(&mut run);
    let stopped = result.stopped.expect("a step of 1e306 overflows");
    assert!((1..=3).contains(&stopped.step), "{:?}", stopped);
    assert!(stopped.what.contains(&format!("Euler step {} (", stopped.step)), "{}", stopped.what);
    assert!(stopped.what.contains("overflowed"), "{}", stopped.what);
    assert_eq!(result.samples[0].step, 0, "the initial sample is kept");
    assert!(result.samples.iter().all(|s| s.step < stopped.step), "only the samples before the stop");
    assert!(result.x.iter().all(|v| v.is_finite()), "the state stays the last finite one");
    assert_ne!(result.x, before);
    println!("{:?}", stopped);
}

#[test]
fn an_observed_run_lists_the_same_samples_and_shows_each_state_and_its_attention() {
    // MiniLM's layer 4 head 9: §1.3's row applies (ψ₁ is defined), so the hyperplane groups are
    // observed too. The tiny random BERT has no such head.
    let enc = minilm();
    let ids = enc.encode("the quick brown fox jumps over the lazy dog.").unwrap();
    let (layer, head) = (4, 9);
    let s = spec(layer, head, Bilinear::Sym, false, 0.01, 2.0);
    let plain = run_to_end(&mut HeadRun::from_encoder(enc, &ids, s, &Serial).unwrap().unwrap());
    let mut run = HeadRun::from_encoder(enc, &ids, s, &Serial).unwrap().unwrap();
    let d = enc.config.hidden;
    let mut seen: Vec<(u64, Vec<f64>, f64)> = Vec::new();
    let observed = run_observed(&mut run, &mut |run: &mut HeadRun, sample: &Sample| {
        let n = run.state().len() / d;
        let mut worst_row = 0.0f64;
        let mut count = 0;
        run.attention_rows(&mut |i, row| {
            assert_eq!(i, count, "rows in order");
            count += 1;
            worst_row = nan_max(worst_row, (row[..n].iter().sum::<f64>() - 1.0).abs());
        })
        .unwrap();
        assert_eq!(count, n);
        // ψ₁'s values are those whose groups the sample counts.
        let groups = run.psi_values().and_then(|v| value_groups(&v, HYPERPLANE_TOL));
        assert_eq!(groups, sample.hyperplanes, "step {}", sample.step);
        seen.push((sample.step, run.state().to_vec(), worst_row));
    });
    let steps = |r: &[Sample]| r.iter().map(|x| (x.step, x.t, x.boolean_distance, x.x.mean_cos)).collect::<Vec<_>>();
    assert_eq!(steps(&observed.samples), steps(&plain.samples), "observing changes no number");
    assert_eq!(observed.x, plain.x);
    assert_eq!(
        seen.iter().map(|s| s.0).collect::<Vec<_>>(),
        observed.samples.iter().map(|x| x.step).collect::<Vec<_>>()
    );
    assert!(seen.iter().all(|s| s.2 <= 1e-12), "P's rows sum to 1");
    assert_eq!(seen.last().unwrap().1, observed.x, "the last observed state is the run's end");
    assert_ne!(seen[0].1, seen[1].1, "each observation sees the state of its own sample");
    assert!(observed.samples.iter().all(|x| x.hyperplanes.is_some()));
}

#[test]
fn a_model_link_names_its_head_run() {
    use attn_core::model::head_dynamics::{DEFAULT_DT, DEFAULT_UNTIL};
    use attn_core::model::keys::{parse, HeadSpace};
    let link = parse("lab=model&text=hi&cos_tol=0.02&bilinear=raw&head_space=sphere&layer=3&head=5").unwrap();
    assert_eq!(link.head_space, HeadSpace::Sphere);
    let s = HeadDynamicsSpec::of_link(&link);
    assert_eq!((s.layer, s.head, s.bilinear, s.sphere, s.cos_tol), (3, 5, Bilinear::Raw, true, 0.02));
    assert_eq!((s.dt, s.until), (DEFAULT_DT, DEFAULT_UNTIL));
    for (space, sphere) in [("x", false), ("z", false)] {
        let l = parse(&format!("lab=model&text=hi&head_space={}", space)).unwrap();
        let s = HeadDynamicsSpec::of_link(&l);
        assert_eq!((s.sphere, s.bilinear, s.layer, s.head), (sphere, Bilinear::Sym, 1, 0));
    }
}
