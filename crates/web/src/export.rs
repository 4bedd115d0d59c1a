//! Text of the page's exports that must equal the CLI's output byte for byte (both written by the
//! core's `particles::csv`): the rows of
//! `attn run --format csv` (`step,t,i,coord_0,...,coord_{d-1}`, one row per token, numbers in
//! the core's shortest round-trip form [`format_f64`]) and that number form for the page's other
//! CSV columns. Formatting only; the numbers come from the page's recorded states.

use attn_core::link::format_f64;
use wasm_bindgen::prelude::*;

/// The header line of the trajectory CSV for tokens of dimension `d` (no newline):
/// `step,t,i,coord_0,...,coord_{d-1}`, as `attn run --format csv` prints it.
#[wasm_bindgen]
pub fn csv_token_header(d: u32) -> String {
    token_header(d as usize)
}

/// The trajectory CSV rows of one state, each ending in `\n`: for token `i` of the `n x d`
/// row-major `tokens`, `step,t,i,x_i0,...,x_i(d-1)`, exactly as `attn run --format csv` writes
/// them. `step` must be a whole number >= 0 and `tokens.len()` a multiple of `d >= 1`; otherwise
/// an error saying which.
#[wasm_bindgen]
pub fn csv_token_rows(step: f64, t: f64, tokens: &[f64], d: u32) -> Result<String, JsError> {
    token_rows(step, t, tokens, d as usize).map_err(|e| JsError::new(&e))
}

/// A number in the core's shortest round-trip form (the CLI's CSV and the canonical
/// configuration use it): `0.1`, `-0`, `1e-7`, `NaN`, `inf`.
#[wasm_bindgen]
pub fn format_number(x: f64) -> String {
    format_f64(x)
}

fn token_header(d: usize) -> String {
    attn_core::particles::csv::token_header(d)
}

fn token_rows(step: f64, t: f64, tokens: &[f64], d: usize) -> Result<String, String> {
    if !(step.is_finite() && step >= 0.0 && step.fract() == 0.0 && step <= 9.007_199_254_740_992e15) {
        return Err(format!("csv_token_rows: step must be a whole number >= 0, got {}", step));
    }
    attn_core::particles::csv::token_rows(step as u64, t, tokens, d).map_err(|e| format!("csv_token_rows: {}", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_match_the_cli_layout() {
        assert_eq!(token_header(2), "step,t,i,coord_0,coord_1");
        let rows = token_rows(3.0, 0.30000000000000004, &[0.1, -0.0, 1e-7, 2.5], 2).unwrap();
        assert_eq!(rows, "3,0.30000000000000004,0,0.1,-0\n3,0.30000000000000004,1,1e-7,2.5\n");
    }

    #[test]
    fn bad_shapes_and_steps_are_refused() {
        assert!(token_rows(1.0, 0.1, &[1.0, 2.0, 3.0], 2).unwrap_err().contains("d = 2"));
        assert!(token_rows(1.0, 0.1, &[1.0], 0).is_err());
        assert!(token_rows(-1.0, 0.1, &[1.0], 1).unwrap_err().contains("whole number"));
        assert!(token_rows(0.5, 0.1, &[1.0], 1).is_err());
        assert!(token_rows(f64::NAN, 0.1, &[1.0], 1).is_err());
    }
}
