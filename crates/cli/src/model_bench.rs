//! `attn bench --model DIR --text-file FILE`: times the model lab's forward natively (a benchmark
//! that prints numbers, never a timed test). The text of FILE as one segment, the unmodified
//! encoder with every head's attention `P_h` and output `O_h` kept (what the lab's page needs),
//! one warm-up forward and then `--rounds` timed ones on `--threads` threads; then the page's full
//! analysis (the forward, the other three variants, the 72-head statistics for MiniLM) the same way. Prints the fastest and
//! the median round, the matrix products' flops of one forward and the peak live heap of one
//! forward and of one analysis, as one JSON object with `--json`.

use crate::encode::{read_bytes, read_text, Rayon};
use crate::heap;
use crate::model_bench_parts::{elementwise, paths, Elementwise, Paths};
use attn_core::model::analysis::{statistics, QUANTILE};
use attn_core::model::{BertConfig, Encoder, Variant};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Flops (a multiply and an add each count one) of the matrix products of one forward of
/// `n` tokens: per layer `Q, K, V` (`6 n d^2`), the scores and the weighted sums
/// (`2 n^2 d` each, over all heads), the attention's output (`2 n d^2`) and the two linear
/// layers of the feed-forward block (`4 n d d_ff`).
pub fn matmul_flops(c: &BertConfig, n: usize) -> f64 {
    let (n, d, ff) = (n as f64, c.hidden as f64, c.intermediate as f64);
    c.layers as f64 * (6.0 * n * d * d + 4.0 * n * n * d + 2.0 * n * d * d + 4.0 * n * d * ff)
}

#[derive(Serialize)]
struct Report {
    n: usize,
    threads: usize,
    rounds: usize,
    forward_best_ms: f64,
    forward_median_ms: f64,
    analysis_best_ms: f64,
    analysis_median_ms: f64,
    matmul_flops: f64,
    forward_heap_bytes: usize,
    analysis_heap_bytes: usize,
    #[serde(flatten)]
    elementwise: Elementwise,
    #[serde(flatten)]
    paths: Paths,
}

/// Times `f` once as a warm-up, then `rounds` times: the fastest and the median ms, and the
/// peak live heap of one call.
fn time(rounds: usize, mut f: impl FnMut()) -> (f64, f64, usize) {
    let base = heap::reset_peak();
    f();
    let peak = heap::peak().saturating_sub(base);
    let mut ms: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    (ms[0], ms[ms.len() / 2], peak)
}

/// Runs the benchmark (module documentation).
pub fn run(dir: &Path, text_file: &Path, threads: usize, rounds: usize, json: bool) -> Result<(), String> {
    if threads == 0 || rounds == 0 {
        return Err("invalid --threads or --rounds 0: at least 1".into());
    }
    let text = std::fs::read_to_string(text_file).map_err(|e| format!("cannot read {}: {}", text_file.display(), e))?;
    let bytes = read_bytes(dir, "model.safetensors")?;
    let tok = match dir.join("tokenizer_config.json").is_file() {
        true => Some(read_text(dir, "tokenizer_config.json")?),
        false => None,
    };
    let encoder = Encoder::load(&bytes, &read_text(dir, "config.json")?, &read_text(dir, "vocab.txt")?, tok.as_deref())
        .map_err(|e| e.to_string())?;
    drop(bytes);
    let pool = Rayon(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {} threads: {}", threads, e))?,
    );
    let enc = encoder.encode(text.trim_end()).map_err(|e| format!("invalid text: {}", e))?;
    let n = enc.ids.len();
    let (f_best, f_median, f_heap) = time(rounds, || {
        std::hint::black_box(encoder.forward(&enc, Variant::Transformer, true, &pool));
    });
    let (a_best, a_median, a_heap) = time(rounds, || {
        let a = encoder.analyse(text.trim_end(), &pool).expect("the text encoded above");
        std::hint::black_box(statistics(&a.forward, &a.encoding, QUANTILE));
    });
    let elementwise = elementwise(&encoder, &enc, rounds);
    let paths = paths(&encoder, &enc, &pool, rounds.min(3));
    let report = Report {
        n,
        threads,
        rounds,
        forward_best_ms: f_best,
        forward_median_ms: f_median,
        analysis_best_ms: a_best,
        analysis_median_ms: a_median,
        matmul_flops: matmul_flops(&encoder.config, n),
        forward_heap_bytes: f_heap,
        analysis_heap_bytes: a_heap,
        elementwise,
        paths,
    };
    if json {
        println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        println!(
            "model forward, n = {n}, {threads} threads: best {f_best:.1} ms, median {f_median:.1} ms ({:.2} GFLOP/s of products), \
             heap {:.1} MB; full analysis: best {a_best:.1} ms, median {a_median:.1} ms, heap {:.1} MB ({rounds} rounds)",
            report.matmul_flops / f_best / 1e6,
            f_heap as f64 / 1e6,
            a_heap as f64 / 1e6
        );
        let e = &report.elementwise;
        println!(
            "elementwise work of one forward, one thread: {:.1} ms (softmax {:.1}, GELU {:.1}, LayerNorm {:.1}); \
             layer {} repeated {} times {:.0} ms; one head's particles, {} steps, {:.0} ms",
            e.elementwise_ms,
            e.softmax_ms,
            e.gelu_ms,
            e.layer_norm_ms,
            report.paths.repeat_layer,
            report.paths.repeat_iterations,
            report.paths.repeat_ms,
            report.paths.head_steps,
            report.paths.head_dynamics_ms
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flops_are_two_per_multiply_add_of_each_product() {
        let c = BertConfig::parse(
            r#"{"model_type": "bert", "hidden_act": "gelu", "hidden_size": 384, "num_hidden_layers": 6,
                "num_attention_heads": 12, "intermediate_size": 1536, "max_position_embeddings": 512,
                "vocab_size": 30522, "type_vocab_size": 2, "layer_norm_eps": 1e-12}"#,
        )
        .unwrap();
        // An (m x k) by (k x p) product is m k p multiply-adds; per layer and head, with n = 128,
        // d = 384, d_head = 32, d_ff = 1536: Q, K, V, W_O (n x d by d x d), Q K^T (n x 32 by
        // 32 x n) and P V (n x n by n x 32) per head, W_1 (n x d by d x d_ff), W_2 (n x d_ff by d_ff x d).
        let mk = |m: u64, k: u64, p: u64| m * k * p;
        let layer = 4 * mk(128, 384, 384) + 12 * (mk(128, 32, 128) + mk(128, 128, 32)) + 2 * mk(128, 384, 1536);
        assert_eq!(matmul_flops(&c, 128), (6 * 2 * layer) as f64);
    }
}
