//! The encoder forward and the surgery (crates/core/src/model/forward.rs, ops.rs, analysis.rs) on
//! a tiny random BERT written by the test, against a plain `f64` forward written here from the
//! formulas of science.md §6 (loops, no kernels): every hidden state of the four variants, the
//! attention maps and head outputs, the heads' contributions through `W_O`, the similarity
//! matrices and statistics; and the same bits for any split of the work across threads.

use crate::tiny_bert::*;
use attn_core::model::analysis::{residual_curve, similarity, statistics, QUANTILE};
use attn_core::model::{ops, Encoder, Pool, Serial, Variant, VARIANTS};
use std::collections::HashMap;

/// The tiny model's tensors by name, as f64.
fn weights(seed: u64) -> HashMap<String, Vec<f64>> {
    tensors(seed, "")
        .into_iter()
        .filter(|t| t.dtype == "F32")
        .map(|t| {
            let v = t.data.chunks(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64).collect();
            (t.name, v)
        })
        .collect()
}

fn ln(x: &mut [f64], g: &[f64], b: &[f64]) {
    for row in x.chunks_mut(D) {
        let mean = row.iter().sum::<f64>() / D as f64;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / D as f64;
        for k in 0..D {
            row[k] = (row[k] - mean) / (var + 1e-12).sqrt() * g[k] + b[k];
        }
    }
}

/// `x W^T + b` with `W` `[out, in]`.
fn dense(x: &[f64], n: usize, w: &[f64], b: &[f64], inp: usize, out: usize) -> Vec<f64> {
    let mut y = vec![0.0; n * out];
    for i in 0..n {
        for o in 0..out {
            y[i * out + o] = b[o] + (0..inp).map(|c| x[i * inp + c] * w[o * inp + c]).sum::<f64>();
        }
    }
    y
}

struct Reference {
    hidden: Vec<Vec<f64>>,
    attention: Vec<Vec<f64>>,
    outputs: Vec<Vec<f64>>,
}

/// The plain f64 forward of `variant` (science.md §6).
fn reference(w: &HashMap<String, Vec<f64>>, ids: &[u32], variant: Variant) -> Reference {
    let n = ids.len();
    let dh = D / HEADS;
    let t = |s: &str| &w[s];
    let mut x = vec![0.0; n * D];
    for (i, &id) in ids.iter().enumerate() {
        for k in 0..D {
            x[i * D + k] = t("embeddings.word_embeddings.weight")[id as usize * D + k]
                + t("embeddings.position_embeddings.weight")[i * D + k]
                + t("embeddings.token_type_embeddings.weight")[k];
        }
    }
    ln(&mut x, t("embeddings.LayerNorm.weight"), t("embeddings.LayerNorm.bias"));
    let mut r = Reference { hidden: vec![x.clone()], attention: Vec::new(), outputs: Vec::new() };
    for l in 0..LAYERS {
        let p = |s: &str| format!("encoder.layer.{}.{}", l, s);
        let lin = |x: &[f64], name: &str, inp: usize, out: usize| {
            dense(x, n, t(&p(&format!("{}.weight", name))), t(&p(&format!("{}.bias", name))), inp, out)
        };
        let q = lin(&x, "attention.self.query", D, D);
        let k = lin(&x, "attention.self.key", D, D);
        let v = lin(&x, "attention.self.value", D, D);
        let mut concat = vec![0.0; n * D];
        let (mut pa, mut oa) = (Vec::new(), Vec::new());
        for h in 0..HEADS {
            for i in 0..n {
                let s: Vec<f64> = (0..n)
                    .map(|j| {
                        (0..dh).map(|c| q[i * D + h * dh + c] * k[j * D + h * dh + c]).sum::<f64>() / (dh as f64).sqrt()
                    })
                    .collect();
                let m = s.iter().cloned().fold(f64::NEG_INFINITY, crate::common::nan_max);
                let e: Vec<f64> = s.iter().map(|v| (v - m).exp()).collect();
                let z: f64 = e.iter().sum();
                pa.extend(e.iter().map(|v| v / z));
            }
            for i in 0..n {
                for c in 0..dh {
                    let o: f64 = (0..n).map(|j| pa[(h * n + i) * n + j] * v[j * D + h * dh + c]).sum();
                    oa.push(o);
                    concat[i * D + h * dh + c] = o;
                }
            }
        }
        let a = lin(&concat, "attention.output.dense", D, D);
        let mut hmat: Vec<f64> = if variant.skip() { a.iter().zip(&x).map(|(a, x)| a + x).collect() } else { a };
        ln(&mut hmat, t(&p("attention.output.LayerNorm.weight")), t(&p("attention.output.LayerNorm.bias")));
        if variant.ffn() {
            let mut mid = lin(&hmat, "intermediate.dense", D, FF);
            for v in mid.iter_mut() {
                *v = 0.5 * *v * (1.0 + libm::erf(*v / 2f64.sqrt()));
            }
            let f = lin(&mid, "output.dense", FF, D);
            let mut y: Vec<f64> = f.iter().zip(&hmat).map(|(f, h)| f + h).collect();
            ln(&mut y, t(&p("output.LayerNorm.weight")), t(&p("output.LayerNorm.bias")));
            hmat = y;
        }
        x = hmat;
        r.hidden.push(x.clone());
        r.attention.push(pa);
        r.outputs.push(oa);
    }
    r
}

