//! A BERT encoder's weights from `model.safetensors` (science.md §6), checked against its
//! [`BertConfig`]: every tensor the forward needs, `F32`, with the exact shape the configuration
//! implies. Names are Hugging Face's (`embeddings.word_embeddings.weight`,
//! `encoder.layer.{l}.attention.self.query.weight`, ...), with or without a `bert.` prefix;
//! LayerNorm parameters as `weight`/`bias` or the older `gamma`/`beta`; other tensors
//! (`cls.*`, `pooler.*`) are ignored.
//!
//! Linear layers are stored as the file has them, `W` of shape `[out, in]` (row `o` holds the
//! weights of output `o`), so `Y = X W^T + b` for tokens as rows is the scores product `A B^T` of
//! the shared kernels ([`crate::kernels`]): `W` is packed once as the kernel's keys.
//!
//! The file is parsed by [`super::tensor_file`] (no copy of the bytes; sizes in `u64`, so a
//! tensor of 2^27 elements or more reads in wasm32 as natively; checked offsets; a tensor named
//! twice, or under two names the lab reads as one, refused as ambiguous), every refusal naming the
//! tensor at fault.

use super::config::BertConfig;
use super::tensor_file::TensorFile;
use super::ModelError;
use crate::kernels::{pack_keys, KeyPanels};
use safetensors::Dtype;

/// A linear layer `y = x W^T + b`: `W` (`out x in`, row-major as in the file) packed for
/// [`crate::kernels::scores_block`], and `b` (`out`).
#[derive(Clone, Debug)]
pub struct Linear {
    /// `W` packed as `out` keys of dimension `in`.
    pub w: KeyPanels<f32>,
    /// The bias (`out` entries).
    pub b: Vec<f32>,
}

impl Linear {
    /// Output width.
    pub fn out(&self) -> usize {
        self.w.n()
    }

    /// Input width.
    pub fn inp(&self) -> usize {
        self.w.d()
    }
}

/// A LayerNorm's gain and bias (`d` entries each).
#[derive(Clone, Debug)]
pub struct Norm {
    /// Gain `gamma`.
    pub gain: Vec<f32>,
    /// Bias `beta`.
    pub bias: Vec<f32>,
}

/// The weights of one encoder layer.
#[derive(Clone, Debug)]
pub struct LayerWeights {
    /// Queries, keys and values stacked: `W_QKV` is `3d x d` (rows `0..d` the query weights,
    /// `d..2d` the keys', `2d..3d` the values'), head `h` owning rows `h d_head .. (h+1) d_head`
    /// of each block.
    pub qkv: Linear,
    /// The attention output dense `W_O` (`d x d`).
    pub output: Linear,
    /// `W_O` as in the file (`d x d`, row-major `[out, in]`): the heads' contributions
    /// ([`super::forward::head_contribution`]) use its column blocks.
    pub output_raw: Vec<f32>,
    /// LN₁, after the attention.
    pub ln1: Norm,
    /// The feed-forward's first dense (`d_ff x d`).
    pub ffn_in: Linear,
    /// The feed-forward's second dense (`d x d_ff`).
    pub ffn_out: Linear,
    /// LN₂, after the feed-forward.
    pub ln2: Norm,
}

/// Every weight the encoder forward needs.
#[derive(Clone, Debug)]
pub struct BertWeights {
    /// Word embeddings, `vocab x d` row-major.
    pub word: Vec<f32>,
    /// Position embeddings, `max_positions x d` row-major.
    pub position: Vec<f32>,
    /// Token-type embedding row 0 (`d`).
    pub token_type: Vec<f32>,
    /// The embeddings' LayerNorm.
    pub embedding_norm: Norm,
    /// The layers, first to last.
    pub layers: Vec<LayerWeights>,
    /// Whether the names carried the `bert.` prefix.
    pub prefixed: bool,
}

/// The tensors of a parsed file, looked up with or without the `bert.` prefix.
struct Tensors<'a> {
    st: TensorFile<'a>,
    prefix: &'static str,
}

