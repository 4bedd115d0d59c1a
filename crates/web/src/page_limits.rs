//! The page's limits: what the browser page refuses on top of the core's own limits, because
//! the page runs in a browser tab's time and memory. The single home of these limits; the CLI
//! and the core keep only the core's limits, so a link the page refuses still runs in `attn`
//! and no configuration version changes. [`crate::link::check_link`] applies them whenever a
//! lab's page checks a link (its `lab` argument).
//!
//! Particle lab: one step is never split on the main thread, so the page refuses runs whose
//! step costs far more than a frame. Cost model (docs/particle-lab.md, "The page's budget"): a pair-evaluation costs about
//! `d + 4` units (d multiply-adds for the score and as many for the weighted sum, plus the
//! exponential and the softmax bookkeeping, which cost about four coordinates' worth), so a step
//! costs `n² (d + 4) × stages` (stages: 4 for rk4, else 1), and the page takes a step when
//! `n² (d + 4) × stages <= PARTICLE_STEP_BUDGET` = `4096² × 7` — the largest run the page promises,
//! n = 4096 at d = 3 with Euler. The formula is fixed (no device measurement) so that a link opens
//! on every machine or on none. The constants come from `cargo xtask bench --particles-only` on
//! the 2-core development machine (docs/particle-lab.md, "The page's budget"): the wasm worker pool at n = 4096 costs
//! 3.37, 3.66, 11.3 and 75.5 ns per pair at d = 2, 3, 16, 128, i.e. 0.57 ns × (d + 3.7): at
//! the budget a step takes ~61 ms at d = 3 (n = 4096) and ~67 ms at d = 128 (n <= 943).
//! Links the page took before this model (the older bound `n² d × stages <= 4096² × 3`, which let
//! d = 1 and d = 2 run rk4 with more tokens) are still taken: [`particle_step_fits`] admits a
//! step under either bound, so no link that opened before is refused now. The page's views and
//! analyses are sized for at most [`PARTICLE_MAX_N`] tokens.
//!
//! Depth lab: the page keeps one variant's context-similarity maps `S` (one `n x n` matrix per
//! layer and head, sent by the worker as `f32`: `L·H·n²·4` bytes) while the worker's wasm keeps
//! the same variant's records (attention maps `P`, `L·H·n²` entries in the run's precision, and
//! the head outputs). [`DEPTH_MAX_MAPS`] bounds `L·H·n²`: 3.33e7 entries, 133 MB of `f32` maps on
//! the page plus as much again (f32; twice with `precision=f64`) in the worker: the heavy run
//! `layers=48&heads=16&tokens=208` (3.32e7) is allowed, `tokens=209` at that depth is not (the
//! core allows up to 2^25 = 3.36e7).
//!
//! Model lab: [`MAX_MODEL_BYTES`] bounds the data of a `model.safetensors` the page reads,
//! 1.75 GiB. While a model loads, its worker holds the file's bytes and the `f32` weights read from
//! them at once (as many bytes again), 3.5 GiB at the limit, within wasm32's 4 GiB address space;
//! the 0.5 GiB left is the forward's working set (the module and its stacks, the activations and
//! one variant's attention maps, which the lab's memory estimate bounds with the weights). A file
//! whose header describes more is refused from the header alone, before its data is read, naming
//! its largest tensor ([`check_model_header`]); the CLI reads it.

use attn_core::depth::DepthConfig;
use attn_core::lab::LabConfig;
use attn_core::particles::config::{Config, Integrator};
use attn_core::ConfigError;

/// Largest `layers · heads · n²` (context-similarity entries of one variant) the depth page
/// runs: `4 · DEPTH_MAX_MAPS` bytes of `f32` maps kept on the page.
pub const DEPTH_MAX_MAPS: usize = 33_300_000;

