//! One trained head of the model lab read as §1's particle system: the spectra of its value map
//! `V_h` and of its symmetrised bilinear form `S_h` (science.md §7.2), and §1.3's verdict with
//! numbers (§7.6), the same values `attn encode --spectrum L,H` and `--head-dynamics L,H` print.

use super::model::ModelLab;
use crate::to_js;
use attn_core::model::head_dynamics::{verdict, Verdict};
use attn_core::model::head_spectrum::head_spectrum;
use attn_core::model::heads::head_matrices;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// `ModelLab.head_spectrum`'s result.
#[derive(Serialize)]
struct HeadSpectrumOut {
    layer: usize,
    head: usize,
    /// `d_model` and `d_k`.
    d: usize,
    dk: usize,
    /// `V_h`'s eigenvalues `[re, im]`, sorted as the CLI sorts them.
    v: Vec<[f64; 2]>,
    /// `S_h`'s eigenvalues (imaginary parts 0).
    s: Vec<[f64; 2]>,
    verdict: Verdict,
}

#[wasm_bindgen]
impl ModelLab {
    /// Head `head` (0-based) of layer `layer` (1-based): `{ layer, head, d, dk, v, s, verdict }`,
    /// all `d_model` eigenvalues of `V_h` and `S_h` and §1.3's verdict (`lambda1`, `real`,
    /// `positive`, `simple`, `phi1_s_phi1`, `hyperplanes_row`). Refuses a layer or head out of
    /// range, naming it, and a spectrum whose iteration does not converge.
    pub fn head_spectrum(&self, layer: u32, head: u32) -> Result<JsValue, JsError> {
        let enc = self.encoder();
        let c = &enc.config;
        let (layer, head) = (layer as usize, head as usize);
        let m = head_matrices(c, &enc.weights, layer, head).ok_or_else(|| {
            JsError::new(&format!(
                "layer {}, head {}: the model has layers 1..={} and heads 0..={}",
                layer,
                head,
                c.layers,
                c.heads - 1
            ))
        })?;
        let not_converged =
            || JsError::new(&format!("layer {}, head {}: the eigenvalue iteration did not converge", layer, head));
        let spectrum = head_spectrum(&m).ok_or_else(not_converged)?;
        let verdict = verdict(&m).ok_or_else(not_converged)?;
        let pairs = |e: &[(f64, f64)]| e.iter().map(|&(re, im)| [re, im]).collect();
        to_js(&HeadSpectrumOut { layer, head, d: m.d, dk: m.dk, v: pairs(&spectrum.v), s: pairs(&spectrum.s), verdict })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// head_spectrum's answer has the fields `www/wasm_page.d.ts` declares (ModelHeadSpectrum,
    /// ModelVerdict).
    #[test]
    fn the_spectrum_is_what_wasm_page_d_ts_declares() {
        let verdict = Verdict {
            lambda1: (1.0, 0.0),
            real: true,
            positive: true,
            simple: true,
            phi1_s_phi1: Some(0.5),
            hyperplanes_row: true,
        };
        let out = HeadSpectrumOut { layer: 1, head: 0, d: 2, dk: 1, v: vec![[1.0, 0.0]], s: vec![[0.5, 0.0]], verdict };
        let v = serde_json::to_value(&out).unwrap();
        assert_eq!(json_keys(&v), fields_of("ModelHeadSpectrum"));
        assert_eq!(json_keys(&v["verdict"]), fields_of("ModelVerdict"));
    }
}