fn tiny(seed: u64) -> Encoder {
    Encoder::load(&safetensors(seed, false), &config_json(""), &vocab_txt(), None).unwrap()
}

use crate::common::max_diff_f32 as max_diff;

const TEXT: &str = "The quick brown fox jumps, the lazy dogs. A fox.";

#[test]
fn every_variant_matches_the_plain_f64_forward() {
    let enc = tiny(7);
    let e = enc.encode(TEXT).unwrap();
    assert_eq!(e.ids.len(), 16);
    let w = weights(7);
    for v in VARIANTS {
        let f = enc.forward(&e, v, true, &Serial);
        let r = reference(&w, &e.ids, v);
        for l in 0..=LAYERS {
            let diff = max_diff(&f.hidden[l], &r.hidden[l]);
            assert!(diff < 2e-5, "{} layer {}: {}", v.label(), l, diff);
        }
        for l in 0..LAYERS {
            assert!(max_diff(&f.attention[l], &r.attention[l]) < 2e-6, "{} P layer {}", v.label(), l + 1);
            assert!(max_diff(&f.head_outputs[l], &r.outputs[l]) < 2e-5, "{} O layer {}", v.label(), l + 1);
        }
        // The residual curve is the f64 relative residual of each state.
        let curve = residual_curve(&f);
        assert_eq!(curve.len(), LAYERS + 1);
        for (l, c) in curve.iter().enumerate() {
            let x: Vec<f64> = f.hidden[l].iter().map(|&v| v as f64).collect();
            assert_eq!(*c, attn_core::collapse::residual::relative_residual(&x, e.ids.len(), D));
        }
    }
    // The variants differ from each other after layer 0 and agree on it.
    let fs: Vec<_> = VARIANTS.iter().map(|&v| enc.forward(&e, v, false, &Serial)).collect();
    for a in 0..4 {
        assert_eq!(fs[a].hidden[0], fs[0].hidden[0]);
        for b in a + 1..4 {
            assert_ne!(fs[a].hidden[1], fs[b].hidden[1], "{:?} {:?}", VARIANTS[a], VARIANTS[b]);
        }
    }
    assert_eq!(VARIANTS.map(|v| v.label()), ["SAN", "SAN+MLP", "SAN+skip", "transformer"]);
}

/// A pool that runs the chunks on threads, in reverse order, one thread per chunk.
struct Threads;

impl Pool for Threads {
    fn chunks(&self, out: &mut [f32], chunk: usize, task: &(dyn Fn(usize, &mut [f32]) + Sync)) {
        let mut parts: Vec<(usize, &mut [f32])> = out.chunks_mut(chunk).enumerate().collect();
        parts.reverse();
        std::thread::scope(|s| {
            for (k, c) in parts {
                s.spawn(move || task(k, c));
            }
        });
    }
}

#[test]
fn threads_never_change_a_bit() {
    let enc = tiny(11);
    // 42 tokens: three row blocks per linear layer, 2 heads.
    let e = enc.encode(&"the quick brown fox jumps, a lazy dog. ".repeat(4)).unwrap();
    assert_eq!(e.ids.len(), 42);
    for v in VARIANTS {
        assert_eq!(enc.forward(&e, v, true, &Serial), enc.forward(&e, v, true, &Threads), "{}", v.label());
    }
}

#[test]
fn the_feed_forwards_fused_gelu_has_the_bits_of_gelu_after_the_product() {
    // 42 tokens: blocks of 16, 16 and 10 rows, each GELU'd by its own task as it is written.
    let enc = tiny(13);
    let e = enc.encode(&"the quick brown fox jumps, a lazy dog. ".repeat(4)).unwrap();
    let n = e.ids.len();
    let f = enc.forward(&e, Variant::Transformer, false, &Serial);
    for (lw, h) in enc.weights.layers.iter().zip(&f.hidden) {
        let mut apart = ops::linear(h, n, &lw.ffn_in, &Serial);
        ops::gelu(&mut apart);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&ops::linear_gelu(h, n, &lw.ffn_in, &Serial)), bits(&apart));
        assert_eq!(bits(&ops::linear_gelu(h, n, &lw.ffn_in, &Threads)), bits(&apart));
    }
}

