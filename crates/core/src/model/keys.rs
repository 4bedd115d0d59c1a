//! The model lab's link, `version=7&lab=model&model=NAME@SHA16&text=…&cos_tol=C&bilinear=B&head_space=S&repeat_layer=R&iterations=T&variant=V&layer=L&head=H&grid_scale=S&hidden_layer=K&step=N`, and its key
//! table: every key defined once (name, kind and range, meaning, how it reads and writes
//! [`ModelLink`]), as the other labs define theirs ([`crate::link::keys`]).
//!
//! `model` names the weights: the model's name and the first 16 hex digits of its
//! `model.safetensors`' sha256 ([`model_id`]), so a link opened with other weights can be refused
//! ([`ModelLink::check_model`]). `text` is the text analysed; `cos_tol` the cluster rule of the real
//! tokens (science.md §7.3, written only when not 0.01); `bilinear` the form that scores a head's
//! particles (§7.6, `sym` or `raw`, written only when not `sym`); `head_space` where they run and are
//! drawn (`x`, `z` or `sphere`, written only when not `x`); `repeat_layer`, `iterations` and
//! `variant` the layer repeated with its weights constant (§7.4; `repeat_layer=0`, none, the
//! default; 100 repetitions of the unmodified layer, `transformer`, written only when they differ). `layer` (1-based) and `head` (0-based)
//! are view keys: the head shown, never a number computed; `grid_scale` (view key) is the grids' colour
//! scale; `hidden_layer` (view key, 0-based: 0 the embeddings) the layer whose hidden state the tokens
//! through the layers show (science.md §7.5); `step` (view key, written only when present) the repetition of the repeated layer shown. They are written after the model keys, and only when
//! they differ from `layer=1&head=0&grid_scale=head&hidden_layer=0`; the page's view keys ([`crate::view::MODEL_VIEW`]: `embed`,
//! `panels`, `controls`, `theme`) follow. [`parse_with_view`] reads a link; the lab registry
//! ([`crate::lab`]) calls it for `lab=model`.

use super::forward::Variant;
pub use super::tokenizer_note::{tokenizer_note, NOTE_CODE_POINTS, TOKENIZER_TABLES_SINCE};
use crate::architecture::{SAN, SAN_MLP, SAN_SKIP, TRANSFORMER};
use crate::link::{keys, quote, split_pairs_versioned, ConfigError, Key, Kind};
pub use crate::particles::field::low_rank::Bilinear;
use crate::text::MAX_TEXT_BYTES;
use crate::view::View;
use crate::{key_count, key_lab, key_text};

/// The default model: sentence-transformers' all-MiniLM-L6-v2 (6 layers, 12 heads, hidden 384,
/// vocabulary 30522, uncased; Apache-2.0), the name of its folder under the model cache.
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";

/// The repetitions of a repeated layer when a link does not say (key `iterations`).
pub const DEFAULT_ITERATIONS: usize = 100;

/// The names of key `variant`, §6.3's variants as `attn encode --variant` reads them, the
/// unmodified layer (the default) first.
pub const VARIANT_NAMES: [&str; 4] = [TRANSFORMER.label, SAN_SKIP.label, SAN_MLP.label, SAN.label];
const VARIANT_ORDER: [Variant; 4] = [Variant::Transformer, Variant::SanSkip, Variant::SanMlp, Variant::San];

/// Key `variant`'s choices as the repeated layer's control offers them: `(name, text)` in
/// [`VARIANT_NAMES`]' order, the text [`Variant::choice`].
pub fn variant_choices() -> [(&'static str, &'static str); 4] {
    std::array::from_fn(|i| (VARIANT_NAMES[i], VARIANT_ORDER[i].choice()))
}

/// Hex digits of the sha256 kept in the `model` key.
pub const SHA_DIGITS: usize = 16;
/// Longest model name, in bytes.
pub const MAX_NAME_BYTES: usize = 64;

crate::named_enum! {
    /// The colour scale of the page's layers x heads grids (view key `grid_scale`, as the depth lab's).
    pub enum TileScale {
        /// Each tile spans its own head's range (attention: 0 to the head's largest weight;
        /// similarity: the head's off-diagonal range).
        Head = "head",
        /// Every tile of a grid spans the range of all its heads (attention: 0 to the largest
        /// weight of any head; similarity: the smallest to the largest off-diagonal entry of any head).
        Shared = "shared",
    }
}

