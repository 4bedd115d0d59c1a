//! Range-checked values shared by every lab's parser: whole numbers, finite numbers, seeds,
//! `lab` and free text. Every error names the key and what is allowed.

use super::{quote, ConfigError};

/// Longest configuration text accepted, in bytes.
pub const MAX_CONFIG_LEN: usize = 4 << 20;

/// A finite decimal number.
pub fn parse_float(key: &str, value: &str) -> Result<f64, ConfigError> {
    let ok_chars =
        !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    match value.parse::<f64>() {
        Ok(x) if ok_chars && x.is_finite() => Ok(x),
        _ => Err(ConfigError::new(key, format!("{} is not a finite number", quote(value)))),
    }
}

/// A whole number in `lo..=hi`.
pub(crate) fn count(key: &str, value: &str, lo: usize, hi: usize) -> Result<usize, ConfigError> {
    match value.parse::<u64>() {
        Ok(v) if v >= lo as u64 && v <= hi as u64 => Ok(v as usize),
        Ok(_) => Err(ConfigError::new(key, format!("{} is out of range; allowed: {}..={}", quote(value), lo, hi))),
        Err(_) => {
            Err(ConfigError::new(key, format!("{} is not a whole number; allowed: {}..={}", quote(value), lo, hi)))
        }
    }
}

/// A PRNG seed, `0..=4294967295`.
pub(crate) fn seed(key: &str, value: &str) -> Result<u32, ConfigError> {
    value
        .parse::<u32>()
        .map_err(|_| ConfigError::new(key, format!("{} is not an integer in 0..=4294967295", quote(value))))
}

/// The values of the `lab` key, in the page's order (`particles` is also the lab of a
/// configuration without `lab`).
pub const LAB_NAMES: [&str; 4] = ["particles", "training", "depth", "model"];

/// The lab a `lab` value names; the error on `lab` lists the labs (`lab=Training`: unknown lab
/// "Training"; allowed: particles, training, depth, model).
pub fn lab_named(value: &str) -> Result<&'static str, ConfigError> {
    LAB_NAMES.iter().copied().find(|l| *l == value).ok_or_else(|| {
        ConfigError::new("lab", format!("unknown lab {}; allowed: {}", quote(value), LAB_NAMES.join(", ")))
    })
}

/// The `lab` key of a configuration read by lab `lab`'s parser: must be `lab` itself. An unknown
/// lab is refused as [`lab_named`] does; another lab's name says which lab it is.
pub(crate) fn lab(key: &str, value: &str, lab: &str) -> Result<(), ConfigError> {
    if value == lab {
        return Ok(());
    }
    let named = lab_named(value).map_err(|e| ConfigError::new(key, e.message))?;
    if named != lab {
        return Err(ConfigError::new(
            key,
            format!("lab={} is the {} lab; a {} configuration has lab={} (or no lab key)", named, named, lab, lab),
        ));
    }
    Ok(())
}
