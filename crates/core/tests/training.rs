//! The training lab's science checks (science.md §5, scan and snap): first loss, Z = 0 entropy,
//! exact gradients, the paper's scan and snap, the snap criterion, text data, determinism.

use crate::common::alloc::allocations;
use attn_core::rng::Rng;
use attn_core::text::{classes, tokenize, Corpus};
use attn_core::training::analysis::{distinct_entropy, snap_iteration, snap_iteration_live};
use attn_core::training::data::Dataset;
use attn_core::training::model::{batch_loss, Sequence};
use attn_core::training::trainer::STREAM_DATA;
use attn_core::training::{grid, parse, run_cell, Trainer, TrainingConfig};
use attn_core::Stepping;

fn config(text: &str) -> TrainingConfig {
    parse(text).unwrap_or_else(|e| panic!("{}: {}", text, e))
}

fn trained(text: &str) -> Trainer {
    let mut t = Trainer::new(&config(text));
    t.run();
    assert_eq!(t.iteration(), t.config().iterations, "{}: stopped early: {:?}", text, t.status());
    t
}

/// Entropy of the distinct weights 0.1, 0.2, ..., 1.0 normalised (science.md §5: 2.1513 nats).
fn paper_uniform_entropy() -> f64 {
    let w: Vec<f64> = (1..=10).map(|j| j as f64 / 55.0).collect();
    -w.iter().map(|p| p * p.ln()).sum::<f64>()
}