crate::named_enum! {
    /// Where the chosen head's particles are drawn (key `head_space`, science.md §7.6): the run in
    /// R^d drawn as `x` or as the rescaled `z = exp(-tV_h) x`, or the run on the sphere of radius
    /// `sqrt(d_model)` (§2.1 SA).
    pub enum HeadSpace {
        /// The tokens `x` in R^d.
        X = "x",
        /// The rescaled tokens `z` of the same run (§1.2).
        Z = "z",
        /// The run on the sphere.
        Sphere = "sphere",
    }
}

/// A validated model-lab link.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelLink {
    /// `NAME@SHA16` ([`model_id`]).
    pub model: String,
    /// The text analysed.
    pub text: String,
    /// The cluster rule's tolerance on `1 − cos` (science.md §7.3).
    pub cos_tol: f64,
    /// The bilinear form scoring a head's particles (science.md §7.6).
    pub bilinear: Bilinear,
    /// Where the chosen head's particles run and are drawn (science.md §7.6).
    pub head_space: HeadSpace,
    /// The layer repeated (science.md §7.4), 1-based; 0: none.
    pub repeat_layer: usize,
    /// Repetitions of the repeated layer (1..=[`super::repeat::MAX_ITERATIONS`]).
    pub iterations: usize,
    /// The variant repeated (§6.3's names).
    pub variant: Variant,
    /// The layer shown (view key), 1-based.
    pub layer: usize,
    /// The head shown (view key), 0-based.
    pub head: usize,
    /// The grids' colour scale (view key).
    pub grid_scale: TileScale,
    /// The hidden state `h_ℓ` the tokens through the layers show (view key; 0: the embeddings).
    pub hidden_layer: usize,
    /// The repetition of the repeated layer shown (view key `step`, `0..=iterations`, only with
    /// `repeat_layer`); `None`: the last.
    pub step: Option<usize>,
}

impl ModelLink {
    /// The link of the default model, all-MiniLM-L6-v2 (sha256 `53aa5117…`), on the sentence of
    /// science.md §6.5's reference values: the defaults of the model lab's key table (docs/links.md).
    pub fn example() -> ModelLink {
        ModelLink {
            model: format!("{}@53aa51172d142c89", DEFAULT_MODEL),
            text: "The quick brown fox jumps over the lazy dog.".to_string(),
            cos_tol: super::clusters::COS_TOL,
            bilinear: Bilinear::Sym,
            head_space: HeadSpace::X,
            repeat_layer: 0,
            iterations: DEFAULT_ITERATIONS,
            variant: Variant::Transformer,
            layer: 1,
            head: 0,
            grid_scale: TileScale::Head,
            hidden_layer: 0,
            step: None,
        }
    }

    /// The link of model `model` (`NAME@SHA16`) on `text`, showing layer 1, head 0 on per-head
    /// scales (the view keys' defaults).
    pub fn new(model: String, text: String) -> ModelLink {
        ModelLink {
            model,
            text,
            cos_tol: super::clusters::COS_TOL,
            bilinear: Bilinear::Sym,
            head_space: HeadSpace::X,
            repeat_layer: 0,
            iterations: DEFAULT_ITERATIONS,
            variant: Variant::Transformer,
            layer: 1,
            head: 0,
            grid_scale: TileScale::Head,
            hidden_layer: 0,
            step: None,
        }
    }
}

/// The `model` value of a model: `NAME@` and the first 16 lower-case hex digits of the sha256 of
/// its `model.safetensors` (`sha256`: 64 hex digits).
pub fn model_id(name: &str, sha256: &str) -> String {
    format!("{}@{}", name, &sha256[..SHA_DIGITS.min(sha256.len())].to_ascii_lowercase())
}

/// Whether `name` is a model name: 1..=64 bytes of ASCII letters, digits, `.`, `_`, `-`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_BYTES
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The form of a `model` value, said in every refusal of one.
const MODEL_FORM: &str = "the form is NAME@SHA16: a name of letters, digits, '.', '_', '-' (1 to 64 bytes), '@', \
                          and the first 16 hex digits, lower case, of model.safetensors' sha256";

