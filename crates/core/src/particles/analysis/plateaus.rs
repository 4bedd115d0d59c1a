//! Plateaus of a count over time (science.md §2.4, metastability): the intervals over which the
//! number of clusters stays the same for a long time with the clusters settled (tight compared
//! to their separation, [`super::settled`]), read from the chart's samples.

use serde::Serialize;

/// Shortest plateau, in time units.
pub const MIN_PLATEAU: f64 = 10.0;

/// One plateau: the count `value` holds at every sample from `t0` to `t1`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plateau {
    /// Time of the first sample of the run.
    pub t0: f64,
    /// Time of the last sample of the run.
    pub t1: f64,
    /// The count over the plateau.
    pub value: f64,
}

/// The maximal runs of consecutive samples (`t` increasing, `values` the count at each, `ratios`
/// its groups' [`super::settled::separation_ratio`]) with the same finite value and every
/// sample settled ([`super::settled::is_settled`]), spanning at least `min_len` time units
/// (`t1 - t0 >= min_len`), in time order. A non-finite value or an unsettled sample ends a run.
pub fn plateaus(t: &[f64], values: &[f64], ratios: &[f64], min_len: f64) -> Vec<Plateau> {
    let mut out = Vec::new();
    let len = t.len().min(values.len()).min(ratios.len());
    let settled = |k: usize| super::settled::is_settled(ratios[k]);
    let mut start = 0;
    while start < len {
        let v = values[start];
        let mut end = start;
        if v.is_finite() && settled(start) {
            while end + 1 < len && values[end + 1] == v && settled(end + 1) {
                end += 1;
            }
            if t[end] - t[start] >= min_len {
                out.push(Plateau { t0: t[start], t1: t[end], value: v });
            }
        }
        start = end + 1;
    }
    out
}
