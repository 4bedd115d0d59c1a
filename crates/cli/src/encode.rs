//! `attn encode`: the model lab headless (science.md §6). Loads a BERT model folder
//! (`model.safetensors`, `config.json`, `vocab.txt`, optional `tokenizer_config.json`), runs a text
//! through the unmodified encoder and Dong et al.'s four variants, and prints one JSON object:
//! `config` (the canonical `lab=model&…` link), `model`, `ids`, `tokens`, `sentence`, `hidden`
//! (the last layer, `n x d`), `variants` (SAN, SAN+MLP, SAN+skip, transformer, each with its
//! `layers + 1` residuals), and with `--attention L,H` / `--similarity L,H` the heads' `p`
//! (`P_h`, `n x n`) and `s` (`S = O_h O_h^T`, diagonal 0) in flag order. `f32` values print as the
//! shortest decimal that reads back to the same `f32`, non-finite values (an `f32` overflow during
//! the forward) as null, each group of them listed in `non_finite` (`[{variant, layer, head, what}]`,
//! head only for a head's matrix; core `model::non_finite`), exit status 0. A `--config` link
//! of a version before the tokenizer took Hugging Face `tokenizers`' Unicode tables whose text has
//! a code point they treat otherwise gets `tokenizer_note` (last) naming them, also on stderr as
//! `note: …` (core `model::keys::tokenizer_note`); the exit status stays 0.
//!
//! Bad input (a file, tensor or `config.json` field, a flag, the text) is one line on stderr and
//! exit code 2. `--threads` splits rows and heads across threads; it never changes a bit
//! (every output element is computed by one task in a fixed order).

use crate::encode_head::layer_head;
use attn_core::model::analysis::similarity;
use attn_core::model::keys::{model_id, parse_versioned, tokenizer_note, valid_name, ModelLink};
use attn_core::model::non_finite::{self, NonFinite};
use attn_core::model::{Encoder, Pool, VARIANTS};
use clap::ValueEnum;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output formats of `attn encode`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum EncodeFormat {
    /// One JSON object (see the command's documentation).
    Json,
}

/// Arguments of `attn encode`.
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    /// The model folder: model.safetensors, config.json, vocab.txt (and tokenizer_config.json).
    #[arg(long)]
    pub model: PathBuf,
    /// The text to analyse (exactly one of --text and --config); it may start with `-`
    /// (`--text '-5 degrees'`).
    #[arg(long, allow_hyphen_values = true)]
    pub text: Option<String>,
    /// A model-lab link (`lab=model&model=NAME@SHA16&text=…`): its text, for the weights it names.
    #[arg(long)]
    pub config: Option<String>,
    /// `L,H`: print head H's attention (0-based) of layer L (1..=layers); repeatable.
    #[arg(long = "attention", value_name = "L,H")]
    pub attention: Vec<String>,
    /// `L,H`: print head H's context-similarity matrix S = O O^T of layer L; repeatable.
    #[arg(long = "similarity", value_name = "L,H")]
    pub similarity: Vec<String>,
    /// The sections on trained heads and layers (science.md §7).
    #[command(flatten)]
    pub trained: crate::encode_trained::TrainedArgs,
    /// One head as a particle system (science.md §7.6).
    #[command(flatten)]
    pub head: crate::encode_head::HeadArgs,
    /// Threads (rows and heads split across them; the bits never change). Default: every core.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The model's name in the link and the output (default: the folder's name).
    #[arg(long)]
    pub model_name: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EncodeFormat::Json)]
    pub format: EncodeFormat,
}

/// The tasks of a forward on a rayon pool: chunk `k` is computed by one task whichever thread runs it.
pub(crate) struct Rayon(pub(crate) rayon::ThreadPool);

impl Pool for Rayon {
    fn chunks(&self, out: &mut [f32], chunk: usize, task: &(dyn Fn(usize, &mut [f32]) + Sync)) {
        use rayon::prelude::*;
        self.0.install(|| out.par_chunks_mut(chunk.max(1)).enumerate().for_each(|(k, c)| task(k, c)));
    }
}

#[derive(Serialize)]
struct ModelOut<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    layers: usize,
    heads: usize,
    hidden: usize,
    vocab: usize,
    sha256: &'a str,
}

#[derive(Serialize)]
struct VariantOut {
    variant: &'static str,
    residual: Vec<f64>,
}

#[derive(Serialize)]
struct HeadP<'a> {
    layer: usize,
    head: usize,
    p: Vec<&'a [f32]>,
}

#[derive(Serialize)]
struct HeadS {
    layer: usize,
    head: usize,
    s: Vec<Vec<f32>>,
}

