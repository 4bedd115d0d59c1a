//! Analyzers of a training run (science.md §5): the attention measure `c_n`, the distinct-token
//! entropy, and the snap criterion. Pure functions of slices.

use super::data::Class;
use super::model::weighted_softmax;

/// `c_{l|n}` of one class (science.md §5): `c_{l|n} = P(l|n) exp(Z[psi(n), l]) / sum_l' P(l'|n)
/// exp(Z[psi(n), l'])` over the class's support, zero elsewhere. `z_row` is the row `Z[psi(n), :]`
/// (length `M`), `support`/`p` the class's tokens and `P(l|n)`; writes `out` (length `M`).
/// The expected attention of the query on a context of this class, per context token, in the
/// large-`seq_len` limit.
pub fn class_attention(z_row: &[f64], support: &[usize], p: &[f64], out: &mut [f64]) {
    out.iter_mut().for_each(|x| *x = 0.0);
    weighted_softmax(z_row, support, p, out, |_, l| l);
}

/// `c_n` of every class: writes `out` (`K x M` row-major; row `n` is [`class_attention`] of class
/// `n`). `z` is `M x M` row-major.
pub fn all_class_attention(z: &[f64], m: usize, classes: &[Class], out: &mut [f64]) {
    for (n, class) in classes.iter().enumerate() {
        let q = class.query;
        class_attention(&z[q * m..(q + 1) * m], &class.support, &class.p, &mut out[n * m..(n + 1) * m]);
    }
}

/// Entropy (nats) of `c` restricted to the tokens `distinct`, renormalised:
/// `-sum_j pi_j ln pi_j` with `pi_j = c_j / sum_distinct c` (science.md §5). `None` when the
/// tokens carry no mass (or `distinct` is empty). Maximum `ln |distinct|`; with `Z = 0` and the
/// paper's weights 0.1..1.0 it is 2.1513 nats.
pub fn distinct_entropy(c: &[f64], distinct: &[usize]) -> Option<f64> {
    let total: f64 = distinct.iter().map(|&l| c[l]).sum();
    // Also refuses NaN.
    if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let mut h = 0.0;
    for &l in distinct {
        let pi = c[l] / total;
        if pi > 0.0 {
            h -= pi * libm::log(pi);
        }
    }
    Some(h)
}

/// The statistic of science.md §5: [`distinct_entropy`] of each class's `c_n` (`c`: `K x M`
/// row-major), averaged over the classes that have distinct tokens with mass (0 if none; nats).
pub fn mean_distinct_entropy(c: &[f64], m: usize, classes: &[Class]) -> f64 {
    let mut sum = 0.0;
    let mut count = 0usize;
    for (n, class) in classes.iter().enumerate() {
        if let Some(h) = distinct_entropy(&c[n * m..(n + 1) * m], &class.distinct) {
            sum += h;
            count += 1;
        }
    }
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

/// `max_i |a_i - b_i|` (0 for empty slices; NaN when a difference is NaN): the per-iteration
/// change of `c`.
pub fn max_abs_change(a: &[f64], b: &[f64]) -> f64 {
    crate::nan::max_of(0.0, a.iter().zip(b).map(|(x, y)| (x - y).abs()))
}

/// The snap iteration of a finished run (science.md §5, "snap": attention freezes).
///
/// `max_dc[i]` is `max_{n,l} |c_{l|n}(after iteration i) - c_{l|n}(before iteration i)|`, the
/// change of the attention measure during iteration `i`. The snap iteration is the first `s` such
/// that `max_dc[i] < tol` for every `i >= s` to the end of the record: from iteration `s` on, the
/// attention no longer changes (by more than `tol` per iteration). It is defined only after the
/// attention has moved: `None` when no iteration changed it by `tol` or more (no scan, so no snap
/// either: e.g. the first quiet iterations of a zero-initialised run, where `Y = 0` gives `Z` no
/// gradient), when the last iteration still changes it by `tol` or more (no snap yet), or when the
/// record is empty. NaN counts as a change.
pub fn snap_iteration(max_dc: &[f64], tol: f64) -> Option<usize> {
    match max_dc.iter().rposition(|&d| d.partial_cmp(&tol) != Some(std::cmp::Ordering::Less)) {
        None => None,
        Some(i) if i + 1 == max_dc.len() => None,
        Some(i) => Some(i + 1),
    }
}

/// A live version of [`snap_iteration`], usable while the run goes on: the first `s` such that
/// the attention has changed by at least `tol` in some earlier iteration (scan has begun) and
/// `max_dc[s .. s + window]` are all below `tol`. `None` until such a window is complete.
/// When the run keeps still after its snap, it agrees with [`snap_iteration`]; a later burst of
/// change is not seen (a live criterion cannot see the future), so use a window of several
/// iterations (e.g. 10).
pub fn snap_iteration_live(max_dc: &[f64], tol: f64, window: usize) -> Option<usize> {
    let window = window.max(1);
    let mut moved = false;
    let mut quiet_from: Option<usize> = None;
    for (i, &d) in max_dc.iter().enumerate() {
        if d < tol {
            if moved {
                let s = *quiet_from.get_or_insert(i);
                if i + 1 - s >= window {
                    return Some(s);
                }
            }
        } else {
            moved = true;
            quiet_from = None;
        }
    }
    None
}

/// The distinct-token entropy of uniform attention, `Z = 0` (science.md §5): then
/// `c_{l|n} = P(l|n)`, and this is [`mean_distinct_entropy`] of that `c` (nats). It is the
/// entropy a run starts from with `weights_init=zero` (2.1513 nats for the paper's weights) and
/// the reference the final entropies lie below.
pub fn uniform_attention_entropy(m: usize, classes: &[Class]) -> f64 {
    let mut c = vec![0.0; classes.len() * m];
    for (n, class) in classes.iter().enumerate() {
        for (&l, &p) in class.support.iter().zip(&class.p) {
            c[n * m + l] = p;
        }
    }
    mean_distinct_entropy(&c, m, classes)
}
