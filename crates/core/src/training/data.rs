//! Training data for the scan-and-snap model (science.md §5): the synthetic generator with the
//! paper's knobs, or a user's text ([`super::text`]), and seeded sampling of count vectors.
//!
//! Synthetic token-id layout (science.md §5), `Q = queries`, `J = next_per_query`, `K = Q J`
//! classes, `D = distinct`, `C = commons`, `Cq = commons_per_query`:
//!
//! | ids | tokens |
//! |---|---|
//! | `0 .. C` | global common tokens |
//! | `C + q Cq .. C + (q+1) Cq` | common tokens of query `q` |
//! | then `n D .. (n+1) D` (offset) | distinct tokens of class `n` |
//! | then `q` | query token `q` |
//! | then `n` | next token of class `n` |
//!
//! so `M = C + Q Cq + K D + Q + K` (34 for 2 queries with one next token each, 33 for one query
//! serving two classes). Class `n` has query `psi(n) = n / J` (integer division) and next token `n`.
//! Its context tokens are drawn i.i.d. from `P(l|n)`: weight 1 for each global common token and
//! each common token of its query, `linspace(weight_lo, weight_hi, D)` for its distinct tokens
//! (`w_j = lo + (hi - lo) j / (D - 1)`, `w_0 = lo` when `D = 1`), normalised. A batch draws each
//! sequence's class uniformly, then `seq_len - 1` context tokens.
//!
//! A sequence is used only through its context's count vector `k` (`k_l` = occurrences of token
//! `l`): the attention of the query on a context depends on nothing else (no positional encoding),
//! so a batch costs `O(batch * (seq_len + M * |support|))` instead of `O(batch * seq_len * M)`.

use super::config::TrainingConfig;
use crate::rng::Rng;
use crate::text::{self, Corpus, Window};

/// One class `n` of the data: its query, its next token, and its context distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    /// Query token `psi(n)` (a token id in `0..M`).
    pub query: usize,
    /// Next token (the label, a token id in `0..M`).
    pub next: usize,
    /// Tokens `l` with `P(l|n) > 0`, ascending ids.
    pub support: Vec<usize>,
    /// `P(l|n)` for each token of `support` (sums to 1).
    pub p: Vec<f64>,
    /// The class's distinct tokens (a subset of `support`, ascending): the entropy statistic's
    /// tokens (science.md §5).
    pub distinct: Vec<usize>,
}

/// Walker's alias table for drawing an index from fixed weights with one 64-bit random number
/// (integer arithmetic only: the high 32 bits pick a column by multiply-shift, the low 32 bits
/// are compared with the column's threshold; probabilities are exact to 2^-32).
#[derive(Clone, Debug, PartialEq)]
pub struct AliasTable {
    threshold: Vec<u64>,
    alias: Vec<u32>,
}

impl AliasTable {
    /// Builds the table of `weights` (non-negative, positive sum, at most 2^32 entries) by
    /// Vose's method, in a fixed order.
    pub fn new(weights: &[f64]) -> AliasTable {
        let n = weights.len();
        let total: f64 = weights.iter().sum();
        let mut scaled: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
        let mut prob = vec![1.0; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let mut small: Vec<usize> = (0..n).filter(|&i| scaled[i] < 1.0).collect();
        let mut large: Vec<usize> = (0..n).filter(|&i| scaled[i] >= 1.0).collect();
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            large.pop();
            prob[s] = scaled[s];
            alias[s] = l as u32;
            scaled[l] = (scaled[l] + scaled[s]) - 1.0;
            if scaled[l] < 1.0 {
                small.push(l);
            } else {
                large.push(l);
            }
        }
        // Leftovers (rounding) keep probability 1: threshold 2^32 always keeps the column.
        let threshold =
            prob.iter().map(|&p| if p >= 1.0 { 1u64 << 32 } else { (p * 4_294_967_296.0) as u64 }).collect();
        AliasTable { threshold, alias }
    }

    /// Number of weights.
    pub fn len(&self) -> usize {
        self.alias.len()
    }

    /// Whether the table has no weights.
    pub fn is_empty(&self) -> bool {
        self.alias.is_empty()
    }

    /// Draws an index with probability proportional to its weight.
    #[inline]
    pub fn draw(&self, rng: &mut Rng) -> usize {
        let r = rng.next_u64();
        let i = (((r >> 32) * self.alias.len() as u64) >> 32) as usize;
        if (r & 0xffff_ffff) < self.threshold[i] {
            i
        } else {
            self.alias[i] as usize
        }
    }
}

