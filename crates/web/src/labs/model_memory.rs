//! The model lab's memory checks, before any weights are read: the page's limit per device, the
//! estimate from `config.json` for the longest text the model takes, and whether a second worker
//! may hold its own copy of the weights (the model lab's worker pool).

use wasm_bindgen::prelude::*;

/// The most wasm memory the page lets a model take, in bytes: 2 GiB, or 1 GiB on a device that
/// says it has at most 4 GB (`navigator.deviceMemory`; 0 when it does not say).
pub fn memory_limit(device_gb: f64) -> u64 {
    if device_gb > 0.0 && device_gb <= 4.0 {
        1 << 30
    } else {
        2 << 30
    }
}

/// Whether a second worker may hold its own copy of the model described by `config_json` (the
/// model lab's worker pool): each worker's peak, the estimate ([`model_memory`]) plus the weights
/// twice more (while a worker replaces its model it holds the old weights, the new file's bytes
/// and the new weights), twice within [`memory_limit`] for `device_gb`. all-MiniLM-L6-v2 (about
/// 0.36 GB per worker) fits twice, also in 1 GiB; a bert-base-sized model (about 1.48 GB) runs in
/// one worker.
#[wasm_bindgen]
pub fn model_fits_twice(config_json: &str, device_gb: f64) -> bool {
    match attn_core::model::BertConfig::parse(config_json) {
        Ok(c) => {
            let each = c.memory_bytes(c.max_positions) + 2 * 4 * c.weight_count();
            2 * each <= memory_limit(device_gb)
        }
        Err(_) => false,
    }
}

/// The memory check before the weights are downloaded: `config.json`'s estimate (core
/// `BertConfig::memory_bytes`: weights, three `n x d_ff` activations, one variant's `L H n^2`
/// maps, `f32`) for the longest text the model takes (`max_position_embeddings` tokens). Returns
/// the estimate in bytes; throws naming `config.json`'s field, or `model` with both numbers when
/// it is over the limit ([`memory_limit`] for `device_gb`).
#[wasm_bindgen]
pub fn model_memory(config_json: &str, device_gb: f64) -> Result<f64, JsError> {
    let c = attn_core::model::BertConfig::parse(config_json).map_err(|e| JsError::new(&e.to_string()))?;
    let bytes = c.memory_bytes(c.max_positions);
    let limit = memory_limit(device_gb);
    if bytes > limit {
        return Err(JsError::new(&format!(
            "`model`: needs about {:.2} GiB of page memory for {} tokens (weights, activations, attention maps), over this \
             device's {} GiB",
            bytes as f64 / (1u64 << 30) as f64,
            c.max_positions,
            limit >> 30
        )));
    }
    Ok(bytes as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bert(hidden: usize, layers: usize, heads: usize, ff: usize) -> String {
        format!(
            r#"{{"model_type": "bert", "hidden_act": "gelu", "hidden_size": {}, "num_hidden_layers": {}, "num_attention_heads": {}, "intermediate_size": {}, "max_position_embeddings": 512, "vocab_size": 30522, "type_vocab_size": 2, "layer_norm_eps": 1e-12}}"#,
            hidden, layers, heads, ff
        )
    }

    #[test]
    fn minilm_fits_twice_and_bert_base_runs_in_one_worker() {
        let minilm = bert(384, 6, 12, 1536);
        let base = bert(768, 12, 12, 3072);
        assert!(super::model_fits_twice(&minilm, 0.0));
        assert!(super::model_fits_twice(&minilm, 4.0)); // 1 GiB on a small device
        assert!(!super::model_fits_twice(&base, 0.0));
        assert!(!super::model_fits_twice(&base, 8.0));
        assert!(!super::model_fits_twice("{}", 0.0));
    }

    #[test]
    fn the_memory_limit_is_one_gib_on_small_devices_and_two_elsewhere() {
        assert_eq!(memory_limit(0.0), 2 << 30); // the browser does not say
        assert_eq!(memory_limit(8.0), 2 << 30);
        assert_eq!(memory_limit(4.0), 1 << 30);
        assert_eq!(memory_limit(0.5), 1 << 30);
    }
}
