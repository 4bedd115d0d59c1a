//! `attn encode`'s sections on trained heads and layers (science.md §7): `--spectrum L,H`
//! (repeatable) prints `"spectrum": [{"layer", "head", "v", "s"}, …]`, all `d_model` eigenvalues of
//! `V_h` and `S_h` as `[re, im]`; `--repeat L --iterations T [--variant NAME] [--every K]` prints
//! `"repeat": {"layer", "variant", "iterations", "every", "steps": [{"iteration", "clusters",
//! "labels", "mean_cos", "heads": [{"boolean_distance", "leaders"}, …]}, …], "stopped"}`,
//! clusters under the link's `cos_tol`, each head's §1.7 statistics of the layer's `P_h` (without
//! `--repeat`, a link's `repeat_layer`, `iterations` and `variant` ask for the same); `--layers-view`
//! prints `"layers_view": {"components", "bins", "variance", "total_variance", "coords",
//! "histograms", "clusters", "labels", "mean_cos", "effective_rank"}`, tokens through the layers
//! `h_0 … h_L` (science.md §7.5), one entry per layer in each list.

use attn_core::model::head_spectrum::head_spectrum;
use attn_core::model::heads::head_matrices;
use attn_core::model::keys::VARIANT_NAMES;
use attn_core::model::layers_view::{layers_view, BINS};
use attn_core::model::repeat::{repeat, RepeatSpec, RepeatStep, Stopped, MAX_ITERATIONS};
use attn_core::model::{Encoder, Encoding, ModelLink, Pool, Variant};
use serde::Serialize;

/// The flags of the trained-weights sections.
#[derive(clap::Args, Debug, Default)]
pub struct TrainedArgs {
    /// `L,H`: print all eigenvalues of head H's V_h and S_h in layer L (science.md §7.2); repeatable.
    #[arg(long = "spectrum", value_name = "L,H")]
    pub spectrum: Vec<String>,
    /// Repeat layer L (1-based) on the text's h_{L-1}, the weights constant (science.md §7.4).
    #[arg(long = "repeat", value_name = "L")]
    pub repeat: Option<usize>,
    /// Repetitions of --repeat (1..=1000).
    #[arg(long, value_name = "T")]
    pub iterations: Option<usize>,
    /// The variant repeated: transformer (default), SAN+skip, SAN+MLP, SAN.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// List every K-th repetition (and the last); default 1.
    #[arg(long, value_name = "K")]
    pub every: Option<usize>,
    /// Print the tokens through the layers h_0..h_L: one PCA of all layers, per layer the cosine
    /// histogram, clusters, mean cosine and effective rank (science.md §7.5).
    #[arg(long = "layers-view")]
    pub layers_view: bool,
}

/// `"layers_view"`: per layer `0..=L` (the lists' index), null where the state is not finite.
#[derive(Serialize)]
pub struct LayersViewOut {
    components: usize,
    bins: usize,
    variance: Vec<f64>,
    total_variance: f64,
    coords: Vec<Vec<Vec<f64>>>,
    histograms: Vec<Option<Vec<u64>>>,
    clusters: Vec<Option<usize>>,
    labels: Vec<Option<Vec<usize>>>,
    mean_cos: Vec<Option<f64>>,
    effective_rank: Vec<Option<f64>>,
}

/// The `"layers_view"` section of the hidden states `hidden` (`n x d` each), clusters under `cos_tol`.
pub fn layers_view_section(hidden: &[Vec<f32>], n: usize, d: usize, cos_tol: f64) -> LayersViewOut {
    let v = layers_view(hidden, n, d, cos_tol);
    let k = v.pca.k;
    let stat = |f: &dyn Fn(&attn_core::model::layers_view::LayerStats) -> f64| {
        v.layers.iter().map(|s| s.as_ref().map(f)).collect::<Vec<_>>()
    };
    LayersViewOut {
        components: k,
        bins: BINS,
        mean_cos: stat(&|s| s.mean_cos),
        effective_rank: stat(&|s| s.effective_rank),
        histograms: v.layers.iter().map(|s| s.as_ref().map(|s| s.histogram.clone())).collect(),
        clusters: v.layers.iter().map(|s| s.as_ref().map(|s| s.clusters)).collect(),
        labels: v.layers.iter().map(|s| s.as_ref().map(|s| s.labels.clone())).collect(),
        coords: v.coords.iter().map(|c| c.chunks(k).map(|p| p.to_vec()).collect()).collect(),
        variance: v.pca.variance,
        total_variance: v.pca.total_variance,
    }
}

