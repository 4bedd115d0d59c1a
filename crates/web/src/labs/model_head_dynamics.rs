//! The chosen head of the model lab as a particle system (science.md §7.6): the core's
//! [`attn_core::model::head_dynamics`] run of the last analysed link's head (`layer`, `head`,
//! `bilinear`, `head_space`, `cos_tol`; the default `dt` and `until`), marshalled as typed arrays
//! for the page (`www/model/head_dynamics.js`); [`HeadParticles`] runs it a slice of Euler steps
//! at a time (the model worker answers its messages between slices). The samples' statistics are those
//! `attn encode --head-dynamics L,H` prints, bit for bit; the drawn coordinates are the tokens on
//! two (or three) PCA axes fitted once on every sample's tokens ([`layers_view::fit`]).

use super::model::ModelLab;
use crate::charts::heatmap::viridis;
use crate::js::Fields;
use attn_core::model::head_dynamics::{HeadDynamicsSpec, HeadRun, HeadStopped, Listed, Sample, TokenStats};
use attn_core::model::keys::HeadSpace;
use attn_core::model::layers_view;
use attn_core::model::Serial;
use js_sys::{Float32Array, Float64Array, Object, Uint32Array, Uint8Array, Uint8ClampedArray};
use wasm_bindgen::prelude::*;

/// A token's label where the drawn tokens are not finite.
const NO_LABEL: u32 = u32::MAX;

/// What the page keeps at each sample: the drawn tokens (`x`, or `z` for `head_space=z`) in
/// `f32` for the PCA, and `P` in `f32` for the heatmap.
struct Kept {
    tokens: Vec<f32>,
    p: Vec<f32>,
    psi: Option<Vec<f64>>,
}

/// The fields of the head's particles object (`ModelHeadParticles` in `www/wasm.d.ts`).
const HEAD_PARTICLES_FIELDS: [&str; 24] = [
    "layer",
    "head",
    "space",
    "n",
    "d",
    "steps",
    "every",
    "dt",
    "samples",
    "k",
    "t",
    "step",
    "clusters",
    "mean_cos",
    "labels",
    "boolean_distance",
    "leaders",
    "max_norm",
    "hyperplanes",
    "coords",
    "psi",
    "p",
    "p_rgba",
    "stopped",
];

/// The chosen head's particles being run: [`ModelLab::head_particles`], then
/// [`HeadParticles::advance`] until it answers true, then [`HeadParticles::finish`].
#[wasm_bindgen]
pub struct HeadParticles {
    spec: HeadDynamicsSpec,
    space: HeadSpace,
    n: usize,
    d: usize,
    /// The run (none when it could not start: `start_stopped` says why).
    run: Option<HeadRun>,
    start_stopped: Option<HeadStopped>,
    listed: Listed,
    kept: Vec<Kept>,
}

#[wasm_bindgen]
impl ModelLab {
    /// The head particles of the last analysed link, run to the end ([`ModelLab::head_particles`]
    /// advanced until done, then finished): `{ layer, head, space, n, d, steps, every,
    /// dt, samples, k, t, step, clusters, mean_cos, labels, boolean_distance, leaders, max_norm,
    /// hyperplanes, psi, coords, p, p_rgba, stopped }`. Per listed sample (`samples` of them): `t`, `step`,
    /// the drawn tokens' `clusters` and `mean_cos` (`x`'s, or `z`'s for `head_space=z`; NaN where
    /// `z` is not finite), the Boolean distance `max|P − round P|`, `max_norm` (of `x`),
    /// `hyperplanes` (NaN where §1.3's row does not apply) (`Float64Array`s), `psi` (`<ψ₁, x_i>`,
    /// `samples x n`, NaN where §1.3's row does not apply), `labels`
    /// (`Uint32Array`, `samples x n`), `leaders` (`Uint8Array`, `samples x n`), `coords`
    /// (`Float64Array`, `samples x n x k`), `p` (`Float32Array`, `samples x n x n`) and its pixels
    /// `p_rgba` (viridis on 0..1, `samples x n x n x 4`).
    /// `stopped`: null, or `{ step, what }` for a run stopped by a non-finite state. Throws before
    /// any analysis.
    pub fn head_dynamics(&self) -> Result<Object, JsError> {
        let mut run = self.head_particles()?;
        while !run.advance(u32::MAX) {}
        run.finish()
    }

