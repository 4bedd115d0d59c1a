//! Analyzers on small known inputs.

use attn_core::particles::analysis::pca::pca_axes;
use attn_core::particles::analysis::{
    boolean_distance, cluster_labels, effective_rank, interaction_energy, leaders, spread,
};

#[test]
fn boolean_distance_and_leaders_of_known_matrices() {
    let p = [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0];
    assert_eq!(boolean_distance(&p, 3), 0.0);
    assert_eq!(leaders(&p, 3), vec![1]);
    let q = [0.7, 0.3, 0.0, 0.2, 0.8, 0.0, 0.0, 0.4, 0.6];
    assert!((boolean_distance(&q, 3) - 0.4).abs() < 1e-15);
    assert_eq!(leaders(&q, 3), vec![0, 1, 2]);
}

#[test]
fn effective_rank_of_identity_uniform_and_rank_one() {
    let n = 8;
    let mut eye = vec![0.0; n * n];
    for i in 0..n {
        eye[i * n + i] = 1.0;
    }
    assert!((effective_rank(&eye, n) - n as f64).abs() < 1e-9);
    let uniform = vec![1.0 / n as f64; n * n];
    assert!((effective_rank(&uniform, n) - 1.0).abs() < 1e-9);
    // Large n: rows are sampled, columns kept, so a Boolean P with 4 leaders has rank 4
    // whatever n (a column sample would drop leaders).
    for big in [300, 1000] {
        let mut boolean = vec![0.0; big * big];
        for i in 0..big {
            boolean[i * big + [3, 101, 200, 257][i % 4]] = 1.0;
        }
        let r = effective_rank(&boolean, big);
        assert!((r - 4.0).abs() < 1e-9, "n = {}: {}", big, r);
    }
    assert!(effective_rank(&[f64::NAN, 0.0, 0.0, 1.0], 2).is_nan());
}

#[test]
fn single_linkage_clusters() {
    // Two groups on a line, spread 10: tol 0.05 links points closer than 0.5.
    let x = [0.0, 0.3, 0.6, 10.0, 9.8];
    let (count, labels) = cluster_labels(&x, 5, 1, 0.05);
    assert_eq!(count, 2);
    assert_eq!(labels, vec![0, 0, 0, 1, 1]);
    assert_eq!(spread(&x, 5, 1), 10.0);
    // Zero spread: one cluster.
    assert_eq!(cluster_labels(&[1.0, 1.0, 1.0, 1.0], 2, 2, 1e-3).0, 1);
}

#[test]
fn energy_of_one_cluster_is_the_maximum() {
    let x = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
    for beta in [0.5, 1.0, 4.0] {
        let e = interaction_energy(&x, 3, 2, beta);
        assert!((e - beta.exp() / (2.0 * beta)).abs() < 1e-12);
    }
}

#[test]
fn pca_axes_are_unit_ordered_and_sign_fixed() {
    // Points spread along (1, 1, 0, 0) mostly, then (0, 0, 1, 0).
    let mut x = Vec::new();
    for i in 0..50 {
        let a = i as f64 - 25.0;
        let b = if i % 2 == 0 { 1.0 } else { -1.0 };
        x.extend_from_slice(&[a, a, b, 0.01 * b]);
    }
    let axes = pca_axes(&x, 50, 4, 2);
    let s = 0.5f64.sqrt();
    assert!((axes[0] - s).abs() < 1e-3 && (axes[1] - s).abs() < 1e-3, "{:?}", axes);
    let norm2: f64 = axes[4..8].iter().map(|v| v * v).sum();
    assert!((norm2 - 1.0).abs() < 1e-12);
    assert!(axes[6].abs() > 0.99 && axes[6] > 0.0);
}