/// A `model` value, checked: `NAME@SHA16` ([`model_id`]); a refusal says which part is malformed
/// and the form.
fn model_value(v: &str) -> Result<String, ConfigError> {
    let bad = |what: String| ConfigError::new("model", format!("{} is malformed: {}; {}", quote(v), what, MODEL_FORM));
    let Some((name, sha)) = v.rsplit_once('@') else {
        return Err(bad("it has no '@' between the name and the hash".into()));
    };
    if name.is_empty() {
        return Err(bad("the name before '@' is empty".into()));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(bad(format!("the name is {} bytes long; at most {}", name.len(), MAX_NAME_BYTES)));
    }
    if let Some(c) = name.chars().find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))) {
        return Err(bad(format!("the name holds {}, which a name cannot", quote(&c.to_string()))));
    }
    if sha.len() != SHA_DIGITS || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad(format!("{} after '@' is not 16 hex digits", quote(sha))));
    }
    if sha.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(bad(format!("{} after '@' has upper-case hex digits", quote(sha))));
    }
    debug_assert!(valid_name(name));
    Ok(v.to_string())
}

/// Every key of a model-lab link after `version`, in canonical order (view keys last).
pub const MODEL_TABLE: &[Key<ModelLink>] = &[
    // A `lab` other than `model` is refused before the table is read (`split_pairs_versioned`).
    key_lab!("model", "`model`"),
    Key {
        name: "model",
        kind: Kind::Custom,
        meaning: "the weights: NAME@ and the first 16 hex digits of model.safetensors' sha256",
        effect: "",
        allowed: "`NAME@SHA16`, e.g. `all-MiniLM-L6-v2@53aa51172d142c89`",
        // Validated: letters, digits, `.`, `_`, `-`, `@` need no percent coding.
        get: |c| c.model.clone(),
        set: |c, v| {
            c.model = model_value(v.str())?;
            Ok(())
        },
    },
    key_text!(text, MAX_TEXT_BYTES, "the text analysed (percent-encoded), one segment [CLS] … [SEP]"),
    crate::key_float!(
        cos_tol,
        open 0.0,
        closed 2.0,
        "cluster rule of the real tokens: two tokens are linked when 1 − cos ≤ cos_tol, and clusters are the linked groups ([CLS] and [SEP] included)"
    ),
    crate::key_choice!(
        bilinear,
        Bilinear,
        "scores of a head's particles: `sym` (S_h = (B_h + B_hᵀ)/2, the clusters papers' form) or `raw` (B_h = W_qᵀ W_k / √d_k, the model's own)"
    ),
    crate::key_choice!(
        head_space,
        HeadSpace,
        "the chosen head's particles (dx_i/dt = Σ_j P_ij V_h x_j from h_{L−1}): `x` (in R^d), `z` (the rescaled tokens of the same run) or `sphere` (the run on the sphere of radius √d_model)"
    ),
    Key {
        effect: "the layer repeated, its repetitions and their statistics",
        ..key_count!(
            repeat_layer,
            0,
            super::config::MAX_LAYERS,
            "layer repeated again and again, the weights constant (1-based, at most the model's layers; 0: none)"
        )
    },
    key_count!(iterations, 1, super::repeat::MAX_ITERATIONS, "repetitions of the repeated layer"),
    Key {
        name: "variant",
        kind: Kind::Choice(&VARIANT_NAMES),
        meaning: "the variant of the repeated layer: `transformer` (the unmodified layer), `SAN+skip`, `SAN+MLP` or `SAN` (without the feed-forward sub-block, the attention's skip, or both)",
        effect: "",
        allowed: "",
        get: |c| c.variant.label().to_string(),
        set: |c, v| {
            c.variant = VARIANT_ORDER[v.index()];
            Ok(())
        },
    },
    Key {
        effect: "view key: the layer shown",
        ..key_count!(layer, 1, super::config::MAX_LAYERS, "layer shown (1-based)")
    },
    Key {
        effect: "view key: the head shown",
        ..key_count!(head, 0, super::config::MAX_HIDDEN - 1, "head shown (0-based)")
    },
    Key {
        effect: "view key: the grids' colour scale",
        ..crate::key_choice!(
            grid_scale,
            TileScale,
            "colour scale of the attention and similarity grids: `head` (each tile its own head's range) or `shared` (one range for all heads of a grid)"
        )
    },
    Key {
        effect: "view key: the layer the tokens through the layers show",
        ..key_count!(
            hidden_layer,
            0,
            super::config::MAX_LAYERS,
            "hidden state h_ℓ drawn as particles (0: the embeddings after their LayerNorm, L: the last layer's output), at most the model's layers"
        )
    },
    Key {
        name: "step",
        kind: Kind::Custom,
        meaning: "repetition of the repeated layer shown (0: its input); absent: the last",
        effect: "view key: the repetition shown",
        allowed: "`0..=iterations`, only with `repeat_layer`",
        get: |c| c.step.map_or(String::new(), |s| s.to_string()),
        set: |c, v| match v.str().parse::<usize>() {
            Ok(s) if s <= super::repeat::MAX_ITERATIONS => {
                c.step = Some(s);
                Ok(())
            }
            _ => Err(ConfigError::new(
                "step",
                format!("{} is not a repetition; allowed: a whole number 0..=iterations", quote(v.str())),
            )),
        },
    },
];

