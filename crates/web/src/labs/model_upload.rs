//! The user's own `model.safetensors` in the page (docs/model-lab.md, "Your own model"): the model lab's worker
//! (`www/workers/model_files.js`) streams the picked or dropped file into wasm memory chunk by
//! chunk, so the page never holds a second full copy. [`ModelUpload`] reserves the file's size
//! once (refusing it, naming the file and both numbers, when it is over the page's memory limit or
//! the allocation fails), appends each chunk while hashing it (sha256, the link's `NAME@SHA16`),
//! then becomes a [`ModelLab`] with the folder's other files.
//!
//! Errors are `JsError`s naming the file or `model`; nothing here panics.

use super::model::ModelLab;
use super::model_memory::memory_limit;
use attn_core::model::keys::{model_id, valid_name};
use sha2::{Digest, Sha256};
use wasm_bindgen::prelude::*;

const GIB: f64 = (1u64 << 30) as f64;

/// A `model.safetensors` being read into wasm memory: its bytes so far and their running sha256.
#[wasm_bindgen]
pub struct ModelUpload {
    bytes: Vec<u8>,
    size: usize,
    sha: Sha256,
}

/// Refuses a `model.safetensors` of `size` bytes over the page's memory limit for a device with
/// `device_gb` GB, naming `model` and both numbers (or a size that is not a number of bytes).
fn fits_memory(size: f64, device_gb: f64) -> Result<(), JsError> {
    let limit = memory_limit(device_gb);
    if !(size.is_finite() && size >= 0.0) {
        return Err(JsError::new(&format!("model.safetensors: a size of {} bytes", size)));
    }
    if size > limit as f64 {
        return Err(JsError::new(&format!(
            "`model`: model.safetensors is {:.2} GiB, over this device's {} GiB of page memory",
            size / GIB,
            limit >> 30
        )));
    }
    Ok(())
}

/// The check of a picked `model.safetensors` before its data is read: its `size` against the
/// page's memory limit for `device_gb` (as [`ModelUpload::new`]), then its header from the file's
/// first bytes `prefix` (the web crate's `page_limits::check_model_header`: sound, at most
/// `MAX_MODEL_BYTES` of tensors, the file's length). Returns 0 when the file may be read, else how
/// many bytes from the start of the file the check needs (the worker reads them and asks again).
/// Throws naming `model` or the file and the tensor at fault.
#[wasm_bindgen]
pub fn model_header(prefix: &[u8], size: f64, device_gb: f64) -> Result<f64, JsError> {
    fits_memory(size, device_gb)?;
    crate::page_limits::check_model_header(prefix, size as u64).map(|n| n as f64).map_err(|e| JsError::new(&e))
}

/// The text of a model folder's file `file` (`config.json`, `vocab.txt`, `tokenizer_config.json`)
/// from its bytes, by the core's rule (`attn_core::model::text_file`, the CLI's too): UTF-8, a
/// leading byte-order mark dropped; other encodings throw naming the file.
#[wasm_bindgen]
pub fn model_text(file: &str, bytes: &[u8]) -> Result<String, JsError> {
    attn_core::model::text_file::decode(file, bytes).map(str::to_string).map_err(|e| JsError::new(&e.to_string()))
}

/// The lower-case hex digits of `digest`.
fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{:02x}", b)).collect()
}

#[wasm_bindgen]
impl ModelUpload {
    /// Reserves `size` bytes (the file's size) for a `model.safetensors`. Refused, naming `model`
    /// and both numbers, when `size` is over the page's memory limit for a device with
    /// `device_gb` GB (`navigator.deviceMemory`, 0 when unknown: 2 GiB, 1 GiB at ≤ 4 GB), and
    /// naming the file when the memory cannot be reserved.
    #[wasm_bindgen(constructor)]
    pub fn new(size: f64, device_gb: f64) -> Result<ModelUpload, JsError> {
        fits_memory(size, device_gb)?;
        let size = size as usize;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(size).map_err(|_| {
            JsError::new(&format!(
                "`model`: model.safetensors needs {:.2} GiB of page memory and the browser gave less",
                size as f64 / GIB
            ))
        })?;
        Ok(ModelUpload { bytes, size, sha: Sha256::new() })
    }

    /// Appends the next chunk of the file. Refused when the chunks exceed the size given to
    /// [`ModelUpload::new`] (the file changed while it was read).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        if self.bytes.len() + chunk.len() > self.size {
            return Err(JsError::new(&format!(
                "model.safetensors: more than its {} bytes arrived; the file changed while it was read",
                self.size
            )));
        }
        self.bytes.extend_from_slice(chunk);
        self.sha.update(chunk);
        Ok(())
    }

    /// Bytes received so far.
    pub fn received(&self) -> f64 {
        self.bytes.len() as f64
    }

    /// The sha256 of the bytes received so far, 64 lower-case hex digits.
    pub fn sha256(&self) -> String {
        hex(&self.sha.clone().finalize())
    }

    /// Loads the model from the received `model.safetensors` and the folder's other files
    /// (`config.json`, `vocab.txt`, `tokenizer_config.json` or undefined) under the name `name`
    /// (1..=64 ASCII letters, digits, `.`, `_`, `-`); its id is `NAME@SHA16`. The bytes are freed
    /// once the encoder holds its weights. Throws naming the file and the field or tensor at
    /// fault, or `model.safetensors` when fewer bytes arrived than its size.
    pub fn load(
        self,
        config_json: &str,
        vocab_txt: &str,
        tokenizer_config: Option<String>,
        name: &str,
    ) -> Result<ModelLab, JsError> {
        if self.bytes.len() != self.size {
            return Err(JsError::new(&format!(
                "model.safetensors: {} of its {} bytes arrived; the file could not be read to its end",
                self.bytes.len(),
                self.size
            )));
        }
        if !valid_name(name) {
            return Err(JsError::new(&format!(
                "`model`: the name {:?} is not 1 to 64 ASCII letters, digits, '.', '_', '-'",
                name
            )));
        }
        let id = model_id(name, &self.sha256());
        ModelLab::new(&self.bytes, config_json, vocab_txt, tokenizer_config, &id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streamed_sha256_is_the_files() {
        // FIPS 180-2's "abc", pushed in two chunks into a buffer reserved for 3 bytes.
        let Ok(mut u) = ModelUpload::new(3.0, 0.0) else { panic!("3 bytes are under the limit") };
        assert!(u.push(b"ab").is_ok());
        assert_eq!(u.received(), 2.0);
        assert!(u.push(b"c").is_ok());
        assert_eq!(u.sha256(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(u.received(), 3.0);
        assert_eq!(u.bytes, b"abc");
    }
}
