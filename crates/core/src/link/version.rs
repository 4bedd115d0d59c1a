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
//! | 2 | canonical strings until version 3; today, particle runs opened from a version 2 link (same arithmetic as 3) | `2 -> 3`: a depth link whose preset is `bert-init` (written or by default) and that has no `input` key gets `input=gaussian`. Version 3 made `bert-init` start from BERT's input embeddings at initialisation (`input=bert-embeddings`, Dong et al.'s figure) instead of Gaussian tokens |
//! | 3 | canonical strings until version 4; today, particle runs opened from a version 3 link (same arithmetic as 4) | `3 -> 4`: a depth link whose input is laid out from a text (`input=text`, or `input=bert-embeddings` with a non-empty `text`; written, or its preset's as version 3 had them) loses its `tokens`, which the text overrode. Version 4 refuses such a `tokens` unless it equals the text's token count |
//! | 4 | canonical strings until version 5; today, particle runs opened from a version 4 link (the same arithmetic as 5) | `4 -> 5`: the identity on the keys. Version 5 changed what the particle lab counts and shows, not a key: `clusters` links tokens closer than `cluster_tol` times the larger of the initial and the current spread (before: the initial spread), `cluster_tol`'s default is 0.016 (before: 1e-3), and the heatmap's `order` defaults to the preset's suggestion (before: `cluster`). A particle run from an older link keeps all three and writes its version ([`crate::particles::config::Config::version`]), so its numbers and its view are those it had |
//! | 5 | canonical strings until version 6; today, particle runs opened from a version 5 link (the same arithmetic and view as 6) | `5 -> 6`: each lab's link that relied on a default version 6 changed keeps the old one. A depth link without `preset` gets `preset=bert-init` (version 6 opens `collapse-small`, drawn within a second); a training link of `scan-snap` (written or by default) without `iterations` gets `iterations=100` (version 6 trains 1000, so the default run still moves ten seconds after opening) |
//! | 6 | canonical strings until version 7; today, particle runs opened from a version 6 link (the same arithmetic as 7) | `6 -> 7`: a particle link without `heatmap` gets `heatmap=one`. Version 7's heatmap colour scale defaults to the preset's suggestion (`max`, 0 to max P, for `collapse`, the sphere presets and `metastability`, whose `P` never comes near 1; before: `one` for every preset) |
//! | 7 | every canonical string made today | (current) |

use super::quote;
use super::ConfigError;

/// The version written today, first in every canonical string (`version=7&...`).
pub const VERSION: u32 = 7;

/// The first version whose particle links without `heatmap` take the preset's suggested colour
/// scale ([`crate::particles::config::Preset::suggested_heatmap`]); older links keep `one`.
pub const HEAT_SCALE_SUGGESTED: u32 = 7;

/// The first version whose particle runs count clusters as the token view draws them: linked
/// closer than `cluster_tol` times the larger of the initial and the current spread, with
/// `cluster_tol` 0.016 by default, and the heatmap ordered as the preset suggests
/// ([`crate::particles::config::Config::clusters_as_drawn`]). Older links keep the initial
/// spread, 1e-3 and the cluster order.
pub const CLUSTERS_AS_DRAWN: u32 = 5;

/// The version of a configuration's decoded `(key, value)` pairs: `0` when there is no `version`
/// key (a link from before versions), else its value, which must be a version this code knows
/// (`1` to [`VERSION`]). The error names `version` and says what is allowed (also for a repeated
/// `version`).
pub fn read_version(pairs: &[(String, String)]) -> Result<u32, ConfigError> {
    let mut found = pairs.iter().filter(|(k, _)| k == "version");
    let Some((_, value)) = found.next() else {
        return Ok(0);
    };
    if found.next().is_some() {
        return Err(ConfigError::new("version", "appears more than once"));
    }
    let allowed = format!(
        "allowed: {} (a link without version is from before versions and is read as version 0)",
        known_versions()
    );
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
    let lab = pairs.iter().find(|(k, _)| k == "lab").map_or("particles", |(_, v)| v.as_str()).to_string();
    migrate_for(version, pairs, &lab)
}

