//! The depth lab's science checks (science.md §3 rank collapse; §4 context similarity is in
//! `depth_similarity.rs`).

use attn_core::depth::{self, forward, input, paths, rank, weights, DepthRun, Input, Precision, Variant};
use attn_core::rng::Rng;

fn config(text: &str) -> depth::DepthConfig {
    depth::parse(text).unwrap_or_else(|e| panic!("{}: {}", text, e))
}

fn run(text: &str, v: Variant) -> depth::VariantResult {
    DepthRun::new(&config(text)).run_variant(v)
}

/// science.md §3: `[[1,2,3],[4,5,6]]` has composite norm sqrt(9 * 15) = sqrt(135) = 11.619 and
/// relative residual 0.3162, with either centre.
#[test]
fn composite_norm_and_residual_of_the_science_example() {
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    assert_eq!(rank::norm_1(&x, 2, 3), 9.0);
    assert_eq!(rank::norm_inf(&x, 2, 3), 15.0);
    let norm = rank::composite_norm(&x, 2, 3);
    assert!((norm - 135f64.sqrt()).abs() < 1e-12 && (norm - 11.619).abs() < 5e-4, "{}", norm);
    let r = rank::relative_residual(&x, 2, 3);
    assert!((r - 0.3162).abs() < 5e-5, "{}", r);
    // sqrt(3 * 4.5) / sqrt(135) = sqrt(0.1) exactly.
    assert!((r - 0.1f64.sqrt()).abs() < 1e-12, "{}", r);
    // The argmin centre cannot do better here: every column sum is >= 3 and the two row sums add
    // to >= 9, so the product is >= 3 * 4.5.
    let a = rank::argmin_residual(&x, 2, 3);
    assert!((a.relative - 0.1f64.sqrt()).abs() < 1e-12, "{:?}", a);
    // A rank-1 matrix has residual 0.
    let y = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0];
    assert_eq!(rank::relative_residual(&y, 3, 2), 0.0);
    assert_eq!(rank::argmin_residual(&y, 3, 2).relative, 0.0);
}

/// The argmin residual is never above the mean's, beats it when an outlier drags the mean, and
/// is a local minimum along every coordinate.
#[test]
fn argmin_residual_is_at_most_the_mean_residual() {
    let mut rng = Rng::new(5, 0);
    for (n, d) in [(5, 3), (16, 8), (40, 12)] {
        let x: Vec<f64> = (0..n * d).map(|_| rng.normal()).collect();
        let mean = rank::relative_residual(&x, n, d);
        let a = rank::argmin_residual(&x, n, d);
        assert!(a.relative <= mean + 1e-15, "{} > {}", a.relative, mean);
        assert!((rank::relative_residual_about(&x, n, d, &a.center) - a.relative).abs() < 1e-12);
        // No single-coordinate move by +-1e-3 of the spread lowers the norm.
        for c in 0..d {
            for step in [-1e-3, 1e-3] {
                let mut moved = a.center.clone();
                moved[c] += step;
                assert!(rank::relative_residual_about(&x, n, d, &moved) >= a.relative - 1e-13);
            }
        }
    }
    // Nine tokens at 0 and one at 10 (d = 1): about the mean 1, ||res||_1 = 18 and ||res||_inf = 9;
    // about the minimiser 0, both are 10.
    let mut x = vec![0.0; 10];
    x[9] = 10.0;
    let mean = rank::relative_residual(&x, 10, 1);
    let a = rank::argmin_residual(&x, 10, 1);
    assert!((mean - 162f64.sqrt() / 10.0).abs() < 1e-12, "{}", mean);
    assert!((a.relative - 1.0).abs() < 1e-12, "{:?}", a);
    assert_eq!(a.center, vec![0.0]);
}