/// Refuses a `step` past the link's `iterations`, or in a link repeating no layer, naming `step`.
fn check_step(c: &ModelLink) -> Result<(), ConfigError> {
    match c.step {
        Some(_) if c.repeat_layer == 0 => Err(ConfigError::new(
            "step",
            "names a repetition of the repeated layer, and this link repeats none (repeat_layer=0); write repeat_layer=L or leave step out",
        )),
        Some(s) if s > c.iterations => Err(ConfigError::new(
            "step",
            format!("{} is past the run; allowed: 0..={} (iterations)", s, c.iterations),
        )),
        _ => Ok(()),
    }
}

/// The keys of [`MODEL_TABLE`] the canonical form leaves out when they have their default:
/// `cos_tol`, `bilinear`, `head_space`, the repeated layer's keys and the view keys.
const OMITTED_DEFAULTS: [(&str, &str); 11] = [
    ("cos_tol", "0.01"),
    ("bilinear", "sym"),
    ("head_space", "x"),
    ("repeat_layer", "0"),
    ("iterations", "100"),
    ("variant", "transformer"),
    ("layer", "1"),
    ("head", "0"),
    ("grid_scale", "head"),
    ("hidden_layer", "0"),
    ("step", ""),
];

/// The model lab's own view keys a bare link keeps (`lab=model` with view keys only opens the
/// default text with them): the layer and head shown, the grids' colour scale, the hidden layer.
/// Not `step`: it names a repetition of a repeated layer, and the default link repeats none.
pub const BARE_VIEW_KEYS: [&str; 4] = ["layer", "head", "grid_scale", "hidden_layer"];

/// Every view key a bare model link keeps: the page's ([`crate::view::MODEL_VIEW`]), then
/// [`BARE_VIEW_KEYS`].
pub fn bare_view_keys() -> Vec<&'static str> {
    let mut keys = crate::view::MODEL_VIEW.keys();
    keys.extend(BARE_VIEW_KEYS);
    keys
}

/// Number of keys every canonical link writes (`lab`, `model`, `text`; then `cos_tol`, `bilinear`
/// and the view keys, each when it differs from its default).
pub const MODEL_KEYS: usize = 3;

/// Parses `lab=model&model=NAME@SHA16&text=…` (an optional leading `#` or `?` is ignored; values
/// percent-encoded). `lab` must be `model` when present (a link without it is read as the model
/// lab's, as each lab's own parser does); a non-empty `text` is required; `model` defaults to the
/// served model's weights ([`ModelLink::example`]'s, the key table's default); `layer`, `head`
/// and `grid_scale` default to 1, 0 and `head`. The page's view keys are validated and dropped
/// ([`parse_with_view`] keeps them). Errors name the key: a text over [`MAX_TEXT_BYTES`] bytes or
/// not valid percent-encoded UTF-8 is refused naming `text`. Never panics.
pub fn parse(text: &str) -> Result<ModelLink, ConfigError> {
    parse_with_view(text).map(|(c, _)| c)
}

/// [`parse`], also returning the version the link was written in (0 without `version`), which
/// [`tokenizer_note`] reads.
pub fn parse_versioned(text: &str) -> Result<(ModelLink, u32), ConfigError> {
    parse_with_view_versioned(text).map(|(c, _, version)| (c, version))
}

/// [`parse`], also returning the page's view keys ([`crate::view::MODEL_VIEW`]) as a [`View`].
pub fn parse_with_view(text: &str) -> Result<(ModelLink, View), ConfigError> {
    parse_with_view_versioned(text).map(|(c, view, _)| (c, view))
}

