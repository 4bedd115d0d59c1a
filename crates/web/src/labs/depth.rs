//! The depth lab in the page (science.md §3-4: rank collapse with depth, context similarity): a
//! thin wasm-bindgen wrapper of the core's [`DepthRun`] for the page's module Web Worker (one
//! variant per message, its results as a JSON-compatible object, the context similarity
//! matrices of every layer and head as viridis pixels and as values). The page draws what the
//! worker sent from a [`super::depth_charts::DepthResults`].
//!
//! Every number comes from the core (`attn_core::depth`); what is decided here is only how to
//! show it: colours of `S` span each head's own off-diagonal range.

use crate::charts::heatmap;
use crate::charts::pooled::Pooled;
use crate::js::Fields;
use crate::to_js;
use attn_core::depth::input::chance_level;
use attn_core::depth::variants::VariantResult;
use attn_core::depth::variants::{halves_pay, schedule};
use attn_core::depth::{parse, path_shares, DepthConfig, DepthRun, Input, Variant};
use attn_core::link::quote;
use attn_core::link::LabPreset;
use attn_core::link::Named;
use js_sys::{Float32Array, Object, Uint8ClampedArray};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What the page shows before any variant has run.
#[derive(Serialize)]
struct Info<'a> {
    canonical: String,
    preset: &'static str,
    description: &'static str,
    n: usize,
    d_model: usize,
    d_head: usize,
    layers: usize,
    heads: usize,
    labels: &'a [String],
    sentence: &'a [usize],
    separator: &'a [bool],
    chance_level: f64,
    path_shares: Vec<f64>,
    /// The configured variants' names (`san`, ...), in order.
    variants: Vec<&'static str>,
    /// Their labels (`SAN`, ...).
    variant_labels: Vec<&'static str>,
    /// Their names in the order workers side by side take them (the first, then heaviest first).
    schedule: Vec<&'static str>,
    /// `f32` or `f64` (the residual chart's log axis marks its round-off).
    precision: &'static str,
    /// Whether the first variant of `schedule` pays to run in halves on two workers.
    halves: bool,
}

/// An input's labels, sentences and separators.
type Layout<'a> = (&'a [String], &'a [usize], &'a [bool]);

impl<'a> Info<'a> {
    /// The answer for configuration `c`, whose input is laid out as `layout` (its `n` tokens'
    /// labels, sentences and separators).
    fn of(c: &DepthConfig, layout: Layout<'a>) -> Info<'a> {
        let (labels, sentence, separator) = layout;
        let n = labels.len();
        Info {
            canonical: c.to_canonical_string(),
            preset: c.preset.name(),
            description: c.preset.description(),
            n,
            d_model: c.d_model,
            d_head: c.d_head,
            layers: c.layers,
            heads: c.heads,
            labels,
            sentence,
            separator,
            chance_level: chance_level(sentence),
            path_shares: path_shares(c.layers, c.heads),
            variants: c.variants.iter().map(|v| v.name()).collect(),
            variant_labels: c.variants.iter().map(|v| v.label()).collect(),
            schedule: schedule(c, n).iter().map(|v| v.name()).collect(),
            precision: c.precision.name(),
            halves: halves_pay(c, n),
        }
    }
}

/// [`DepthLab::info`]'s answer for the depth configuration `config` without making its input's
/// tokens (the page shows it while its workers compute); throws "`key`: what is allowed".
#[wasm_bindgen]
pub fn depth_info(config: &str) -> Result<JsValue, JsError> {
    let c = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
    let l = Input::layout(&c);
    to_js(&Info::of(&c, (&l.labels, &l.sentence, &l.separator)))
}

/// The fields of [`DepthLab::similarity_tiles`]' answer (`DepthTiles` in `www/wasm.d.ts`).
const TILES_FIELDS: [&str; 3] = ["side", "pixels", "values"];

/// One depth configuration: its input and the records of the last variant run (the core's
/// [`DepthRun`] keeps one variant's attention maps and head outputs at a time).
#[wasm_bindgen]
pub struct DepthLab {
    run: DepthRun,
    /// Half 0's analysis waiting for the other half's singular values.
    pending: Option<VariantResult>,
}

#[wasm_bindgen]
impl DepthLab {
    /// A run of a depth configuration (`lab=depth&...`); throws "`key`: what is allowed".
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<DepthLab, JsError> {
        let c = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(DepthLab { run: DepthRun::new(&c), pending: None })
    }

    /// `{ canonical, preset, description, n, d_model, d_head, layers, heads, labels, sentence,
    /// separator, chance_level, path_shares, variants, variant_labels, schedule, precision }`.
    pub fn info(&self) -> Result<JsValue, JsError> {
        to_js(&self.info_of())
    }

