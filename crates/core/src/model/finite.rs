//! The weights must be finite numbers: a NaN or an infinity in a tensor the forward reads would
//! give NaN hidden states, which no measure of the lab can report as a number. Checked once when
//! a model loads ([`super::Encoder::load`]), after [`super::BertWeights::from_safetensors`]
//! accepted the file, on the file's bytes (the loader packs the linear layers, losing their
//! coordinates).

use super::ModelError;
use safetensors::{Dtype, SafeTensors};

/// Refuses the first value that is not finite in the tensors the forward reads (`F32` tensors
/// named `embeddings.*` or `encoder.layer.{l}.*` with `l < layers`, after the `bert.` prefix when
/// `prefixed`), in the order of their data in the file, naming the tensor, the entry's flat
/// index and its coordinates: `model.safetensors: tensor `encoder.layer.0.attention.self.query.weight`:
/// entry 7 (row 0, column 7 of [32, 32]) is NaN; the weights must be finite numbers`.
pub fn check_weights(bytes: &[u8], prefixed: bool, layers: usize) -> Result<(), ModelError> {
    let Ok(st) = SafeTensors::deserialize(bytes) else {
        return Ok(()); // The loader refused it before (it parsed the same bytes).
    };
    let prefix = if prefixed { "bert." } else { "" };
    let mut read: Vec<(String, safetensors::tensor::TensorView<'_>)> = st
        .tensors()
        .into_iter()
        .filter(|(name, view)| {
            view.dtype() == Dtype::F32 && name.strip_prefix(prefix).is_some_and(|n| forward_reads(n, layers))
        })
        .collect();
    read.sort_by_key(|(name, view)| (view.data().as_ptr() as usize, name.clone()));
    for (name, view) in &read {
        let bad = view
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .position(|v| !v.is_finite());
        if let Some(k) = bad {
            let b = &view.data()[4 * k..4 * k + 4];
            let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let what = if v.is_nan() {
                "NaN"
            } else if v > 0.0 {
                "+inf"
            } else {
                "-inf"
            };
            return Err(ModelError::Weights {
                tensor: name.strip_prefix(prefix).unwrap_or(name).to_string(),
                why: format!(
                    "entry {} ({}) is {}; the weights must be finite numbers",
                    k,
                    coordinates(k, view.shape()),
                    what
                ),
            });
        }
    }
    Ok(())
}

/// Whether the forward reads the tensor `name` (without prefix) of a model of `layers` layers.
fn forward_reads(name: &str, layers: usize) -> bool {
    if name.starts_with("embeddings.") {
        return true;
    }
    let Some(rest) = name.strip_prefix("encoder.layer.") else { return false };
    rest.split_once('.').and_then(|(l, _)| l.parse::<usize>().ok()).is_some_and(|l| l < layers)
}

/// `row r, column c of [rows, cols]` for a matrix, `of [len]` for a vector, the index list otherwise.
fn coordinates(k: usize, shape: &[usize]) -> String {
    match shape {
        [len] => format!("of [{}]", len),
        [rows, cols] => format!("row {}, column {} of [{}, {}]", k / cols, k % cols, rows, cols),
        _ => {
            let mut rest = k;
            let mut idx = vec![0; shape.len()];
            for (i, &s) in shape.iter().enumerate().rev() {
                idx[i] = rest % s.max(1);
                rest /= s.max(1);
            }
            format!("index {:?} of {:?}", idx, shape)
        }
    }
}
