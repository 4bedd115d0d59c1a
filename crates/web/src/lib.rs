//! Thin wasm-bindgen layer over `attn-core` (being written).
use wasm_bindgen::prelude::*;

/// The crate version, for the page's footer.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