impl Tensors<'_> {
    /// The tensor `name` (`f32`, shape `shape`) as a vector; a LayerNorm's `weight`/`bias` may
    /// also be written `gamma`/`beta`.
    fn get(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, ModelError> {
        let full = format!("{}{}", self.prefix, name);
        let view = match self.st.tensor(&full) {
            Some(v) => v,
            None => {
                let old = name.strip_suffix(".weight").map(|s| format!("{}{}.gamma", self.prefix, s));
                let old = old.or_else(|| name.strip_suffix(".bias").map(|s| format!("{}{}.beta", self.prefix, s)));
                match old.filter(|_| name.contains("LayerNorm")).and_then(|o| self.st.tensor(&o)) {
                    Some(v) => v,
                    None => return Err(bad(name, "is missing")),
                }
            }
        };
        if view.dtype() != Dtype::F32 {
            return Err(bad(name, format!("has dtype {:?}; the model lab reads F32 weights", view.dtype())));
        }
        if view.shape() != shape {
            return Err(bad(name, format!("has shape {:?}; config.json implies {:?}", view.shape(), shape)));
        }
        let data = view.data();
        let mut out = Vec::with_capacity(data.len() / 4);
        out.extend(data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        Ok(out)
    }

    fn linear(&self, name: &str, out: usize, inp: usize) -> Result<Linear, ModelError> {
        let w = self.get(&format!("{}.weight", name), &[out, inp])?;
        let b = self.get(&format!("{}.bias", name), &[out])?;
        Ok(Linear { w: pack(&w, out, inp), b })
    }

    fn norm(&self, name: &str, d: usize) -> Result<Norm, ModelError> {
        Ok(Norm {
            gain: self.get(&format!("{}.weight", name), &[d])?,
            bias: self.get(&format!("{}.bias", name), &[d])?,
        })
    }
}

/// `w` (`out x inp`, row-major) packed as `out` keys.
fn pack(w: &[f32], out: usize, inp: usize) -> KeyPanels<f32> {
    let mut panels = KeyPanels::default();
    pack_keys(out, inp, |j, c| w[j * inp + c], &mut panels);
    panels
}

fn bad(tensor: &str, why: impl Into<String>) -> ModelError {
    ModelError::Weights { tensor: tensor.to_string(), why: why.into() }
}

impl BertWeights {
    /// Reads the bytes of a `model.safetensors` for the encoder `config` describes. Errors name
    /// the file, and the tensor when one is at fault: a truncated file, a header that does not
    /// parse or whose sizes do not add up (e.g. a tensor claiming 1e12 elements), a tensor named
    /// twice or under two names read as one (`X` and `bert.X`), a missing tensor, a dtype other
    /// than `F32`, a shape other than the configuration's. Never panics.
    pub fn from_safetensors(bytes: &[u8], config: &BertConfig) -> Result<BertWeights, ModelError> {
        let st = TensorFile::parse(bytes)?;
        let prefixed = st.tensor("embeddings.word_embeddings.weight").is_none()
            && st.tensor("bert.embeddings.word_embeddings.weight").is_some();
        let t = Tensors { st, prefix: if prefixed { "bert." } else { "" } };
        let (d, ff) = (config.hidden, config.intermediate);
        let word = t.get("embeddings.word_embeddings.weight", &[config.vocab_size, d])?;
        let position = t.get("embeddings.position_embeddings.weight", &[config.max_positions, d])?;
        let mut token_type = t.get("embeddings.token_type_embeddings.weight", &[config.type_vocab_size, d])?;
        token_type.truncate(d);
        let embedding_norm = t.norm("embeddings.LayerNorm", d)?;
        let mut layers = Vec::with_capacity(config.layers);
        for l in 0..config.layers {
            let p = format!("encoder.layer.{}", l);
            let q = t.get(&format!("{}.attention.self.query.weight", p), &[d, d])?;
            let k = t.get(&format!("{}.attention.self.key.weight", p), &[d, d])?;
            let v = t.get(&format!("{}.attention.self.value.weight", p), &[d, d])?;
            let mut b = t.get(&format!("{}.attention.self.query.bias", p), &[d])?;
            b.extend(t.get(&format!("{}.attention.self.key.bias", p), &[d])?);
            b.extend(t.get(&format!("{}.attention.self.value.bias", p), &[d])?);
            let w: Vec<f32> = q.into_iter().chain(k).chain(v).collect();
            let qkv = Linear { w: pack(&w, 3 * d, d), b };
            let output_raw = t.get(&format!("{}.attention.output.dense.weight", p), &[d, d])?;
            let output =
                Linear { w: pack(&output_raw, d, d), b: t.get(&format!("{}.attention.output.dense.bias", p), &[d])? };
            layers.push(LayerWeights {
                qkv,
                output,
                output_raw,
                ln1: t.norm(&format!("{}.attention.output.LayerNorm", p), d)?,
                ffn_in: t.linear(&format!("{}.intermediate.dense", p), ff, d)?,
                ffn_out: t.linear(&format!("{}.output.dense", p), d, ff)?,
                ln2: t.norm(&format!("{}.output.LayerNorm", p), d)?,
            });
        }
        Ok(BertWeights { word, position, token_type, embedding_norm, layers, prefixed })
    }
}