/// Singular values: SVD and Gram routes agree on a generic matrix; a rank-1 matrix has one.
#[test]
fn singular_values_of_known_matrices() {
    let x = [3.0, 0.0, 0.0, 0.0, 2.0, 0.0];
    assert_eq!(
        rank::singular_values(&x, 2, 3).iter().map(|s| (s * 1e12).round() / 1e12).collect::<Vec<_>>(),
        vec![3.0, 2.0]
    );
    let mut rng = Rng::new(9, 0);
    let (n, d) = (20, 50);
    let y: Vec<f64> = (0..n * d).map(|_| rng.normal()).collect();
    let a = rank::singular_values(&y, n, d);
    let b = rank::singular_values_gram(&y, n, d);
    assert_eq!(a.len(), 20);
    for (s, t) in a.iter().zip(&b) {
        assert!((s - t).abs() < 1e-10 * a[0], "{} {}", s, t);
    }
    let r1: Vec<f64> = (0..n * d).map(|k| ((k / d) as f64 + 1.0) * ((k % d) as f64 - 7.0)).collect();
    let s = rank::singular_values(&r1, n, d);
    assert!(s[1] < 1e-13 * s[0], "{:?}", &s[..3]);
}

fn check_quadratic_fall(label: &str, r: &[f64]) {
    // From the second layer on, r_{l+1} <= r_l^2 until the residual drops below 1e-12; after that
    // it stays below 1e-12. (f64 round-off puts a floor near 2e-15 under the relative residual, so
    // the step that crosses 1e-12 cannot be asked to reach r_l^2 when that is below the floor.)
    for l in 1..r.len() - 1 {
        if r[l + 1] < 1e-12 {
            continue;
        }
        assert!(r[l] >= 1e-12, "{}: back above 1e-12 at layer {}: {:?}", label, l + 1, r);
        assert!(
            r[l + 1] <= r[l] * r[l],
            "{}: r_{} = {:e} > r_{}^2 = {:e}; {:?}",
            label,
            l + 1,
            r[l + 1],
            l,
            r[l] * r[l],
            r
        );
    }
    assert!(r[r.len() - 1] < 1e-12, "{}: never below 1e-12: {:?}", label, r);
}

/// science.md §3 at BERT-like initialisation (d_model 768, 12 heads of 64, 12 layers,
/// N(0, 0.02^2), post-LN, n = 128), in f64: SAN and SAN+MLP collapse by layer 2 and then fall
/// faster than exponentially (at least quadratically, down to round-off); SAN+skip stays up.
#[test]
fn bert_init_san_collapses_doubly_exponentially_and_skip_does_not() {
    let c = config("lab=depth&preset=bert-init&precision=f64");
    let mut run = DepthRun::new(&c);
    let san = run.run_variant(Variant::San);
    let san_mlp = run.run_variant(Variant::SanMlp);
    let skip = run.run_variant(Variant::SanSkip);
    for (label, r) in [("SAN", &san.residual), ("SAN+MLP", &san_mlp.residual), ("SAN+skip", &skip.residual)] {
        println!("{:<9} {}", label, r.iter().map(|x| format!("{:.3e}", x)).collect::<Vec<_>>().join(" "));
        assert_eq!(r.len(), 13);
        assert!(r[0] > 0.9, "{}: a Gaussian input is far from rank 1: {}", label, r[0]);
    }
    assert!(san.residual[2] < 0.05 && san_mlp.residual[2] < 0.05, "{:?} {:?}", san.residual, san_mlp.residual);
    assert!(skip.residual[12] > 0.3, "{:?}", skip.residual);
    check_quadratic_fall("SAN", &san.residual);
    check_quadratic_fall("SAN+MLP", &san_mlp.residual);
    // Rank 1 in the singular values too: sigma_2 / sigma_1 below 1e-12 at the last layer.
    let s = &san.singular_values[12];
    assert!(s[1] < 1e-12 * s[0], "{:?}", &s[..3]);
    let s = &skip.singular_values[12];
    assert!(s[1] > 0.1 * s[0], "{:?}", &s[..3]);
    assert!(san.overflow.is_none() && skip.overflow.is_none());
}