fn parse_with_view_versioned(text: &str) -> Result<(ModelLink, View, u32), ConfigError> {
    let spec = &crate::view::MODEL_VIEW;
    let names = crate::view::with_view_keys(&keys::key_names(MODEL_TABLE), spec);
    let (version, pairs) = split_pairs_versioned(text, &names, "model")?;
    let (view_pairs, pairs) = crate::view::split_off_view(pairs, spec);
    // Without `model`, the key table's default: the served model's weights.
    let mut c = ModelLink::new(ModelLink::example().model, String::new());
    if !pairs.iter().any(|(k, _)| *k == "text") {
        return Err(ConfigError::new("text", "is missing; a model link has the text analysed"));
    }
    for (key, value) in &pairs {
        keys::apply(MODEL_TABLE, &mut c, key, value)?;
    }
    check_text(&c.text)?;
    check_step(&c)?;
    let view = crate::view::parse_view(spec, &view_pairs, crate::view::ViewContext::default())?;
    Ok((c, view, version))
}

/// The check of a link's `text` besides the key table's (at most [`MAX_TEXT_BYTES`] bytes): not
/// empty, nor only whitespace.
fn check_text(text: &str) -> Result<(), ConfigError> {
    if text.trim().is_empty() {
        return Err(ConfigError::new("text", "is empty; the model lab analyses a text"));
    }
    Ok(())
}

impl ModelLink {
    /// The link of model `model` (`NAME@SHA16`) on `text` given outside a link (`attn encode
    /// --text`), refused as [`parse`] refuses a link's `text` (over [`MAX_TEXT_BYTES`] bytes, or
    /// empty), naming `text`: every path to an analysis has the same limit, so every link made
    /// opens again.
    pub fn with_text(model: String, text: &str) -> Result<ModelLink, ConfigError> {
        let mut c = ModelLink::new(model, String::new());
        keys::apply(MODEL_TABLE, &mut c, "text", text)?;
        check_text(&c.text)?;
        Ok(c)
    }

    /// Every key with its value, in canonical order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        keys::pairs(MODEL_TABLE, self)
    }

    /// The canonical link: `version=V&lab=model&model=…&text=…`, then `cos_tol`, `bilinear`,
    /// `repeat_layer`, `iterations`, `variant` (when not 0, 100, `transformer`), `layer`, `head`, `grid_scale` and `hidden_layer` when they differ from 0.01, `sym`, 1, 0,
    /// `head` and 0. `parse(&l.to_canonical_string()) == Ok(l)`.
    pub fn to_canonical_string(&self) -> String {
        let pairs = self.pairs();
        let mut out = format!("version={}", crate::link::VERSION);
        for (k, (key, value)) in pairs.iter().enumerate() {
            let default = OMITTED_DEFAULTS.iter().find(|(name, _)| name == key).map_or("", |(_, d)| *d);
            if k < MODEL_KEYS || value != default {
                out.push_str(&format!("&{}={}", key, value));
            }
        }
        out
    }

    /// Refuses the link when its view keys point past a model of `layers` layers and `heads` heads,
    /// naming the key: `layer` over `layers` or `head` at `heads` or more (the page and `attn encode`
    /// say the same), `repeat_layer` or `hidden_layer` over `layers`.
    pub fn check_shape(&self, layers: usize, heads: usize) -> Result<(), ConfigError> {
        if self.layer > layers || self.head >= heads {
            let key = if self.layer > layers { "layer" } else { "head" };
            let why = format!("the model has layers 1..={} and heads 0..={}", layers, heads.saturating_sub(1));
            return Err(ConfigError::new(key, why));
        }
        if self.repeat_layer > layers {
            return Err(ConfigError::new(
                "repeat_layer",
                format!("the model has layers 1..={} (0: none repeated)", layers),
            ));
        }
        if self.hidden_layer > layers {
            let why = format!(
                "the model has hidden states 0..={} (0: the embeddings, {}: the last layer's output)",
                layers, layers
            );
            return Err(ConfigError::new("hidden_layer", why));
        }
        Ok(())
    }

    /// Refuses the link when its `model` is not `loaded` (`NAME@SHA16` of the weights in use),
    /// naming `model` and both hashes.
    pub fn check_model(&self, loaded: &str) -> Result<(), ConfigError> {
        if self.model == loaded {
            return Ok(());
        }
        let hash = |m: &str| m.rsplit('@').next().unwrap_or("").to_string();
        let (mine, theirs) = (hash(&self.model), hash(loaded));
        let why = if mine == theirs {
            format!("the link names {} but the loaded model is {} (same weights, another name)", self.model, loaded)
        } else {
            format!(
                "the link was made with weights {} (model.safetensors sha256 {}…) but the loaded weights are {} (sha256 {}…); \
                 load the link's model to open it",
                self.model, mine, loaded, theirs
            )
        };
        Err(ConfigError::new("model", why))
    }
}
