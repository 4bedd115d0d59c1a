//! The version of the configuration schema, and the migration of links written under an older
//! one: a link made today keeps its meaning, and its numbers, after the keys or the arithmetic
//! change.
//!
//! Every canonical string starts with `version=`. A string without `version` was written before
//! versions existed (every link made before the schema was versioned): it is **version 0**, and
//! [`migrate`] brings its keys to the current version before any key is read. Each version step
//! is one function; older links pass through every step in turn.
//!
//! | version | written by | step to the next version |
//! |---|---|---|
//! | 0 (no `version` key) | links made before `version` was written | `0 -> 1`: the identity (version 1 gave no key a new meaning; it added `version` and the view keys, which version 0 links do not contain) |
//! | 1 | canonical strings until version 2; today, particle runs opened from a version 0 or 1 link | `1 -> 2`: the identity on the keys. Version 2 changed the particle lab's arithmetic, not its keys: the attention weights use the rational exponential (`crate::exp::rational`, about 1.5x faster) instead of the Taylor one. A particle run from a version 0 or 1 link keeps the Taylor exponential and writes `version=1` ([`crate::particles::config::Config::version`]), so the link replays bit for bit |
//! | 2 | every canonical string made today | (current) |

use super::quote;
use super::ConfigError;

/// The version written today, first in every canonical string (`version=2&...`).
pub const VERSION: u32 = 2;

/// The version of a configuration's decoded `(key, value)` pairs: `0` when there is no `version`
/// key (a link from before versions), else its value, which must be a version this code knows
/// (`1` or `2`). The error names `version` and says what is allowed (also for a repeated
/// `version`).
pub fn read_version(pairs: &[(String, String)]) -> Result<u32, ConfigError> {
    let mut found = pairs.iter().filter(|(k, _)| k == "version");
    let Some((_, value)) = found.next() else {
        return Ok(0);
    };
    if found.next().is_some() {
        return Err(ConfigError::new("version", "appears more than once"));
    }
    let allowed = "allowed: 1, 2 (a link without version is from before versions and is read as version 0)";
    match value.parse::<u32>() {
        Ok(v) if (1..=VERSION).contains(&v) => Ok(v),
        Ok(v) if v > VERSION => Err(ConfigError::new(
            "version",
            format!("version {} is newer than this playground, which knows versions up to {}; {}", v, VERSION, allowed),
        )),
        _ => Err(ConfigError::new(
            "version",
            format!("{} is not a version this playground writes; {}", quote(value), allowed),
        )),
    }
}

/// Brings decoded `(key, value)` pairs written under schema `version` to the current
/// [`VERSION`], one step per version, and drops the `version` pair itself (the parsers read the
/// keys of the current schema only). Keys and values are decoded text (no percent escapes).
///
/// Errors: a `version` newer than [`VERSION`] (the error names `version` and what is allowed).
pub fn migrate(version: u32, pairs: Vec<(String, String)>) -> Result<Vec<(String, String)>, ConfigError> {
    if version > VERSION {
        return Err(ConfigError::new(
            "version",
            format!(
                "version {} is newer than this playground, which knows versions up to {}; allowed: 1, 2",
                version, VERSION
            ),
        ));
    }
    let mut pairs: Vec<(String, String)> = pairs.into_iter().filter(|(k, _)| k != "version").collect();
    if version < 1 {
        pairs = v0_to_v1(pairs);
    }
    if version < 2 {
        pairs = v1_to_v2(pairs);
    }
    Ok(pairs)
}

/// Version 0 (links without `version`) to version 1: the identity. Version 1 added the `version`
/// key and the view keys (`t`, `step`, `embed`, `panels`, ...) and gave no existing key a new
/// meaning, so a version-0 link reads the same under version 1.
fn v0_to_v1(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    pairs
}

/// Version 1 to version 2: the identity on the keys. Version 2 changed the exponential of the
/// particle lab's attention weights, not a key; the particle parser keeps the version a link was
/// written in ([`crate::particles::config::Config::version`]) so that its arithmetic is kept too.
fn v1_to_v2(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    pairs
}
