//! The model lab's "A layer repeated" (science.md §7.4): the core's [`Repeater`] on the last
//! analysed text, run in chunks so the worker can report progress and take a new request between
//! them ([`ModelLab::repeat_start`], [`ModelLab::repeat_steps`]), and its repetitions as the
//! tokens through the layers show layers ([`ModelLab::repeat_view`]: the core's
//! [`layers_view`] over repetitions `0..=T`, one PCA fitted over every repetition's tokens). The
//! clusters, labels and mean cosine of repetition `t` are those `attn encode --repeat` prints for
//! it, bit for bit (the same functions on the same `f32` states). A non-finite repetition stops
//! the run with the core's [`attn_core::model::repeat::Stopped`] message.

use super::model::{ModelLab, RepeatRun};
use crate::js::Fields;
use attn_core::model::keys::VARIANT_NAMES;
use attn_core::model::layers_view::layers_view;
use attn_core::model::repeat::{attention_at, head_booleans, Repeater, MAX_ITERATIONS};
use attn_core::model::Serial;
use js_sys::{Float32Array, Float64Array, Object, Uint8Array};
use wasm_bindgen::prelude::*;

/// The fields the repeated layer's view adds to the layers view's (`ModelRepeatView` in
/// `www/wasm.d.ts`).
const REPEAT_FIELDS: [&str; 8] =
    ["layer", "variant", "iterations", "done", "heads", "boolean_distance", "leaders", "stopped"];

#[wasm_bindgen]
impl ModelLab {
    /// Starts repeating layer `layer` (1-based) of `variant` (`transformer`, `SAN+skip`, `SAN+MLP`,
    /// `SAN`) `iterations` times (1..=1000) on the last analysed text: repetition 0, `h_{L−1}` of
    /// the unmodified forward. Throws naming the key (`repeat_layer`, `iterations`, `variant`)
    /// for a value out of range, or before any analysis.
    pub fn repeat_start(&mut self, layer: u32, iterations: u32, variant: &str) -> Result<(), JsError> {
        let Some(a) = &self.analysis else {
            return Err(JsError::new("model: no text analysed yet"));
        };
        let layers = self.encoder().config.layers;
        let (layer, iterations) = (layer as usize, iterations as usize);
        if !(1..=layers).contains(&layer) {
            return Err(JsError::new(&format!(
                "`repeat_layer`: the model has layers 1..={} (0: none repeated)",
                layers
            )));
        }
        if !(1..=MAX_ITERATIONS).contains(&iterations) {
            return Err(JsError::new(&format!("`iterations`: {} is not in 1..={}", iterations, MAX_ITERATIONS)));
        }
        let variant = attn_core::model::Variant::from_label(variant).ok_or_else(|| {
            JsError::new(&format!("`variant`: {:?} is not one of {}", variant, VARIANT_NAMES.join(", ")))
        })?;
        let r = Repeater::new(self.encoder(), &a.encoding, layer, variant, &Serial);
        let (n, heads) = (r.n(), self.encoder().config.heads);
        let b = head_booleans(&attention_at(self.encoder(), layer, r.state(), n, &Serial), heads, n);
        let states = vec![r.state().to_vec()];
        self.repeat = Some(RepeatRun { layer, variant, iterations, states, booleans: vec![b], stopped: None });
        Ok(())
    }

    /// Up to `count` more repetitions of the run started; returns the repetitions done. The run
    /// ends at its `iterations` or at a non-finite state ([`ModelLab::repeat_view`]'s `stopped`).
    pub fn repeat_steps(&mut self, count: u32) -> Result<u32, JsError> {
        let encoder = &self.encoder;
        let (Some(run), Some(a)) = (&mut self.repeat, &self.analysis) else {
            return Err(JsError::new("model: no repeated layer started"));
        };
        let n = a.forward.n;
        let done = run.states.len() - 1;
        if run.stopped.is_none() && done < run.iterations {
            let last = run.states[done].clone();
            let mut r = Repeater::resume(encoder, run.layer, run.variant, n, last, done);
            for _ in 0..(count as usize).min(run.iterations - done) {
                match r.step(&Serial) {
                    Ok(()) => {
                        let p = attention_at(encoder, run.layer, r.state(), n, &Serial);
                        run.booleans.push(head_booleans(&p, encoder.config.heads, n));
                        run.states.push(r.state().to_vec());
                    }
                    Err(s) => {
                        run.stopped = Some(s);
                        break;
                    }
                }
            }
        }
        Ok((run.states.len() - 1) as u32)
    }

