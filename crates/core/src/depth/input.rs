//! The input tokens `X_0` (`n x d_model`, row-major, tokens as rows) of a depth run, their
//! sentences and separator tokens (science.md §4 statistics).
//!
//! Four sources (key `input`):
//! - `bert-embeddings`: BERT's input embeddings at initialisation ([`super::embeddings`]), for
//!   random token ids or those of `text`.
//! - `gaussian`: every entry i.i.d. N(0, 1) from the seed ([`crate::rng::Rng::normal`], stream
//!   [`STREAM_INPUT`]), row by row.
//! - `particle`: the particle configuration's initial tokens ([`crate::particles::init::tokens`]), or the
//!   current tokens of the particle view handed to [`super::DepthRun::with_tokens`].
//! - `text`: a user's text, embedded deterministically:
//!   1. **Tokens**: [`crate::text::tokenize`] (lowercased words, apostrophes inside
//!      words kept, every punctuation mark a token of its own).
//!   2. **Sentences**: a sentence ends after a run of `.`, `!`, `?` or `…` tokens (and at the end
//!      of the text); or the user's `sentences` lengths (counted in text tokens).
//!   3. **Separators** (`separators=on`): `[CLS]` before the first sentence, `[SEP]` after each
//!      sentence (BERT's layout). `[CLS]` belongs to the first sentence, each `[SEP]` to the
//!      sentence it closes.
//!   4. **Embedding** of the token at position `p` (0-based, markers included):
//!      `e(word) + PE(p)`. `e(word)` has `d_model` entries N(0, 1) drawn by
//!      `Rng::new(0, fnv1a64(word))` (FNV-1a over the UTF-8 bytes): the same word gets the same
//!      vector at every position, in every text and for every seed. `PE` is the sinusoidal
//!      position term of Vaswani et al.: `PE(p, 2i) = sin(p / 10000^(2i / d_model))`,
//!      `PE(p, 2i + 1) = cos(p / 10000^(2i / d_model))`.
//!
//! Without text, `sentences` splits the `n` tokens into consecutive sentences (default: one) and
//! `separators=on` marks each sentence's last token as a separator (its vector is unchanged).

use super::config::{DepthConfig, InputSource, MAX_TOKENS};
use super::embeddings::{fnv1a64, CLS, SEP};
pub use crate::collapse::similarity::chance_level;
use crate::link::ConfigError;
use crate::rng::Rng;
use crate::text::tokenize;

/// PRNG stream of the Gaussian input tokens.
pub const STREAM_INPUT: u64 = 0x4445_5054_4800_0001;

/// The input of a run: tokens, labels, sentences and separators.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Input {
    /// Number of tokens `n`.
    pub n: usize,
    /// Token width `d_model`.
    pub d: usize,
    /// The tokens `X_0`, `n x d` row-major.
    pub tokens: Vec<f64>,
    /// A label per token: the word (text input) or the position `0..n` as text.
    pub labels: Vec<String>,
    /// Sentence index of each token (0-based, non-decreasing).
    pub sentence: Vec<usize>,
    /// Whether each token is a separator.
    pub separator: Vec<bool>,
}

/// Tokens, sentences and separators of a text (steps 1-3 of the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct TextLayout {
    /// The tokens, markers included.
    pub labels: Vec<String>,
    /// Sentence index of each token.
    pub sentence: Vec<usize>,
    /// Whether each token is a marker.
    pub separator: Vec<bool>,
}

