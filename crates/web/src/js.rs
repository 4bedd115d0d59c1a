//! Rust values as plain JavaScript objects: the one serializer every class and function of this
//! crate hands its results through.

use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;

/// A value as a plain JavaScript object (JSON-compatible: maps become objects).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// A plain JavaScript object of typed arrays and numbers, written field by field, whose fields
/// are exactly those of its lists: the interface `www/wasm.d.ts` declares for it, and those it
/// extends (web unit tests compare each list with its interface). Setting a name not in the
/// lists, or finishing with one unset, is an error naming `what` and the field, so a field
/// renamed on one side only fails.
pub(crate) struct Fields {
    out: js_sys::Object,
    what: &'static str,
    names: Vec<&'static str>,
    set: Vec<bool>,
}

impl Fields {
    /// An empty object that will have the fields of `lists`.
    pub(crate) fn new(what: &'static str, lists: &[&'static [&'static str]]) -> Fields {
        let names: Vec<&'static str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
        Fields { out: js_sys::Object::new(), what, set: vec![false; names.len()], names }
    }

    /// Sets field `key` to `value`.
    pub(crate) fn set(&mut self, key: &str, value: &JsValue) -> Result<(), JsError> {
        let k = self.names.iter().position(|n| *n == key).ok_or_else(|| {
            JsError::new(&format!("{}: field {} is not one of {}", self.what, key, self.names.join(", ")))
        })?;
        js_sys::Reflect::set(&self.out, &JsValue::from_str(key), value)
            .map_err(|_| JsError::new(&format!("{}: cannot set {}", self.what, key)))?;
        self.set[k] = true;
        Ok(())
    }

    /// The object, once every field is set.
    pub(crate) fn done(self) -> Result<js_sys::Object, JsError> {
        match self.set.iter().position(|s| !s) {
            Some(k) => Err(JsError::new(&format!("{}: field {} was not set", self.what, self.names[k]))),
            None => Ok(self.out),
        }
    }
}