    /// Runs variant `name` (`san`, `san-mlp`, `san-skip`, `transformer`, `configured`): the
    /// core's `VariantResult` (`{ variant, residual, composite_norm, singular_values,
    /// similarity, overflow }`, NaN as null).
    pub fn run_variant(&mut self, name: &str) -> Result<JsValue, JsError> {
        to_js(&self.run.run_variant(variant(name)?))
    }

    /// Starts half `half` (0 or 1) of variant `name`'s pass, the other half in another worker
    /// (core `depth::halves`; the previous records are dropped).
    pub fn half_start(&mut self, name: &str, half: u32) -> Result<(), JsError> {
        let v = variant(name)?;
        self.run.start_half(v, half as usize).map_err(|e| JsError::new(&e))
    }

    /// Step 1 of the next layer: this half's heads (`O_h` columns, then `P_h`) for the other
    /// half, or undefined when every layer is done.
    pub fn half_heads(&mut self) -> Result<Option<Vec<f64>>, JsError> {
        self.run.half_heads().map_err(|e| JsError::new(&e))
    }

    /// Step 2: takes the other half's heads; returns this half's columns of `O W_O`.
    pub fn half_take_heads(&mut self, theirs: &[f64]) -> Result<Vec<f64>, JsError> {
        self.run.half_take_heads(theirs).map_err(|e| JsError::new(&e))
    }

    /// Step 3: takes the other half's columns of `O W_O`, which ends the layer.
    pub fn half_take_output(&mut self, theirs: &[f64]) -> Result<(), JsError> {
        self.run.half_take_output(theirs).map_err(|e| JsError::new(&e))
    }

    /// Ends the pass in halves: its records become the last variant's (tiles, paths).
    pub fn half_finish(&mut self) -> Result<(), JsError> {
        self.run.finish_half().map_err(|e| JsError::new(&e))
    }

    /// Half 0's part of the last variant's analysis: everything but the singular values, kept
    /// until [`DepthLab::half_result`] brings them.
    pub fn half_analyse(&mut self) -> Result<(), JsError> {
        self.pending = Some(
            self.run.last_result_but_singular_values().ok_or_else(|| JsError::new("depth: no records to analyse"))?,
        );
        Ok(())
    }

    /// Half 1's part: the singular values of the last variant's `X_0 .. X_L`, list after list.
    pub fn singular_values(&self) -> Result<Vec<f64>, JsError> {
        self.run.last_singular_values().ok_or_else(|| JsError::new("depth: no records to analyse"))
    }

    /// The last variant's result (as `run_variant`'s): [`DepthLab::half_analyse`]'s part with
    /// the other half's singular values.
    pub fn half_result(&mut self, singular_values: &[f64]) -> Result<JsValue, JsError> {
        let rest = self.pending.take().ok_or_else(|| JsError::new("depth: half_analyse first"))?;
        to_js(&self.run.with_singular_values(rest, singular_values).map_err(|e| JsError::new(&e))?)
    }

    /// The name (`san`, ...) of the variant whose records the tiles read, or undefined before
    /// any run.
    pub fn last_variant(&self) -> Option<String> {
        self.run.last_variant().map(|v| v.name().to_string())
    }

    /// The path-length decomposition of the last variant (`{ norms, relative_residuals, shares,
    /// error }`, core `path_lengths`), or null when the stack has none (MLP, biases, overflow).
    pub fn path_lengths(&self) -> Result<JsValue, JsError> {
        match self.run.path_lengths() {
            Ok(p) => to_js(&p),
            Err(_) => Ok(JsValue::NULL),
        }
    }

    /// Side (pixels) of one similarity tile for at most `max_side` pixels per side.
    pub fn tile_side(&self, max_side: u32) -> u32 {
        heatmap::side(self.run.n(), max_side as usize).0 as u32
    }

