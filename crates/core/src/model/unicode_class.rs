//! The classes of code points BERT's basic tokenizer tells apart ([`super::unicode`] reads them
//! from the generated tables, [`super::unicode_tables`]): a leaf both import.

/// What the basic tokenizer does with a code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Kept as it is (letters, digits, symbols but ASCII ones, spacing marks, unassigned code
    /// points).
    Other,
    /// Dropped by the cleaning step: NUL, U+FFFD and every control, format or private-use
    /// character of the reference's categories but tab, newline and carriage return.
    Dropped,
    /// Whitespace: a space; words end at it.
    Space,
    /// A CJK ideograph of the reference's ranges: a word of its own (spaces put around it).
    Cjk,
    /// Punctuation: ASCII punctuation and symbols (`!` to `/`, `:` to `@`, `[` to `` ` ``, `{`
    /// to `~`) and general category `P*` of the reference: a word of its own.
    Punctuation,
    /// A non-spacing mark (general category `Mn` of the reference): dropped after the
    /// decomposition when the tokenizer lower-cases (the accents).
    Mark,
}
