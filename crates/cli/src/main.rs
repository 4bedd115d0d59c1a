//! `attn`: run any playground configuration headless and print its frames as JSON or CSV.

mod bench;
mod depth;
mod encode;
mod encode_head;
mod encode_trained;
mod heap;
mod model_bench;
mod model_bench_parts;
mod particle_bench;
mod run;
mod sweep;
mod threads;
mod train;

use attn_core::link::LabPreset;
use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// Self-attention particle dynamics, headless. The configuration string is the one the
/// playground keeps in its URL, e.g. `version=6&preset=polytope&n=30&seed=7` (without `version`, an old
/// link: version 1's arithmetic).
#[derive(Parser)]
#[command(name = "attn", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a configuration and print frames (tokens, metrics, optionally P).
    Run(RunArgs),
    /// List the presets with what each demonstrates.
    Presets,
    /// Train the scan-and-snap model (training lab) and print per-iteration loss, entropy and the final c_n.
    Train(train::TrainArgs),
    /// Sweep eta_z and ratio over seeds and print the final entropy's mean and std per cell.
    Sweep(sweep::SweepArgs),
    /// Run the depth lab (rank collapse, context similarity) and print per variant and layer the
    /// relative residual and singular values (and optionally similarity statistics and path lengths).
    Depth(depth::DepthArgs),
    /// Run a pretrained BERT encoder on a text (model lab): token ids, the last hidden state, the
    /// residual curves of SAN, SAN+MLP, SAN+skip and the transformer, and chosen heads' attention
    /// and context-similarity matrices, as one JSON object.
    Encode(encode::EncodeArgs),
    /// Time the native particle stepper on one configuration (ms per step, ns per
    /// pair-evaluation, peak heap); with --depth, the depth lab's time per variant; with
    /// --training, the training lab's run and sweep; with --model, the model lab's forward and
    /// analysis of a text. `cargo xtask bench` runs the whole comparison.
    Bench {
        /// The configuration timed: a particle configuration (required unless --training or
        /// --depth); with --depth, a depth configuration (default: lab=depth&preset=bert-init).
        #[arg(long)]
        config: Option<String>,
        /// Time the depth lab instead: seconds per variant (forward pass and analyzers).
        #[arg(long)]
        depth: bool,
        /// Time the training lab instead: 100 iterations of the paper's setting (scan-snap) and
        /// the paper's 4 x 4 sweep with 10 seeds per cell (scan-snap-sweep).
        #[arg(long, conflicts_with = "depth")]
        training: bool,
        /// Time the model lab instead: the forward of --text-file's text through this model
        /// folder's encoder (every head kept) and the page's full analysis, on --threads threads.
        #[arg(long, conflicts_with_all = ["depth", "training"], requires = "text_file")]
        model: Option<std::path::PathBuf>,
        /// With --model: the file holding the text.
        #[arg(long)]
        text_file: Option<std::path::PathBuf>,
        /// With --model: timed rounds after one warm-up (the fastest and the median are printed).
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[command(flatten)]
        particles: particle_bench::Args,
    },
}

/// Output formats.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum Format {
    /// `{"config": ..., "frames": [...]}`.
    Json,
    /// One row per token per frame: `step,t,i,coord_0..coord_{d-1}`.
    Csv,
}

/// Arguments of `attn run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Configuration string (`key=value&...`); empty for the default preset.
    #[arg(long, default_value = "")]
    pub config: String,
    /// Stop time (time units), rounded to a whole number of steps; default: the configuration's `until`.
    #[arg(long, allow_negative_numbers = true)]
    pub until: Option<f64>,
    /// Interval between frames (time units), rounded to whole steps; at least dt. Default: dt.
    #[arg(long, allow_negative_numbers = true)]
    pub every: Option<f64>,
    /// Include the attention matrix P in each JSON frame.
    #[arg(long)]
    pub attention: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Threads per velocity evaluation (rows split in blocks; the tokens are the same bits for
    /// any number). Default: every core.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Each lab, what messages call it, and the command that runs it.
const LAB_COMMANDS: [(&str, &str, &str); 4] = [
    ("particles", "particle", "attn run"),
    ("training", "training", "attn train"),
    ("depth", "depth", "attn depth"),
    ("model", "model", "attn encode"),
];

/// Refuses a `--config` whose `lab` key names a lab other than `lab`, the one `command` runs,
/// saying which command runs it (`attn run runs the particle lab; use attn train for
/// lab=training`); an unknown lab is refused listing the labs. A configuration without `lab`
/// is the command's own lab's.
pub fn check_lab(config: &str, lab: &str, command: &str) -> Result<(), String> {
    let noun = |l: &str| LAB_COMMANDS.iter().find(|(name, _, _)| *name == l).map(|(_, noun, cmd)| (*noun, *cmd));
    match attn_core::lab::named_lab(config) {
        Ok(Some(named)) if named != lab => {
            let (Some((mine, _)), Some((_, other))) = (noun(lab), noun(named)) else {
                return Err(format!("invalid --config: `lab`: {} runs lab={}", command, lab));
            };
            Err(format!("invalid --config: `lab`: {} runs the {} lab; use {} for lab={}", command, mine, other, named))
        }
        Ok(_) => Ok(()),
        Err(e) => Err(format!("invalid --config: {}", e)),
    }
}

/// The number of cores (`std::thread::available_parallelism`), 1 if unknown.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => match run::run(&args, &mut std::io::stdout().lock()) {
            Ok(()) => Ok(()),
            Err(run::Failure::Input(m)) | Err(run::Failure::Output(m)) => Err(m),
            Err(run::Failure::Diverged(m)) => {
                eprintln!("attn: the run diverged: {}", m);
                return ExitCode::from(3);
            }
        },
        Command::Bench { training: true, .. } => bench::run_training(),
        Command::Bench { model: Some(dir), text_file: Some(file), rounds, particles, .. } => {
            model_bench::run(&dir, &file, particles.threads, rounds, particles.json)
        }
        Command::Bench { depth: true, config, .. } => bench::run_depth(config.as_deref().unwrap_or("lab=depth&preset=bert-init")),
        Command::Bench { config: Some(config), particles, .. } => particle_bench::run(&config, &particles),
        Command::Bench { config: None, .. } => Err(
            "attn bench times one particle configuration: give --config (e.g. --config 'preset=sphere-sa&n=1024'), or --training, --depth or --model DIR --text-file FILE; `cargo xtask bench` runs the whole comparison".into(),
        ),
        Command::Depth(args) => depth::run(&args, &mut std::io::stdout().lock()),
        Command::Encode(args) => encode::run(&args, &mut std::io::stdout().lock()),
        Command::Train(args) => train::run(&args, &mut std::io::stdout().lock()),
        Command::Sweep(args) => sweep::run(&args, &mut std::io::stdout().lock()),
        Command::Presets => {
            for p in attn_core::particles::config::PRESETS {
                println!("{:<20} {}", p.name(), p.description());
            }
            for p in attn_core::training::TRAINING_PRESETS {
                println!("{:<20} {} (lab=training)", p.name(), p.description());
            }
            for p in attn_core::depth::DEPTH_PRESETS {
                println!("{:<20} {} (lab=depth)", p.name(), p.description());
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("attn: {}", message);
            ExitCode::from(2)
        }
    }
}