    /// The context similarity matrices of the last variant: `{ side, pixels, values }`, each
    /// layer's heads in turn (layers `1..=L`, then heads), written straight into JavaScript
    /// arrays (nothing kept in wasm memory): `pixels` viridis RGBA, `side x side x 4` per tile
    /// (`side = tile_side(max_side)`; each tile scaled to its head's off-diagonal range, or with
    /// `shared` to one range over every layer and head, the view key `grid_scale=shared`; the
    /// zero diagonal at the low end), `values` the matrices as `f32`, `n x n` row-major per head,
    /// so `L·H·n²·4` bytes. Layers from an overflowed one on have no records and are left out
    /// (both arrays end early); both are empty before any run.
    pub fn similarity_tiles(&self, max_side: u32, shared: bool) -> Result<Object, JsError> {
        let c = self.run.config();
        let n = self.run.n();
        let side = heatmap::side(n, max_side as usize).0;
        let recorded = (1..=c.layers).take_while(|&l| self.run.attention(l, 0).is_some()).count();
        let count = recorded * c.heads;
        let matrix = |l: usize, h: usize| {
            self.run.similarity_matrix(l, h).ok_or_else(|| JsError::new("depth: layer without records"))
        };
        // One range for the whole grid: a first pass over every head (the matrices are
        // recomputed in the second rather than all held at once).
        let mut range = None;
        if shared {
            let mut all = (f64::INFINITY, f64::NEG_INFINITY);
            for l in 1..=recorded {
                for h in 0..c.heads {
                    let (lo, hi) = Pooled::new(&matrix(l, h)?, n, max_side as usize, true).range;
                    all = (all.0.min(lo), all.1.max(hi));
                }
            }
            range = Some(all);
        }
        let tile_len = side * side * 4;
        let pixels = Uint8ClampedArray::new_with_length((count * tile_len) as u32);
        let values = Float32Array::new_with_length((count * n * n) as u32);
        let mut k = 0u32;
        let mut row: Vec<f32> = Vec::with_capacity(n * n);
        for l in 1..=recorded {
            for h in 0..c.heads {
                let s = matrix(l, h)?;
                let pooled = Pooled::new(&s, n, max_side as usize, true);
                let (lo, hi) = range.unwrap_or(pooled.range);
                let t = pooled.rgba_in(lo, hi);
                pixels.subarray(k * tile_len as u32, (k + 1) * tile_len as u32).copy_from(&t);
                row.clear();
                row.extend(s.iter().map(|&x| x as f32));
                values.subarray(k * (n * n) as u32, (k + 1) * (n * n) as u32).copy_from(&row);
                k += 1;
            }
        }
        let mut out = Fields::new("depth: tiles", &[&TILES_FIELDS]);
        out.set("side", &JsValue::from(side as u32))?;
        out.set("pixels", &pixels)?;
        out.set("values", &values)?;
        out.done()
    }
}

impl DepthLab {
    /// [`DepthLab::info`]'s answer.
    fn info_of(&self) -> Info<'_> {
        let input = self.run.input();
        Info::of(self.run.config(), (&input.labels, &input.sentence, &input.separator))
    }
}

/// The variant named `name`, or an error naming the key.
fn variant(name: &str) -> Result<Variant, JsError> {
    Variant::from_name(name).ok_or_else(|| {
        JsError::new(&format!(
            "`variants`: {} is not a variant; allowed: san, san-mlp, san-skip, transformer, configured",
            quote(name)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_runs_a_variant_and_gives_a_tile_per_layer_and_head() {
        let mut lab = DepthLab {
            pending: None,
            run: DepthRun::new(&parse("lab=depth&preset=collapse-small&layers=2&tokens=8").unwrap()),
        };
        let _ = lab.run.run_variant(Variant::SanSkip);
        let c = lab.run.config();
        let n = lab.run.n();
        let mut count = 0;
        for l in 1..=c.layers {
            for h in 0..c.heads {
                let s = lab.run.similarity_matrix(l, h).unwrap();
                assert_eq!(Pooled::new(&s, n, 512, true).rgba_in(0.0, 1.0).len(), n * n * 4);
                count += 1;
            }
        }
        assert_eq!(count, 2 * 4);
        lab.run = DepthRun::new(lab.run.config());
        assert!(lab.run.similarity_matrix(1, 0).is_none());
    }

    /// info's, run_variant's and path_lengths' JSON have exactly the fields `www/wasm.d.ts` and
    /// `www/wasm_page.d.ts` declare for them (DepthInfo; DepthVariantResult with LayerSimilarity
    /// and HeadSimilarity; DepthPathLengths): a field renamed on one side only fails here.
    #[test]
    fn the_answers_are_what_wasm_d_ts_declares() {
        use crate::dts::{fields_of, json_keys};
        let mut lab =
            DepthLab { pending: None, run: DepthRun::new(&parse("lab=depth&preset=context-text&layers=2").unwrap()) };
        let r = serde_json::to_value(lab.run.run_variant(Variant::SanSkip)).unwrap();
        assert_eq!(json_keys(&r), fields_of("DepthVariantResult"));
        assert_eq!(json_keys(&r["similarity"][0]), fields_of("LayerSimilarity"));
        assert_eq!(json_keys(&r["similarity"][0]["heads"][0]), fields_of("HeadSimilarity"));
        assert_eq!(json_keys(&serde_json::to_value(lab.info_of()).unwrap()), fields_of("DepthInfo"));
        assert_eq!(std::collections::BTreeSet::from(TILES_FIELDS.map(String::from)), fields_of("DepthTiles"));
        let paths = serde_json::to_value(lab.run.path_lengths().unwrap()).unwrap();
        assert_eq!(json_keys(&paths), fields_of("DepthPathLengths"));
    }
}
