//! The labs as one table: each lab is a type implementing [`Lab`] (its name, configuration type,
//! key table, view keys, parser and example configuration) and one row of [`LABS`], which the
//! link dispatch ([`crate::lab`]), the page's key tables (web), the docs' tables (`cargo xtask
//! docs`) and the repository checks read by the lab's name. Adding a lab is an `impl Lab`, a row
//! here, and its variant of [`LabConfig`].

use crate::depth::{self, DepthConfig, DepthPreset};
use crate::link::keys::{key_names, markdown_table};
use crate::link::{key_infos, quote, ConfigError, Key, KeyInfo, LabPreset};
use crate::model::keys::{self as model_keys, ModelLink};
use crate::particles::config::{self as particles, Config, Preset};
use crate::training::{self, TrainingConfig, TrainingPreset};
use crate::view::{View, ViewSpec};

/// A validated configuration of any lab.
#[derive(Clone, Debug, PartialEq)]
pub enum LabConfig {
    /// `lab` absent or `lab=particles`.
    Particles(Config),
    /// `lab=training`.
    Training(TrainingConfig),
    /// `lab=depth` (science.md §3-4, [`crate::depth`]).
    Depth(DepthConfig),
    /// `lab=model` (science.md §6, [`crate::model::keys`]): the weights' id and the text, with
    /// the head shown and the grids' scale (the lab's own view keys, part of its canonical form).
    Model(ModelLink),
}

/// The caption of a model-lab link (it has no preset): what an embedded view of it shows.
pub const MODEL_CAPTION: &str =
    "A pretrained encoder on a text: each head's attention P and context similarity S = O Oᵀ, and rank collapse without skips";

impl LabConfig {
    /// The canonical string of the configuration (each lab's own canonical form).
    pub fn to_canonical_string(&self) -> String {
        match self {
            LabConfig::Particles(c) => c.to_canonical_string(),
            LabConfig::Training(c) => c.to_canonical_string(),
            LabConfig::Depth(c) => c.to_canonical_string(),
            LabConfig::Model(c) => c.to_canonical_string(),
        }
    }

    /// The lab's name as written in the `lab` key: `particles`, `training`, `depth`, `model`.
    pub fn lab(&self) -> &'static str {
        match self {
            LabConfig::Particles(_) => "particles",
            LabConfig::Training(_) => "training",
            LabConfig::Depth(_) => "depth",
            LabConfig::Model(_) => "model",
        }
    }

    /// Every key of the configuration with its value, in the lab's canonical order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        match self {
            LabConfig::Particles(c) => c.pairs(),
            LabConfig::Training(c) => c.pairs(),
            LabConfig::Depth(c) => c.pairs(),
            LabConfig::Model(c) => c.pairs(),
        }
    }

    /// The one-line caption of the configuration's preset ([`LabPreset::caption`]; the model
    /// lab, without presets: [`MODEL_CAPTION`]): what an embedded view of it shows, in plain words.
    pub fn caption(&self) -> &'static str {
        match self {
            LabConfig::Particles(c) => c.preset.caption(),
            LabConfig::Training(c) => c.preset.caption(),
            LabConfig::Depth(c) => c.preset.caption(),
            LabConfig::Model(_) => MODEL_CAPTION,
        }
    }

    /// The keys whose value differs from the configuration's preset: `(key, preset value, value)`
    /// (none for the model lab, which has no presets).
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        match self {
            LabConfig::Particles(c) => c.differences_from_preset(),
            LabConfig::Training(c) => c.differences_from_preset(),
            LabConfig::Depth(c) => c.differences_from_preset(),
            LabConfig::Model(_) => Vec::new(),
        }
    }
}

impl std::fmt::Display for LabConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// A whole link: the configuration of a lab and its view (what a page's URL hash holds).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The model keys (and the particle lab's `coords`).
    pub config: LabConfig,
    /// The view keys; they never change the numbers.
    pub view: View,
}

impl Link {
    /// The canonical link: `version=V` (see [`crate::particles::config::Config::version`]), the lab's model keys that differ from the preset, then
    /// the view keys that differ from their defaults, each in a fixed order.
    /// `parse_link(&l.to_canonical_string()) == Ok(l)`.
    pub fn to_canonical_string(&self) -> String {
        let mut out = self.config.to_canonical_string();
        for (key, value) in self.view.pairs() {
            out.push('&');
            out.push_str(key);
            out.push('=');
            out.push_str(&value);
        }
        out
    }