#[test]
fn the_surgery_split_over_two_workers_gives_the_analysis_bits() {
    // One worker runs the unmodified model, another the three surgery variants: the curves put
    // together are analyse's, bit for bit.
    let enc = tiny(12);
    let text = "the quick brown fox jumps. a lazy dog sleeps.";
    let whole = enc.analyse(text, &Serial).unwrap();
    let main = enc.analyse_parts(text, false, &Serial).unwrap();
    let other = enc.surgery(text, &Serial).unwrap();
    assert_eq!(main.forward, whole.forward);
    assert_eq!(other.len(), 3);
    for c in &whole.curves {
        let got = if c.variant == Variant::Transformer {
            main.curves.iter().find(|m| m.variant == c.variant).unwrap()
        } else {
            assert!(main.curves.iter().find(|m| m.variant == c.variant).unwrap().residual.is_empty());
            other.iter().find(|m| m.variant == c.variant).unwrap()
        };
        assert_eq!(
            got.residual.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            c.residual.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "{}",
            c.variant.label()
        );
    }
}

#[test]
fn head_contributions_add_up_to_the_attention_output() {
    let enc = tiny(5);
    let e = enc.encode(TEXT).unwrap();
    let n = e.ids.len();
    let f = enc.forward(&e, Variant::Transformer, true, &Serial);
    let lw = &enc.weights.layers[1];
    let (a, p, o) = attn_core::model::forward::attention(&f.hidden[1], n, &enc.config, lw, &Serial);
    assert_eq!(p, f.attention[1]);
    assert_eq!(o, f.head_outputs[1]);
    let mut sum: Vec<f32> = (0..n * D).map(|k| lw.output.b[k % D]).collect();
    for h in 0..HEADS {
        let c = attn_core::model::forward::head_contribution(f.head_output(2, h).unwrap(), n, &enc.config, lw, h);
        for (s, x) in sum.iter_mut().zip(&c) {
            *s += x;
        }
    }
    let sum: Vec<f64> = sum.iter().map(|&v| v as f64).collect();
    let diff = max_diff(&a, &sum);
    assert!(diff < 1e-5, "{}", diff);
}

#[test]
fn similarity_is_o_o_transposed_with_zero_diagonal_and_statistics_count_the_pairs() {
    let enc = tiny(9);
    let e = enc.encode(TEXT).unwrap();
    let n = e.ids.len();
    let dh = D / HEADS;
    let f = enc.forward(&e, Variant::Transformer, true, &Serial);
    for l in 1..=LAYERS {
        for h in 0..HEADS {
            let o = f.head_output(l, h).unwrap();
            let s = similarity(o, n, dh);
            for i in 0..n {
                assert_eq!(s[i * n + i].to_bits(), 0);
                for j in 0..n {
                    assert_eq!(s[i * n + j].to_bits(), s[j * n + i].to_bits());
                    if i != j {
                        let want: f64 = (0..dh).map(|c| o[i * dh + c] as f64 * o[j * dh + c] as f64).sum();
                        assert!((s[i * n + j] as f64 - want).abs() < 1e-5 * (1.0 + want.abs()));
                    }
                }
            }
        }
    }
    let stats = statistics(&f, &e, QUANTILE);
    assert_eq!(stats.len(), LAYERS);
    let pairs = n * (n - 1) / 2;
    let want = ((1.0 - QUANTILE) * pairs as f64 - 1e-9).ceil().max(1.0) as usize;
    for layer in &stats {
        assert_eq!(layer.heads.len(), HEADS);
        for hs in &layer.heads {
            assert_eq!(hs.pairs, want);
            assert_eq!(hs.distance_histogram.iter().sum::<u64>(), want as u64);
            // Separators [CLS], [SEP], ".", ",": the mass is the mean row sum over those columns.
            let p = f.attention(layer.layer, hs.head).unwrap();
            let mass: f64 = (0..n)
                .map(|i| (0..n).filter(|&j| e.separator[j]).map(|j| p[i * n + j] as f64).sum::<f64>())
                .sum::<f64>()
                / n as f64;
            assert!((hs.separator_mass.unwrap() - mass).abs() < 1e-12);
        }
    }
    assert_eq!(e.sentence, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
}
