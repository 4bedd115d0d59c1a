//! What the model lab's Export menu writes for one head: its attention `P_h` or context
//! similarity `S = O_h O_hᵀ` (`n x n`, row-major `f32`) as CSV or JSON. Formatting only: the
//! numbers are the worker's (the core's `f32`), written as `attn encode` writes them, the
//! shortest decimal that reads back to the same `f32` (serde_json's, the CLI's serializer), a
//! non-finite value as `null` (JSON) or an empty cell (CSV).

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// One head's matrix as JSON: `attn encode`'s `{ layer, head, p }` (or `s`) with the link and
/// the tokens.
#[derive(Serialize)]
struct MatrixJson<'a> {
    config: &'a str,
    tokens: &'a [String],
    layer: u32,
    head: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<Vec<&'a [f32]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<Vec<&'a [f32]>>,
}

fn tokens_of(tokens: JsValue) -> Result<Vec<String>, JsError> {
    serde_wasm_bindgen::from_value(tokens).map_err(|e| JsError::new(&format!("model export: tokens: {}", e)))
}

/// The rows of `values` for `n` tokens; an error unless it holds `n x n` values.
fn rows(values: &[f32], n: usize) -> Result<Vec<&[f32]>, String> {
    if n == 0 || values.len() != n * n {
        return Err(format!("model export: {} values for {} tokens (want n x n)", values.len(), n));
    }
    Ok(values.chunks(n).collect())
}

/// `which` (`p` or `s`) of layer `layer` (1-based), head `head` (0-based) of link `config` as
/// pretty JSON (`{ config, tokens, layer, head, p | s }`, each row an array); `values` is
/// `n x n` row-major for the `n` tokens. Errors name what does not fit.
pub fn matrix_json(
    config: &str,
    tokens: &[String],
    layer: u32,
    head: u32,
    which: &str,
    values: &[f32],
) -> Result<String, String> {
    let m = rows(values, tokens.len())?;
    let (p, s) = match which {
        "p" => (Some(m), None),
        "s" => (None, Some(m)),
        _ => return Err(format!("model export: {:?} is not p or s", which)),
    };
    let out = MatrixJson { config, tokens, layer, head, p, s };
    serde_json::to_string_pretty(&out).map(|t| t + "\n").map_err(|e| e.to_string())
}

/// A CSV field: quoted (quotes doubled) when it holds a comma, a quote, a line break or
/// surrounding spaces. (A token that starts with `=`, `+`, `-`, `@` is one punctuation character:
/// the tokenizer splits punctuation, so no cell holds a formula.)
fn field(text: &str) -> String {
    let quote = text.contains([',', '"', '\n', '\r']) || text.trim() != text || text.is_empty();
    if quote {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// One value as `attn encode` writes it (an empty cell when not finite).
fn number(x: f32) -> String {
    if x.is_finite() {
        serde_json::to_string(&x).unwrap_or_default()
    } else {
        String::new()
    }
}

/// `values` (`n x n` row-major for the `n` tokens) as CSV: a header row, `corner` then every
/// token (the columns: key tokens for `P`), then one row per token (the rows: query tokens),
/// each line ending in `\n`.
pub fn matrix_csv(corner: &str, tokens: &[String], values: &[f32]) -> Result<String, String> {
    let m = rows(values, tokens.len())?;
    let mut out = field(corner);
    for t in tokens {
        out.push(',');
        out.push_str(&field(t));
    }
    out.push('\n');
    for (t, row) in tokens.iter().zip(m) {
        out.push_str(&field(t));
        for &x in row {
            out.push(',');
            out.push_str(&number(x));
        }
        out.push('\n');
    }
    Ok(out)
}

/// [`matrix_json`] for the page: `tokens` an array of strings.
#[wasm_bindgen]
pub fn model_matrix_json(
    config: &str,
    tokens: JsValue,
    layer: u32,
    head: u32,
    which: &str,
    values: &[f32],
) -> Result<String, JsError> {
    matrix_json(config, &tokens_of(tokens)?, layer, head, which, values).map_err(|e| JsError::new(&e))
}

/// [`matrix_csv`] for the page: `tokens` an array of strings.
#[wasm_bindgen]
pub fn model_matrix_csv(corner: &str, tokens: JsValue, values: &[f32]) -> Result<String, JsError> {
    matrix_csv(corner, &tokens_of(tokens)?, values).map_err(|e| JsError::new(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_a_header_of_tokens_and_one_row_per_token_in_the_clis_number_form() {
        let tokens = vec!["[CLS]".to_string(), ",".to_string(), "a\"b".to_string()];
        let v = [0.1f32, 0.2, 0.7, 1.0, 0.0, 0.0, 1.0 / 3.0, f32::NAN, 2e-8];
        let csv = matrix_csv("P_ij", &tokens, &v).unwrap();
        assert_eq!(
            csv,
            "P_ij,[CLS],\",\",\"a\"\"b\"\n[CLS],0.1,0.2,0.7\n\",\",1.0,0.0,0.0\n\"a\"\"b\",0.33333334,,2e-8\n"
        );
        assert!(matrix_csv("P", &tokens, &v[..8]).unwrap_err().contains("8 values for 3 tokens"));
    }

    #[test]
    fn json_is_the_clis_head_object_with_the_link_and_tokens() {
        let tokens = vec!["a".to_string(), "b".to_string()];
        let v = [0.25f32, 0.75, 0.5, 0.5];
        let j: serde_json::Value =
            serde_json::from_str(&matrix_json("lab=model", &tokens, 2, 3, "s", &v).unwrap()).unwrap();
        assert_eq!(
            j,
            serde_json::json!({ "config": "lab=model", "tokens": ["a", "b"], "layer": 2, "head": 3, "s": [[0.25, 0.75], [0.5, 0.5]] })
        );
        assert!(matrix_json("x", &tokens, 1, 0, "q", &v).is_err());
    }
}