/// The same at a larger Q/K scale (qk_scale 0.05, 2.5 x BERT's): attention is sharper, the
/// collapse starts later, and once it starts the fall is again at least quadratic.
#[test]
fn quadratic_fall_at_a_larger_qk_scale() {
    let c = config("lab=depth&preset=bert-init&precision=f64&qk_scale=0.05&variants=san,san-mlp");
    let mut run = DepthRun::new(&c);
    for v in [Variant::San, Variant::SanMlp] {
        let r = run.run_variant(v).residual;
        println!("{:<9} {}", v.label(), r.iter().map(|x| format!("{:.3e}", x)).collect::<Vec<_>>().join(" "));
        check_quadratic_fall(v.label(), &r);
    }
}

/// In f32 (the default), SAN still collapses by layer 2, to the f32 floor (about 1e-7).
#[test]
fn bert_init_in_f32_collapses_to_the_f32_floor() {
    let r = run("lab=depth&preset=bert-init", Variant::San).residual;
    println!("SAN f32 {:?}", r);
    assert!(r[2] < 0.05, "{:?}", r);
    assert!(r[12] < 1e-5, "{:?}", r);
}

/// A small f64 stack (L = 3, H = 2, d_model 8, d_head 4, n = 6, no LayerNorm); `extra` overrides keys.
fn small(extra: &str) -> depth::DepthConfig {
    let base = "layers=3&heads=2&d_model=8&d_head=4&tokens=6&mlp_width=16&weight_scale=0.5&qk_scale=0.7&precision=f64&layernorm=none";
    let set: Vec<&str> = extra.split('&').filter_map(|p| p.split_once('=')).map(|(k, _)| k).collect();
    let kept: Vec<&str> = base.split('&').filter(|p| !set.contains(&p.split_once('=').unwrap().0)).collect();
    config(&format!("lab=depth&{}&{}", kept.join("&"), extra))
}

fn rel_diff(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt();
    let den: f64 = b.iter().map(|y| y * y).sum::<f64>().sqrt();
    num / den
}

/// science.md §3 path view: in the linear bias-free case the sum over all (H + 1)^L paths of
/// P_path X W_path reproduces the forward output (L = 3, H = 2: 27 paths), both path by path and
/// by the recursion over lengths; LayerNorm with its forward scales frozen stays exact.
#[test]
fn exact_path_decomposition_reproduces_the_forward_output() {
    for ln in ["none", "post", "pre"] {
        let c = small(&format!("layernorm={}", ln));
        let input = Input::from_config(&c);
        for v in [Variant::SanSkip, Variant::San] {
            let block = v.block(&c);
            let f = forward::run::<f64>(&c, &block, &input.tokens, input.n);
            let out = f.hidden_rows(3).unwrap();
            let explicit = paths::explicit_path_sums(&c, &block, &f, 1000).unwrap();
            let recursive = paths::path_sums(&c, &block, &f).unwrap();
            assert_eq!((explicit.len(), recursive.len()), (4, 4));
            let mut total = vec![0.0; out.len()];
            for (k, (e, r)) in explicit.iter().zip(&recursive).enumerate() {
                for (t, x) in total.iter_mut().zip(e) {
                    *t += x;
                }
                let scale = out.iter().map(|y| y * y).sum::<f64>().sqrt();
                let diff: f64 = e.iter().zip(r).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
                assert!(diff < 1e-12 * scale, "{} {:?} length {}: {}", ln, v, k, diff);
                if v == Variant::San && k < 3 {
                    assert!(e.iter().all(|x| *x == 0.0), "SAN has only the path through every layer");
                }
            }
            let err = rel_diff(&total, &out);
            println!("layernorm={} {:<9} path decomposition relative error {:.2e}", ln, v.label(), err);
            assert!(err < 1e-10, "{} {:?}: {}", ln, v, err);
            let lengths = paths::path_lengths(&c, &block, &f).unwrap();
            assert!(lengths.error < 1e-10, "{:?}", lengths);
        }
    }
    // Not linear: an MLP, or biases.
    let c = small("bias_scale=0.1");
    let mut r = DepthRun::new(&c);
    r.run_variant(Variant::SanSkip);
    assert!(r.path_lengths().unwrap_err().contains("bias_scale"));
    r.run_variant(Variant::Transformer);
    assert!(r.path_lengths().unwrap_err().contains("MLP"));
}

