//! A user's own text as training data for the scan-and-snap model (science.md §5).
//!
//! How text becomes tokens, classes and sequences (the whole recipe; nothing else is done):
//!
//! 1. **Tokens.** The text is read character by character. A *word* is a maximal run of
//!    alphanumeric characters (Unicode `char::is_alphanumeric`), lowercased; an apostrophe
//!    (`'` or `’`) between two alphanumeric characters stays inside the word (`don't` is one
//!    token). Whitespace separates tokens and is dropped. Every other character (punctuation,
//!    symbols) is a token of its own (`"end."` gives `end`, `.`).
//! 2. **Vocabulary.** If the text has at most `vocab` distinct tokens, all are kept. Otherwise the
//!    `vocab - 1` most frequent are kept (ties: earlier first occurrence wins) and every other token
//!    becomes `<unk>`. Token ids follow the order of first occurrence of the kept tokens; `<unk>`,
//!    when used, is the last id. The vocabulary size `M` is the number of ids.
//! 3. **Sequences (sliding window).** For every position `i` with `1 <= i <= N - 2` of the token
//!    stream `t_0 .. t_{N-1}`, one training sequence: the query (last) token is `t_i`, the next token
//!    (the label) is `t_{i+1}`, and the context is the up to `seq_len - 1` tokens before the query,
//!    `t_{max(0, i - seq_len + 1)} .. t_{i-1}`. Windows cross sentence boundaries (punctuation is
//!    a token like any other). Position 0 has no context and is skipped.
//! 4. **Classes.** A class `n` is a distinct (query, next) pair, numbered in order of first
//!    occurrence; `psi(n)` is its query token. Its context distribution `P(l|n)` is the pooled
//!    count of token `l` over the contexts of all the class's sequences, normalised.
//! 5. **Common and distinct tokens.** With `K >= 2` classes, a token is *common* when it occurs in
//!    the contexts of more than half of the classes (the text's analogue of the synthetic common
//!    tokens: stop words, punctuation); a class's *distinct* tokens are the rest of its context
//!    support. With one class there are no common tokens.
//! 6. **Sampling.** A training batch draws sequences (positions `i`) uniformly with replacement and
//!    uses their real contexts as count vectors; so classes appear in proportion to their frequency
//!    in the text (unlike the synthetic data, where classes are uniform).

use std::collections::HashMap;

/// Longest `text` accepted, in bytes (after percent decoding).
pub const MAX_TEXT_BYTES: usize = 20_000;
/// The token that stands for every word outside the vocabulary.
pub const UNK: &str = "<unk>";