    /// The head particles of the last analysed link, started (nothing stepped yet). Throws before
    /// any analysis, or for a head out of the model's range.
    pub fn head_particles(&self) -> Result<HeadParticles, JsError> {
        let (Some(a), Some(link)) = (&self.analysis, &self.link) else {
            return Err(JsError::new("model: no text analysed yet"));
        };
        let spec = HeadDynamicsSpec::of_link(link);
        spec.check().map_err(|e| JsError::new(&e))?;
        let run = HeadRun::from_encoder(self.encoder(), &a.encoding, spec, &Serial).ok_or_else(|| {
            JsError::new(&format!("layer {}, head {}: out of the model's range", link.layer, link.head))
        })?;
        let (run, start_stopped) = match run {
            Ok(run) => (Some(run), None),
            Err(stopped) => (None, Some(stopped)),
        };
        Ok(HeadParticles {
            spec,
            space: link.head_space,
            n: a.forward.n,
            d: a.forward.d,
            run,
            start_stopped,
            listed: Listed::default(),
            kept: Vec::new(),
        })
    }
}

#[wasm_bindgen]
impl HeadParticles {
    /// Takes up to `steps` Euler steps (the first call also lists the initial state); true once
    /// the run is over.
    pub fn advance(&mut self, steps: u32) -> bool {
        let Some(run) = self.run.as_mut() else {
            return true;
        };
        let (n, d, rescaled, kept) = (self.n, self.d, self.space == HeadSpace::Z, &mut self.kept);
        self.listed.advance(
            run,
            &mut |run: &mut HeadRun, _: &Sample| {
                let tokens: Vec<f32> = if rescaled {
                    run.rescaled().map_or_else(|| vec![f32::NAN; n * d], |z| z.iter().map(|&v| v as f32).collect())
                } else {
                    run.state().iter().map(|&v| v as f32).collect()
                };
                let mut p = vec![f32::NAN; n * n];
                let _ = run.attention_rows(&mut |i, row| {
                    for (j, &v) in row.iter().take(n).enumerate() {
                        p[i * n + j] = v as f32;
                    }
                });
                kept.push(Kept { tokens, p, psi: run.psi_values() });
            },
            u64::from(steps),
        )
    }

    /// Euler steps taken so far.
    pub fn step(&self) -> f64 {
        self.run.as_ref().map_or(0.0, |r| r.step_count() as f64)
    }

    /// Euler steps of the whole run.
    pub fn steps(&self) -> f64 {
        self.spec.steps() as f64
    }

