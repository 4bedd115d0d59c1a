//! Rust values as plain JavaScript objects: the one serializer every class and function of this
//! crate hands its results through.

use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;

/// A value as a plain JavaScript object (JSON-compatible: maps become objects).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}
