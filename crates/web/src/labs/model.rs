//! The model lab in the page (docs/model-lab.md, science.md §6): a thin wasm-bindgen wrapper of the core's
//! [`Encoder`] for the page's module Web Worker (`www/workers/model.js`). The worker hands over
//! the model folder's files (bytes and texts) and the weights' id `NAME@SHA16` (the bytes and
//! their sha256 come from [`super::model_upload::ModelUpload`]), then analyses links: the unmodified forward with every head kept and Dong et al.'s
//! four residual curves, out as a JSON-compatible object; one head's attention `P_h` and
//! context similarity `S = O_h O_hᵀ` as `Float32Array`s (the same `f32` as `attn encode`'s); and
//! every layer's and head's maps as viridis tiles for the page's grids.
//!
//! Every number comes from the core (`attn_core::model`); errors are `JsError`s naming the file,
//! tensor, field or link key, never a panic.

use crate::js::Fields;
use crate::to_js;
use attn_core::collapse::similarity::LayerSimilarity;
use attn_core::model::analysis::{chance, similarity, statistics, QUANTILE};
use attn_core::model::keys::{parse, parse_versioned, tokenizer_note, ModelLink, TileScale};
use attn_core::model::repeat::{HeadBoolean, Stopped};
use attn_core::model::{Analysis, Curve, Encoder, ModelError, Serial, Variant};
use js_sys::{Float32Array, Float64Array, Object, Uint8ClampedArray};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The model's shape, as the page shows it.
#[derive(Serialize)]
struct ModelInfo<'a> {
    id: &'a str,
    layers: usize,
    heads: usize,
    hidden: usize,
    vocab: usize,
    max_positions: usize,
}

/// What the page shows of one analysis (the fields `attn encode` prints, but `hidden`).
#[derive(Serialize)]
struct AnalysisOut<'a> {
    config: String,
    /// The text analysed (the link's `text`, decoded).
    text: &'a str,
    n: usize,
    ids: &'a [u32],
    tokens: &'a [String],
    sentence: &'a [usize],
    layers: usize,
    heads: usize,
    layer: usize,
    head: usize,
    /// The layer the tokens through the layers show (view key `hidden_layer`).
    hidden_layer: usize,
    /// The grids' colour scale, `head` or `shared` (view key `scale`).
    scale: &'static str,
    variants: &'a [Curve],
    /// The unmodified model's context-similarity statistics per layer (core
    /// `model::analysis::statistics`, high pairs the top 2% of each head's `S`).
    statistics: &'a [LayerSimilarity],
    /// The same-sentence share expected by chance.
    chance: f64,
    /// For a link older than the tokenizer's Unicode tables whose text has code points they treat
    /// otherwise, the note naming them (core `model::keys::tokenizer_note`); else null.
    tokenizer_note: Option<&'a str>,
}

/// The fields of [`ModelLab::tiles`]' answer (`ModelTiles` in `www/wasm.d.ts`).
const TILES_FIELDS: [&str; 6] = ["side", "scale", "attention", "similarity", "attention_max", "similarity_range"];

/// A loaded model and the last text it analysed.
#[wasm_bindgen]
pub struct ModelLab {
    pub(super) encoder: Encoder,
    id: String,
    pub(super) link: Option<ModelLink>,
    pub(super) analysis: Option<Analysis>,
    statistics: Vec<LayerSimilarity>,
    /// The last layers view ([`super::model_layers`]) and the `cos_tol` it was made with; dropped
    /// with the analysis it read.
    pub(super) layers: Option<(f64, attn_core::model::layers_view::LayersView)>,
    /// The last link's tokenizer note.
    note: Option<String>,
    /// The layer repeated on the analysed text ([`super::model_repeat`]); dropped with the analysis.
    pub(super) repeat: Option<RepeatRun>,
}

/// A run of a repeated layer ([`super::model_repeat`]): its request and the states so far.
pub struct RepeatRun {
    pub(super) layer: usize,
    pub(super) variant: Variant,
    pub(super) iterations: usize,
    /// The states after `0, 1, …` repetitions (`n x d` each).
    pub(super) states: Vec<Vec<f32>>,
    /// Each state's heads' Boolean distance and leaders (science.md §1.7) of the layer's `P_h`.
    pub(super) booleans: Vec<Vec<HeadBoolean>>,
    pub(super) stopped: Option<Stopped>,
}

fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl ModelLab {
    /// Loads a model from its files: `model.safetensors`' bytes, `config.json`, `vocab.txt`,
    /// `tokenizer_config.json` (or undefined) and its id `NAME@SHA16`. Throws naming the file and
    /// the field or tensor that is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(
        safetensors: &[u8],
        config_json: &str,
        vocab_txt: &str,
        tokenizer_config: Option<String>,
        id: &str,
    ) -> Result<ModelLab, JsError> {
        let encoder =
            Encoder::load(safetensors, config_json, vocab_txt, tokenizer_config.as_deref()).map_err(js_err)?;
        Ok(ModelLab {
            encoder,
            id: id.to_string(),
            link: None,
            analysis: None,
            statistics: Vec::new(),
            layers: None,
            note: None,
            repeat: None,
        })
    }

    /// Before the page puts this just-loaded model in place of the one it shows (which it keeps
    /// when this throws): the shown text `text` must be one this model analyses. Throws naming the
    /// limit when the text has more tokens than the model's `max_position_embeddings`, or saying
    /// what the text holds when no piece of it is in this model's vocabulary.
    pub fn check_text(&self, text: &str) -> Result<(), JsError> {
        self.encoder.encode(text).map(|_| ()).map_err(|e| match e {
            ModelError::TooManyTokens { tokens, max } => JsError::new(&format!(
                "the shown text has {} tokens with [CLS] and [SEP] for this model, which takes at most {} \
                 (config.json's max_position_embeddings): shorten the text, then load the files again",
                tokens, max
            )),
            other => JsError::new(&format!("the shown text on this model: {}", other)),
        })
    }

    /// Whether link `text` names this model's weights, so that the page opens it on this model
    /// once loaded (false for a link naming other weights, or not a model link). Throws, before
    /// the page puts this model in place, when it names these weights but its layer, head or text
    /// do not fit this model, as [`ModelLab::analyse`] would.
    pub fn opens(&self, text: &str) -> Result<bool, JsError> {
        let Ok(link) = parse(text) else { return Ok(false) };
        if link.check_model(&self.id).is_err() {
            return Ok(false);
        }
        self.fits(&link)?;
        self.encoder.encode(&link.text).map_err(|e| js_err(format!("`text`: {}", e)))?;
        Ok(true)
    }

    /// `{ id, layers, heads, hidden, vocab, max_positions }`.
    pub fn info(&self) -> Result<JsValue, JsError> {
        let c = &self.encoder.config;
        to_js(&ModelInfo {
            id: &self.id,
            layers: c.layers,
            heads: c.heads,
            hidden: c.hidden,
            vocab: c.vocab_size,
            max_positions: c.max_positions,
        })
    }

    /// Analyses link `text` (`lab=model&model=NAME@SHA16&text=…&layer=L&head=H`): refused when it
    /// names other weights (both hashes), when its layer or head is out of the model's range, or
    /// when its text has no piece or too many tokens. Returns `{ config, n, ids, tokens,
    /// sentence, layers, heads, layer, head, hidden_layer, scale, variants: [{ variant, residual }],
    /// statistics, chance, tokenizer_note }` (variants in the order SAN, SAN+MLP, SAN+skip, transformer, as `attn
    /// encode`; `tokenizer_note` null but for a link older than the tokenizer's Unicode tables whose
    /// text has code points they treat otherwise).
    pub fn analyse(&mut self, text: &str) -> Result<JsValue, JsError> {
        self.analyse_with(text, true)
    }

    /// [`ModelLab::analyse`] without the surgery variants (their `residual` empty): the page's
    /// first worker runs this while a second one, holding its own copy of the weights, runs
    /// [`ModelLab::surgery`] on the same link (the model lab's worker pool, when the model fits
    /// twice: [`super::model_memory::model_fits_twice`]); the curves put together are
    /// `analyse`'s, bit for bit.
    pub fn analyse_unmodified(&mut self, text: &str) -> Result<JsValue, JsError> {
        self.analyse_with(text, false)
    }

    /// The residual curves of the surgery variants (SAN, SAN+MLP, SAN+skip, in that order) of
    /// link `text`'s text, `[{ variant, residual }]`; refused as [`ModelLab::analyse`] refuses.
    pub fn surgery(&self, text: &str) -> Result<JsValue, JsError> {
        let link = parse(text).map_err(js_err)?;
        link.check_model(&self.id).map_err(js_err)?;
        let curves = self.encoder.surgery(&link.text, &Serial).map_err(|e| js_err(format!("`text`: {}", e)))?;
        to_js(&curves)
    }
}

impl ModelLab {
    /// The loaded encoder.
    pub(super) fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// Refuses a link whose layer, head or hidden layer is out of this model's range, naming the
    /// key (core `ModelLink::check_shape`).
    fn fits(&self, link: &ModelLink) -> Result<(), JsError> {
        let c = &self.encoder.config;
        link.check_shape(c.layers, c.heads).map_err(js_err)
    }