    /// The run's answer ([`ModelLab::head_dynamics`]'s object), from the samples listed so far.
    pub fn finish(&mut self) -> Result<Object, JsError> {
        let (spec, n, d, rescaled) = (self.spec, self.n, self.d, self.space == HeadSpace::Z);
        let kept = std::mem::take(&mut self.kept);
        let (samples, stopped) = match self.run.as_ref() {
            Some(run) => {
                let result = std::mem::take(&mut self.listed).finish(run);
                (result.samples, result.stopped)
            }
            None => (Vec::new(), self.start_stopped.clone()),
        };
        let frames: Vec<Vec<f32>> = kept.iter().map(|k| k.tokens.clone()).collect();
        let pca = layers_view::fit(&frames, n, d);
        let k = pca.k;
        let count = samples.len();
        let drawn = |s: &Sample| -> Option<TokenStats> {
            if rescaled {
                s.z.clone()
            } else {
                Some(s.x.clone())
            }
        };
        let mut labels = vec![NO_LABEL; count * n];
        let mut leaders = vec![0u8; count * n];
        let (mut clusters, mut mean_cos) = (vec![f64::NAN; count], vec![f64::NAN; count]);
        for (r, s) in samples.iter().enumerate() {
            if let Some(stats) = drawn(s) {
                clusters[r] = stats.clusters as f64;
                mean_cos[r] = stats.mean_cos;
                for (i, &c) in stats.labels.iter().enumerate() {
                    labels[r * n + i] = c as u32;
                }
            }
            for &j in &s.leaders {
                leaders[r * n + j] = 1;
            }
        }
        let coords: Vec<f64> = frames.iter().flat_map(|f| pca.project(f, n, d)).collect();
        let p: Vec<f32> = kept.iter().flat_map(|k| k.p.iter().copied()).collect();
        let psi: Vec<f64> = kept.iter().flat_map(|k| k.psi.clone().unwrap_or_else(|| vec![f64::NAN; n])).collect();
        let column = |f: fn(&Sample) -> f64| -> Float64Array {
            Float64Array::from(&samples.iter().map(f).collect::<Vec<f64>>()[..])
        };
        let mut out = Fields::new("model: head particles", &[&HEAD_PARTICLES_FIELDS]);
        out.set("layer", &JsValue::from(spec.layer as u32))?;
        out.set("head", &JsValue::from(spec.head as u32))?;
        out.set("space", &JsValue::from_str(attn_core::link::Named::name(self.space)))?;
        out.set("n", &JsValue::from(n as u32))?;
        out.set("d", &JsValue::from(d as u32))?;
        out.set("steps", &JsValue::from(spec.steps() as f64))?;
        out.set("every", &JsValue::from(spec.every() as f64))?;
        out.set("dt", &JsValue::from(spec.dt))?;
        out.set("samples", &JsValue::from(count as u32))?;
        out.set("k", &JsValue::from(k as u32))?;
        out.set("t", &column(|s| s.t))?;
        out.set("step", &column(|s| s.step as f64))?;
        out.set("clusters", &Float64Array::from(&clusters[..]))?;
        out.set("mean_cos", &Float64Array::from(&mean_cos[..]))?;
        out.set("labels", &Uint32Array::from(&labels[..]))?;
        out.set("boolean_distance", &column(|s| s.boolean_distance))?;
        out.set("leaders", &Uint8Array::from(&leaders[..]))?;
        out.set("max_norm", &column(|s| s.max_norm))?;
        out.set("hyperplanes", &column(|s| s.hyperplanes.map_or(f64::NAN, |h| h as f64)))?;
        out.set("coords", &Float64Array::from(&coords[..]))?;
        out.set("psi", &Float64Array::from(&psi[..]))?;
        // P's pixels: viridis on the fixed scale 0 to 1 (a uniform row is dark; NaN grey).
        let rgba: Vec<u8> = p
            .iter()
            .flat_map(|&v| {
                let [r, g, b] = if v.is_finite() { viridis(v.clamp(0.0, 1.0) as f64) } else { [128, 128, 128] };
                [r, g, b, 255]
            })
            .collect();
        out.set("p", &Float32Array::from(&p[..]))?;
        out.set("p_rgba", &Uint8ClampedArray::from(&rgba[..]))?;
        let stopped = match stopped {
            None => JsValue::NULL,
            Some(s) => {
                let mut o = Fields::new("model: head particles' stop", &[&["step", "what"]]);
                o.set("step", &JsValue::from(s.step as f64))?;
                o.set("what", &JsValue::from_str(&s.what))?;
                o.done()?.into()
            }
        };
        out.set("stopped", &stopped)?;
        out.done()
    }
}

#[cfg(test)]
mod tests {
    /// The head's particles object has the fields `www/wasm.d.ts` declares (ModelHeadParticles).
    #[test]
    fn the_particles_are_what_wasm_d_ts_declares() {
        let fields: std::collections::BTreeSet<String> = super::HEAD_PARTICLES_FIELDS.map(String::from).into();
        assert_eq!(fields, crate::dts::fields_of("ModelHeadParticles"));
    }
}
