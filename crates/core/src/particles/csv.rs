//! The trajectory CSV of a particle run, written once for the CLI (`attn run --format csv`) and
//! the page's Export menu, which must agree byte for byte: a header
//! `step,t,i,coord_0,...,coord_{d-1}`, then one row per token, numbers in the shortest
//! round-trip form ([`crate::link::format_f64`]).

use crate::link::format_f64;

/// The header line for tokens of dimension `d` (no newline): `step,t,i,coord_0,...,coord_{d-1}`.
pub fn token_header(d: usize) -> String {
    let coords: Vec<String> = (0..d).map(|c| format!("coord_{}", c)).collect();
    format!("step,t,i,{}", coords.join(","))
}

/// The rows of one state, each ending in `\n`: for token `i` of the `n x d` row-major `tokens`,
/// `step,t,i,x_i0,...,x_i(d-1)`. `tokens.len()` must be a multiple of `d >= 1` (else an error
/// saying so).
pub fn token_rows(step: u64, t: f64, tokens: &[f64], d: usize) -> Result<String, String> {
    if d == 0 || !tokens.len().is_multiple_of(d) {
        return Err(format!("{} numbers do not make rows of d = {}", tokens.len(), d));
    }
    let t = format_f64(t);
    let mut out = String::with_capacity(tokens.len() * 20);
    for (i, row) in tokens.chunks(d).enumerate() {
        let cells: Vec<String> = row.iter().map(|&x| format_f64(x)).collect();
        out.push_str(&format!("{},{},{},{}\n", step, t, i, cells.join(",")));
    }
    Ok(out)
}