/// Metrics from the streamed rows of P (P never stored) equal the analyzers on the stored P,
/// and the heatmap's block maxima equal the maxima of the stored P's blocks.
#[test]
fn streamed_metrics_equal_the_analyzers_on_the_stored_p() {
    use attn_core::particles::analysis::metrics::attention_views;
    use attn_core::particles::analysis::{Metrics, MetricsScratch};
    use attn_core::Stepping;
    for (config, steps) in
        [("preset=polytope&n=300&d=2", 40), ("preset=sphere-sa-clusters&n=530&d=3", 30), ("preset=leaders&n=290", 200)]
    {
        let mut sim = attn_core::Simulation::new(&attn_core::parse(config).unwrap());
        sim.advance(steps);
        let n = sim.n();
        let mut p = vec![0.0; n * n];
        sim.attention(&mut p).unwrap();
        let mut streamed = MetricsScratch::default();
        streamed.pool = Some((7, n.div_ceil(7)));
        let m = Metrics::compute(&mut sim, &mut streamed).unwrap();
        assert!(streamed.p.is_empty(), "P is not stored");
        assert_eq!(m.boolean_distance.to_bits(), boolean_distance(&p, n).to_bits(), "{}", config);
        assert_eq!(m.effective_rank.to_bits(), effective_rank(&p, n).to_bits(), "{}", config);
        assert_eq!(m.leaders, leaders(&p, n), "{}", config);
        let block = n.div_ceil(7);
        for r in 0..7 {
            for c in 0..7 {
                let mut want = f64::NEG_INFINITY;
                for i in r * block..((r + 1) * block).min(n) {
                    for j in c * block..((c + 1) * block).min(n) {
                        want = want.max(p[i * n + j]);
                    }
                }
                assert_eq!(streamed.pooled[r * 7 + c], want, "{}: block ({}, {})", config, r, c);
            }
        }
        // The stored P's block maxima (the page's heatmap of a stored P) are the same function.
        let max_side = n.div_ceil(n.div_ceil(7));
        let (stored, side) = attn_core::particles::analysis::attention::block_maxima(&p, n, max_side);
        assert_eq!(side, 7, "{}", config);
        assert!(stored.iter().zip(&streamed.pooled).all(|(a, b)| a.to_bits() == b.to_bits()), "{}", config);
        let mut kept = MetricsScratch::default();
        kept.keep_p = true;
        attention_views(&mut sim, &mut kept).unwrap();
        assert!(kept.p.iter().zip(&p).all(|(a, b)| a.to_bits() == b.to_bits()));
        let mut row = vec![0.0; n];
        sim.attention_row(n / 3, &mut row).unwrap();
        assert_eq!(&row[..], &p[(n / 3) * n..(n / 3 + 1) * n]);
    }
}

/// The row split of the CLI's threads and the page's workers covers every row once, in order,
/// with block sizes differing by at most one.
#[test]
fn row_blocks_tile_the_rows() {
    use attn_core::particles::field::row_block;
    for n in [1, 7, 513, 1000] {
        for blocks in 1..=5 {
            let mut next = 0;
            let mut sizes = Vec::new();
            for b in 0..blocks {
                let (lo, hi) = row_block(n, blocks, b);
                assert_eq!(lo, next, "n = {}, blocks = {}", n, blocks);
                sizes.push(hi - lo);
                next = hi;
            }
            assert_eq!(next, n);
            assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        }
    }
}

/// The trajectory CSV (the CLI's and the page's export): header and rows in the shortest
/// round-trip form.
#[test]
fn trajectory_csv_rows_match_the_documented_layout() {
    use attn_core::particles::csv::{token_header, token_rows};
    assert_eq!(token_header(2), "step,t,i,coord_0,coord_1");
    let rows = token_rows(3, 0.30000000000000004, &[0.1, -0.0, 1e-7, 2.5], 2).unwrap();
    assert_eq!(rows, "3,0.30000000000000004,0,0.1,-0\n3,0.30000000000000004,1,1e-7,2.5\n");
    assert!(token_rows(1, 0.1, &[1.0, 2.0, 3.0], 2).unwrap_err().contains("d = 2"));
}

#[test]
fn cluster_centres_are_the_means_of_clusters_of_min_size() {
    use attn_core::particles::analysis::cluster_centres;
    let x = [0.0, 0.0, 2.0, 0.0, 10.0, 10.0, 0.0, 4.0, 7.0, 7.0];
    let labels = [0, 0, 1, 0, 2];
    assert_eq!(cluster_centres(&x, 5, 2, &labels, 3, 1), [2.0 / 3.0, 4.0 / 3.0, 10.0, 10.0, 7.0, 7.0]);
    // Singletons left out.
    assert_eq!(cluster_centres(&x, 5, 2, &labels, 3, 2), [2.0 / 3.0, 4.0 / 3.0]);
    assert!(cluster_centres(&x, 5, 2, &labels, 3, 4).is_empty());
}

/// `m` row-stochastic rows of `n` (`m x n`, row-major) from a fixed LCG: cubes of uniforms, so
/// the weights are uneven.
fn lcg_rows(m: usize, n: usize) -> Vec<f64> {
    let mut s: u64 = 12345;
    let mut rows = vec![0.0f64; m * n];
    for row in rows.chunks_mut(n) {
        for v in row.iter_mut() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            *v = u * u * u;
        }
        let sum: f64 = row.iter().sum();
        row.iter_mut().for_each(|v| *v /= sum);
    }
    rows
}

/// The effective rank of sampled rows keeps its bits: the Gram matrix computed in blocks of rows
/// gives each entry by the same arithmetic as the row-by-row loop it replaced (bits recorded
/// with that loop, commit 2a54bac), for a row count that is and one that is not a multiple of the
/// block.
#[test]
fn effective_rank_of_rows_keeps_its_bits() {
    use attn_core::particles::analysis::rank::effective_rank_of_rows;
    for (m, n, bits) in [(40, 37, 0x403bcbfe4bdbf989u64), (256, 300, 0x40689ee582bd1598), (3, 1, 0x3ff0000000000000)] {
        let got = effective_rank_of_rows(&lcg_rows(m, n), n);
        assert_eq!(got.to_bits(), bits, "m = {m}, n = {n}: {got}");
    }
}