    /// The run's repetitions `0..=t` (those done) as [`ModelLab::layers_view`] shows layers: `{ n,
    /// states, k, bins, coords, variance, total_variance, finite, histograms, clusters, labels,
    /// mean_cos, effective_rank }` with one state per repetition, the PCA fitted over every
    /// repetition's tokens, clusters under the link's `cos_tol`; plus `layer`, `variant`,
    /// `iterations` (asked), `done` and `stopped` (`{ iteration, what }` or null).
    pub fn repeat_view(&self) -> Result<Object, JsError> {
        let (Some(run), Some(link)) = (&self.repeat, &self.link) else {
            return Err(JsError::new("model: no repeated layer started"));
        };
        let (n, d) = (self.analysis.as_ref().map_or(0, |a| a.forward.n), self.encoder().config.hidden);
        let view = layers_view(&run.states, n, d, link.cos_tol);
        let mut out = super::model_layers::view_object(n, &view, &REPEAT_FIELDS)?;
        out.set("layer", &JsValue::from(run.layer as u32))?;
        out.set("variant", &JsValue::from_str(run.variant.label()))?;
        out.set("iterations", &JsValue::from(run.iterations as u32))?;
        out.set("done", &JsValue::from((run.states.len() - 1) as u32))?;
        // Each head's Boolean distance (`states x heads`) and leaders (`states x heads x n`, 1
        // where token j leads: max_i P_ij > 1/2), science.md §1.7.
        let heads = self.encoder().config.heads;
        let distance: Vec<f64> = run.booleans.iter().flatten().map(|b| b.boolean_distance).collect();
        let mut leaders = vec![0u8; run.booleans.len() * heads * n];
        for (t, bs) in run.booleans.iter().enumerate() {
            for (h, b) in bs.iter().enumerate() {
                for &j in &b.leaders {
                    leaders[(t * heads + h) * n + j] = 1;
                }
            }
        }
        out.set("heads", &JsValue::from(heads as u32))?;
        out.set("boolean_distance", &Float64Array::from(&distance[..]))?;
        out.set("leaders", &Uint8Array::from(&leaders[..]))?;
        let stopped = match &run.stopped {
            None => JsValue::NULL,
            Some(s) => {
                let mut o = Fields::new("model: repeat view's stop", &[&["iteration", "what"]]);
                o.set("iteration", &JsValue::from(s.iteration as u32))?;
                o.set("what", &JsValue::from_str(&s.what))?;
                o.done()?.into()
            }
        };
        out.set("stopped", &stopped)?;
        out.done()
    }

    /// Head `head`'s `P_h` of the repeated layer at repetition `t`'s tokens (`n x n`, row-major,
    /// `f32`): the attention the next repetition applies. Throws for a repetition not computed or
    /// a head out of range.
    pub fn repeat_attention(&self, t: u32, head: u32) -> Result<Float32Array, JsError> {
        let Some(run) = &self.repeat else {
            return Err(JsError::new("model: no repeated layer started"));
        };
        let (heads, t, head) = (self.encoder().config.heads, t as usize, head as usize);
        let Some(state) = run.states.get(t) else {
            return Err(JsError::new(&format!(
                "model: repetition {} is not computed (0..={})",
                t,
                run.states.len() - 1
            )));
        };
        if head >= heads {
            return Err(JsError::new(&format!("model: head {} out of 0..{}", head, heads)));
        }
        let n = state.len() / self.encoder().config.hidden;
        let p = attention_at(self.encoder(), run.layer, state, n, &Serial);
        Ok(Float32Array::from(&p[head * n * n..(head + 1) * n * n]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::fields_of;
    use std::collections::BTreeSet;

    /// The layers view and the repeated layer's view have the fields `www/wasm.d.ts` declares
    /// (ModelLayersView; ModelRepeatView, which extends it).
    #[test]
    fn the_views_are_what_wasm_d_ts_declares() {
        let layers: BTreeSet<String> = super::super::model_layers::LAYERS_FIELDS.map(String::from).into();
        assert_eq!(layers, fields_of("ModelLayersView"));
        let repeat: BTreeSet<String> = layers.into_iter().chain(REPEAT_FIELDS.map(String::from)).collect();
        assert_eq!(repeat, fields_of("ModelRepeatView"));
    }
}