/// The token layout of science.md §5: M = 34 for 2 queries with one next token each, 33 for one
/// query serving two classes; commons, then distinct blocks, then queries, then next tokens.
#[test]
fn synthetic_layout_has_the_papers_vocabulary_size() {
    let a = Dataset::new(&config("preset=scan-snap"));
    assert_eq!(a.m(), 34);
    let b = Dataset::new(&config("preset=scan-snap-sweep"));
    assert_eq!(b.m(), 33);
    let c = &a.classes()[1];
    assert_eq!((c.query, c.next), (31, 33));
    assert_eq!(c.distinct, (20..30).collect::<Vec<_>>());
    assert_eq!(c.support, (0..10).chain(20..30).collect::<Vec<_>>());
    assert!((c.p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    assert!((c.p[19] - 1.0 / 15.5).abs() < 1e-15 && (c.p[0] - 1.0 / 15.5).abs() < 1e-15);
    let s = &b.classes();
    assert_eq!((s[0].query, s[0].next, s[1].query, s[1].next), (30, 31, 30, 32));
    assert_eq!(a.labels()[0], "c0");
    assert_eq!(a.labels()[19], "d0.9");
    assert_eq!(a.labels()[32], "n0");
    let q = Dataset::new(&config("preset=scan-snap&commons_per_query=3"));
    assert_eq!(q.m(), 40);
    assert_eq!(q.classes()[1].support, (0..10).chain(13..16).chain(26..36).collect::<Vec<_>>());
}

/// With Y = Z = 0 the first loss is ln M to 1e-12 (science.md §5).
#[test]
fn first_loss_is_ln_m() {
    for (cfg, m) in
        [("preset=scan-snap&iterations=1", 34.0f64), ("preset=scan-snap-sweep&weights_init=zero&iterations=1", 33.0)]
    {
        let t = trained(cfg);
        let first = t.record().loss[0];
        println!("{}: first loss {} (ln M = {})", cfg, first, m.ln());
        assert!((first - m.ln()).abs() < 1e-12, "{}: {} vs ln {} = {}", cfg, first, m, m.ln());
    }
    assert!((34f64.ln() - 3.52636).abs() < 1e-5);
}

/// With Z = 0 the distinct-token entropy is 2.1513 nats for the paper's weights (science.md §5).
#[test]
fn zero_z_entropy_is_2_1513() {
    let t = Trainer::new(&config("preset=scan-snap"));
    let h = t.record().entropy[0];
    println!("Z = 0 entropy {}", h);
    assert!((h - 2.1513).abs() < 5e-5, "{}", h);
    assert!((h - paper_uniform_entropy()).abs() < 1e-12);
    // The same for every class, and for the sweep preset's classes.
    let s = Trainer::new(&config("preset=scan-snap-sweep&weights_init=zero"));
    assert!((s.record().entropy[0] - h).abs() < 1e-12);
}

/// The uniform-attention reference (Z = 0, c = P(l|n)) is the entropy a zero-initialised run
/// starts from: 2.1513 nats for the paper's weights, whatever the initialisation of the run.
#[test]
fn uniform_attention_entropy_is_the_zero_z_entropy() {
    let t = Trainer::new(&config("preset=scan-snap"));
    assert_eq!(t.uniform_entropy(), t.record().entropy[0]);
    assert!((t.uniform_entropy() - paper_uniform_entropy()).abs() < 1e-12);
    // Uniform initialisation: the run starts elsewhere, the reference does not move.
    let s = Trainer::new(&config("preset=scan-snap-sweep"));
    assert_ne!(s.record().entropy[0], s.uniform_entropy());
    assert!((s.uniform_entropy() - paper_uniform_entropy()).abs() < 1e-12);
    // Text data: the same definition, on the text's classes.
    let text = Trainer::new(&config("text=a%20b%20c%20a%20b%20d%20a%20b%20c&seq_len=4"));
    let z = Trainer::new(&config("text=a%20b%20c%20a%20b%20d%20a%20b%20c&seq_len=4&weights_init=zero"));
    assert_eq!(text.uniform_entropy(), z.record().entropy[0]);
}

fn random_case(rng: &mut Rng, m: usize) -> (Vec<f64>, Vec<f64>, Vec<Sequence>) {
    let y: Vec<f64> = (0..m * m).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let z: Vec<f64> = (0..m * m).map(|_| rng.uniform(-1.5, 1.5)).collect();
    let mut batch = Vec::new();
    for b in 0..4 {
        let query = b % 2; // two query rows get gradients, the others none
        let next = 2 + (rng.next_u64() % (m as u64 - 2)) as usize;
        let mut support = Vec::new();
        let mut counts = Vec::new();
        for l in 0..m {
            if rng.uniform01() < 0.6 || l == b {
                support.push(l);
                counts.push((1 + rng.next_u64() % 5) as f64);
            }
        }
        batch.push(Sequence { query, next, support, counts });
    }
    (y, z, batch)
}

/// The exact gradients (model.rs) agree with central finite differences of the batch loss:
/// relative error below 1e-6 on every entry whose gradient is not negligible, exact zeros elsewhere.
#[test]
fn gradients_match_finite_differences() {
    let mut rng = Rng::new(5, 9);
    let mut worst = 0.0f64;
    for m in [5usize, 7] {
        let (y, z, batch) = random_case(&mut rng, m);
        let mut gy = vec![0.0; m * m];
        let mut gz = vec![0.0; m * m];
        batch_loss(&y, &z, m, &batch, Some((&mut gy, &mut gz)));
        let h = 1e-5;
        for (which, grad) in [("Y", &gy), ("Z", &gz)] {
            for idx in 0..m * m {
                let (mut yp, mut zp) = (y.clone(), z.clone());
                let (mut ym, mut zm) = (y.clone(), z.clone());
                if which == "Y" {
                    yp[idx] += h;
                    ym[idx] -= h;
                } else {
                    zp[idx] += h;
                    zm[idx] -= h;
                }
                let fd = (batch_loss(&yp, &zp, m, &batch, None) - batch_loss(&ym, &zm, m, &batch, None)) / (2.0 * h);
                let a = grad[idx];
                let scale = a.abs().max(fd.abs());
                if scale < 1e-7 {
                    assert!((a - fd).abs() < 1e-10, "{}[{}]: {} vs {}", which, idx, a, fd);
                    continue;
                }
                let rel = (a - fd).abs() / scale;
                worst = worst.max(rel);
                assert!(
                    rel < 1e-6,
                    "m = {}, d{}[{}]: exact {} vs finite difference {} (relative {:e})",
                    m,
                    which,
                    idx,
                    a,
                    fd,
                    rel
                );
            }
        }
        // Rows of Z that are no sequence's query get no gradient; nor do Y columns outside every support.
        assert!(gz[2 * m..].iter().all(|&g| g == 0.0));
    }
    println!("worst relative error of the gradients: {:e}", worst);
}

/// The trainer's first iteration uses exactly the batch drawn from the data stream of the seed,
/// and momentum SGD's first step is theta - eta g (PyTorch: the buffer starts at g).
#[test]
fn trainer_step_is_batch_gradient_then_sgd() {
    let c = config("preset=scan-snap-sweep&batch=16&seq_len=20&eta_z=0.7&ratio=3");
    let data = Dataset::new(&c);
    let m = data.m();
    let mut t = Trainer::new(&c);
    let (y0, z0) = (t.y().to_vec(), t.z().to_vec());
    let mut rng = Rng::new(c.seed, STREAM_DATA);
    let mut dense = vec![0u32; m];
    let mut batch = Vec::new();
    for _ in 0..c.batch {
        let (mut support, mut counts) = (Vec::new(), Vec::new());
        let n = data.draw(&mut rng, &mut dense, &mut support, &mut counts);
        assert_eq!(counts.iter().sum::<f64>(), (c.seq_len - 1) as f64);
        let class = &data.classes()[n];
        batch.push(Sequence { query: class.query, next: class.next, support, counts });
    }
    let mut gy = vec![0.0; m * m];
    let mut gz = vec![0.0; m * m];
    let loss = batch_loss(&y0, &z0, m, &batch, Some((&mut gy, &mut gz)));
    t.step().unwrap();
    assert_eq!(t.record().loss[0].to_bits(), loss.to_bits());
    for i in 0..m * m {
        let mut vy = 0.0;
        vy = c.momentum * vy + gy[i];
        let mut yy = y0[i];
        yy -= c.ratio * c.eta_z * vy;
        assert_eq!(t.y()[i].to_bits(), yy.to_bits(), "Y[{}]", i);
        let mut zz = z0[i];
        zz -= c.eta_z * gz[i];
        assert_eq!(t.z()[i].to_bits(), zz.to_bits(), "Z[{}]", i);
    }
}

/// The paper's Fig. 4 run (science.md §5): the loss falls below 0.05 by iteration 20; attention
/// scans from the common tokens to the class's distinct tokens, favouring the heaviest; it freezes
/// at a mixture whose entropy lies below the uniform value.
#[test]
fn paper_run_scans_then_snaps() {
    let t = trained("preset=scan-snap");
    let r = t.record();
    let m = t.m();
    println!("loss at iteration 20: {:e}; final loss {:e}", r.loss[20], r.loss[99]);
    assert!(r.loss[20] < 0.05, "loss at iteration 20 = {}", r.loss[20]);
    let h_final = t.entropy();
    println!("entropy: start {} final {} snap iteration {:?}", r.entropy[0], h_final, t.snap_iteration());
    assert!(h_final < paper_uniform_entropy() - 0.05, "final entropy {}", h_final);
    // Not winner-take-all: still a mixture over the distinct tokens.
    assert!(h_final > 1.0, "final entropy {}", h_final);
    // Snap: the attention stops changing well before the end.
    let snap = t.snap_iteration().expect("snap");
    assert!(snap > 5 && snap < 80, "snap iteration {}", snap);
    // Scan, for each class: commons' share falls, the heaviest distinct token's share rises.
    let c0 = Trainer::new(&config("preset=scan-snap")).c().to_vec();
    for (n, class) in t.classes().iter().enumerate() {
        let commons = |c: &[f64]| (0..10).map(|l| c[n * m + l]).sum::<f64>();
        let heaviest = *class.distinct.last().unwrap();
        let (before, after) = (commons(&c0), commons(t.c()));
        println!(
            "class {}: commons {:.4} -> {:.4}; heaviest distinct {:.4} -> {:.4}",
            n,
            before,
            after,
            c0[n * m + heaviest],
            t.c()[n * m + heaviest]
        );
        assert!(after < before - 0.1, "class {}: commons {} -> {}", n, before, after);
        assert!(t.c()[n * m + heaviest] > 1.5 * c0[n * m + heaviest]);
        // Distinct tokens that co-occur more get more attention.
        let d: Vec<f64> = class.distinct.iter().map(|&l| t.c()[n * m + l]).collect();
        assert!(d[9] > d[5] && d[5] > d[0], "{:?}", d);
        // The recorded query row: class n's query is row n of the query tokens.
        assert!((t.c()[n * m..(n + 1) * m].iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // Entropy falls monotonically in the scan phase (allowing tiny noise), then freezes.
    assert!(r.entropy[30] < r.entropy[10] && r.entropy[10] < r.entropy[1]);
    assert!((r.entropy[99] - r.entropy[80]).abs() < 1e-3);
}

/// One query token serving two classes, 10 seeds (science.md §5): a larger eta_Z gives a lower
/// final entropy; at eta_Z = 1, r = eta_Y / eta_Z = 10 freezes attention earlier than r = 1
/// (higher final entropy, earlier snap).
#[test]
fn sweep_larger_eta_z_sparser_larger_ratio_snaps_earlier() {
    let base = config("preset=scan-snap-sweep");
    let cells = grid(&[1], &[0.5, 1.0, 2.0, 3.0], &[1.0]);
    let mut means = Vec::new();
    for cell in &cells {
        let r = run_cell(&base, cell, 10).unwrap();
        println!("eta_z {} r {}: final entropy {:.4} +- {:.4}", r.eta_z, r.ratio, r.mean, r.std);
        assert!(r.entropies.iter().all(|&h| h < paper_uniform_entropy()));
        means.push(r.mean);
    }
    for w in means.windows(2) {
        assert!(w[1] < w[0], "entropy should fall with eta_z: {:?}", means);
    }
    let r1 = run_cell(&base, &grid(&[1], &[1.0], &[1.0])[0], 10).unwrap();
    let r10 = run_cell(&base, &grid(&[1], &[1.0], &[10.0])[0], 10).unwrap();
    println!("eta_z 1: r = 1 -> {:.4} +- {:.4}, r = 10 -> {:.4} +- {:.4}", r1.mean, r1.std, r10.mean, r10.std);
    assert!(r10.mean > r1.mean + 0.05, "r = 10: {} vs r = 1: {}", r10.mean, r1.mean);
    let mean_snap = |r: &attn_core::training::CellResult| {
        r.snap_iterations.iter().map(|s| s.expect("snap") as f64).sum::<f64>() / r.snap_iterations.len() as f64
    };
    println!("mean snap iteration: r = 1 -> {}, r = 10 -> {}", mean_snap(&r1), mean_snap(&r10));
    assert!(mean_snap(&r10) < mean_snap(&r1));
}

/// The snap criterion on a synthetic record: quiet start, scan, then frozen.
#[test]
fn snap_criterion_on_a_synthetic_record() {
    let tol = 1e-3;
    // Iterations 0-1 quiet (Y = 0 start), 2..=9 moving, then quiet except a blip at 12.
    let mut dc = vec![0.0, 1e-4, 5e-3, 8e-3, 9e-3, 7e-3, 4e-3, 3e-3, 2e-3, 1.5e-3];
    dc.extend([5e-4, 4e-4, 2e-3, 3e-4, 2e-4, 1e-4, 1e-4, 5e-5, 1e-5, 1e-6]);
    assert_eq!(snap_iteration(&dc, tol), Some(13));
    assert_eq!(snap_iteration_live(&dc, tol, 5), Some(13));
    // A short window stops at the first quiet stretch after the scan.
    assert_eq!(snap_iteration_live(&dc, tol, 2), Some(10));
    // Still moving at the end: no snap yet; never moved: no scan, no snap.
    assert_eq!(snap_iteration(&[0.0, 2e-3, 3e-3], tol), None);
    assert_eq!(snap_iteration(&[0.0, 1e-4], tol), None);
    assert_eq!(snap_iteration_live(&[0.0, 1e-4, 1e-4, 1e-4], tol, 2), None);
    assert_eq!(snap_iteration(&[], tol), None);
    // NaN counts as change.
    assert_eq!(snap_iteration(&[2e-3, f64::NAN, 1e-4], tol), Some(2));
}

#[test]
fn distinct_entropy_of_simple_vectors() {
    let c = [0.5, 0.25, 0.25, 0.0];
    assert!((distinct_entropy(&c, &[1, 2]).unwrap() - 2f64.ln()).abs() < 1e-15);
    assert_eq!(distinct_entropy(&c, &[1]).unwrap(), 0.0);
    assert_eq!(distinct_entropy(&c, &[3]), None);
    assert_eq!(distinct_entropy(&c, &[]), None);
}

/// Text tokenisation: words lowercased, punctuation as tokens, apostrophes inside words.
#[test]
fn text_tokenisation_on_a_small_example() {
    assert_eq!(
        tokenize("The cat sat. The cat didn't sit; the DOG sat!"),
        ["the", "cat", "sat", ".", "the", "cat", "didn't", "sit", ";", "the", "dog", "sat", "!"]
    );
    assert_eq!(tokenize("  'quoted'  "), ["'", "quoted", "'"]);
    assert_eq!(tokenize("Ünïcode naïve café—ok"), ["ünïcode", "naïve", "café", "—", "ok"]);
    let corpus = Corpus::new("the cat sat . the cat ran . the dog sat .", 200);
    assert_eq!(corpus.words, ["the", "cat", "sat", ".", "ran", "dog"]);
    assert_eq!(corpus.ids, [0, 1, 2, 3, 0, 1, 4, 3, 0, 5, 2, 3]);
    // Capped vocabulary: the most frequent kept (ties by first occurrence), the rest <unk>, last.
    let capped = Corpus::new("the cat sat . the cat ran . the dog sat .", 4);
    assert_eq!(capped.words, ["the", "cat", ".", "<unk>"]);
    assert_eq!(capped.ids, [0, 1, 3, 2, 0, 1, 3, 2, 0, 3, 3, 2]);
    // Sliding windows of seq_len = 3: query t_i, next t_{i+1}, context t_{i-2}, t_{i-1}.
    let tc = classes(&corpus, 3);
    assert_eq!(tc.windows.len(), corpus.ids.len() - 2);
    assert_eq!(tc.pairs[0], (1, 2)); // (cat, sat) at position 1
    let w = tc.windows[3]; // position 4: query "the", next "cat", context "sat", "."
    assert_eq!((w.start, w.query_pos), (2, 4));
    assert_eq!(tc.pairs[w.class], (0, 1));
    // Class (the, cat): only position 4 (position 0 has no context); its context is "sat", ".".
    let the_cat = tc.pairs.iter().position(|&p| p == (0, 1)).unwrap();
    assert_eq!(tc.pooled[the_cat], vec![(2, 1.0), (3, 1.0)]);
    assert_eq!(corpus.class_count(), tc.pairs.len());
    assert_eq!(corpus.nexts_of(1), vec![2, 4]);
}

/// Training on a text runs the same dynamics: the loss falls and c is a distribution per class.
#[test]
fn training_on_text() {
    let text = "The quick brown fox jumps over the lazy dog. The lazy dog sleeps in the sun. \
                A quick brown cat jumps over the sleeping dog. The sun is warm and the dog is lazy.";
    let enc: String = text.bytes().map(|b| format!("%{:02X}", b)).collect();
    let t = trained(&format!("lab=training&preset=scan-snap&text={}&seq_len=8&iterations=60&query_row=0", enc));
    let r = t.record();
    let m = t.m();
    assert_eq!(t.data().labels()[0], "the");
    assert!(t.data().is_text());
    println!(
        "text: M = {}, K = {}, loss {} -> {}, entropy {} -> {}",
        m,
        t.k(),
        r.loss[0],
        r.loss[59],
        r.entropy[0],
        t.entropy()
    );
    assert!((r.loss[0] - (m as f64).ln()).abs() < 1e-12);
    assert!(r.loss[59] < 0.5 * r.loss[0]);
    for n in 0..t.k() {
        assert!((t.c()[n * m..(n + 1) * m].iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // The recorded query row is "the": its classes are the words that follow "the".
    assert_eq!(t.query_token(), 0);
    let followers: Vec<&str> =
        t.query_classes().iter().map(|&n| t.data().labels()[t.classes()[n].next].as_str()).collect();
    assert_eq!(followers, ["lazy", "sun", "sleeping", "dog"]); // position 0 ("The quick") has no context
    assert_eq!(r.query_c.len(), (60 + 1) * followers.len() * m);
    assert_eq!(r.query_logits.len(), (60 + 1) * m);
}

/// Same configuration, same bits; and these bits (a pin against accidental changes of the
/// arithmetic, which would break "same link, same run" between the CLI and the browser).
#[test]
fn same_config_same_bits_and_pinned() {
    let fingerprint = |cfg: &str| {
        let t = trained(cfg);
        let words = t.y().iter().chain(t.z()).chain(&t.record().loss).chain(&t.record().entropy).map(|x| x.to_bits());
        words.fold(0xcbf29ce484222325u64, |h, x| (h ^ x).wrapping_mul(0x100000001b3))
    };
    let cfgs = [
        "preset=scan-snap&iterations=30",
        "preset=scan-snap-sweep&iterations=30&seed=4",
        "text=The%20quick%20brown%20fox%20jumps%20over%20the%20lazy%20dog.%20The%20dog%20sleeps.&seq_len=6&iterations=40&weights_init=uniform",
    ];
    for cfg in cfgs {
        assert_eq!(fingerprint(cfg), fingerprint(cfg));
    }
    let pins: [(&str, u64); 3] = [(cfgs[0], PIN_SCAN_SNAP), (cfgs[1], PIN_SCAN_SNAP_SWEEP), (cfgs[2], PIN_TEXT)];
    for (cfg, pin) in pins {
        assert_eq!(fingerprint(cfg), pin, "{}: the numbers changed (0x{:x})", cfg, fingerprint(cfg));
    }
}

const PIN_SCAN_SNAP: u64 = 0x716657f440eb66cd;
const PIN_SCAN_SNAP_SWEEP: u64 = 0xdb274ba52666fc07;
/// Verified equal in wasm32 (+simd128, Node 20) and natively with target-cpu=native (AVX-512),
/// like the two pins above.
const PIN_TEXT: u64 = 0x8001d7a5502fe7c2;

/// step() allocates nothing (synthetic and text data).
#[test]
fn step_allocates_nothing() {
    for cfg in
        ["preset=scan-snap", "preset=scan-snap-sweep&momentum=0", "text=one%20two%20three%20one%20two%20four&seq_len=4"]
    {
        let mut t = Trainer::new(&config(cfg));
        t.step().unwrap();
        let before = allocations();
        for _ in 0..10 {
            t.step().unwrap();
        }
        let after = allocations();
        assert_eq!(after, before, "{}: step() allocated", cfg);
    }
}

/// The record has one loss per iteration and one entropy and query row per state.
#[test]
fn record_shapes_and_status() {
    let mut t = Trainer::new(&config("preset=scan-snap-sweep&iterations=5&query_row=0"));
    assert_eq!(t.advance(100), 5);
    assert_eq!(t.status(), &attn_core::Status::Finished);
    let r = t.record();
    let m = t.m();
    assert_eq!((r.loss.len(), r.max_dc.len(), r.entropy.len()), (5, 5, 6));
    assert_eq!(r.query_logits.len(), 6 * m);
    assert_eq!(t.query_classes(), &[0, 1]);
    assert_eq!(r.query_c.len(), 6 * 2 * m);
    assert_eq!(&r.query_logits[5 * m..], &t.z()[30 * m..31 * m]);
    assert_eq!(&r.query_c[5 * 2 * m..], t.c());
    // Stepping past `iterations` is allowed.
    t.step().unwrap();
    assert_eq!(t.record().loss.len(), 6);
}

/// The sweep table's snap column: the mean over the seeds that snapped, and how many did not.
#[test]
fn cell_mean_snap_iteration_skips_unsnapped_seeds() {
    let mut r = run_cell(&config("preset=scan-snap-sweep&iterations=3"), &grid(&[1], &[1.0], &[1.0])[0], 1).unwrap();
    r.snap_iterations = vec![Some(10), None, Some(20)];
    assert_eq!(r.mean_snap_iteration(), (Some(15.0), 1));
    r.snap_iterations = vec![None, None];
    assert_eq!(r.mean_snap_iteration(), (None, 2));
}

/// Row 14 of "Defects found by a demanding user": the one limit on a sweep's size (page and
/// CLI), and the estimate the page's form shows.
#[test]
fn a_sweep_is_at_most_400_cells_and_40000_runs() {
    use attn_core::training::sweep::{MAX_CELLS, MAX_RUNS};
    use attn_core::training::{check_sweep_size, estimated_run_seconds, SweepSize};
    assert_eq!((MAX_CELLS, MAX_RUNS), (400, 40_000));
    assert_eq!(check_sweep_size(1, 4, 4, 10), Ok(SweepSize { cells: 16, runs: 160 }));
    assert_eq!(check_sweep_size(1, 20, 20, 100), Ok(SweepSize { cells: 400, runs: 40_000 }));
    for (sizes, key, said) in [
        (
            (1, 300, 300, 10),
            "eta_z",
            "300 eta_z × 300 ratio values = 90000 cells; a sweep runs at most 400 cells: shorten the list of eta_z",
        ),
        ((1, 2, 201, 1), "ratio", "= 402 cells"),
        ((1, 21, 20, 1), "eta_z", "= 420 cells"),
        ((3, 2, 100, 1), "ratio", "2 eta_z × 100 ratio × 3 queries values = 600 cells"),
        ((30, 2, 7, 1), "queries", "2 eta_z × 7 ratio × 30 queries values = 420 cells; a sweep runs at most 400 cells: shorten the list of queries"),
        ((1, 20, 20, 101), "eta_z", "400 cells × 101 seeds = 40400 runs; a sweep trains at most 40000 runs"),
        ((1, 5, 9, 1000), "ratio", "45 cells × 1000 seeds = 45000 runs"),
        ((1, 0, 4, 10), "eta_z", "give at least one value"),
        ((1, 4, 4, 0), "seeds", "1..=1000"),
        ((1, 4, 4, 1001), "seeds", "1..=1000"),
        ((usize::MAX, usize::MAX, 2, 1000), "eta_z", "cells"),
    ] {
        let (q, e, r, s) = sizes;
        let err = check_sweep_size(q, e, r, s).unwrap_err();
        assert_eq!(err.key, key, "{:?}: {}", sizes, err);
        assert!(err.message.contains(said), "{:?}: {}", sizes, err);
    }
    // The estimate grows with the work of a run; the paper's sweep run is tens of milliseconds.
    let base = config("lab=training&preset=scan-snap-sweep");
    let one = estimated_run_seconds(&base);
    assert!((0.005..0.2).contains(&one), "{}", one);
    let longer = estimated_run_seconds(&config("lab=training&preset=scan-snap-sweep&iterations=1000&batch=256"));
    assert!((longer / one - 20.0).abs() < 2.0, "{} / {}", longer, one);
    let bigger = estimated_run_seconds(&config("lab=training&preset=scan-snap-sweep&commons=200"));
    assert!(bigger > 5.0 * one, "{} / {}", bigger, one);
}