    fn analyse_with(&mut self, text: &str, surgery: bool) -> Result<JsValue, JsError> {
        let (link, version) = parse_versioned(text).map_err(js_err)?;
        link.check_model(&self.id).map_err(js_err)?;
        self.fits(&link)?;
        let same_text = self.link.as_ref().is_some_and(|l| l.text == link.text)
            && self.analysis.as_ref().is_some_and(|a| !surgery || a.curves.iter().all(|c| !c.residual.is_empty()));
        if !same_text {
            self.analysis = None;
            self.layers = None;
            self.repeat = None;
            let a = self
                .encoder
                .analyse_parts(&link.text, surgery, &Serial)
                .map_err(|e| js_err(format!("`text`: {}", e)))?;
            self.statistics = statistics(&a.forward, &a.encoding, QUANTILE);
            self.analysis = Some(a);
        }
        self.note = tokenizer_note(version, &link.text);
        self.link = Some(link);
        self.result()
    }
}

#[wasm_bindgen]
impl ModelLab {
    /// The unmodified forward of link `text`'s text with every head's `P_h` and `O_h` kept, then
    /// dropped: what `cargo xtask bench` times against NumPy (the page calls
    /// [`ModelLab::analyse`]). Returns the number of tokens.
    pub fn forward(&self, text: &str) -> Result<u32, JsError> {
        let link = parse(text).map_err(js_err)?;
        let enc = self.encoder.encode(&link.text).map_err(|e| js_err(format!("`text`: {}", e)))?;
        let f = self.encoder.forward(&enc, attn_core::model::Variant::Transformer, true, &Serial);
        Ok(f.n as u32)
    }

    /// The last analysis as [`ModelLab::analyse`] returns it.
    fn result(&self) -> Result<JsValue, JsError> {
        let (Some(a), Some(link)) = (&self.analysis, &self.link) else {
            return Err(JsError::new("model: no text analysed yet"));
        };
        let c = &self.encoder.config;
        to_js(&AnalysisOut {
            config: link.to_canonical_string(),
            text: &link.text,
            n: a.forward.n,
            ids: &a.encoding.ids,
            tokens: &a.encoding.pieces,
            sentence: &a.encoding.sentence,
            layers: c.layers,
            heads: c.heads,
            layer: link.layer,
            head: link.head,
            hidden_layer: link.hidden_layer,
            scale: attn_core::link::Named::name(link.grid_scale),
            variants: &a.curves,
            statistics: &self.statistics,
            chance: chance(&a.encoding),
            tokenizer_note: self.note.as_deref(),
        })
    }

    fn analysis(&self) -> Result<&Analysis, JsError> {
        self.analysis.as_ref().ok_or_else(|| JsError::new("model: no text analysed yet"))
    }

    /// Head `head`'s (0-based) attention `P_h` of layer `layer` (1-based), `n x n` row-major.
    pub fn attention(&self, layer: u32, head: u32) -> Result<Float32Array, JsError> {
        let f = &self.analysis()?.forward;
        let p = f
            .attention(layer as usize, head as usize)
            .ok_or_else(|| JsError::new(&format!("model: no head {} in layer {}", head, layer)))?;
        Ok(Float32Array::from(p))
    }

    /// Head `head`'s context similarity `S = O_h O_hᵀ` of layer `layer` (diagonal 0, raw).
    pub fn similarity(&self, layer: u32, head: u32) -> Result<Float32Array, JsError> {
        let f = &self.analysis()?.forward;
        let o = f
            .head_output(layer as usize, head as usize)
            .ok_or_else(|| JsError::new(&format!("model: no head {} in layer {}", head, layer)))?;
        Ok(Float32Array::from(&similarity(o, f.n, f.d_head)[..]))
    }

