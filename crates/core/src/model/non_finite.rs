//! Where an analysis holds numbers that are not finite. Finite weights can still overflow `f32`
//! during a forward (feed-forward weights of 3e38 give `inf`, then NaN after the LayerNorm); the
//! measures of such a state are NaN ([`crate::nan`]), never a number, and every output says so:
//! `attn encode` prints `null` for them and lists them in `non_finite`, the page draws grey "no
//! value" tiles and marks the last finite point of a curve with "overflow at layer k".

use super::encoder::Curve;
use serde::Serialize;

/// A group of printed values of which at least one is not finite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NonFinite {
    /// The variant's label (`transformer`, `SAN`, ...).
    pub variant: &'static str,
    /// The layer (0 = the embeddings after their LayerNorm).
    pub layer: usize,
    /// The head (0-based), for a head's matrix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<usize>,
    /// What holds it: `residual`, `hidden`, `attention`, `similarity`, or `layers_view` (a hidden
    /// state the layers view reads, science.md §7.5).
    pub what: &'static str,
}

/// One entry per layer of each curve whose residual is not finite, curves in order.
pub fn residuals(curves: &[Curve]) -> Vec<NonFinite> {
    curves
        .iter()
        .flat_map(|c| {
            c.residual.iter().enumerate().filter(|(_, v)| !v.is_finite()).map(|(layer, _)| NonFinite {
                variant: c.variant.label(),
                layer,
                head: None,
                what: "residual",
            })
        })
        .collect()
}

/// The entry of `values` (a hidden state, a head's `P` or `S`) when one of them is not finite.
pub fn values(
    variant: &'static str,
    layer: usize,
    head: Option<usize>,
    what: &'static str,
    values: &[f32],
) -> Option<NonFinite> {
    values.iter().any(|v| !v.is_finite()).then_some(NonFinite { variant, layer, head, what })
}

/// The first layer whose residual is not finite: where the forward overflowed (`None` when every
/// layer is finite).
pub fn first_layer(residual: &[f64]) -> Option<usize> {
    residual.iter().position(|v| !v.is_finite())
}
