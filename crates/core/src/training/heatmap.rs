//! The `c_n` heatmap's column layout, shared by the page and any other view of a run: for each
//! shown class of the recorded query row, its common tokens then its distinct tokens (science.md
//! §5), each block ordered by co-occurrence weight `P(l|n)`, largest first, ties by token id.

use super::Trainer;
use serde::Serialize;

/// Most classes of the query row the heatmap shows.
pub const MAX_SHOWN_CLASSES: usize = 6;

/// One column of the heatmap: token `token` of the `slot`-th shown class, whose co-occurrence
/// weight in that class is `p = P(l|n)`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Column {
    /// Index among the shown classes.
    pub slot: usize,
    /// The token (column of `c`).
    pub token: usize,
    /// Its co-occurrence weight `P(l|n)` in that class.
    pub p: f64,
}

/// A run of columns of one kind within one shown class.
#[derive(Clone, Debug, Serialize)]
pub struct Block {
    /// Index among the shown classes (0..shown).
    pub slot: usize,
    /// Class index (row of `c`).
    pub class: usize,
    /// `common` or `distinct`.
    pub kind: &'static str,
    /// First column (inclusive).
    pub start: usize,
    /// Last column (exclusive).
    pub end: usize,
    /// Smallest and largest `P(l|n)` of the block's tokens.
    pub p_min: f64,
    /// Largest `P(l|n)`.
    pub p_max: f64,
}

/// A class shown in the heatmap.
#[derive(Clone, Debug, Serialize)]
pub struct ShownClass {
    /// Class index (row of `c`).
    pub class: usize,
    /// Its query token.
    pub query: usize,
    /// Its next token.
    pub next: usize,
    /// The query token's label.
    pub query_label: String,
    /// The next token's label.
    pub next_label: String,
}

/// The heatmap's columns: for each shown class of the recorded query row, its common tokens then
/// its distinct tokens, each block ordered by `P(l|n)` (co-occurrence weight), largest first,
/// ties by token id.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    /// The columns, left to right.
    pub columns: Vec<Column>,
    /// The blocks of columns.
    pub blocks: Vec<Block>,
    /// The classes shown.
    pub classes: Vec<ShownClass>,
    /// Classes of the query row in all (`classes` shows the first [`MAX_SHOWN_CLASSES`]).
    pub total_classes: usize,
}

/// The heatmap layout of a run (its recorded query row's classes, at most [`MAX_SHOWN_CLASSES`]).
pub fn layout(t: &Trainer) -> Layout {
    let labels = t.data().labels();
    let all = t.classes();
    let mut columns = Vec::new();
    let mut blocks = Vec::new();
    let mut classes = Vec::new();
    for (slot, &n) in t.query_classes().iter().take(MAX_SHOWN_CLASSES).enumerate() {
        let class = &all[n];
        classes.push(ShownClass {
            class: n,
            query: class.query,
            next: class.next,
            query_label: labels[class.query].clone(),
            next_label: labels[class.next].clone(),
        });
        let mut common: Vec<(usize, f64)> = Vec::new();
        let mut distinct: Vec<(usize, f64)> = Vec::new();
        for (&l, &p) in class.support.iter().zip(&class.p) {
            if class.distinct.binary_search(&l).is_ok() {
                distinct.push((l, p));
            } else {
                common.push((l, p));
            }
        }
        for (kind, mut tokens) in [("common", common), ("distinct", distinct)] {
            if tokens.is_empty() {
                continue;
            }
            tokens.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            let start = columns.len();
            columns.extend(tokens.iter().map(|&(token, p)| Column { slot, token, p }));
            blocks.push(Block {
                slot,
                class: n,
                kind,
                start,
                end: columns.len(),
                p_min: crate::nan::min_of(f64::INFINITY, tokens.iter().map(|x| x.1)),
                p_max: crate::nan::max_of(0.0, tokens.iter().map(|x| x.1)),
            });
        }
    }
    Layout { columns, blocks, classes, total_classes: t.query_classes().len() }
}
