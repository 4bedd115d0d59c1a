//! `attn bench --depth` and `attn bench --training`: the depth and training labs natively
//! (benchmarks that print numbers, never timed tests). The particle stepper's benchmark is
//! `particle_bench`.

use attn_core::Stepping;
use std::time::Instant;

/// `attn bench --depth`: seconds per variant of a depth configuration (weights, forward pass,
/// analyzers), split into the forward pass (with weight generation) and the analyzers.
pub fn run_depth(config: &str) -> Result<(), String> {
    use attn_core::depth::{self, forward, variants::analyze, weights, DepthRun, Precision};
    let c = depth::parse(config).map_err(|e| format!("invalid --config: {}", e))?;
    let run = DepthRun::new(&c);
    let input = run.input();
    println!("depth lab, native (one thread): {}", c.to_canonical_string());
    println!(
        "L = {}, H = {}, d_model = {}, d_head = {}, n = {}, mlp_width = {}, precision = {:?}",
        c.layers, c.heads, c.d_model, c.d_head, input.n, c.mlp_width, c.precision
    );
    let start = Instant::now();
    for layer in 0..c.layers {
        match c.precision {
            Precision::F32 => drop(std::hint::black_box(weights::layer_weights::<f32>(&c, layer, true))),
            Precision::F64 => drop(std::hint::black_box(weights::layer_weights::<f64>(&c, layer, true))),
        }
    }
    println!(
        "weight generation alone (every layer's, with the MLP; inside each variant's forward below): {:.3} s",
        start.elapsed().as_secs_f64()
    );
    println!("{:<12} {:>10} {:>12} {:>10}", "variant", "forward s", "analyzers s", "total s");
    let mut total = 0.0;
    for &v in &c.variants {
        let block = v.block(&c);
        let start = Instant::now();
        let (t_forward, t_analyze) = match c.precision {
            Precision::F32 => {
                let f = forward::run::<f32>(&c, &block, &input.tokens, input.n);
                let t = start.elapsed().as_secs_f64();
                std::hint::black_box(analyze(&c, input, v, &f));
                (t, start.elapsed().as_secs_f64() - t)
            }
            Precision::F64 => {
                let f = forward::run::<f64>(&c, &block, &input.tokens, input.n);
                let t = start.elapsed().as_secs_f64();
                std::hint::black_box(analyze(&c, input, v, &f));
                (t, start.elapsed().as_secs_f64() - t)
            }
        };
        total += t_forward + t_analyze;
        println!("{:<12} {:>10.3} {:>12.3} {:>10.3}", v.label(), t_forward, t_analyze, t_forward + t_analyze);
    }
    println!("{:<12} {:>10} {:>12} {:>10.3}", "all", "", "", total);
    Ok(())
}

/// `attn bench --training`: the training lab natively (one thread). (1) 100 SGD iterations of the
/// paper's setting (`scan-snap`: M = 34, batch 128, seq_len 128), the median and the fastest of
/// 20 runs; (2) the paper's sweep (`scan-snap-sweep`, eta_z in {0.5, 1, 2, 3}, r in
/// {1, 2, 5, 10}, 10 seeds per cell: 160 runs of 100 iterations), cell by cell with `run_cell`
/// as the page's worker does. `xtask bench` prints the same two numbers for wasm.
pub fn run_training() -> Result<(), String> {
    use attn_core::training::{grid, parse, run_cell, Trainer, PAPER_ETA_Z, PAPER_RATIO};
    let config = parse("lab=training&preset=scan-snap").map_err(|e| e.to_string())?;
    let mut times = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let mut t = Trainer::new(&config);
        let taken = t.advance(100);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        if taken != 100 {
            return Err(format!("the run stopped after {} iterations", taken));
        }
    }
    times.sort_by(f64::total_cmp);
    println!("training lab, native (one thread)");
    println!(
        "100 iterations of scan-snap (M = 34, batch 128, seq_len 128): median {:.1} ms, fastest {:.1} ms (20 runs)",
        times[10], times[0]
    );
    let base = parse("lab=training&preset=scan-snap-sweep").map_err(|e| e.to_string())?;
    let cells = grid(&[base.queries], &PAPER_ETA_Z, &PAPER_RATIO);
    let start = Instant::now();
    for cell in &cells {
        std::hint::black_box(run_cell(&base, cell, 10).map_err(|e| e.to_string())?);
    }
    println!(
        "sweep 4 x 4 cells x 10 seeds of scan-snap-sweep (160 runs of 100 iterations): {:.2} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
