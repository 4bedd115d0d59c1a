//! `attn depth`: one depth-lab run (science.md §3-4): per variant and layer the relative
//! residual, the composite norm and the singular values; optionally the context similarity
//! statistics per layer and head, and the path-length decomposition.

use attn_core::depth::{self, DepthRun, LayerSimilarity, PathLengths, VariantResult};
use attn_core::link::format_f64;
use clap::ValueEnum;
use serde::Serialize;
use std::io::Write;

/// Output formats of `attn depth`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum DepthFormat {
    /// `{"config", "n", ..., "path_shares", "variants": [{"variant", "residual", "composite_norm", "singular_values", ...}]}`.
    Json,
    /// One row per variant and layer: `variant,layer,residual,composite_norm,sigma_1,...`.
    Csv,
}

/// Arguments of `attn depth`.
#[derive(clap::Args, Debug)]
pub struct DepthArgs {
    /// Depth configuration (`lab=depth&preset=bert-init&...`); empty for `bert-init`.
    #[arg(long, default_value = "")]
    pub config: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DepthFormat::Json)]
    pub format: DepthFormat,
    /// JSON only: add the context similarity statistics per layer and head to each variant.
    #[arg(long)]
    pub similarity: bool,
    /// JSON only: add the path-length decomposition (norm and residual of the sum of the paths
    /// of each length) to each variant without MLP (null otherwise).
    #[arg(long)]
    pub paths: bool,
}

#[derive(Serialize)]
struct VariantOut<'a> {
    #[serde(flatten)]
    result: VariantOutFields<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    similarity: Option<&'a [LayerSimilarity]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<PathsOut>,
}

/// The path decomposition of a variant, or why it has none.
#[derive(Serialize, Clone)]
#[serde(untagged)]
enum PathsOut {
    Lengths(PathLengths),
    Unavailable { unavailable: String },
}

#[derive(Serialize)]
struct VariantOutFields<'a> {
    variant: depth::Variant,
    residual: &'a [f64],
    composite_norm: &'a [f64],
    singular_values: &'a [Vec<f64>],
    overflow: &'a Option<String>,
}

#[derive(Serialize)]
struct Output<'a> {
    config: String,
    n: usize,
    d_model: usize,
    layers: usize,
    heads: usize,
    residual_def: depth::ResidualDef,
    precision: depth::Precision,
    #[serde(skip_serializing_if = "Option::is_none")]
    labels: Option<&'a [String]>,
    sentence: &'a [usize],
    separator: &'a [bool],
    chance_level: f64,
    path_shares: Vec<f64>,
    variants: Vec<VariantOut<'a>>,
}

/// Runs `args`, writing the output to `out`. Errors are messages for the user.
pub fn run(args: &DepthArgs, out: &mut dyn Write) -> Result<(), String> {
    crate::check_lab(&args.config, "depth", "attn depth")?;
    let config = depth::parse(&args.config).map_err(|e| format!("invalid --config: {}", e))?;
    let mut run = DepthRun::new(&config);
    let mut results: Vec<(VariantResult, Option<Result<PathLengths, String>>)> = Vec::new();
    for &v in &config.variants {
        let r = run.run_variant(v);
        let paths = args.paths.then(|| run.path_lengths());
        results.push((r, paths));
    }
    let io = |e: std::io::Error| e.to_string();
    match args.format {
        DepthFormat::Json => {
            let input = run.input();
            let output = Output {
                config: config.to_canonical_string(),
                n: run.n(),
                d_model: config.d_model,
                layers: config.layers,
                heads: config.heads,
                residual_def: config.residual_def,
                precision: config.precision,
                labels: config.uses_text().then_some(&input.labels[..]),
                sentence: &input.sentence,
                separator: &input.separator,
                chance_level: run.chance_level(),
                path_shares: run.path_shares(),
                variants: results
                    .iter()
                    .map(|(r, paths)| VariantOut {
                        result: VariantOutFields {
                            variant: r.variant,
                            residual: &r.residual,
                            composite_norm: &r.composite_norm,
                            singular_values: &r.singular_values,
                            overflow: &r.overflow,
                        },
                        similarity: args.similarity.then_some(&r.similarity[..]),
                        paths: paths.clone().map(|p| match p {
                            Ok(lengths) => PathsOut::Lengths(lengths),
                            Err(why) => PathsOut::Unavailable { unavailable: why },
                        }),
                    })
                    .collect(),
            };
            serde_json::to_writer(&mut *out, &output).map_err(|e| e.to_string())?;
            out.write_all(b"\n").map_err(io)?;
        }
        DepthFormat::Csv => {
            let k = results.first().and_then(|(r, _)| r.singular_values.first()).map_or(0, |s| s.len());
            let sigma: Vec<String> = (1..=k).map(|i| format!("sigma_{}", i)).collect();
            writeln!(out, "variant,layer,residual,composite_norm{}{}", if k > 0 { "," } else { "" }, sigma.join(","))
                .map_err(io)?;
            for (r, _) in &results {
                for l in 0..r.residual.len() {
                    let sv: Vec<String> = r
                        .singular_values
                        .get(l)
                        .map(|s| s.iter().map(|&x| format_f64(x)).collect())
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "{},{},{},{}{}{}",
                        r.variant.label(),
                        l,
                        format_f64(r.residual[l]),
                        format_f64(r.composite_norm[l]),
                        if sv.is_empty() { "" } else { "," },
                        sv.join(",")
                    )
                    .map_err(io)?;
                }
            }
        }
    }
    Ok(())
}