/// `C(L, k) H^k / (H + 1)^L`: L = 3, H = 2 gives 1, 6, 12, 8 out of 27; shares add to 1.
#[test]
fn path_shares_are_binomial() {
    let s = paths::path_shares(3, 2);
    for (a, b) in s.iter().zip([1.0, 6.0, 12.0, 8.0]) {
        assert!((a - b / 27.0).abs() < 1e-15, "{:?}", s);
    }
    for (l, h) in [(12, 12), (48, 16), (1, 1)] {
        let s = paths::path_shares(l, h);
        assert_eq!(s.len(), l + 1);
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // BERT: paths through 11 and through 12 heads are the most common, equally (C(12,11) 12^11 = 12^12).
    let s = paths::path_shares(12, 12);
    assert!((s[11] - s[12]).abs() < 1e-15 * s[12]);
    assert!(s.iter().all(|&x| x <= s[12] * (1.0 + 1e-15)));
    assert!((s[12] - (12.0f64 / 13.0).powi(12)).abs() < 1e-15);
}

/// The text input: tokens, sentences, markers and the embedding recipe of `depth::input`.
#[test]
fn text_input_layout_and_embedding() {
    let layout = input::text_layout("The cat sat. It ran?! Done", &[], true).unwrap();
    assert_eq!(
        layout.labels,
        vec!["[CLS]", "the", "cat", "sat", ".", "[SEP]", "it", "ran", "?", "!", "[SEP]", "done", "[SEP]"]
    );
    assert_eq!(layout.sentence, vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2]);
    assert_eq!(layout.separator.iter().filter(|&&s| s).count(), 4);
    let plain = input::text_layout("a b c d", &[1, 3], false).unwrap();
    assert_eq!(plain.sentence, vec![0, 1, 1, 1]);
    let c = config("lab=depth&preset=context-text&d_model=16&d_head=4&heads=2&text=the%20cat%20the%20dog");
    let inp = Input::from_config(&c);
    assert_eq!(inp.n, 6);
    assert_eq!(inp.labels, vec!["[CLS]", "the", "cat", "the", "dog", "[SEP]"]);
    // "the" at positions 1 and 3: the same word vector, different position terms.
    let e = input::word_embedding("the", 16);
    for (p, row) in [(1usize, 1usize), (3, 3)] {
        let pe = input::position_encoding(p, 16);
        for k in 0..16 {
            assert!((inp.tokens[row * 16 + k] - (e[k] + pe[k])).abs() < 1e-15);
        }
    }
    assert_eq!(input::position_encoding(0, 4), vec![0.0, 1.0, 0.0, 1.0]);
    assert_eq!(attn_core::depth::embeddings::fnv1a64(""), 0xcbf2_9ce4_8422_2325);
    // The word vector does not depend on the seed; the weights do.
    let c2 = config("lab=depth&preset=context-text&d_model=16&d_head=4&heads=2&text=the%20cat%20the%20dog&seed=9");
    assert_eq!(Input::from_config(&c2).tokens, inp.tokens);
}

/// The ziggurat gives standard normal deviates (moments and tail mass of 10^6 draws).
#[test]
fn ziggurat_normals_have_the_normal_moments() {
    let mut z = weights::Normals::new(Rng::new(3, 3));
    let m = 1_000_000;
    let (mut s1, mut s2, mut s4, mut tail) = (0.0, 0.0, 0.0, 0usize);
    for _ in 0..m {
        let x = z.sample();
        s1 += x;
        s2 += x * x;
        s4 += x * x * x * x;
        if x.abs() > 3.0 {
            tail += 1;
        }
    }
    let mf = m as f64;
    assert!((s1 / mf).abs() < 5e-3, "mean {}", s1 / mf);
    assert!((s2 / mf - 1.0).abs() < 5e-3, "variance {}", s2 / mf);
    assert!((s4 / mf - 3.0).abs() < 3e-2, "fourth moment {}", s4 / mf);
    // P(|x| > 3) = 0.0026998.
    assert!((tail as f64 / mf - 0.0027).abs() < 3e-4, "tail {}", tail as f64 / mf);
}