/// Splits `text` into tokens (step 1 of the module documentation).
pub fn tokenize(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if (c == '\'' || c == '’') && !word.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
        {
            word.push('\'');
        } else {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if !c.is_whitespace() && !c.is_control() {
                out.push(c.to_string());
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A text as a stream of token ids over a capped vocabulary (steps 1-2).
#[derive(Clone, Debug, PartialEq)]
pub struct Corpus {
    /// The token of each id (`M` entries); `<unk>` last when used.
    pub words: Vec<String>,
    /// The text as token ids, in reading order (`N` entries).
    pub ids: Vec<usize>,
}

impl Corpus {
    /// Tokenises `text` and maps it onto a vocabulary of at most `vocab` ids (`vocab >= 2`).
    pub fn new(text: &str, vocab: usize) -> Corpus {
        let tokens = tokenize(text);
        // Distinct tokens in order of first occurrence, with counts.
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut distinct: Vec<(&str, usize)> = Vec::new();
        let mut seq: Vec<usize> = Vec::with_capacity(tokens.len());
        for t in &tokens {
            let k = *index.entry(t.as_str()).or_insert_with(|| {
                distinct.push((t.as_str(), 0));
                distinct.len() - 1
            });
            distinct[k].1 += 1;
            seq.push(k);
        }
        let vocab = vocab.max(2);
        let keep: Vec<bool> = if distinct.len() <= vocab {
            vec![true; distinct.len()]
        } else {
            let mut order: Vec<usize> = (0..distinct.len()).collect();
            order.sort_by(|&a, &b| distinct[b].1.cmp(&distinct[a].1).then(a.cmp(&b)));
            let mut keep = vec![false; distinct.len()];
            for &k in &order[..vocab - 1] {
                keep[k] = true;
            }
            keep
        };
        let mut id_of = vec![usize::MAX; distinct.len()];
        let mut words = Vec::new();
        for (k, (w, _)) in distinct.iter().enumerate() {
            if keep[k] {
                id_of[k] = words.len();
                words.push(w.to_string());
            }
        }
        let unk = if keep.iter().all(|&k| k) {
            None
        } else {
            words.push(UNK.to_string());
            Some(words.len() - 1)
        };
        let ids = seq.iter().map(|&k| if keep[k] { id_of[k] } else { unk.unwrap_or(0) }).collect();
        Corpus { words, ids }
    }

    /// Vocabulary size `M`.
    pub fn m(&self) -> usize {
        self.words.len()
    }

    /// Number of training sequences (positions `1 ..= N - 2`).
    pub fn sequences(&self) -> usize {
        self.ids.len().saturating_sub(2)
    }

    /// The distinct next tokens that follow `query` somewhere in the text (the classes of that
    /// query row), in order of first occurrence.
    pub fn nexts_of(&self, query: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for i in 1..self.ids.len().saturating_sub(1) {
            if self.ids[i] == query && !out.contains(&self.ids[i + 1]) {
                out.push(self.ids[i + 1]);
            }
        }
        out
    }
}

/// One training sequence of a text (step 3): positions into [`Corpus::ids`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// First context position, `max(0, i - seq_len + 1)`.
    pub start: usize,
    /// Position `i` of the query token (the context is `start..i`).
    pub query_pos: usize,
    /// The class of this sequence (index into the class list).
    pub class: usize,
}

/// Classes of a text (step 4): `(query, next)` per class, the windows, and each class's pooled
/// context counts.
#[derive(Clone, Debug, PartialEq)]
pub struct TextClasses {
    /// `(query token, next token)` per class, in order of first occurrence.
    pub pairs: Vec<(usize, usize)>,
    /// Every training sequence, in text order.
    pub windows: Vec<Window>,
    /// Per class, `(token, count)` for every token in the class's contexts (pooled over its
    /// sequences), ascending token ids.
    pub pooled: Vec<Vec<(usize, f64)>>,
}

impl Corpus {
    /// Number of classes: distinct `(query, next)` pairs over the positions `1 ..= N - 2`.
    pub fn class_count(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        for i in 1..self.ids.len().saturating_sub(1) {
            seen.insert((self.ids[i], self.ids[i + 1]));
        }
        seen.len()
    }
}

/// Builds the windows and classes of `corpus` for sequences of `seq_len` tokens (`seq_len >= 2`).
/// Time `O(N seq_len + K M)`, memory `O(N + M)` besides the output.
pub fn classes(corpus: &Corpus, seq_len: usize) -> TextClasses {
    let m = corpus.m();
    let ids = &corpus.ids;
    let mut index: HashMap<(usize, usize), usize> = HashMap::new();
    let mut pairs = Vec::new();
    let mut windows = Vec::new();
    let context = seq_len.max(2) - 1;
    for i in 1..ids.len().saturating_sub(1) {
        let key = (ids[i], ids[i + 1]);
        let class = *index.entry(key).or_insert_with(|| {
            pairs.push(key);
            pairs.len() - 1
        });
        windows.push(Window { start: i.saturating_sub(context), query_pos: i, class });
    }
    // Windows grouped by class (stable: text order within a class), pooled in a dense scratch row.
    let mut order: Vec<usize> = (0..windows.len()).collect();
    order.sort_by_key(|&w| windows[w].class);
    let mut dense = vec![0.0f64; m];
    let mut pooled = Vec::with_capacity(pairs.len());
    let mut at = 0;
    for class in 0..pairs.len() {
        while at < order.len() && windows[order[at]].class == class {
            let w = windows[order[at]];
            for &t in &ids[w.start..w.query_pos] {
                dense[t] += 1.0;
            }
            at += 1;
        }
        let mut row = Vec::new();
        for (t, x) in dense.iter_mut().enumerate() {
            if *x > 0.0 {
                row.push((t, *x));
                *x = 0.0;
            }
        }
        pooled.push(row);
    }
    TextClasses { pairs, windows, pooled }
}