/// Refuses a depth configuration heavier than the page holds ([`DEPTH_MAX_MAPS`]), naming
/// `tokens` and the largest `n` the page allows at its `layers` and `heads`.
pub fn check_depth(c: &DepthConfig) -> Result<(), ConfigError> {
    let n = c.n();
    let maps = c.layers * c.heads * n * n;
    if maps <= DEPTH_MAX_MAPS {
        return Ok(());
    }
    let n_max = ((DEPTH_MAX_MAPS / (c.layers * c.heads)) as f64).sqrt().floor() as usize;
    Err(ConfigError::new(
        "tokens",
        format!(
            "n = {} with layers = {} and heads = {}: layers x heads x n^2 = {} similarity-map entries, more than the page holds ({}: {} MB of f32 maps); at layers = {} and heads = {} the page allows n <= {}; the CLI `attn depth` runs it",
            n,
            c.layers,
            c.heads,
            maps,
            DEPTH_MAX_MAPS,
            DEPTH_MAX_MAPS * 4 / 1_000_000,
            c.layers,
            c.heads,
            n_max
        ),
    ))
}

/// Largest `n² (d + 4)` (x4 with rk4) of a particle step the page takes on (see the module's
/// doc): `4096² × 7`, n = 4096 at d = 3 with Euler.
pub const PARTICLE_STEP_BUDGET: u64 = 4096 * 4096 * 7;

/// The older bound (`n² d`, x4 with rk4), still honoured so that no link that opened
/// before the cost model above is refused now (it admits more tokens at d = 1 and 2 with rk4).
pub const PARTICLE_STEP_BUDGET_V4: u64 = 4096 * 4096 * 3;

/// Cost units per pair-evaluation beyond the `d` coordinates (the exponential and the softmax).
pub const PARTICLE_PAIR_OVERHEAD: u64 = 4;

/// Most tokens the page runs (its views and analyses are sized for this; the core allows more).
pub const PARTICLE_MAX_N: usize = 4096;

