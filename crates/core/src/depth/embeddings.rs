//! BERT's input embeddings at initialisation (science.md §3, Dong, Cordonnier, Loukas 2021: the
//! figure of BERT at initialisation feeds the stack its embedding output, not Gaussian tokens).
//!
//! `X_0 = LN(word[id_i] + position[i] + type)`, one row per token `i = 0..n`:
//! - `word`, `position` and the single token-type row are tables whose entries are N(0, 0.02²)
//!   (BERT's `initializer_range`), each row drawn from the seed on a PRNG stream of its own
//!   (`(table, row)`), so only the rows used are generated: never a 30522 x `d_model` table;
//! - every token has the same token-type row (one segment, as BERT does): the shared row is what
//!   puts the residual of layer 0 near 0.6 rather than near 1;
//! - `LN` is LayerNorm without gain or bias, eps 1e-12, whatever the `layernorm` key says;
//! - the ids: without `text`, drawn uniformly from `0..VOCAB` by the seed on a stream of their
//!   own; with `text`, those of the text's tokens ([`super::input::text_layout`]): `[CLS]` = 101,
//!   `[SEP]` = 102, any other token FNV-1a-64 of its UTF-8 bytes modulo `VOCAB`.

use crate::rng::Rng;

/// The marker before the first sentence.
pub const CLS: &str = "[CLS]";
/// The marker after each sentence.
pub const SEP: &str = "[SEP]";
/// BERT's vocabulary size (bert-base-uncased).
pub const VOCAB: u64 = 30522;
/// BERT's `initializer_range`: the standard deviation of the embedding tables' entries.
pub const INITIALIZER_RANGE: f64 = 0.02;
/// The id of `[CLS]` in BERT's vocabulary.
pub const CLS_ID: u64 = 101;
/// The id of `[SEP]` in BERT's vocabulary.
pub const SEP_ID: u64 = 102;
/// LayerNorm's epsilon.
pub const LN_EPS: f64 = 1e-12;

/// PRNG stream tags: `(tag << 32) | row` is the stream of one row of one table.
const TAG_IDS: u64 = 0x4245_5254_0001;
const TAG_WORD: u64 = 0x4245_5254_0002;
const TAG_POSITION: u64 = 0x4245_5254_0003;
const TAG_TYPE: u64 = 0x4245_5254_0004;

fn stream(tag: u64, row: u64) -> u64 {
    (tag << 32) ^ row
}

/// `n` token ids drawn uniformly from `0..VOCAB` by `seed` (the input without text).
pub fn random_ids(seed: u32, n: usize) -> Vec<u64> {
    let mut rng = Rng::new(seed, stream(TAG_IDS, 0));
    (0..n).map(|_| ((rng.uniform01() * VOCAB as f64) as u64).min(VOCAB - 1)).collect()
}

/// The id of a text token: `[CLS]` 101, `[SEP]` 102, else FNV-1a-64 of its bytes modulo `VOCAB`.
pub fn text_id(word: &str) -> u64 {
    match word {
        w if w == CLS => CLS_ID,
        w if w == SEP => SEP_ID,
        w => fnv1a64(w) % VOCAB,
    }
}

/// Row `row` of a table (`d` entries N(0, 0.02²)) drawn from `seed` on the row's own stream.
fn table_row(seed: u32, tag: u64, row: u64, d: usize) -> Vec<f64> {
    let mut rng = Rng::new(seed, stream(tag, row));
    (0..d).map(|_| INITIALIZER_RANGE * rng.normal()).collect()
}

/// `X_0` (`n x d`, row-major) for the token ids `ids` (position `i` for token `i`).
pub fn embed(seed: u32, ids: &[u64], d: usize) -> Vec<f64> {
    let type_row = table_row(seed, TAG_TYPE, 0, d);
    let mut x = Vec::with_capacity(ids.len() * d);
    for (i, &id) in ids.iter().enumerate() {
        let word = table_row(seed, TAG_WORD, id, d);
        let position = table_row(seed, TAG_POSITION, i as u64, d);
        let mut row: Vec<f64> = (0..d).map(|k| word[k] + position[k] + type_row[k]).collect();
        layer_norm(&mut row);
        x.extend_from_slice(&row);
    }
    x
}

/// LayerNorm without gain or bias: `(x - mean) / sqrt(var + eps)`, sums in index order.
fn layer_norm(row: &mut [f64]) {
    let d = row.len() as f64;
    let mean = row.iter().sum::<f64>() / d;
    let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d;
    let inv = 1.0 / (var + LN_EPS).sqrt();
    row.iter_mut().for_each(|v| *v = (*v - mean) * inv);
}

/// FNV-1a, 64 bits, over the UTF-8 bytes of `word`.
pub fn fnv1a64(word: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in word.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