/// `fill` (two deviates per draw when both fall inside their blocks) gives exactly the deviates
/// of `sample` one by one, whatever the lengths of the slices it fills in turn (odd lengths leave
/// a spare half between calls; the 5 streams take every rejection path thousands of times).
#[test]
fn ziggurat_fill_is_sample_one_by_one() {
    for stream in 0..5u64 {
        let (mut a, mut b) = (weights::Normals::new(Rng::new(9, stream)), weights::Normals::new(Rng::new(9, stream)));
        for len in [1usize, 2, 3, 7, 64, 127, 1000, 4097].iter().cycle().take(400) {
            let mut got = vec![0.0f32; *len];
            a.fill(&mut got, 0.02);
            let want: Vec<f32> = (0..*len).map(|_| (0.02 * b.sample()) as f32).collect();
            assert_eq!(
                got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "stream {} len {}",
                stream,
                len
            );
        }
    }
}

/// Weights: the seed and layer decide them; shared weights repeat; each matrix its own stream.
#[test]
fn weights_are_seeded_per_layer_and_shareable() {
    let c = small("");
    let a = weights::layer_weights::<f64>(&c, 0, true);
    let b = weights::layer_weights::<f64>(&c, 1, true);
    assert_ne!(a.wqkv, b.wqkv);
    assert_eq!(a.wqkv, weights::layer_weights::<f64>(&c, 0, false).wqkv);
    let shared = small("shared=on");
    assert_eq!(weights::layer_weights::<f64>(&shared, 2, false).wqkv, a.wqkv);
    // The MLP width does not change the attention weights; f32 weights are the f64 ones rounded.
    let wide = small("mlp_width=32");
    assert_eq!(weights::layer_weights::<f64>(&wide, 1, true).wqkv, b.wqkv);
    let b32 = weights::layer_weights::<f32>(&c, 1, true);
    assert!(b32.wqkv.iter().zip(b.wqkv.iter()).all(|(x, y)| *x == *y as f32));
    // Entry standard deviations: qk_scale for W_Q, W_K, weight_scale for W_V.
    let big = config("lab=depth&layers=1&heads=4&d_model=256&d_head=64&tokens=4&mlp_width=4&qk_scale=0.3&weight_scale=0.01&precision=f64");
    let w = weights::layer_weights::<f64>(&big, 0, false);
    let sd = |m: nalgebra::DMatrixView<f64>| (m.iter().map(|x| x * x).sum::<f64>() / m.len() as f64).sqrt();
    assert!((sd(w.wqkv.columns(0, 256)) - 0.3).abs() < 0.01);
    assert!((sd(w.wqkv.columns(512, 256)) - 0.01).abs() < 0.0005);
    assert!(w.bqkv.is_empty() && w.bo.is_empty());
}