/// `x` with thousands separated by commas (`50,331,648`).
fn grouped(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether a step of `n` tokens in dimension `d` with `stages` attention evaluations fits the
/// page: `n² (d + 4) stages <= PARTICLE_STEP_BUDGET`, or the older `n² d stages <=
/// PARTICLE_STEP_BUDGET_V4`.
pub fn particle_step_fits(n: u64, d: u64, stages: u64) -> bool {
    n * n * (d + PARTICLE_PAIR_OVERHEAD) * stages <= PARTICLE_STEP_BUDGET
        || n * n * d * stages <= PARTICLE_STEP_BUDGET_V4
}

/// The largest `n` whose step fits at `d` and `stages` (0 when none).
fn particle_n_max(d: u64, stages: u64) -> u64 {
    let by_cost = (PARTICLE_STEP_BUDGET / ((d + PARTICLE_PAIR_OVERHEAD) * stages)) as f64;
    let by_v4 = (PARTICLE_STEP_BUDGET_V4 / (d * stages)) as f64;
    let mut n = by_cost.sqrt().max(by_v4.sqrt()).floor() as u64;
    // The square roots are of exact integers below 2^53; settle the last unit in integers.
    while n > 0 && !particle_step_fits(n, d, stages) {
        n -= 1;
    }
    while particle_step_fits(n + 1, d, stages) {
        n += 1;
    }
    n
}

/// The largest `d` whose step fits at `n` and `stages` (0 when none).
fn particle_d_max(n: u64, stages: u64) -> u64 {
    let work = n * n * stages;
    let by_cost = (PARTICLE_STEP_BUDGET / work).saturating_sub(PARTICLE_PAIR_OVERHEAD);
    by_cost.max(PARTICLE_STEP_BUDGET_V4 / work)
}

/// Refuses a particle configuration heavier than the page runs: more than [`PARTICLE_MAX_N`]
/// tokens (naming `n`), or a step that does not fit ([`particle_step_fits`]), naming `d` when
/// `edited` is `d` (and some `d` fits at this `n`), else `n`, with the largest value the page
/// allows.
pub fn check_particles(c: &Config, edited: Option<&str>) -> Result<(), ConfigError> {
    let (n, d) = (c.n as u64, c.d as u64);
    let stages: u64 = if c.integrator == Integrator::Rk4 { 4 } else { 1 };
    if c.n > PARTICLE_MAX_N {
        return Err(ConfigError::new(
            "n",
            format!(
                "n = {} is more tokens than the page draws; allowed: 1..={} (the CLI `attn run` takes up to 16384)",
                n, PARTICLE_MAX_N
            ),
        ));
    }
    if particle_step_fits(n, d, stages) {
        return Ok(());
    }
    let n_max = particle_n_max(d, stages);
    let d_max = particle_d_max(n, stages);
    let rk4 = if stages > 1 { " with rk4 (4 evaluations per step)" } else { "" };
    let work = format!(
        "(n² (d + 4){} = {}, the page allows {})",
        if stages > 1 { " x 4" } else { "" },
        grouped(n * n * (d + PARTICLE_PAIR_OVERHEAD) * stages),
        grouped(PARTICLE_STEP_BUDGET)
    );
    let cli = "the CLI `attn run` has no such limit";
    if edited == Some("d") && d_max >= 1 {
        return Err(ConfigError::new(
            "d",
            format!(
                "d = {} with n = {}{} is too much work per step for the page {}; at n = {} the page allows d <= {}; {}",
                d, n, rk4, work, n, d_max, cli
            ),
        ));
    }
    Err(ConfigError::new(
        "n",
        format!(
            "n = {} with d = {}{} is too much work per step for the page {}; at d = {} the page allows n <= {}; {}",
            n, d, rk4, work, d, n_max, cli
        ),
    ))
}

/// Every page limit of a parsed configuration (see the module's doc); `edited`: the key the
/// user just changed, when known (a refusal then names it where it can).
pub fn check_page(c: &LabConfig, edited: Option<&str>) -> Result<(), ConfigError> {
    match c {
        LabConfig::Depth(d) => check_depth(d),
        LabConfig::Particles(p) => check_particles(p, edited),
        // The model lab's limit is its memory estimate, checked with the weights (`model_memory`).
        LabConfig::Training(_) | LabConfig::Model(_) => Ok(()),
    }
}

/// Most bytes of tensor data in a `model.safetensors` the page reads: 1.75 GiB (the module's
/// documentation says why).
#[cfg(feature = "model")]
pub const MAX_MODEL_BYTES: u64 = 7 << 28;

#[cfg(feature = "model")]
const GIB: f64 = (1u64 << 30) as f64;

/// Checks the header of a `model.safetensors` of `size` bytes from the file's first bytes
/// `prefix`, before its data is read (core `model::tensor_file`): returns 0 when the header is
/// sound, describes at most [`MAX_MODEL_BYTES`] of data and a file of `size` bytes; else the
/// number of bytes from the start of the file it needs to say (more than `prefix` holds). Refused,
/// naming the file and the tensor at fault: a header that does not parse, names a tensor twice or
/// under two names read as one, whose sizes do not add up, that describes more than
/// [`MAX_MODEL_BYTES`] (naming the largest tensor and its size), or another length than `size`.
#[cfg(feature = "model")]
pub fn check_model_header(prefix: &[u8], size: u64) -> Result<u64, String> {
    use attn_core::model::tensor_file::{header_bytes, Header};
    let need = header_bytes(prefix).map_err(|e| e.to_string())?;
    if (prefix.len() as u64) < need && need <= size {
        return Ok(need);
    }
    let header = Header::parse(prefix).map_err(|e| e.to_string())?;
    let data = header.data_bytes();
    if data > MAX_MODEL_BYTES {
        let t = header.largest().map_or(String::new(), |t| {
            format!(
                "; its largest tensor, `{}` ({:?} of shape {:?}), holds {:.2} GiB",
                t.name,
                t.dtype,
                t.shape,
                t.bytes() as f64 / GIB
            )
        });
        return Err(format!(
            "model.safetensors: its header describes {:.2} GiB of tensors, more than the {:.2} GiB the page reads (wasm32's \
             4 GiB holds the file and the weights read from it at once, with the forward's working set){}; attn encode \
             reads it",
            data as f64 / GIB,
            MAX_MODEL_BYTES as f64 / GIB,
            t
        ));
    }
    header.check_length(size).map_err(|e| e.to_string())?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use attn_core::lab::parse_lab;

    /// A safetensors header (its 8-byte length and JSON, no data) of `entries` (`"name":{...}`).
    fn header(entries: &str) -> Vec<u8> {
        let json = format!("{{{}}}", entries);
        let mut out = (json.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(json.as_bytes());
        out
    }

    #[test]
    #[cfg(feature = "model")]
    fn a_header_over_the_model_limit_is_refused_naming_its_largest_tensor() {
        // 2^27 F32 elements (512 MiB): the size the wasm32 page once refused as an overflow.
        let word = r#""bert.embeddings.word_embeddings.weight":{"dtype":"F32","shape":[4194304,32],"data_offsets":[0,536870912]}"#;
        let h = header(word);
        let size = h.len() as u64 + (1 << 29);
        assert_eq!(check_model_header(&h[..3], size), Ok(8));
        assert_eq!(check_model_header(&h[..8], size), Ok(h.len() as u64));
        assert_eq!(check_model_header(&h, size), Ok(0));
        // The same header in a shorter file: truncated, from the header alone.
        let short = check_model_header(&h, h.len() as u64).unwrap_err();
        assert_eq!(
            short,
            format!(
                "model.safetensors: the file is truncated: its header describes {} bytes, the file has {}",
                size,
                h.len()
            )
        );
        // 1.9 GiB in two tensors: refused naming the larger, whatever the file's length.
        let big = header(&format!(
            r#""a":{{"dtype":"F32","shape":[8],"data_offsets":[0,32]}},"cls.predictions.decoder.weight":{{"dtype":"F32","shape":[510027366],"data_offsets":[32,{}]}}"#,
            32 + 4 * 510_027_366u64
        ));
        for size in [big.len() as u64, big.len() as u64 + 32 + 4 * 510_027_366] {
            let e = check_model_header(&big, size).unwrap_err();
            assert_eq!(
                e,
                "model.safetensors: its header describes 1.90 GiB of tensors, more than the 1.75 GiB the page reads \
                 (wasm32's 4 GiB holds the file and the weights read from it at once, with the forward's working set); \
                 its largest tensor, `cls.predictions.decoder.weight` (F32 of shape [510027366]), holds 1.90 GiB; attn \
                 encode reads it"
            );
        }
        assert_eq!(MAX_MODEL_BYTES, 1_879_048_192);
        // The file and the weights at once, and the working set, in 4 GiB.
        const { assert!(2 * MAX_MODEL_BYTES + (1 << 29) <= 1 << 32) };
    }

    #[test]
    fn a_header_naming_a_tensor_twice_is_refused_before_the_data() {
        let t = r#""x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}"#;
        let h = header(&format!("{},{}", t, t));
        let e = check_model_header(&h, h.len() as u64 + 8).unwrap_err();
        assert!(e.starts_with("model.safetensors: tensor `x`: is named twice in the header"), "{}", e);
        // Not a safetensors file at all (a sparse file of zeros: a header of 0 bytes).
        let e = check_model_header(&[0; 8], 1 << 20).unwrap_err();
        assert!(e.starts_with("model.safetensors: the header does not parse"), "{}", e);
    }

    fn depth(text: &str) -> DepthConfig {
        match parse_lab(text).unwrap() {
            LabConfig::Depth(c) => c,
            _ => panic!("not a depth link"),
        }
    }

    #[test]
    fn the_heavy_run_fits_and_one_more_token_is_refused_naming_tokens() {
        let heavy = "lab=depth&layers=48&heads=16&tokens=208&d_model=1024&d_head=64&mlp_width=3072";
        assert_eq!(48 * 16 * 208 * 208, 33_226_752);
        assert!(check_depth(&depth(heavy)).is_ok());
        // One more token: the core takes it (2^25 = 33,554,432), the page does not.
        let heavier = depth("lab=depth&layers=48&heads=16&tokens=209&d_model=1024&d_head=64&mlp_width=3072");
        let e = check_depth(&heavier).unwrap_err();
        assert_eq!(e.key, "tokens");
        assert!(e.message.contains("the page allows n <= 208"), "{}", e.message);
        assert!(check_page(&parse_lab("lab=depth&preset=collapse-small").unwrap(), None).is_ok());
    }

    fn particles(text: &str) -> Config {
        match parse_lab(text).unwrap() {
            LabConfig::Particles(c) => c,
            _ => panic!("not a particle link"),
        }
    }

    #[test]
    fn the_particle_page_runs_4096_tokens_at_d_3_and_refuses_heavier_steps_naming_the_key() {
        assert!(check_particles(&particles("preset=polytope-3d&n=4096"), None).is_ok());
        let e = check_particles(&particles("preset=polytope-3d&n=4097"), None).unwrap_err();
        assert_eq!(e.key, "n");
        assert!(e.message.contains("allowed: 1..=4096"), "{}", e.message);
        let e = check_particles(&particles("preset=polytope&n=4096&integrator=rk4"), None).unwrap_err();
        assert_eq!(e.key, "n");
        assert!(
            e.message.contains("(n² (d + 4) x 4 = 402,653,184, the page allows 117,440,512)")
                && e.message.contains("at d = 2 the page allows n <= 2508"),
            "{}",
            e.message
        );
        let e = check_particles(&particles("preset=polytope&n=1024&d=128"), Some("d")).unwrap_err();
        assert_eq!(e.key, "d");
        assert!(e.message.contains("at n = 1024 the page allows d <= 108"), "{}", e.message);
    }

    #[test]
    fn the_cost_model_admits_larger_d_and_every_step_the_older_bound_admitted() {
        let fits = |n: u64, d: u64, stages: u64| particle_step_fits(n, d, stages);
        // n² (d + 4) <= 4096² x 7: d = 128 runs up to n = 943 (the older bound stopped at 627).
        assert!(fits(943, 128, 1) && !fits(944, 128, 1));
        assert_eq!(particle_n_max(128, 1), 943);
        assert_eq!(particle_n_max(256, 1), 672);
        assert!(fits(4096, 3, 1) && fits(2048, 3, 4) && !fits(2049, 3, 4));
        // Every (n, d, stages) the older n² d bound admitted is still admitted.
        for stages in [1u64, 4] {
            for d in 1..=512u64 {
                let n_old = ((PARTICLE_STEP_BUDGET_V4 / (d * stages)) as f64).sqrt().floor() as u64;
                assert!(fits(n_old.min(4096), d, stages), "d = {d}, stages = {stages}");
                assert!(particle_n_max(d, stages) >= n_old.min(4096));
            }
        }
        // The largest n and d are exact: one more does not fit.
        for (d, stages) in [(1u64, 4u64), (2, 4), (16, 1), (16, 4), (64, 1), (200, 4)] {
            let n = particle_n_max(d, stages);
            assert!(fits(n, d, stages) && !fits(n + 1, d, stages), "d = {d}");
        }
        for (n, stages) in [(1024u64, 1u64), (4096, 1), (3000, 4)] {
            let d = particle_d_max(n, stages);
            assert!(fits(n, d, stages) && !fits(n, d + 1, stages), "n = {n}");
        }
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(1000), "1,000");
    }
}
