//! The training lab's presets, one row each: a name, a caption, a one-sentence description and a
//! full [`TrainingConfig`].

use super::config::{TrainingConfig, TrainingPreset, WeightsInit};
use crate::link::{row_of, LabPreset, PresetRow};

/// The training presets (each made from [`base`]), one row each, in the order the page lists them.
const ROWS: [PresetRow<TrainingPreset, TrainingConfig>; 2] = [
    PresetRow {
        preset: TrainingPreset::ScanSnap,
        name: "scan-snap",
        caption: "Training one attention layer: it scans to the telling tokens, then snaps.",
        description: "Attention starts uniform, scans from the common tokens to the distinct tokens of each class, then snaps: it freezes at a mixture (Tian et al. 2023, Fig. 4).",
        // 1000 iterations: at the page's default speed the run still moves ten seconds after
        // opening (link version 6; version 5 and older links keep 100, `crate::link::migrate`).
        config: |base| TrainingConfig { iterations: 1000, ..base },
    },
    PresetRow {
        preset: TrainingPreset::ScanSnapSweep,
        name: "scan-snap-sweep",
        caption: "How the learning rates decide how sparse the learnt attention ends.",
        description: "One query token serves two next tokens: a larger learning rate of Z (eta_z) gives sparser final attention, a larger ratio of the rates of Y and Z freezes it earlier (Tian et al. 2023).",
        config: |base| TrainingConfig { queries: 1, next_per_query: 2, weights_init: WeightsInit::Uniform, ..base },
    },
];

/// All training presets, in the order the page lists them.
pub const TRAINING_PRESETS: [TrainingPreset; ROWS.len()] = [ROWS[0].preset, ROWS[1].preset];

/// The values every preset starts from: the paper's Fig. 4 setting, 100 iterations.
fn base() -> TrainingConfig {
    TrainingConfig {
        preset: TrainingPreset::ScanSnap, // set to the row's own by TrainingPreset::config
        queries: 2,
        next_per_query: 1,
        commons: 10,
        commons_per_query: 0,
        distinct: 10,
        weight_lo: 0.1,
        weight_hi: 1.0,
        weights_init: WeightsInit::Zero,
        eta_z: 1.0,
        ratio: 1.0,
        momentum: 0.9,
        batch: 128,
        seq_len: 128,
        iterations: 100,
        seed: 1,
        query_row: 0,
        snap_tol: 1e-3,
        vocab: 200,
        text: String::new(),
    }
}

impl LabPreset for TrainingPreset {
    const NOUN: &'static str = "training preset";
    const DEFAULT: Self = TrainingPreset::ScanSnap;
    type Config = TrainingConfig;
    fn all() -> &'static [Self] {
        &TRAINING_PRESETS
    }
    fn row(self) -> &'static PresetRow<TrainingPreset, TrainingConfig> {
        row_of(&ROWS, self)
    }
    fn pairs(self) -> Vec<(&'static str, String)> {
        self.config().pairs()
    }
}

impl TrainingPreset {
    /// The preset's full configuration.
    pub fn config(self) -> TrainingConfig {
        TrainingConfig { preset: self, ..(self.row().config)(base()) }
    }
}