/// [`migrate`] for a string read by lab `lab`'s parser (`particles`, `training`, `depth`): a step
/// that concerns one lab applies only when that lab reads the string.
pub fn migrate_for(
    version: u32,
    pairs: Vec<(String, String)>,
    lab: &str,
) -> Result<Vec<(String, String)>, ConfigError> {
    if version > VERSION {
        return Err(ConfigError::new(
            "version",
            format!(
                "version {} is newer than this playground, which knows versions up to {}; allowed: {}",
                version,
                VERSION,
                known_versions()
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
    if version < 3 {
        pairs = v2_to_v3(pairs, lab);
    }
    if version < 4 {
        pairs = v3_to_v4(pairs, lab);
    }
    if version < 5 {
        pairs = v4_to_v5(pairs);
    }
    if version < 6 {
        pairs = v5_to_v6(pairs, lab);
    }
    if version < HEAT_SCALE_SUGGESTED {
        pairs = v6_to_v7(pairs, lab);
    }
    Ok(pairs)
}

/// The versions a link may name: `1, 2, ..., VERSION`.
fn known_versions() -> String {
    (1..=VERSION).map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
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

/// Version 2 to version 3: a depth link that opens `bert-init` (written, or the lab's default
/// preset when `preset` is absent) without an `input` key keeps its Gaussian tokens
/// (`input=gaussian`): version 3's `bert-init` starts from BERT's input embeddings instead.
fn v2_to_v3(mut pairs: Vec<(String, String)>, lab: &str) -> Vec<(String, String)> {
    let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let depth = lab == "depth";
    let bert_init = matches!(value("preset"), None | Some("bert-init"));
    if depth && bert_init && value("input").is_none() {
        pairs.push(("input".to_string(), "gaussian".to_string()));
    }
    pairs
}

/// Version 3 to version 4: a depth link whose tokens are laid out from a text loses its
/// `tokens`, which the text overrode (version 4 refuses a `tokens` that differs from the text's
/// token count). The input is laid out from a text with `input=text`, or `input=bert-embeddings`
/// and a non-empty `text`; `input` and `text` are the link's, else those of its preset as
/// version 3 defined them (`context-text`: text input and a text; `bert-init`, the default:
/// BERT's input embeddings, no text; the others: no text).
fn v3_to_v4(mut pairs: Vec<(String, String)>, lab: &str) -> Vec<(String, String)> {
    if lab != "depth" {
        return pairs;
    }
    let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let preset = value("preset").unwrap_or("bert-init");
    let input = value("input").unwrap_or(match preset {
        "context-text" => "text",
        "bert-init" => "bert-embeddings",
        _ => "other",
    });
    let has_text = value("text").map_or(preset == "context-text", |t| !t.is_empty());
    if input == "text" || (input == "bert-embeddings" && has_text) {
        pairs.retain(|(k, _)| k != "tokens");
    }
    pairs
}

/// Version 4 to version 5: the identity on the keys. Version 5 changed the particle lab's
/// `clusters` rule, `cluster_tol`'s default and the heatmap's default order, not a key; the
/// particle parser keeps the version a link was written in
/// ([`crate::particles::config::Config::version`]), and with it the rule and the defaults the
/// link had ([`CLUSTERS_AS_DRAWN`]).
fn v4_to_v5(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    pairs
}

/// Version 5 to version 6: each lab's link keeps the defaults version 6 changed, by writing the
/// old ones into it. Version 6 opens every lab on a run that is drawn within a second and still
/// moves ten seconds later: the depth lab's default preset is `collapse-small` (before:
/// `bert-init`, blank for 10 to 34 s), the training preset `scan-snap` trains 1000 iterations
/// (before: 100, finished 2 to 4 s after opening). So a depth link without `preset` gets
/// `preset=bert-init`, and a `scan-snap` training link (written or by default) without
/// `iterations` gets `iterations=100`.
fn v5_to_v6(mut pairs: Vec<(String, String)>, lab: &str) -> Vec<(String, String)> {
    let value = |pairs: &[(String, String)], key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let missing: &[(&str, &str)] = match lab {
        "depth" => &[("preset", "bert-init")],
        "training" if matches!(value(&pairs, "preset").as_deref(), None | Some("scan-snap")) => {
            &[("iterations", "100")]
        }
        _ => &[],
    };
    for (key, old) in missing {
        if value(&pairs, key).is_none() {
            pairs.push((key.to_string(), old.to_string()));
        }
    }
    pairs
}

/// Version 6 to version 7: a particle link without `heatmap` keeps the colour scale it had,
/// `heatmap=one` (0 to 1). Version 7 defaults to the preset's suggestion
/// ([`crate::particles::config::Preset::suggested_heatmap`]: 0 to max P where `P` never comes
/// near 1).
fn v6_to_v7(mut pairs: Vec<(String, String)>, lab: &str) -> Vec<(String, String)> {
    if lab == "particles" && !pairs.iter().any(|(k, _)| k == "heatmap") {
        pairs.push(("heatmap".to_string(), "one".to_string()));
    }
    pairs
}