/// Splits `text` into tokens and sentences, with `[CLS]`/`[SEP]` when `separators`.
/// Errors name `text` (no tokens, fewer than 2 or more than [`MAX_TOKENS`] with markers) or
/// `sentences` (lengths that do not add up to the text's token count).
pub fn text_layout(text: &str, sentences: &[usize], separators: bool) -> Result<TextLayout, ConfigError> {
    let words = tokenize(text);
    if words.is_empty() {
        return Err(ConfigError::new("text", "has no tokens; input=text needs a text"));
    }
    let lengths: Vec<usize> = if sentences.is_empty() {
        let terminal = |w: &str| matches!(w, "." | "!" | "?" | "…");
        let mut lengths = Vec::new();
        let mut start = 0;
        for i in 0..words.len() {
            let next_is_terminal = words.get(i + 1).is_some_and(|w| terminal(w));
            if terminal(&words[i]) && !next_is_terminal {
                lengths.push(i + 1 - start);
                start = i + 1;
            }
        }
        if start < words.len() {
            lengths.push(words.len() - start);
        }
        lengths
    } else {
        let total: usize = sentences.iter().sum();
        if total != words.len() {
            return Err(ConfigError::new(
                "sentences",
                format!("the lengths sum to {} but the text has {} tokens (markers not counted)", total, words.len()),
            ));
        }
        sentences.to_vec()
    };
    let n = words.len() + if separators { lengths.len() + 1 } else { 0 };
    if n > MAX_TOKENS {
        return Err(ConfigError::new(
            "text",
            format!(
                "has {} tokens{}; at most {} are allowed",
                n,
                if separators { " with [CLS]/[SEP]" } else { "" },
                MAX_TOKENS
            ),
        ));
    }
    if n < 2 {
        return Err(ConfigError::new("text", "has 1 token; at least 2 are needed"));
    }
    let mut layout =
        TextLayout { labels: Vec::with_capacity(n), sentence: Vec::with_capacity(n), separator: Vec::with_capacity(n) };
    let mut push = |label: &str, s: usize, sep: bool| {
        layout.labels.push(label.to_string());
        layout.sentence.push(s);
        layout.separator.push(sep);
    };
    if separators {
        push(CLS, 0, true);
    }
    let mut w = 0;
    for (s, &len) in lengths.iter().enumerate() {
        for word in &words[w..w + len] {
            push(word, s, false);
        }
        w += len;
        if separators {
            push(SEP, s, true);
        }
    }
    Ok(layout)
}

/// The word vector `e(word)` (`d` entries N(0, 1)), independent of position, text and seed.
pub fn word_embedding(word: &str, d: usize) -> Vec<f64> {
    let mut rng = Rng::new(0, fnv1a64(word));
    (0..d).map(|_| rng.normal()).collect()
}

/// The sinusoidal position term `PE(p)` (`d` entries; Vaswani et al. 2017).
pub fn position_encoding(p: usize, d: usize) -> Vec<f64> {
    (0..d)
        .map(|k| {
            let i = (k / 2) as f64;
            let angle = p as f64 / libm::pow(10_000.0, 2.0 * i / d as f64);
            if k % 2 == 0 {
                libm::sin(angle)
            } else {
                libm::cos(angle)
            }
        })
        .collect()
}

/// Sentence index and separator mark of `n` plain tokens split into `lengths` (empty = one sentence).
fn plain_marks(n: usize, lengths: &[usize], separators: bool) -> (Vec<usize>, Vec<bool>) {
    let lengths: Vec<usize> = if lengths.is_empty() { vec![n] } else { lengths.to_vec() };
    let mut sentence = Vec::with_capacity(n);
    let mut separator = Vec::with_capacity(n);
    for (s, &len) in lengths.iter().enumerate() {
        for k in 0..len {
            sentence.push(s);
            separator.push(separators && k + 1 == len);
        }
    }
    (sentence, separator)
}

impl Input {
    /// The input of a validated configuration.
    pub fn from_config(c: &DepthConfig) -> Input {
        let d = c.d_model;
        let TextLayout { labels, sentence, separator } = Self::layout(c);
        let n = labels.len();
        let tokens = match c.input {
            InputSource::Text => {
                let mut tokens = Vec::with_capacity(n * d);
                for (p, word) in labels.iter().enumerate() {
                    let e = word_embedding(word, d);
                    let pe = position_encoding(p, d);
                    tokens.extend(e.iter().zip(&pe).map(|(a, b)| a + b));
                }
                tokens
            }
            InputSource::BertEmbeddings => {
                let ids = if c.uses_text() {
                    labels.iter().map(|w| super::embeddings::text_id(w)).collect()
                } else {
                    super::embeddings::random_ids(c.seed, n)
                };
                super::embeddings::embed(c.seed, &ids, d)
            }
            InputSource::Gaussian => {
                let mut rng = Rng::new(c.seed, STREAM_INPUT);
                (0..n * d).map(|_| rng.normal()).collect()
            }
            InputSource::Particle => match c.particle_config() {
                Ok(p) if p.n == n && p.d == d => crate::particles::init::tokens(&p),
                _ => vec![0.0; n * d],
            },
        };
        Input { n, d, tokens, labels, sentence, separator }
    }