#[derive(Serialize)]
struct Output<'a> {
    config: String,
    model: ModelOut<'a>,
    ids: &'a [u32],
    tokens: &'a [String],
    sentence: &'a [usize],
    hidden: Vec<&'a [f32]>,
    variants: Vec<VariantOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attention: Option<Vec<HeadP<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    similarity: Option<Vec<HeadS>>,
    /// Every group of printed values holding a number that is not finite (printed as null): an
    /// `f32` overflow during the forward. Absent when every number is finite.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    non_finite: Vec<NonFinite>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spectrum: Option<Vec<crate::encode_trained::SpectrumOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repeat: Option<crate::encode_trained::RepeatOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    head_dynamics: Option<crate::encode_head::HeadOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layers_view: Option<crate::encode_trained::LayersViewOut>,
    /// For a `--config` link older than the tokenizer's Unicode tables whose text has code points
    /// they treat otherwise: the note naming them (also printed on stderr).
    #[serde(skip_serializing_if = "Option::is_none")]
    tokenizer_note: Option<String>,
}

/// The rows of a row-major matrix of width `w`.
fn rows(m: &[f32], w: usize) -> Vec<&[f32]> {
    m.chunks(w).collect()
}

pub(crate) fn read_bytes(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {}", path.display(), e))
}

