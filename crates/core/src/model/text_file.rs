//! The one rule for the text files of a model folder (`config.json`, `vocab.txt`,
//! `tokenizer_config.json`), applied to their bytes by every reader (the CLI's `attn encode` and
//! the page's worker, through the web crate's `model_text`), so a folder gives the same texts,
//! hence the same tokens, everywhere:
//!
//! - UTF-8, with or without a leading byte-order mark (`EF BB BF`, U+FEFF): the mark is not part
//!   of the text and is dropped (it would otherwise become part of `vocab.txt`'s first piece or
//!   make `config.json` invalid JSON);
//! - any other encoding is refused naming the file: a UTF-16 or UTF-32 byte-order mark, bytes that
//!   are not UTF-8 (the byte offset and line of the first one), or a NUL byte (UTF-16 text without
//!   a mark reads as UTF-8 with a NUL after every ASCII character).
//!
//! Errors are [`ModelError::TextFile`].

use super::ModelError;

/// The UTF-8 byte-order mark, U+FEFF encoded.
pub const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// The byte-order marks of the encodings the rule refuses (UTF-32 first: its little-endian mark
/// starts with UTF-16's).
const OTHER_MARKS: [(&[u8], &str); 4] = [
    (&[0xFF, 0xFE, 0x00, 0x00], "UTF-32 (little-endian)"),
    (&[0x00, 0x00, 0xFE, 0xFF], "UTF-32 (big-endian)"),
    (&[0xFF, 0xFE], "UTF-16 (little-endian)"),
    (&[0xFE, 0xFF], "UTF-16 (big-endian)"),
];

fn refused(file: &str, why: String) -> ModelError {
    ModelError::TextFile { file: file.to_string(), why }
}

/// The text of the model folder's file `file` (its name, for the message) from its `bytes`:
/// UTF-8 without its leading byte-order mark if it has one. Refuses, naming `file`, other
/// encodings (module documentation).
pub fn decode<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, ModelError> {
    if let Some((mark, name)) = OTHER_MARKS.iter().find(|(m, _)| bytes.starts_with(m)) {
        let hex: Vec<String> = mark.iter().map(|b| format!("{:02X}", b)).collect();
        return Err(refused(
            file,
            format!("is {} text (it starts with the byte-order mark {}); save it as UTF-8", name, hex.join(" ")),
        ));
    }
    let body = bytes.strip_prefix(&UTF8_BOM[..]).unwrap_or(bytes);
    let skipped = bytes.len() - body.len();
    let text = std::str::from_utf8(body).map_err(|e| {
        let at = skipped + e.valid_up_to();
        refused(
            file,
            format!("is not UTF-8 text: byte {} (line {}) is not valid UTF-8; save it as UTF-8", at, line(bytes, at)),
        )
    })?;
    if let Some(at) = body.iter().position(|&b| b == 0) {
        let at = skipped + at;
        return Err(refused(
            file,
            format!(
                "holds a NUL byte at byte {} (line {}): it is not UTF-8 text (UTF-16 without a byte-order mark?); save \
                 it as UTF-8",
                at,
                line(bytes, at)
            ),
        ));
    }
    Ok(text)
}

/// The 1-based line of byte `at`.
fn line(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at.min(bytes.len())].iter().filter(|&&b| b == b'\n').count()
}
