//! The model lab (docs/model-lab.md): a pretrained BERT encoder (default all-MiniLM-L6-v2), its attention
//! maps, its heads' context-similarity matrices and Dong et al.'s surgery on its trained weights
//! (science.md §6, with §3's residual and §4's statistics from [`crate::collapse`]).
//!
//! The path of the data: the model folder's files (written by `cargo xtask fetch-model` into
//! `$HOME/.cache/attn/models/all-MiniLM-L6-v2/`; the core reads their contents, never the disk) →
//! [`BertConfig`] (`config.json`), [`BertWeights`] (`model.safetensors`), [`Vocab`] and the
//! casing rule (`vocab.txt`, `tokenizer_config.json`) → an [`Encoder`] → a text as an
//! [`Encoding`] (token ids of one segment `[CLS] … [SEP]`, pieces, sentences, separators) → the
//! forward pass of a [`Variant`] ([`forward`], on [`ops`] and the shared kernels) → [`analysis`]:
//! residual curves, similarity matrices, statistics. [`keys`] is the lab's link (`lab=model&…`).
//! The lab registry (`lab.rs`) reads `lab=model` links with [`keys::parse_with_view`].
//!
//! Shapes: tokens are rows; a hidden state is `n x d` row-major `f32`; a head's attention `P_h`
//! is `n x n` (row `i` = token `i`'s weights), its output `O_h = P_h V_h` is `n x d_head`; linear
//! weights are `[out, in]` as in the file. Everything is `f32` in a fixed order (the shared kernels,
//! the core's `exp`, `libm`'s `erff`): the same bits natively and in wasm, for any number of threads.
//!
//! Modules: [`vocab`] (the vocabulary and casing), [`basic`] (BERT's basic tokenizer: cleaning,
//! CJK, lower case and accents, punctuation), [`unicode`] (the Unicode properties it reads, the
//! reference's, from the generated `unicode_tables`), [`tokenizer`] (special tokens, WordPiece,
//! the segment, sentences; [`no_pieces`] says what a text without pieces holds), [`config`],
//! [`weights`] (on [`tensor_file`], the file's header and layout), [`text_file`] (the text files'
//! encoding rule), [`ops`], [`forward`], [`analysis`], [`encoder`], [`keys`]; on trained heads and
//! layers (science.md §7): [`heads`], [`head_spectrum`], [`clusters`], [`repeat`], [`layers_view`]. The tokenizer's
//! reference is Hugging Face's `tokenizers` 0.23.3 with the model's `tokenizer.json`
//! (`crates/core/tests/fixtures/tokenizer_unicode/make_unicode_tables.py` and
//! `crates/core/tests/fixtures/make_tokenizer_golden.py`); the
//! forward's is a NumPy forward from the same safetensors
//! (`crates/core/tests/fixtures/make_model_golden.py`).

pub mod analysis;
pub mod basic;
pub mod clusters;
pub mod config;
pub mod encoder;
mod error;
pub mod finite;
pub mod forward;
pub mod head_dynamics;
pub mod head_spectrum;
pub mod heads;
pub mod keys;
pub mod layers_view;
pub mod no_pieces;
pub mod non_finite;
pub mod ops;
pub mod repeat;
pub mod tensor_file;
pub mod text_file;
pub mod tokenizer;
pub mod tokenizer_note;
pub mod unicode;
mod unicode_changed;
mod unicode_class;
mod unicode_tables;
pub mod vocab;
pub mod weights;

pub use config::BertConfig;
pub use encoder::{Analysis, Curve, Encoder};
pub use error::ModelError;
pub use forward::{Forward, Variant, VARIANTS};
pub use keys::{ModelLink, DEFAULT_MODEL};
pub use ops::{Pool, Serial};
pub use tokenizer::{Encoding, Tokenizer};
pub use vocab::Vocab;
pub use weights::BertWeights;
