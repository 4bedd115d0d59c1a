//! Matrices and lists of points as link text: rows separated by `;`, entries by `,` (or the
//! names `identity`, `-identity`, `psd`), read ([`parse_matrix`], [`parse_rows`]) and written
//! ([`matrix_text`], [`format_rows`]).

use super::types::MatrixSpec;
use crate::link::{format_f64, parse_float, quote, ConfigError};

/// Rows separated by `;`, entries by `,`; returns `(rows, cols, data)`.
pub(crate) fn parse_rows(key: &str, value: &str) -> Result<(usize, usize, Vec<f64>), ConfigError> {
    let mut data = Vec::new();
    let mut cols = None;
    let mut rows = 0;
    for (r, row) in value.split(';').enumerate() {
        if row.trim().is_empty() {
            return Err(ConfigError::new(
                key,
                format!("row {} is empty (rows are separated by ;, with no ; at the end)", r + 1),
            ));
        }
        let mut count = 0;
        for entry in row.split(',') {
            let x = parse_float(key, entry.trim()).map_err(|_| {
                ConfigError::new(key, format!("row {} has {}, which is not a finite number", r + 1, quote(entry)))
            })?;
            data.push(x);
            count += 1;
        }
        match cols {
            None => cols = Some(count),
            Some(c) if c != count => {
                return Err(ConfigError::new(
                    key,
                    format!("row {} has {} entries but row 1 has {}; every row needs the same number", r + 1, count, c),
                ))
            }
            _ => {}
        }
        rows += 1;
    }
    Ok((rows, cols.unwrap_or(0), data))
}

/// A matrix key's value: a name or rows of entries.
pub(crate) fn parse_matrix(key: &str, value: &str) -> Result<MatrixSpec, ConfigError> {
    match value {
        "identity" | "I" => Ok(MatrixSpec::Identity),
        "-identity" | "-I" => Ok(MatrixSpec::NegIdentity),
        "psd" => Ok(MatrixSpec::Psd),
        "" => Err(ConfigError::new(key, "empty; write identity, -identity, psd, or rows like 1,0;0,1")),
        _ => {
            let (rows, cols, data) = parse_rows(key, value)?;
            Ok(MatrixSpec::Explicit { rows, cols, data })
        }
    }
}

/// Rows separated by `;`, entries by `,`.
pub(crate) fn format_rows(data: &[f64], cols: usize) -> String {
    data.chunks(cols.max(1))
        .map(|row| row.iter().map(|&x| format_f64(x)).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join(";")
}

/// A matrix key's text: its name, or its rows.
pub(crate) fn matrix_text(m: &MatrixSpec) -> String {
    match m {
        MatrixSpec::Identity => "identity".into(),
        MatrixSpec::NegIdentity => "-identity".into(),
        MatrixSpec::Psd => "psd".into(),
        MatrixSpec::Explicit { cols, data, .. } => format_rows(data, *cols),
    }
}