/// `weights=particle`, `input=particle`: SAN+skip without LayerNorm and MLP is forward Euler of the
/// particle model in x, one layer per step (science.md §1).
#[test]
fn particle_weights_make_san_skip_the_euler_scheme() {
    let c = config("lab=depth&preset=particle-euler&layers=30&particle=preset%3Dpolytope%26v%3D1,0.5;-0.3,0.8%26beta%3D2%26dt%3D0.05");
    let mut run = DepthRun::new(&c);
    let result = run.run_variant(Variant::SanSkip);
    assert!(result.overflow.is_none());
    let out = run.hidden(30).unwrap();
    let p = c.particle_config().unwrap();
    let sim_config = attn_core::parse(&format!("{}&integrate_in=x&integrator=euler", p.to_canonical_string())).unwrap();
    let mut sim = attn_core::Simulation::new(&sim_config);
    assert_eq!(run.input().tokens, sim.state().to_vec());
    for _ in 0..30 {
        sim.step().unwrap();
    }
    let err = rel_diff(&out, sim.state());
    assert!(err < 1e-12, "{}", err);
    // The first layer's attention is the particle model's P at t = 0.
    let fresh = attn_core::Simulation::new(&sim_config);
    let mut fresh = fresh;
    let mut pm = vec![0.0; 400];
    fresh.attention(&mut pm).unwrap();
    assert!(rel_diff(&run.attention(1, 0).unwrap(), &pm) < 1e-13);
    // Tokens handed over from the particle view.
    let tokens: Vec<f64> = (0..40).map(|k| (k as f64 * 0.37).sin()).collect();
    let mut r2 = DepthRun::with_tokens(&c, &tokens, 20, 2).unwrap();
    assert_eq!(r2.input().tokens, tokens);
    r2.run_variant(Variant::San);
    assert_eq!(DepthRun::with_tokens(&c, &tokens, 19, 2).unwrap_err().key, "tokens");
    assert_eq!(DepthRun::with_tokens(&c, &tokens[..38], 19, 2).unwrap_err().key, "tokens");
    assert_eq!(DepthRun::with_tokens(&c, &tokens, 10, 4).unwrap_err().key, "tokens");
    assert_eq!(DepthRun::with_tokens(&config("lab=depth"), &tokens, 20, 2).unwrap_err().key, "input");
}

/// The run's records: shapes, row-stochastic attention, views of the last variant, determinism,
/// and f32 against f64.
#[test]
fn records_views_and_precisions() {
    let c = small("layernorm=post&bias_scale=0.1&variants=san,san-mlp,san-skip,transformer,configured&mlp=off");
    let mut run = DepthRun::new(&c);
    let all = run.run_all();
    assert_eq!(all.iter().map(|r| r.variant).collect::<Vec<_>>(), depth::VARIANTS.to_vec());
    assert_eq!(run.last_variant(), Some(Variant::Configured));
    // configured = skip on, mlp off: SAN+skip.
    assert_eq!(all[4].residual, all[2].residual);
    for r in &all {
        assert_eq!(
            (r.residual.len(), r.composite_norm.len(), r.singular_values.len(), r.similarity.len()),
            (4, 4, 4, 3)
        );
        assert!(r.singular_values.iter().all(|s| s.len() == 6));
        assert_eq!(r.residual[0], all[0].residual[0]);
    }
    for l in 1..=3 {
        for h in 0..2 {
            let p = run.attention(l, h).unwrap();
            for row in p.chunks(6) {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
            assert_eq!(run.head_output(l, h).unwrap().len(), 6 * 4);
        }
    }
    assert!(run.attention(0, 0).is_none() && run.attention(4, 0).is_none() && run.attention(1, 2).is_none());
    assert_eq!(run.hidden(0).unwrap(), run.input().tokens);
    // Same configuration, same numbers.
    assert_eq!(DepthRun::new(&c).run_all(), all);
    // f32 follows f64 closely where nothing has collapsed.
    let c32 = depth::DepthConfig { precision: Precision::F32, ..c.clone() };
    let r32 = DepthRun::new(&c32).run_variant(Variant::SanSkip);
    for (a, b) in r32.residual.iter().zip(&all[2].residual) {
        assert!((a - b).abs() < 1e-4 * b, "{} {}", a, b);
    }
}

/// A stack that overflows f32 reports it instead of panicking.
#[test]
fn overflow_is_reported() {
    let c = config("lab=depth&layers=48&heads=1&d_model=16&d_head=16&tokens=8&mlp_width=16&layernorm=none&weight_scale=10&qk_scale=0.01&variants=transformer");
    let r = DepthRun::new(&c).run_variant(Variant::Transformer);
    let msg = r.overflow.clone().expect("overflow");
    assert!(msg.contains("layer") && msg.contains("f32"), "{}", msg);
    assert!(r.residual.last().unwrap().is_nan());
    let first_bad = r.residual.iter().position(|x| x.is_nan()).unwrap();
    assert!(msg.contains(&format!("layer {} ", first_bad)), "{} {:?}", msg, r.residual);
    assert!(r.residual[..first_bad].iter().all(|x| x.is_finite()));
    assert_eq!(r.singular_values.len(), 49);
    assert!(r.singular_values[first_bad][0].is_nan());
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("null"));
    // Read back from JSON values (as the page reads what its worker sent, numbers exact), each
    // null is a NaN again.
    let back: depth::VariantResult = serde_json::from_value(serde_json::to_value(&r).unwrap()).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back.residual), bits(&r.residual));
    assert_eq!(bits(&back.singular_values[first_bad]), bits(&r.singular_values[first_bad]));
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
}

