//! The BERT encoder forward in `f32` and Dong et al.'s surgery on its trained weights
//! (science.md §6).
//!
//! Embeddings: `X_0 = LN_emb(word[id_i] + type[0] + position[i])` (`n x d`, tokens as rows).
//! One layer maps `x` to `y`, with the layer's trained LayerNorms LN₁ and LN₂:
//!
//! ```text
//! Attn(x) = concat_h(O_h) W_O^T + b_O,   O_h = P_h V_h,   P_h = softmax_rows(Q_h K_h^T / sqrt(d_head))
//! FFN(h)  = gelu(h W_1^T + b_1) W_2^T + b_2
//! transformer:  h = LN₁(x + Attn(x));  y = LN₂(h + FFN(h))
//! SAN+skip:     y = LN₁(x + Attn(x))                     (FFN, its residual and LN₂ removed)
//! SAN+MLP:      h = LN₁(Attn(x));      y = LN₂(h + FFN(h)) (only the attention's skip removed)
//! SAN:          y = LN₁(Attn(x))
//! ```
//!
//! `Q_h, K_h, V_h` are columns `h d_head .. (h + 1) d_head` of `x W_Q^T + b_Q` (and `K`, `V`).
//! Every product runs on the shared kernels; the softmax uses the core's `exp`, the GELU `libm`.

use super::config::BertConfig;
use super::ops::{add, layer_norm, linear, linear_gelu, softmax_rows, Pool};
use super::weights::{BertWeights, LayerWeights};
use crate::architecture::{self, Architecture};
use crate::kernels::{pack_keys, pack_queries, scores_block, weighted_sums_block, KeyPanels, Shift, SumsScratch};

/// Dong et al.'s four architectures on the trained weights (module documentation), in the order
/// the lab shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Pure attention: `y = LN₁(Attn(x))`.
    San,
    /// `h = LN₁(Attn(x)); y = LN₂(h + FFN(h))`.
    SanMlp,
    /// `y = LN₁(x + Attn(x))`.
    SanSkip,
    /// The unmodified model.
    Transformer,
}

/// The four variants in the lab's order.
pub const VARIANTS: [Variant; 4] = [Variant::San, Variant::SanMlp, Variant::SanSkip, Variant::Transformer];

impl Variant {
    /// The label: `SAN`, `SAN+MLP`, `SAN+skip`, `transformer`.
    pub fn label(self) -> &'static str {
        self.architecture().label
    }

    /// The shared names of the architecture ([`crate::architecture`]).
    pub fn architecture(self) -> Architecture {
        match self {
            Variant::San => architecture::SAN,
            Variant::SanMlp => architecture::SAN_MLP,
            Variant::SanSkip => architecture::SAN_SKIP,
            Variant::Transformer => architecture::TRANSFORMER,
        }
    }

    /// The label and what the variant's layer keeps, as the residual chart's legend says it
    /// (§6.3: SAN+MLP removes only the attention's skip, unlike the depth lab's).
    pub fn legend(self) -> &'static str {
        match self {
            Variant::San => "SAN: attention only",
            Variant::SanMlp => "SAN+MLP: no attention skip, MLP with its skip",
            Variant::SanSkip => "SAN+skip: attention with skip",
            Variant::Transformer => "transformer: skips and MLP",
        }
    }

    /// The variant as the repeated layer's control offers it (key `variant`).
    pub fn choice(self) -> &'static str {
        match self {
            Variant::San => "SAN (attention alone)",
            Variant::SanMlp => "SAN+MLP (no attention skip)",
            Variant::SanSkip => "SAN+skip (no MLP)",
            Variant::Transformer => "unmodified layer",
        }
    }

    /// The variant labelled `label` (`SAN`, `SAN+MLP`, `SAN+skip`, `transformer`).
    pub fn from_label(label: &str) -> Option<Variant> {
        VARIANTS.iter().copied().find(|v| v.label() == label)
    }

    /// Whether the attention's skip `x + Attn(x)` is kept.
    pub fn skip(self) -> bool {
        matches!(self, Variant::SanSkip | Variant::Transformer)
    }

    /// Whether the feed-forward sub-block (with its residual and LN₂) is kept.
    pub fn ffn(self) -> bool {
        matches!(self, Variant::SanMlp | Variant::Transformer)
    }
}

