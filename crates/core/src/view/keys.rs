//! The view keys' table: every view key defined once (name, meaning, allowed values, default,
//! the labs it applies to), in canonical order. Each lab's list of view keys
//! ([`super::ViewSpec::keys`]), the view-key table of docs/links.md and the page's hints derive from it;
//! [`super::parse_view`] checks the values.

/// One view key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewKey {
    /// The key as written in links.
    pub name: &'static str,
    /// What it says about the view, in one line.
    pub meaning: &'static str,
    /// The values allowed, as docs/links.md writes them.
    pub allowed: &'static str,
    /// The value when absent, as docs/links.md writes it.
    pub default: &'static str,
    /// The labs it applies to, in the labs' order.
    pub labs: &'static [&'static str],
}

const ALL: &[&str] = &["particles", "training", "depth", "model"];

/// Every view key, in canonical order (after a lab's model keys).
pub const VIEW_TABLE: &[ViewKey] = &[
    ViewKey {
        name: "t",
        meaning: "open paused at time `t`: at step `round(t / dt)`, the nearest step, computed on load",
        allowed: "`0 <= t <= until`",
        default: "absent",
        labs: &["particles"],
    },
    ViewKey {
        name: "step",
        meaning: "open paused after this many steps (training: iterations); not with `t`",
        allowed: "`0..=` the last step (`round(until/dt)`, training `iterations`)",
        default: "absent",
        labs: &["particles", "training"],
    },
    ViewKey { name: "embed", meaning: "embed mode: the panels alone, for an iframe (docs/embedding.md)", allowed: "`0`, `1`", default: "`0`", labs: ALL },
    ViewKey {
        name: "panels",
        meaning: "panels shown, comma-separated",
        allowed: "particles `tokens`, `heatmap`, `chart`; training `heatmap`, `chart`, `sweep`; depth `residual`, `similarity`, `histogram`, `same_sentence`, `paths`, `spectrum`; model `tokens`, `grid`, `spectrum`, `head_particles`, `residual`, `layers`, `repeat`, `histogram`, `same_sentence`",
        default: "all",
        labs: ALL,
    },
    ViewKey {
        name: "controls",
        meaning: "controls of an embedded view, comma-separated (may be empty)",
        allowed: "particles `play`, `step`, `reset`, `seed` (new seed), `speed`, `preset`, `n`, `d`, `beta`, `dt`, `until`, `model`, `integrator`, `view` (the panels' switches: coords, trails, colour, projection, heatmap scale); training `play`, `step`, `reset`, `seed`, `speed`, `preset`, `eta_z`, `ratio`, `momentum`, `iterations`; depth `preset`, `recompute`, `seed`, `layers`, `heads`, `tokens`, `variants`; model `example`, `text`, `run`, `grid_scale`",
        default: "`play,step,reset` (depth `preset`, model `example`)",
        labs: ALL,
    },
    ViewKey {
        name: "theme",
        meaning: "colour theme",
        allowed: "`auto` (the system's), `light`, `dark`",
        default: "`auto`",
        labs: ALL,
    },
    ViewKey {
        name: "bg",
        meaning: "background of the page around the panels; `transparent` lets an embedding page show through (Copy embed code writes it)",
        allowed: "`theme` (the theme's page colour), `transparent`",
        default: "`theme`",
        labs: ALL,
    },
    ViewKey {
        name: "speed",
        meaning: "steps (iterations) per frame; below 1, a step every few frames",
        allowed: "`1..=1000`, or a fraction `0.1 <= speed < 1` (`0.2`: a step every 5 frames); training `1..=100`",
        default: "the preset's suggestion (particles: the offered speed that plays to `until` in about 15 s at 60 frames per second; training: the offered speed that plays to `iterations` in about 15 s, at least 1)",
        labs: &["particles", "training"],
    },
    ViewKey {
        name: "heatmap",
        meaning: "colour scale of `P`",
        allowed: "`one` (0 to 1), `max` (0 to max P)",
        default: "the preset's suggestion (`max` for `collapse`, the sphere presets and `metastability`, whose `P` never comes near 1: on 0 to 1 it is near-black; else `one`; `one` for every link of version 6 or older)",
        labs: &["particles"],
    },
    ViewKey { name: "trails", meaning: "token trails", allowed: "`0`, `1`", default: "`1`", labs: &["particles"] },
    ViewKey {
        name: "projection",
        meaning: "view of `d > 3` tokens",
        allowed: "`pca2`, `pca3`, or two coordinates `a,b` (1-based, different, at most `d`)",
        default: "`pca2`",
        labs: &["particles"],
    },
    ViewKey {
        name: "camera",
        meaning: "3-D view `yaw,pitch` in radians",
        allowed: "`-2π <= yaw <= 2π`, `-1.55 <= pitch <= 1.55`",
        default: "`-0.65,0.5`",
        labs: &["particles"],
    },
    ViewKey {
        name: "colour",
        meaning: "token colours",
        allowed: "`clusters` (a colour per cluster that depends only on the run and the step: a cluster keeps its colour as it grows; grey: in no cluster; 12 colours, then marker shapes), `index` (viridis by token number), `plain`",
        default: "`clusters`",
        labs: &["particles"],
    },
    ViewKey {
        name: "overlays",
        meaning: "the theorems drawn over the panels, comma-separated (may be empty)",
        allowed: "`hull` (convex hull of the initial rescaled tokens, cluster centres; d = 2, 3), `psi` (ψ₁ and the lines ⟨ψ₁, z⟩ = const, where ψ₁ is defined), `leaders` (leaders' columns on the heatmap of 1-D runs, the Boolean distance's limit 0), `plateaus` (of the count on the chart), `depth` (3-D depth shading)",
        default: "the preset's suggestion (e.g. `hull,plateaus` for `polytope`, `psi,plateaus` for `hyperplanes`)",
        labs: &["particles"],
    },
    ViewKey {
        name: "order",
        meaning: "order of the heatmap's rows and columns (thin lines between groups)",
        allowed: "`cluster` (largest cluster first, tokens alone last), `leader` (each leader with the tokens attending most to it), `index` (token order)",
        default: "the preset's suggestion (`leader` for the Euclidean presets whose attention turns Boolean: `polytope`, `polytope-3d`, `hyperplanes`, `polytope-line`, `leaders`, `random-psd`; `cluster` for `collapse` and the sphere presets; `cluster` for every link of version 4 or older)",
        labs: &["particles"],
    },
    ViewKey {
        name: "axes",
        meaning: "scales of the token view's axes",
        allowed: "`equal` (one scale: distances true), `per-axis` (each coordinate fills the view)",
        default: "the preset's suggestion (`per-axis` for `polytope-line`, else `equal`)",
        labs: &["particles"],
    },
    ViewKey {
        name: "residual_axis",
        meaning: "y axis of the rank-collapse chart",
        allowed: "`log`, `linear`",
        default: "`log`",
        labs: &["depth"],
    },
    ViewKey {
        name: "grid_scale",
        meaning: "colour scale of the context-similarity grid",
        allowed: "`head` (each head from its own smallest to its largest off-diagonal value), `shared` (one scale for every layer and head, so they compare)",
        default: "`head`",
        labs: &["depth"],
    },
];

/// The view keys of `lab`, in canonical order.
pub fn view_keys_of(lab: &str) -> Vec<&'static str> {
    VIEW_TABLE.iter().filter(|k| k.labs.contains(&lab)).map(|k| k.name).collect()
}

/// The view-key table of docs/links.md.
pub fn markdown_table() -> String {
    let mut out = String::from("| key | meaning | allowed | default | labs |\n|---|---|---|---|---|\n");
    for k in VIEW_TABLE {
        let labs = if k.labs == ALL { "all".to_string() } else { k.labs.join(", ") };
        out.push_str(&format!("| `{}` | {} | {} | {} | {} |\n", k.name, k.meaning, k.allowed, k.default, labs));
    }
    out
}
