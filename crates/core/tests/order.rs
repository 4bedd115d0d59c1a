//! The heatmap's token orders (analysis::order): groups by cluster and by leader, and the ordered
//! block maxima, equal to those of `P` with its rows and columns permuted.

use attn_core::particles::analysis::attention::{block_maxima, block_side};
use attn_core::particles::analysis::order::{heat_cells, pool_row_cells, row_argmax, TokenOrder};
use attn_core::rng::Rng;

#[test]
fn clusters_come_largest_first_then_the_tokens_alone() {
    let o = TokenOrder::by_cluster(&[0, 1, 0, 2, 1, 0, 3]);
    assert_eq!(o.perm, [0, 2, 5, 1, 4, 3, 6]);
    assert_eq!(o.starts, [3, 5]);
    // Equal sizes: the cluster whose first token comes first leads.
    let o = TokenOrder::by_cluster(&[1, 0, 0, 1]);
    assert_eq!(o.perm, [0, 3, 1, 2]);
    assert_eq!(o.starts, [2]);
    // Every token alone: token order, one group.
    assert_eq!(TokenOrder::by_cluster(&[0, 1, 2]), TokenOrder { perm: vec![0, 1, 2], starts: vec![] });
    assert_eq!(TokenOrder::by_cluster(&[]), TokenOrder::default());
}

#[test]
fn leaders_head_their_followers() {
    let o = TokenOrder::by_leader(&[2, 2, 2, 0, 0]);
    assert_eq!(o.perm, [3, 4, 2, 0, 1]);
    assert_eq!(o.starts, [2]);
    assert_eq!(o.positions(), [3, 4, 2, 0, 1]);
    assert_eq!(TokenOrder::index(3).perm, [0, 1, 2]);
    assert_eq!(row_argmax(&[0.1, 0.7, f64::NAN, 0.7]), 1);
    assert_eq!(row_argmax(&[f64::NAN]), 0);
}

#[test]
fn ordered_block_maxima_are_those_of_the_permuted_matrix() {
    let mut rng = Rng::new(7, 0);
    for (n, max_side) in [(1000, 512), (7, 3), (513, 512)] {
        let p: Vec<f64> = (0..n * n).map(|_| rng.uniform01()).collect();
        let labels: Vec<u32> = (0..n).map(|i| ((i * 7919) % 5) as u32).collect();
        let order = TokenOrder::by_cluster(&labels);
        let pos = order.positions();
        let permuted: Vec<f64> = (0..n * n).map(|k| p[order.perm[k / n] * n + order.perm[k % n]]).collect();
        let (want, side) = block_maxima(&permuted, n, max_side);
        let (_, block) = block_side(n, max_side);
        let mut got = vec![f64::NEG_INFINITY; side * side];
        let cells = heat_cells(&pos, block);
        for i in 0..n {
            pool_row_cells(&p[i * n..(i + 1) * n], i, &cells, side, &mut got);
        }
        assert_eq!(
            got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "n = {n}"
        );
    }
}
