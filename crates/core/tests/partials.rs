//! The analyses of `P` over blocks of rows (the page's workers: docs/particle-lab.md, "The analyses of a pooled run"), combined, equal
//! the whole-`P` analyzers bit for bit, whatever the split.

use crate::common::{attention, run, sim};
use attn_core::particles::analysis::attention::{block_maxima, block_side};
use attn_core::particles::analysis::metrics::{Metrics, MetricsScratch};
use attn_core::particles::analysis::order::{heat_cells, pool_row_cells, row_argmax};
use attn_core::particles::analysis::partial::{is_sampled, PartialSpec, RowsPartial};
use attn_core::particles::analysis::rank::{effective_rank_of_rows, sample_rows};
use attn_core::particles::analysis::{boolean_distance, effective_rank, leaders, TokenOrder};
use attn_core::particles::field::{row_block, Field};
use attn_core::particles::init;
use attn_core::rng::Rng;

fn bits(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// A row-stochastic `P` with what the folds must get right: Boolean rows (leaders, exact 0 and
/// 1), entries above 1/2, ties for the largest entry, and zeros.
fn random_p(n: usize, seed: u32) -> Vec<f64> {
    let mut rng = Rng::new(seed, 0);
    let mut p = vec![0.0; n * n];
    for i in 0..n {
        let row = &mut p[i * n..(i + 1) * n];
        match i % 4 {
            0 => row[(i * 7 + 3) % n] = 1.0,
            1 if n > 1 => {
                row[(i * 5) % n] = 0.5;
                row[(i * 5 + 1) % n] += 0.5;
            }
            _ => {
                let mut sum = 0.0;
                for x in row.iter_mut() {
                    *x = if rng.uniform01() < 0.3 { 0.0 } else { rng.uniform01().powi(8) };
                    sum += *x;
                }
                if sum > 0.0 {
                    row.iter_mut().for_each(|x| *x /= sum);
                } else {
                    row[i] = 1.0;
                }
            }
        }
    }
    p
}

/// The partials of `blocks` consecutive blocks of `P` (the core's row split), combined.
fn split(p: &[f64], spec: &PartialSpec, blocks: usize) -> RowsPartial {
    let parts: Vec<RowsPartial> = (0..blocks)
        .map(|b| {
            let (lo, hi) = row_block(spec.n, blocks, b);
            RowsPartial::of_p(p, spec, lo, hi)
        })
        .collect();
    RowsPartial::combine(&parts).expect("consecutive blocks")
}

#[test]
fn sampled_rows_are_those_of_the_effective_rank() {
    for n in [1, 2, 7, 255, 256, 257, 300, 513, 1000, 4096, 5000] {
        let listed: Vec<usize> = (0..n).filter(|&i| is_sampled(n, i)).collect();
        assert_eq!(listed, sample_rows(n), "n = {n}");
    }
}

#[test]
fn combined_blocks_equal_the_whole_p_analyzers() {
    for (n, max_side) in [(1, 512), (7, 512), (7, 3), (257, 64), (300, 512), (301, 37)] {
        let p = random_p(n, n as u32);
        let (side, block) = block_side(n, max_side);
        let order = TokenOrder::by_leader(&(0..n).map(|i| row_argmax(&p[i * n..(i + 1) * n])).collect::<Vec<_>>());
        let pos = order.positions();
        let cells = heat_cells(&pos, block);
        let mut ordered = vec![f64::NEG_INFINITY; side * side];
        for i in 0..n {
            pool_row_cells(&p[i * n..(i + 1) * n], i, &cells, side, &mut ordered);
        }
        let plain = PartialSpec { n, pool: Some((side, block)), cells: None, rank: true };
        let in_order = PartialSpec { cells: Some(&cells), ..plain };
        for blocks in [1, 2, 3, 4] {
            let all = split(&p, &plain, blocks);
            let what = format!("n = {n}, side {side}, {blocks} blocks");
            assert_eq!((all.lo, all.hi), (0, n), "{what}");
            assert_eq!(all.boolean_distance.to_bits(), boolean_distance(&p, n).to_bits(), "{what}");
            assert_eq!(all.leaders(), leaders(&p, n), "{what}");
            assert!(all.finite);
            let best: Vec<usize> = (0..n).map(|i| row_argmax(&p[i * n..(i + 1) * n])).collect();
            assert_eq!(all.best, best, "{what}");
            assert_eq!(bits(&all.pooled), bits(&block_maxima(&p, n, max_side).0), "{what}");
            assert_eq!(effective_rank_of_rows(&all.rank_rows, n).to_bits(), effective_rank(&p, n).to_bits(), "{what}");
            let all = split(&p, &in_order, blocks);
            assert_eq!(bits(&all.pooled), bits(&ordered), "{what}, ordered");
            // Through the message format and back.
            let cells = side * side;
            let back: Vec<RowsPartial> = (0..blocks)
                .map(|b| {
                    let (lo, hi) = row_block(n, blocks, b);
                    let x = RowsPartial::of_p(&p, &in_order, lo, hi).to_f64s();
                    RowsPartial::from_f64s(&x, n, cells).expect("its own shape")
                })
                .collect();
            let again = RowsPartial::combine(&back).expect("consecutive");
            assert_eq!(bits(&again.pooled), bits(&ordered), "{what}, through f64s");
            assert_eq!(bits(&again.rank_rows), bits(&all.rank_rows), "{what}, through f64s");
            assert_eq!((again.best, again.leader), (all.best, all.leader), "{what}, through f64s");
        }
    }
}

#[test]
fn a_non_finite_block_and_malformed_messages() {
    let n = 9;
    let mut p = random_p(n, 3);
    p[5 * n + 2] = f64::NAN;
    let spec = PartialSpec { n, pool: None, cells: None, rank: true };
    for blocks in [1, 2, 3] {
        let all = split(&p, &spec, blocks);
        assert!(!all.finite, "{blocks} blocks");
        assert_eq!(all.boolean_distance.to_bits(), boolean_distance(&p, n).to_bits());
    }
    let a = RowsPartial::of_p(&p, &spec, 0, 4);
    let b = RowsPartial::of_p(&p, &spec, 5, 9);
    assert!(RowsPartial::combine(&[a.clone(), b]).is_none(), "a gap between blocks");
    assert!(RowsPartial::combine(&[]).is_none());
    let x = a.to_f64s();
    assert!(RowsPartial::from_f64s(&x[..x.len() - 1], n, 0).is_none(), "short");
    assert!(RowsPartial::from_f64s(&x, n, 4).is_none(), "other cells");
    let mut bad = x.clone();
    bad[1] = 2.5;
    assert!(RowsPartial::from_f64s(&bad, n, 0).is_none(), "fractional row");
}

/// What the page's workers compute in the first stage of a step (each its rows of the velocity
/// and of `P` at the state the step starts from, with its own field) gives the velocity of one
/// field and the metrics `attn run` prints for that state, bit for bit.
#[test]
fn worker_blocks_give_the_velocity_and_the_metrics_of_the_state() {
    for config in [
        "preset=polytope-3d&n=300&init=gaussian&scale=1&integrate_in=x&coords=x&dt=0.01&until=10",
        "preset=polytope&n=257&dt=0.1&until=100",
        "preset=polytope&n=130&d=16&dt=0.1&until=100",
    ] {
        let c = attn_core::parse(config).expect("config");
        let mut s = sim(config);
        run(&mut s, 40);
        let (n, d) = (s.n(), s.d());
        let mut scratch = MetricsScratch::default();
        let expected = Metrics::compute(&mut s, &mut scratch).expect("metrics");
        let p = attention(&mut s);
        let mut velocity = vec![0.0; n * d];
        Field::new(&c, &init::matrices(&c)).velocity_rows(s.t(), s.state(), 0, n, &mut velocity, false).expect("v");
        let spec = PartialSpec { n, pool: None, cells: None, rank: true };
        for blocks in [1, 2, 3] {
            let mut v = vec![0.0; n * d];
            let parts: Vec<RowsPartial> = (0..blocks)
                .map(|b| {
                    let (lo, hi) = row_block(n, blocks, b);
                    let mut field = Field::new(&c, &init::matrices(&c));
                    let mut part = RowsPartial::start(&spec, lo, hi);
                    let out = &mut v[lo * d..hi * d];
                    field
                        .velocity_rows_visiting(s.t(), s.state(), lo, hi, out, false, &mut |i, row| {
                            part.fold_row(&spec, i, row)
                        })
                        .expect("rows");
                    part
                })
                .collect();
            let what = format!("{config}, {blocks} blocks");
            assert_eq!(bits(&v), bits(&velocity), "{what}");
            let all = RowsPartial::combine(&parts).expect("consecutive");
            assert_eq!(bits(&all.rank_rows), bits(&RowsPartial::of_p(&p, &spec, 0, n).rank_rows), "{what}");
            let got = Metrics::from_rows(&mut s, &mut MetricsScratch::default(), &all, None);
            assert_eq!(got.boolean_distance.to_bits(), expected.boolean_distance.to_bits(), "{what}");
            assert_eq!(got.effective_rank.to_bits(), expected.effective_rank.to_bits(), "{what}");
            assert_eq!(got, expected, "{what}");
            let counted = Metrics::from_rows(&mut s, &mut scratch, &all, Some(expected.clusters));
            assert_eq!(counted, expected, "{what}, clusters counted before");
        }
    }
}