    /// Every layer's and head's maps as viridis tiles, layer-major then head, `side x side x 4`
    /// each (`side` for at most `max_side` pixels), on the link's colour scale (`scale`;
    /// [`super::model_tiles`]): `{ side, scale, attention, similarity, attention_max,
    /// similarity_range }` (`attention_max`: each tile's top of the colour map; `similarity_range`:
    /// each tile's `lo, hi`, flattened). Attention tiles span 0 to the top; similarity tiles
    /// their `[lo, hi]`, the zero diagonal at the low end.
    pub fn tiles(&self, max_side: u32) -> Result<Object, JsError> {
        let f = &self.analysis()?.forward;
        let scale = self.link.as_ref().map_or(TileScale::Head, |l| l.grid_scale);
        let t = super::model_tiles::tiles(f, self.encoder.config.layers, max_side as usize, scale)
            .map_err(|e| JsError::new(&e))?;
        let ranges: Vec<f64> = t.similarity_range.iter().flatten().copied().collect();
        let mut out = Fields::new("model: tiles", &[&TILES_FIELDS]);
        out.set("side", &JsValue::from(t.side as u32))?;
        out.set("scale", &JsValue::from_str(attn_core::link::Named::name(scale)))?;
        out.set("attention", &Uint8ClampedArray::from(&t.attention[..]))?;
        out.set("similarity", &Uint8ClampedArray::from(&t.similarity[..]))?;
        out.set("attention_max", &Float64Array::from(&t.attention_max[..]))?;
        out.set("similarity_range", &Float64Array::from(&ranges[..]))?;
        out.done()
    }
}

#[derive(Serialize)]
struct LinkChecked {
    ok: bool,
    lab: &'static str,
    /// The canonical link (`version=V&lab=model&model=…&text=…`, then `layer`, `head` when not
    /// 1 and 0).
    canonical: String,
    link: String,
    layer: usize,
    head: usize,
}

/// Checks a model-lab link without a model (core `model::keys::parse`): `{ ok: true, lab:
/// "model", canonical, link, layer, head }`, or `{ ok: false, key, message, lab: "model" }` naming
/// the key. Whether the weights are the loaded ones, and the layer and head in their range, is
/// [`ModelLab::analyse`]'s to say. Never throws for bad input.
#[wasm_bindgen]
pub fn check_model_link(text: &str) -> Result<JsValue, JsError> {
    match parse(text) {
        Ok(l) => {
            let canonical = l.to_canonical_string();
            to_js(&LinkChecked {
                ok: true,
                lab: "model",
                link: canonical.clone(),
                canonical,
                layer: l.layer,
                head: l.head,
            })
        }
        Err(e) => {
            #[derive(Serialize)]
            struct Refused {
                lab: &'static str,
                #[serde(flatten)]
                check: crate::check::CheckErr,
            }
            to_js(&Refused { lab: "model", check: e.into() })
        }
    }
}

/// Key `variant`'s choices for the repeated layer's control: `[[name, text], ...]`, the
/// unmodified layer first (core `model::keys::variant_choices`).
#[wasm_bindgen]
pub fn model_variant_choices() -> Result<JsValue, JsError> {
    to_js(&attn_core::model::keys::variant_choices())
}

#[cfg(test)]
mod tests {

    use super::*;

    /// `info`'s, `analyse`'s and `surgery`'s answers have the fields `www/wasm.d.ts` declares
    /// (ModelInfo, ModelAnalysis, ModelCurve; the statistics' LayerSimilarity is the depth lab's,
    /// checked there): a field renamed on one side only fails here.
    #[test]
    fn the_answers_are_what_wasm_d_ts_declares() {
        use crate::dts::{fields_of, json_keys};
        fn keys<T: Serialize>(v: &T) -> std::collections::BTreeSet<String> {
            json_keys(&serde_json::to_value(v).unwrap())
        }
        let info =
            ModelInfo { id: "m@0123456789abcdef", layers: 6, heads: 12, hidden: 384, vocab: 30522, max_positions: 512 };
        assert_eq!(keys(&info), fields_of("ModelInfo"));
        let curves = [Curve { variant: Variant::San, residual: vec![1.0, 0.5] }];
        let curve = &curves[0];
        assert_eq!(keys(curve), fields_of("ModelCurve"));
        let analysis = AnalysisOut {
            config: "version=7&lab=model".into(),
            text: "a b",
            n: 4,
            ids: &[101, 1037, 1038, 102],
            tokens: &["[CLS]".into(), "a".into(), "b".into(), "[SEP]".into()],
            sentence: &[0, 0, 0, 0],
            layers: 6,
            heads: 12,
            layer: 2,
            head: 3,
            hidden_layer: 0,
            scale: "head",
            variants: &curves,
            statistics: &[],
            chance: 1.0,
            tokenizer_note: None,
        };
        let mut declared = fields_of("ModelAnalysis");
        assert!(declared.remove("workers"), "`workers` is the one field the worker adds");
        assert_eq!(keys(&analysis), declared);
        assert_eq!(json_keys(&serde_json::to_value(&analysis).unwrap()["variants"][0]), fields_of("ModelCurve"));
        assert_eq!(std::collections::BTreeSet::from(TILES_FIELDS.map(String::from)), fields_of("ModelTiles"));
    }
}