/// The text of the model folder's file `name`, by the core's rule for a model folder's text files
/// (UTF-8, a leading byte-order mark dropped, other encodings refused naming the file:
/// `attn_core::model::text_file`), the page's rule too.
pub(crate) fn read_text(dir: &Path, name: &str) -> Result<String, String> {
    let bytes = read_bytes(dir, name)?;
    match attn_core::model::text_file::decode(name, &bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(attn_core::model::ModelError::TextFile { why, .. }) => {
            Err(format!("{}: {}", dir.join(name).display(), why))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The model-lab link of `--config` and its version. A link for another lab is refused naming `lab` and the
/// command that runs it: by its `lab` key ([`crate::check_lab`]), or, without `lab`, by a key of
/// the particle lab that the model lab does not have (`preset=polytope`: the page opens a link
/// without `lab` in the particle lab).
fn config_link(config: &str) -> Result<(ModelLink, u32), String> {
    crate::check_lab(config, "model", "attn encode")?;
    parse_versioned(config).map_err(|e| {
        let keys = |lab| attn_core::lab::link_keys(lab).unwrap_or_default();
        let particle_key = keys("particles").contains(&e.key.as_str()) && !keys("model").contains(&e.key.as_str());
        if particle_key && attn_core::lab::named_lab(config) == Ok(None) {
            format!(
                "invalid --config: `lab`: attn encode runs the model lab; this link has no lab key and holds `{}`, a key \
                 of the particle lab: use attn run for it (a model link has lab=model)",
                e.key
            )
        } else {
            format!("invalid --config: {}", e)
        }
    })
}

/// Runs `attn encode`, writing the JSON object to `out`.
pub fn run(args: &EncodeArgs, out: &mut dyn Write) -> Result<(), String> {
    // The link, checked before the model loads (its model named once the weights are hashed), and
    // the version it was written in (a --config link's; the tokenizer's note reads it).
    let (link, version) = match (&args.config, &args.text) {
        (Some(c), None) => {
            let (link, version) = config_link(c)?;
            (link, Some(version))
        }
        (None, Some(t)) => {
            (ModelLink::with_text(String::new(), t).map_err(|e| format!("invalid --text: {}", e))?, None)
        }
        _ => return Err("give exactly one of --text TEXT and --config LINK".into()),
    };
    let threads = args.threads.unwrap_or_else(crate::default_threads);
    if threads == 0 {
        return Err("invalid --threads 0: at least 1".into());
    }
    let dir = &args.model;
    let name = match &args.model_name {
        Some(n) if valid_name(n) => n.clone(),
        Some(n) => {
            return Err(format!("invalid --model-name {:?}: letters, digits, '.', '_', '-', at most 64 bytes", n))
        }
        None => {
            let folder = dir.canonicalize().ok().and_then(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()));
            match folder {
                Some(f) if valid_name(&f) => f,
                _ => {
                    return Err(format!("the folder name of {} is not a model name; give --model-name", dir.display()))
                }
            }
        }
    };
    let bytes = read_bytes(dir, "model.safetensors")?;
    let config_json = read_text(dir, "config.json")?;
    let vocab = read_text(dir, "vocab.txt")?;
    let tok_config = match dir.join("tokenizer_config.json").is_file() {
        true => Some(read_text(dir, "tokenizer_config.json")?),
        false => None,
    };
    let sha: String = Sha256::digest(&bytes).iter().map(|b| format!("{:02x}", b)).collect();
    let id = model_id(&name, &sha);
    let encoder = Encoder::load(&bytes, &config_json, &vocab, tok_config.as_deref()).map_err(|e| e.to_string())?;
    drop(bytes);
    let c = &encoder.config;
    let link = match args.config {
        Some(_) => {
            link.check_model(&id).map_err(|e| format!("invalid --config: {}", e))?;
            link
        }
        None => ModelLink { model: id, ..link },
    };
    link.check_shape(c.layers, c.heads).map_err(|e| format!("invalid --config: {}", e))?;
    let attention_flags: Vec<(usize, usize)> =
        args.attention.iter().map(|v| layer_head("attention", v, c.layers, c.heads)).collect::<Result<_, _>>()?;
    let similarity_flags: Vec<(usize, usize)> =
        args.similarity.iter().map(|v| layer_head("similarity", v, c.layers, c.heads)).collect::<Result<_, _>>()?;
    let spectrum_flags: Vec<(usize, usize)> =
        args.trained.spectrum.iter().map(|v| layer_head("spectrum", v, c.layers, c.heads)).collect::<Result<_, _>>()?;
    let repeat_request = crate::encode_trained::check(&args.trained, c.layers, &link)?;
    let head_request = crate::encode_head::check(&args.head, c.layers, c.heads, &link)?;
    let source = if args.text.is_some() { "--text" } else { "--config's text" };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {}", threads, e))?;
    let pool = Rayon(pool);
    let analysis = encoder.analyse(&link.text, &pool).map_err(|e| format!("invalid {}: {}", source, e))?;
    let spectrum = match spectrum_flags.is_empty() {
        true => None,
        false => Some(crate::encode_trained::spectrum_section(&encoder, &spectrum_flags)?),
    };
    let repeat = repeat_request.map(|r| crate::encode_trained::repeat_section(&encoder, &analysis.encoding, &r, &pool));
    let head_dynamics = head_request.map(|r| crate::encode_head::section(&encoder, &analysis.encoding, &r, &pool));
    let f = &analysis.forward;
    let (n, d) = (f.n, f.d);
    let layers_view =
        args.trained.layers_view.then(|| crate::encode_trained::layers_view_section(&f.hidden, n, d, link.cos_tol));
    // A --text is today's text: only a link can be older than the tokenizer's tables.
    let note = version.and_then(|v| tokenizer_note(v, &link.text));
    if let Some(note) = &note {
        eprintln!("note: {}", note);
    }
    let mut non_finite = non_finite::residuals(&analysis.curves);
    non_finite.extend(non_finite::values("transformer", c.layers, None, "hidden", &f.hidden[c.layers]));
    if layers_view.is_some() {
        for (layer, x) in f.hidden.iter().enumerate() {
            non_finite.extend(non_finite::values("transformer", layer, None, "layers_view", x));
        }
    }
    for &(layer, head) in &attention_flags {
        non_finite.extend(non_finite::values(
            "transformer",
            layer,
            Some(head),
            "attention",
            f.attention(layer, head).expect("in range"),
        ));
    }
    let sims: Vec<Vec<f32>> = similarity_flags
        .iter()
        .map(|&(layer, head)| similarity(f.head_output(layer, head).expect("in range"), n, f.d_head))
        .collect();
    for (&(layer, head), s) in similarity_flags.iter().zip(&sims) {
        non_finite.extend(non_finite::values("transformer", layer, Some(head), "similarity", s));
    }
    let output = Output {
        config: link.to_canonical_string(),
        model: ModelOut {
            name: &name,
            kind: "bert",
            layers: c.layers,
            heads: c.heads,
            hidden: c.hidden,
            vocab: c.vocab_size,
            sha256: &sha,
        },
        ids: &analysis.encoding.ids,
        tokens: &analysis.encoding.pieces,
        sentence: &analysis.encoding.sentence,
        hidden: rows(&f.hidden[c.layers], d),
        variants: VARIANTS
            .iter()
            .zip(&analysis.curves)
            .map(|(v, curve)| VariantOut { variant: v.label(), residual: curve.residual.clone() })
            .collect(),
        attention: (!attention_flags.is_empty()).then(|| {
            attention_flags
                .iter()
                .map(|&(layer, head)| HeadP { layer, head, p: rows(f.attention(layer, head).expect("in range"), n) })
                .collect()
        }),
        similarity: (!similarity_flags.is_empty()).then(|| {
            similarity_flags
                .iter()
                .zip(&sims)
                .map(|(&(layer, head), s)| HeadS { layer, head, s: s.chunks(n).map(|r| r.to_vec()).collect() })
                .collect()
        }),
        non_finite,
        spectrum,
        repeat,
        head_dynamics,
        layers_view,
        tokenizer_note: note,
    };
    let text = serde_json::to_string(&output).map_err(|e| format!("cannot write JSON: {}", e))?;
    writeln!(out, "{}", text).map_err(|e| format!("cannot write the output: {}", e))
}