/// `"spectrum"`'s entries.
#[derive(Serialize)]
pub struct SpectrumOut {
    layer: usize,
    head: usize,
    v: Vec<(f64, f64)>,
    s: Vec<(f64, f64)>,
}

/// `"repeat"`.
#[derive(Serialize)]
pub struct RepeatOut {
    layer: usize,
    variant: &'static str,
    iterations: usize,
    every: usize,
    steps: Vec<RepeatStep>,
    stopped: Option<Stopped>,
}

/// The checked `--repeat` request.
pub struct RepeatRequest(RepeatSpec);

/// Checks the flags against the model (`layers`), before anything runs. Without `--repeat`, the
/// link's `repeat_layer` (when not 0) is repeated, its `iterations` and `variant` (the page's
/// run); a flag given overrides the link's key.
pub fn check(args: &TrainedArgs, layers: usize, link: &ModelLink) -> Result<Option<RepeatRequest>, String> {
    let from_link = link.repeat_layer > 0;
    let Some(layer) = args.repeat.or(from_link.then_some(link.repeat_layer)) else {
        for (given, flag) in [
            (args.iterations.is_some(), "--iterations"),
            (args.variant.is_some(), "--variant"),
            (args.every.is_some(), "--every"),
        ] {
            if given {
                return Err(format!("{} needs --repeat L (the layer repeated) or a link with repeat_layer", flag));
            }
        }
        return Ok(None);
    };
    if !(1..=layers).contains(&layer) {
        return Err(format!("invalid --repeat {}: the model has layers 1..={}", layer, layers));
    }
    let iterations =
        args.iterations.or(from_link.then_some(link.iterations)).ok_or("--repeat needs --iterations T (1..=1000)")?;
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        return Err(format!("invalid --iterations {}: 1..={}", iterations, MAX_ITERATIONS));
    }
    let every = args.every.unwrap_or(1);
    if !(1..=MAX_ITERATIONS).contains(&every) {
        return Err(format!("invalid --every {}: 1..={}", every, MAX_ITERATIONS));
    }
    let variant = match &args.variant {
        None if from_link => link.variant,
        None => Variant::Transformer,
        Some(name) => attn_core::model::Variant::from_label(name)
            .ok_or_else(|| format!("invalid --variant {:?}: one of {}", name, VARIANT_NAMES.join(", ")))?,
    };
    Ok(Some(RepeatRequest(RepeatSpec { layer, variant, iterations, every, cos_tol: link.cos_tol })))
}

/// The `"repeat"` section.
pub fn repeat_section(encoder: &Encoder, enc: &Encoding, req: &RepeatRequest, pool: &dyn Pool) -> RepeatOut {
    let spec = &req.0;
    let run = repeat(encoder, enc, spec, pool);
    if let Some(s) = &run.stopped {
        eprintln!("note: the repeated layer stopped: {}", s.what);
    }
    RepeatOut {
        layer: spec.layer,
        variant: spec.variant.label(),
        iterations: spec.iterations,
        every: spec.every,
        steps: run.steps,
        stopped: run.stopped,
    }
}

/// The `"spectrum"` section for the heads `(layer, head)` (checked in range).
pub fn spectrum_section(encoder: &Encoder, heads: &[(usize, usize)]) -> Result<Vec<SpectrumOut>, String> {
    heads
        .iter()
        .map(|&(layer, head)| {
            let m = head_matrices(&encoder.config, &encoder.weights, layer, head).expect("checked in range");
            let sp = head_spectrum(&m)
                .ok_or_else(|| format!("--spectrum {},{}: the eigenvalue iteration did not converge", layer, head))?;
            Ok(SpectrumOut { layer, head, v: sp.v, s: sp.s })
        })
        .collect()
}