/// A result and its path lengths read back from their JSON values are the same numbers, with
/// the variant read from its label; a label no variant has is refused by name.
#[test]
fn results_read_back_from_json_are_the_results() {
    let c = config("lab=depth&preset=context-text&layers=2&bias_scale=0&variants=san-skip");
    let mut run = DepthRun::new(&c);
    let r = run.run_variant(Variant::SanSkip);
    assert!(!r.similarity.is_empty() && !r.similarity[0].heads.is_empty());
    let json = serde_json::to_value(&r).unwrap();
    let back: depth::VariantResult = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.variant, Variant::SanSkip);
    assert_eq!(serde_json::to_value(&back).unwrap(), json);
    let p = run.path_lengths().expect("SAN+skip without biases has a path decomposition");
    let back: paths::PathLengths = serde_json::from_value(serde_json::to_value(&p).unwrap()).unwrap();
    assert_eq!(back, p);
    let mut wrong = json;
    wrong["variant"] = "SAN+nothing".into();
    let e = serde_json::from_value::<depth::VariantResult>(wrong).unwrap_err().to_string();
    assert!(e.contains("no depth variant \"SAN+nothing\""), "{}", e);
}

#[test]
fn workers_take_the_first_variant_then_the_heaviest() {
    let names = |text: &str| -> Vec<&'static str> {
        DepthRun::new(&config(text)).schedule().iter().map(|v| v.name()).collect()
    };
    // bert-init: SAN's curve first; the two MLP variants (2.9 times SAN's work) before SAN+skip.
    assert_eq!(names("lab=depth&preset=bert-init"), ["san", "san-mlp", "transformer", "san-skip"]);
    assert_eq!(
        names("lab=depth&preset=bert-init&variants=san-skip,san,transformer"),
        ["san-skip", "transformer", "san"]
    );
    let c = config("lab=depth&preset=bert-init");
    let n = DepthRun::new(&c).n();
    assert!(Variant::SanMlp.work(&c, n) > 2.0 * Variant::San.work(&c, n));
    assert_eq!(Variant::San.work(&c, n), Variant::SanSkip.work(&c, n));
}

/// `Input::layout` (what the page shows before a variant runs) is the labels, sentences and
/// separators of the input `Input::from_config` makes, for every source of tokens.
#[test]
fn the_input_layout_is_the_inputs_without_its_tokens() {
    for link in [
        "lab=depth&preset=bert-init",
        "lab=depth&preset=bert-init&input=text&text=Hi%20there.%20Bye!",
        "lab=depth&preset=context-text",
        "lab=depth&preset=context-text&separators=off&text=One%20two.%20Three%20four%20five&sentences=3,3",
        "lab=depth&preset=collapse-small&input=gaussian&tokens=9&sentences=4,5&separators=on",
        "lab=depth&preset=particle-euler",
    ] {
        let c = config(link);
        let (layout, input) = (Input::layout(&c), Input::from_config(&c));
        assert_eq!(layout.labels, input.labels, "{link}: labels");
        assert_eq!(layout.sentence, input.sentence, "{link}: sentences");
        assert_eq!(layout.separator, input.separator, "{link}: separators");
        assert_eq!(input.tokens.len(), input.n * c.d_model, "{link}: n x d tokens");
        assert_eq!(input.n, layout.labels.len(), "{link}: n");
    }
}