    /// The labels, sentences and separators of a validated configuration's input, without the
    /// tokens themselves (what the page shows before a variant runs): a text's layout, or, for an
    /// input without text, the positions `0..tokens` with `sentences` and `separators` marked.
    pub fn layout(c: &DepthConfig) -> TextLayout {
        if c.uses_text() {
            Self::layout_of(c)
        } else {
            Self::plain_layout(c, c.tokens)
        }
    }

    /// The input `tokens` (`n x d`, row-major; e.g. the particle view's current tokens) for a
    /// configuration with `input=particle`, `tokens = n` and `d_model = d`; errors name the key.
    pub fn from_tokens(c: &DepthConfig, tokens: &[f64], n: usize, d: usize) -> Result<Input, ConfigError> {
        if c.input != InputSource::Particle {
            return Err(ConfigError::new("input", "tokens from the particle view need input=particle"));
        }
        if n != c.tokens {
            return Err(ConfigError::new(
                "tokens",
                format!("the configuration has tokens={} but {} tokens were given", c.tokens, n),
            ));
        }
        if d != c.d_model {
            return Err(ConfigError::new(
                "d_model",
                format!("the configuration has d_model={} but the tokens have d={}", c.d_model, d),
            ));
        }
        if tokens.len() != n * d {
            return Err(ConfigError::new(
                "tokens",
                format!("{} numbers given for n x d = {} x {}", tokens.len(), n, d),
            ));
        }
        if !tokens.iter().all(|x| x.is_finite()) {
            return Err(ConfigError::new("tokens", "the tokens contain a non-finite number"));
        }
        Ok(Input::plain(c, tokens.to_vec(), n, d))
    }

    /// The text layout of a validated configuration that uses its text.
    fn layout_of(c: &DepthConfig) -> TextLayout {
        text_layout(&c.text, &c.sentences, c.separators).unwrap_or_else(|_| TextLayout {
            labels: vec![CLS.into(), SEP.into()],
            sentence: vec![0, 0],
            separator: vec![true, true],
        })
    }

    /// The layout of `n` tokens without text: labels `0..n`, `sentences` when they add up to `n`.
    fn plain_layout(c: &DepthConfig, n: usize) -> TextLayout {
        let sentences = if c.sentences.iter().sum::<usize>() == n { &c.sentences[..] } else { &[] };
        let (sentence, separator) = plain_marks(n, sentences, c.separators);
        TextLayout { labels: (0..n).map(|i| i.to_string()).collect(), sentence, separator }
    }

    fn plain(c: &DepthConfig, tokens: Vec<f64>, n: usize, d: usize) -> Input {
        let TextLayout { labels, sentence, separator } = Self::plain_layout(c, n);
        Input { n, d, tokens, labels, sentence, separator }
    }

    /// The same-sentence chance level of this input ([`chance_level`]).
    pub fn chance_level(&self) -> f64 {
        chance_level(&self.sentence)
    }

    /// Whether any token is a separator.
    pub fn has_separators(&self) -> bool {
        self.separator.iter().any(|&s| s)
    }
}

impl DepthConfig {
    /// The sequence length `n` of a run: the token count of the text (with markers) for
    /// `input=text`, else `tokens`. Assumes a validated configuration (0 for a text without tokens).
    pub fn n(&self) -> usize {
        if self.uses_text() {
            text_layout(&self.text, &self.sentences, self.separators).map(|l| l.labels.len()).unwrap_or(0)
        } else {
            self.tokens
        }
    }
}