    /// The step the link opens at (`step`, or `t` rounded to the nearest step); `None` when it
    /// names no moment.
    pub fn open_step(&self) -> Option<u64> {
        let dt = match &self.config {
            LabConfig::Particles(c) => c.dt,
            _ => 1.0,
        };
        self.view.open_step(dt)
    }
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// What the link layer needs to know of a lab.
pub trait Lab {
    /// The value of the `lab` key (`particles` is also the lab of a link without one).
    const NAME: &'static str;
    /// The lab's validated configuration.
    type Config: 'static;
    /// Its key table: every key of its links after `version`, in canonical order.
    const TABLE: &'static [Key<Self::Config>];
    /// Its view keys.
    const VIEW: &'static ViewSpec;
    /// Parses a link of this lab into its configuration and view keys (errors name the key).
    fn parse_with_view(text: &str) -> Result<(Self::Config, View), ConfigError>;
    /// The configuration the page's fields and the docs' table show as the keys' defaults (the
    /// default preset's; the model lab's example), and the name they give it.
    fn example() -> (Self::Config, &'static str);
    /// The configuration as a [`LabConfig`].
    fn wrap(c: Self::Config) -> LabConfig;
    /// Its presets in the page's order, `(name, description)`; none for a lab without presets.
    fn presets() -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    /// The configuration of preset `name`; an error naming `preset` for an unknown name, or
    /// `lab` for a lab without presets.
    fn preset(name: &str) -> Result<Self::Config, ConfigError> {
        let _ = name;
        Err(no_presets(Self::NAME))
    }
}

/// The rows of a lab's preset list ([`Lab::presets`]).
fn preset_rows<P: LabPreset>() -> Vec<(&'static str, &'static str)> {
    P::all().iter().map(|p| (p.name(), p.description())).collect()
}

/// Preset `name` of `P`, or an error naming `preset` ([`Lab::preset`]).
fn preset_named<P: LabPreset>(name: &str) -> Result<P, ConfigError> {
    P::from_name(name).ok_or_else(|| ConfigError::new("preset", format!("unknown {} {}", P::NOUN, quote(name))))
}

/// The error on `lab` for lab `lab`, which has no presets (it names the labs that have some).
pub fn no_presets(lab: &str) -> ConfigError {
    let with: Vec<&str> = LABS.iter().filter(|e| !(e.presets)().is_empty()).map(|e| e.name).collect();
    ConfigError::new("lab", format!("{} has no presets; labs with presets: {}", quote(lab), with.join(", ")))
}

/// The particle lab (science.md §1-2).
pub struct Particles;
/// The training lab (science.md §5).
pub struct Training;
/// The depth lab (science.md §3-4).
pub struct Depth;
/// The model lab (science.md §6).
pub struct Model;

impl Lab for Particles {
    const NAME: &'static str = "particles";
    type Config = Config;
    const TABLE: &'static [Key<Config>] = particles::PARTICLES_TABLE;
    const VIEW: &'static ViewSpec = &crate::view::PARTICLES_VIEW;
    fn parse_with_view(text: &str) -> Result<(Config, View), ConfigError> {
        particles::parse_with_view(text)
    }
    fn example() -> (Config, &'static str) {
        (Preset::Polytope.config(), LabPreset::name(Preset::Polytope))
    }
    fn wrap(c: Config) -> LabConfig {
        LabConfig::Particles(c)
    }
    fn presets() -> Vec<(&'static str, &'static str)> {
        preset_rows::<Preset>()
    }
    fn preset(name: &str) -> Result<Config, ConfigError> {
        preset_named::<Preset>(name).map(|p| p.config())
    }
}

impl Lab for Training {
    const NAME: &'static str = "training";
    type Config = TrainingConfig;
    const TABLE: &'static [Key<TrainingConfig>] = training::config::TRAINING_TABLE;
    const VIEW: &'static ViewSpec = &crate::view::TRAINING_VIEW;
    fn parse_with_view(text: &str) -> Result<(TrainingConfig, View), ConfigError> {
        training::config::parse_with_view(text)
    }
    fn example() -> (TrainingConfig, &'static str) {
        (TrainingPreset::DEFAULT.config(), LabPreset::name(TrainingPreset::DEFAULT))
    }
    fn wrap(c: TrainingConfig) -> LabConfig {
        LabConfig::Training(c)
    }
    fn presets() -> Vec<(&'static str, &'static str)> {
        preset_rows::<TrainingPreset>()
    }
    fn preset(name: &str) -> Result<TrainingConfig, ConfigError> {
        preset_named::<TrainingPreset>(name).map(|p| p.config())
    }
}

impl Lab for Depth {
    const NAME: &'static str = "depth";
    type Config = DepthConfig;
    const TABLE: &'static [Key<DepthConfig>] = depth::keys::DEPTH_TABLE;
    const VIEW: &'static ViewSpec = &crate::view::DEPTH_VIEW;
    fn parse_with_view(text: &str) -> Result<(DepthConfig, View), ConfigError> {
        depth::parse_with_view(text)
    }
    fn example() -> (DepthConfig, &'static str) {
        (DepthPreset::DEFAULT.config(), LabPreset::name(DepthPreset::DEFAULT))
    }
    fn wrap(c: DepthConfig) -> LabConfig {
        LabConfig::Depth(c)
    }
    fn presets() -> Vec<(&'static str, &'static str)> {
        preset_rows::<DepthPreset>()
    }
    fn preset(name: &str) -> Result<DepthConfig, ConfigError> {
        preset_named::<DepthPreset>(name).map(|p| p.config())
    }
}

impl Lab for Model {
    const NAME: &'static str = "model";
    type Config = ModelLink;
    const TABLE: &'static [Key<ModelLink>] = model_keys::MODEL_TABLE;
    const VIEW: &'static ViewSpec = &crate::view::MODEL_VIEW;
    fn parse_with_view(text: &str) -> Result<(ModelLink, View), ConfigError> {
        model_keys::parse_with_view(text)
    }
    fn example() -> (ModelLink, &'static str) {
        (ModelLink::example(), crate::model::DEFAULT_MODEL)
    }
    fn wrap(c: ModelLink) -> LabConfig {
        LabConfig::Model(c)
    }
}

/// One lab as the rest of the crate dispatches on it by name ([`entry`] of its [`Lab`]).
pub struct LabEntry {
    /// [`Lab::NAME`].
    pub name: &'static str,
    /// [`Lab::VIEW`].
    pub view: &'static ViewSpec,
    /// Parses a link of this lab ([`Lab::parse_with_view`]) into a [`Link`].
    pub parse_link: fn(&str) -> Result<Link, ConfigError>,
    /// The names of its key table's keys, in canonical order.
    pub key_names: fn() -> Vec<&'static str>,
    /// Its key table as plain data for the page's fields, defaults from [`Lab::example`].
    pub key_infos: fn() -> Vec<KeyInfo>,
    /// Its key table in markdown (docs/links.md), defaults from [`Lab::example`].
    pub markdown: fn() -> String,
    /// [`Lab::presets`].
    pub presets: fn() -> Vec<(&'static str, &'static str)>,
    /// Preset `name`'s configuration ([`Lab::preset`]) as a [`LabConfig`].
    pub preset: fn(&str) -> Result<LabConfig, ConfigError>,
}

fn parse_as<L: Lab>(text: &str) -> Result<Link, ConfigError> {
    L::parse_with_view(text).map(|(c, view)| Link { config: L::wrap(c), view })
}

fn names_of<L: Lab>() -> Vec<&'static str> {
    key_names(L::TABLE)
}

fn infos_of<L: Lab>() -> Vec<KeyInfo> {
    key_infos(L::TABLE, &L::example().0)
}

fn preset_of<L: Lab>(name: &str) -> Result<LabConfig, ConfigError> {
    L::preset(name).map(L::wrap)
}

fn markdown_of<L: Lab>() -> String {
    let (example, name) = L::example();
    markdown_table(L::TABLE, &example, name)
}

/// The row of lab `L` in [`LABS`].
pub const fn entry<L: Lab>() -> LabEntry {
    LabEntry {
        name: L::NAME,
        view: L::VIEW,
        parse_link: parse_as::<L>,
        key_names: names_of::<L>,
        key_infos: infos_of::<L>,
        markdown: markdown_of::<L>,
        presets: L::presets,
        preset: preset_of::<L>,
    }
}

/// Every lab, in the page's order (its tabs; the first is the default).
pub const LABS: [LabEntry; 4] = [entry::<Particles>(), entry::<Training>(), entry::<Depth>(), entry::<Model>()];

/// The labs' names, in [`LABS`]' order (the `lab` key's values; the link layer's own list,
/// `link::LAB_NAMES`, is checked against it).
pub const NAMES: [&str; LABS.len()] = {
    let mut out = [""; LABS.len()];
    let mut i = 0;
    while i < LABS.len() {
        out[i] = LABS[i].name;
        i += 1;
    }
    out
};

/// The row of lab `name`, or None for a name that is not a lab.
pub fn lab_entry(name: &str) -> Option<&'static LabEntry> {
    LABS.iter().find(|e| e.name == name)
}