// In JSON as its label, read back with `Variant::from_label`.
crate::serde_as_label!(Variant, Variant::from_label, "model");

/// What a forward pass keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct Forward {
    /// The variant run.
    pub variant: Variant,
    /// Tokens `n`.
    pub n: usize,
    /// Hidden size `d`.
    pub d: usize,
    /// Heads per layer `H`.
    pub heads: usize,
    /// Head width `d_head = d / H`.
    pub d_head: usize,
    /// `X_0 .. X_L`, each `n x d` row-major: `X_0` the embeddings after their LayerNorm, `X_l` the
    /// output of layer `l`.
    pub hidden: Vec<Vec<f32>>,
    /// Per layer (index `l - 1` for layer `l`), every head's `P_h` (`n x n`, row-major, row `i` =
    /// token `i`'s attention), head after head: head `h` at `h n^2 ..`. Empty when not kept.
    pub attention: Vec<Vec<f32>>,
    /// Per layer, every head's output before `W_O`, `O_h = P_h V_h` (`n x d_head`, row-major),
    /// head after head: head `h` at `h n d_head ..`. Empty when not kept.
    pub head_outputs: Vec<Vec<f32>>,
}

impl Forward {
    /// `P_h` of layer `layer` (1-based), `n x n` row-major; `None` when out of range or not kept.
    pub fn attention(&self, layer: usize, head: usize) -> Option<&[f32]> {
        let n2 = self.n * self.n;
        (head < self.heads).then_some(())?;
        self.attention.get(layer.checked_sub(1)?)?.get(head * n2..(head + 1) * n2)
    }

    /// `O_h` of layer `layer` (1-based) before `W_O`, `n x d_head` row-major; `None` when out of
    /// range or not kept.
    pub fn head_output(&self, layer: usize, head: usize) -> Option<&[f32]> {
        let m = self.n * self.d_head;
        (head < self.heads).then_some(())?;
        self.head_outputs.get(layer.checked_sub(1)?)?.get(head * m..(head + 1) * m)
    }
}

/// `X_0 = LN_emb(word[id_i] + type[0] + position[i])` (`n x d`). The ids must be below the
/// vocabulary size and `n` at most `max_positions` (the caller's encoding checks both).
pub fn embed(ids: &[u32], c: &BertConfig, w: &BertWeights) -> Vec<f32> {
    let d = c.hidden;
    let mut x = vec![0.0f32; ids.len() * d];
    for (i, (row, &id)) in x.chunks_mut(d).zip(ids).enumerate() {
        let word = &w.word[id as usize * d..(id as usize + 1) * d];
        let pos = &w.position[i * d..(i + 1) * d];
        for (k, v) in row.iter_mut().enumerate() {
            *v = (word[k] + w.token_type[k]) + pos[k];
        }
    }
    layer_norm(&mut x, d, &w.embedding_norm, c.layer_norm_eps);
    x
}

/// Multi-head self-attention of `x` (`n x d`): returns `Attn(x)` (`n x d`), every head's `P_h`
/// (`H n^2`, head-major) and every head's `O_h = P_h V_h` (`H n d_head`, head-major).
pub fn attention(
    x: &[f32],
    n: usize,
    c: &BertConfig,
    lw: &LayerWeights,
    pool: &dyn Pool,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (d, heads, dh) = (c.hidden, c.heads, c.d_head());
    let qkv = linear(x, n, &lw.qkv, pool);
    let scale = (dh as f32).sqrt();
    let mut p = vec![0.0f32; heads * n * n];
    pool.chunks(&mut p, n * n, &|h, ph| {
        let (mut qp, mut kp) = (Vec::new(), KeyPanels::default());
        pack_queries(n, dh, |i, k| qkv[i * 3 * d + h * dh + k], &mut qp);
        pack_keys(n, dh, |j, k| qkv[j * 3 * d + d + h * dh + k], &mut kp);
        scores_block(&qp, n, &kp, ph);
        softmax_rows(ph, n, scale);
    });
    let mut o = vec![0.0f32; heads * n * dh];
    pool.chunks(&mut o, n * dh, &|h, oh| {
        // V_h coordinate-major (`d_head x n`), as the weighted-sum kernel takes it.
        let mut vt = vec![0.0f32; dh * n];
        for j in 0..n {
            for k in 0..dh {
                vt[k * n + j] = qkv[j * 3 * d + 2 * d + h * dh + k];
            }
        }
        weighted_sums_block(
            &p[h * n * n..(h + 1) * n * n],
            n,
            &vt,
            n,
            dh,
            Shift::None,
            oh,
            &mut SumsScratch::default(),
        );
    });
    let mut concat = vec![0.0f32; n * d];
    for h in 0..heads {
        for i in 0..n {
            concat[i * d + h * dh..i * d + (h + 1) * dh].copy_from_slice(&o[(h * n + i) * dh..(h * n + i + 1) * dh]);
        }
    }
    (linear(&concat, n, &lw.output, pool), p, o)
}