/// A uniform integer in `0..n` (`n >= 1`) from 64 random bits (multiply-shift; integer arithmetic).
#[inline]
pub fn below(rng: &mut Rng, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

#[derive(Clone, Debug)]
enum Source {
    Synthetic { tables: Vec<AliasTable> },
    Text { ids: Vec<usize>, windows: Vec<Window> },
}

/// The data of a configuration: vocabulary, classes, and how sequences are sampled.
#[derive(Clone, Debug)]
pub struct Dataset {
    m: usize,
    classes: Vec<Class>,
    labels: Vec<String>,
    query_tokens: Vec<usize>,
    context: usize,
    source: Source,
}

impl Dataset {
    /// The data of a validated configuration (synthetic, or `config.text` when non-empty).
    pub fn new(config: &TrainingConfig) -> Dataset {
        if config.uses_text() {
            Self::from_text(config)
        } else {
            Self::synthetic(config)
        }
    }

    fn synthetic(c: &TrainingConfig) -> Dataset {
        let (q_n, j_n, d_n) = (c.queries, c.next_per_query, c.distinct);
        let k_n = q_n * j_n;
        let m = c.synthetic_m();
        let qc0 = c.commons;
        let d0 = qc0 + q_n * c.commons_per_query;
        let q0 = d0 + k_n * d_n;
        let n0 = q0 + q_n;
        let mut labels = Vec::with_capacity(m);
        labels.extend((0..c.commons).map(|i| format!("c{}", i)));
        for q in 0..q_n {
            labels.extend((0..c.commons_per_query).map(|i| format!("c{}.q{}", i, q)));
        }
        for n in 0..k_n {
            labels.extend((0..d_n).map(|j| format!("d{}.{}", n, j)));
        }
        labels.extend((0..q_n).map(|q| format!("q{}", q)));
        labels.extend((0..k_n).map(|n| format!("n{}", n)));
        let weight = |j: usize| {
            if d_n == 1 {
                c.weight_lo
            } else {
                c.weight_lo + (c.weight_hi - c.weight_lo) * (j as f64) / ((d_n - 1) as f64)
            }
        };
        let mut classes = Vec::with_capacity(k_n);
        let mut tables = Vec::with_capacity(k_n);
        for n in 0..k_n {
            let q = n / j_n;
            let mut support = Vec::new();
            let mut w = Vec::new();
            for i in 0..c.commons {
                support.push(i);
                w.push(1.0);
            }
            for i in 0..c.commons_per_query {
                support.push(qc0 + q * c.commons_per_query + i);
                w.push(1.0);
            }
            let distinct: Vec<usize> = (0..d_n).map(|j| d0 + n * d_n + j).collect();
            for (j, &t) in distinct.iter().enumerate() {
                support.push(t);
                w.push(weight(j));
            }
            let total: f64 = w.iter().sum();
            tables.push(AliasTable::new(&w));
            let p = w.iter().map(|x| x / total).collect();
            classes.push(Class { query: q0 + q, next: n0 + n, support, p, distinct });
        }
        Dataset {
            m,
            classes,
            labels,
            query_tokens: (q0..q0 + q_n).collect(),
            context: c.seq_len - 1,
            source: Source::Synthetic { tables },
        }
    }

    fn from_text(c: &TrainingConfig) -> Dataset {
        let corpus = Corpus::new(&c.text, c.vocab);
        let m = corpus.m();
        let tc = text::classes(&corpus, c.seq_len);
        let k_n = tc.pairs.len();
        // Document frequency of each token over the classes' context supports.
        let mut df = vec![0usize; m];
        for row in &tc.pooled {
            for &(l, _) in row {
                df[l] += 1;
            }
        }
        let common = |l: usize| k_n >= 2 && 2 * df[l] > k_n;
        let mut classes = Vec::with_capacity(k_n);
        for (n, &(query, next)) in tc.pairs.iter().enumerate() {
            let row = &tc.pooled[n];
            let support: Vec<usize> = row.iter().map(|&(l, _)| l).collect();
            let total: f64 = row.iter().map(|&(_, x)| x).sum();
            let p = row.iter().map(|&(_, x)| x / total).collect();
            let distinct = support.iter().copied().filter(|&l| !common(l)).collect();
            classes.push(Class { query, next, support, p, distinct });
        }
        Dataset {
            m,
            classes,
            labels: corpus.words.clone(),
            query_tokens: (0..m).collect(),
            context: c.seq_len - 1,
            source: Source::Text { ids: corpus.ids, windows: tc.windows },
        }
    }

    /// Vocabulary size `M`.
    pub fn m(&self) -> usize {
        self.m
    }

    /// The classes (`K` of them).
    pub fn classes(&self) -> &[Class] {
        &self.classes
    }

    /// A short label per token id (`M`): synthetic `c3` (common), `c1.q0` (common of query 0),
    /// `d1.9` (distinct token 9 of class 1), `q0` (query), `n1` (next token of class 1); text: the word.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The token ids that `query_row` indexes: the query tokens (synthetic) or every token (text).
    pub fn query_tokens(&self) -> &[usize] {
        &self.query_tokens
    }

    /// Whether the data is a user's text.
    pub fn is_text(&self) -> bool {
        matches!(self.source, Source::Text { .. })
    }

    /// Draws one sequence: returns its class and writes its context's count vector as the
    /// tokens with a positive count (`support`, cleared first; ascending ids for synthetic data,
    /// order of first appearance in the window for text) and their counts (`counts`, aligned).
    /// `dense` (length `M`, all zero) is scratch and is left all zero.
    pub fn draw(&self, rng: &mut Rng, dense: &mut [u32], support: &mut Vec<usize>, counts: &mut Vec<f64>) -> usize {
        support.clear();
        counts.clear();
        match &self.source {
            Source::Synthetic { tables } => {
                // Counts by position in the class's support (dense[..support.len()] as scratch).
                let n = below(rng, self.classes.len());
                let class = &self.classes[n];
                let table = &tables[n];
                let local = &mut dense[..class.support.len()];
                for _ in 0..self.context {
                    local[table.draw(rng)] += 1;
                }
                for (j, &l) in class.support.iter().enumerate() {
                    if local[j] > 0 {
                        support.push(l);
                        counts.push(local[j] as f64);
                        local[j] = 0;
                    }
                }
                n
            }
            Source::Text { ids, windows } => {
                let w = windows[below(rng, windows.len())];
                for &t in &ids[w.start..w.query_pos] {
                    if dense[t] == 0 {
                        support.push(t);
                    }
                    dense[t] += 1;
                }
                for &l in support.iter() {
                    counts.push(dense[l] as f64);
                    dense[l] = 0;
                }
                w.class
            }
        }
    }
}