/// Head `head`'s contribution to the attention output through `W_O`, `O_h (W_O^h)^T` (`n x d`),
/// where `W_O^h` is columns `h d_head .. (h + 1) d_head` of `W_O` (`d x d`, `[out, in]`) and `o_h`
/// the head's output (`n x d_head`). The contributions of all heads plus `b_O` add up to
/// `Attn(x)` (to rounding: the kernel sums each head's `d_head` terms separately).
pub fn head_contribution(o_h: &[f32], n: usize, c: &BertConfig, lw: &LayerWeights, head: usize) -> Vec<f32> {
    let (d, dh) = (c.hidden, c.d_head());
    let (mut qp, mut kp) = (Vec::new(), KeyPanels::default());
    pack_queries(n, dh, |i, k| o_h[i * dh + k], &mut qp);
    pack_keys(d, dh, |j, k| lw.output_raw[j * d + head * dh + k], &mut kp);
    let mut out = vec![0.0f32; n * d];
    scores_block(&qp, n, &kp, &mut out);
    out
}

/// `FFN(h) = gelu(h W_1^T + b_1) W_2^T + b_2` (`n x d`).
pub fn ffn(h: &[f32], n: usize, lw: &LayerWeights, pool: &dyn Pool) -> Vec<f32> {
    let mid = linear_gelu(h, n, &lw.ffn_in, pool);
    linear(&mid, n, &lw.ffn_out, pool)
}

/// One layer of `variant` (module documentation): `x` (`n x d`) to `y`, with the heads' `P_h`
/// and `O_h` as [`attention`] returns them.
pub fn layer(
    x: &[f32],
    n: usize,
    c: &BertConfig,
    lw: &LayerWeights,
    variant: Variant,
    pool: &dyn Pool,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut h, p, o) = attention(x, n, c, lw, pool);
    if variant.skip() {
        add(&mut h, x);
    }
    layer_norm(&mut h, c.hidden, &lw.ln1, c.layer_norm_eps);
    if variant.ffn() {
        let mut y = ffn(&h, n, lw, pool);
        add(&mut y, &h);
        layer_norm(&mut y, c.hidden, &lw.ln2, c.layer_norm_eps);
        h = y;
    }
    (h, p, o)
}

/// The forward pass of `variant` on the embeddings `x0` (`n x d`, [`embed`]): every hidden
/// state, and every head's `P_h` and `O_h` when `keep_heads`.
pub fn run(
    x0: Vec<f32>,
    n: usize,
    c: &BertConfig,
    w: &BertWeights,
    variant: Variant,
    keep_heads: bool,
    pool: &dyn Pool,
) -> Forward {
    let mut hidden = vec![x0];
    let (mut attention, mut head_outputs) = (Vec::new(), Vec::new());
    for lw in &w.layers {
        let (y, p, o) = layer(hidden.last().expect("X_0"), n, c, lw, variant, pool);
        hidden.push(y);
        if keep_heads {
            attention.push(p);
            head_outputs.push(o);
        }
    }
    Forward { variant, n, d: c.hidden, heads: c.heads, d_head: c.d_head(), hidden, attention, head_outputs }
}
