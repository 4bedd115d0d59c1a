//! The presets, one row each: each reproduces one experiment of science.md and names its source
//! result; its row says its name, caption, description, configuration and the view it suggests.

use super::{Config, Init, Integrator, MatrixSpec, Model, Points, Preset, Space};
use crate::link::{LabPreset, PresetRow};

/// One particle preset: its row of the labs' shared shape (name, caption, description,
/// configuration from [`base`]) and the view it suggests where a link does not say.
struct ParticleRow {
    /// The preset's name, caption, description and configuration.
    row: PresetRow<Preset, Config>,
    /// [`Preset::suggested_axes`].
    axes: &'static str,
    /// [`Preset::suggested_overlays`].
    overlays: &'static [&'static str],
    /// Whether its attention `P` turns Boolean (each row a 1 on a leader): the Euclidean presets
    /// but `collapse`; the others end with rows spread over a cluster or all tokens. The
    /// heatmap's suggested order and colour scale follow it.
    boolean_attention: bool,
}

/// The presets, one row each, in the order the page lists them.
const ROWS: [ParticleRow; 11] = [
    ParticleRow {
        row: PresetRow {
            preset: Preset::Polytope,
            name: "polytope",
            caption: "Tokens as particles: with V = I they gather at the corners of a polygon.",
            description: "With V = I the rescaled tokens z cluster at the vertices of a convex polytope inside their initial hull (Geshkovski et al. 2023).",
            config: |base| base,
        },
        axes: "equal",
        overlays: &["hull", "plateaus"],
        boolean_attention: true,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::Polytope3d,
            name: "polytope-3d",
            caption: "In 3-D with V = I the tokens gather at the corners of a polytope.",
            description: "In 3-D with V = I the rescaled tokens gather at the vertices of a polytope (Geshkovski et al. 2023).",
            config: |base| Config { n: 40, d: 3, ..base },
        },
        axes: "equal",
        overlays: &["hull", "plateaus", "depth"],
        boolean_attention: true,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::Hyperplanes,
            name: "hyperplanes",
            caption: "With one dominant direction of V the tokens end on parallel lines.",
            description: "When V's top eigenvalue is real, positive and simple, the rescaled tokens end on at most three parallel lines with normal ψ₁ (Geshkovski et al. 2023).",
            config: |base| Config {
                n: 40,
                until: 15.0,
                v: MatrixSpec::Explicit { rows: 2, cols: 2, data: PAPER_V_2D.to_vec() },
                ..base
            },
        },
        axes: "equal",
        overlays: &["psi", "plateaus"],
        boolean_attention: true,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::PolytopeLine,
            name: "polytope-line",
            caption: "A polygon in two coordinates while the third one diverges.",
            description: "V = diag(1, 1, -0.5): the first two coordinates of z form a polytope while the third diverges in z and stays bounded in x (Geshkovski et al. 2023).",
            config: |base| Config {
                n: 30,
                d: 3,
                until: 15.0,
                v: MatrixSpec::Explicit { rows: 3, cols: 3, data: vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.5] },
                ..base
            },
        },
        axes: "per-axis",
        overlays: &["plateaus", "depth"],
        boolean_attention: true,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::Leaders,
            name: "leaders",
            caption: "In 1-D every token follows a leader and attention turns 0/1.",
            description: "In 1-D every token ends up attending to a leader, the initial maximum or minimum, and P becomes Boolean (Geshkovski et al. 2023).",
            config: |base| Config { n: 40, d: 1, until: 10.0, integrate_in: Space::X, scale: 1.0, coords: Space::X, ..base },
        },
        axes: "equal",
        overlays: &["leaders", "plateaus"],
        boolean_attention: true,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::RandomPsd,
            name: "random-psd",
            caption: "With a random positive semi-definite V the tokens end on parallel lines.",
            description: "A random positive semi-definite Qᵀ K = V = M Mᵀ drawn from the seed has (generically) a simple top eigenvalue: the rescaled tokens end on parallel lines normal to ψ₁, as in hyperplanes (Geshkovski et al. 2023).",
            config: |base| Config { q: MatrixSpec::Psd, k: MatrixSpec::Psd, v: MatrixSpec::Psd, ..base },
        },
        axes: "equal",
        overlays: &["psi", "plateaus"],
        boolean_attention: true,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::Collapse,
            name: "collapse",
            caption: "With V = −I every token shrinks to the origin.",
            description: "With V = -I all tokens shrink to the origin, slowly, about like t⁻¹ᐟ² (Geshkovski et al. 2023).",
            config: |base| Config {
                integrate_in: Space::X,
                integrator: Integrator::Rk4,
                v: MatrixSpec::NegIdentity,
                coords: Space::X,
                ..base
            },
        },
        axes: "equal",
        overlays: &["plateaus"],
        boolean_attention: false,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::SphereSa,
            name: "sphere-sa",
            caption: "On the sphere, attention gathers all tokens into one cluster.",
            description: "Self-attention on the sphere at small beta gathers all tokens into one cluster quickly (Geshkovski et al. 2023, arXiv 2312.10794).",
            config: |base| sphere(base, Model::SphereSa, 64, 1.0, 0.1, 15.0),
        },
        axes: "equal",
        overlays: &["plateaus", "depth"],
        boolean_attention: false,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::SphereSaClusters,
            name: "sphere-sa-clusters",
            caption: "At larger β the tokens on the sphere form several clusters that last.",
            description: "At larger beta the tokens on the sphere form several clusters that last: three here, none merging by t = 30 (arXiv 2312.10794).",
            config: |base| sphere(base, Model::SphereSa, 64, 4.0, 0.1, 30.0),
        },
        axes: "equal",
        overlays: &["plateaus", "depth"],
        boolean_attention: false,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::SphereUsa,
            name: "sphere-usa",
            caption: "Unnormalised attention on the sphere clusters the tokens too.",
            description: "Unnormalised self-attention (USA) on the sphere also increases the interaction energy and clusters the tokens (arXiv 2312.10794).",
            config: |base| sphere(base, Model::SphereUsa, 32, 1.0, 0.01, 10.0),
        },
        axes: "equal",
        overlays: &["plateaus", "depth"],
        boolean_attention: false,
    },
    ParticleRow {
        row: PresetRow {
            preset: Preset::Metastability,
            name: "metastability",
            caption: "Two clusters that last for hundreds of time units: metastability.",
            description: "Five tokens form two clusters within a few time units that persist for hundreds: dynamic metastability (arXiv 2410.06833).",
            config: |base| Config {
                n: 5,
                d: 2,
                init: Init::Points,
                points: Some(Points { rows: 5, cols: 2, data: METASTABILITY_POINTS.to_vec() }),
                ..sphere(base, Model::SphereSa, 5, 4.0, 0.1, 400.0)
            },
        },
        axes: "equal",
        overlays: &["plateaus"],
        boolean_attention: false,
    },
];

/// All presets, in the order the page lists them.
pub const PRESETS: [Preset; ROWS.len()] = {
    let mut out = [Preset::Polytope; ROWS.len()];
    let mut i = 0;
    while i < ROWS.len() {
        out[i] = ROWS[i].row.preset;
        i += 1;
    }
    out
};

/// The hyperplanes experiment's V (science.md §1; eigenvalues 1.348 and -0.068).
pub const PAPER_V_2D: [f64; 4] = [0.64709742, 0.81911926, 0.61210449, 0.63263484];

/// The metastability experiment's initial points (science.md §2).
pub const METASTABILITY_POINTS: [f64; 10] = [
    0.99806638,
    0.06215705,
    0.97712061,
    0.21268594,
    -0.24578194,
    0.96932515,
    -0.97354734,
    0.2284854,
    -0.99892629,
    -0.04632772,
];

/// The values every preset starts from: `polytope`, V = I on 20 tokens in a cube of the plane,
/// integrated in `z`.
fn base() -> Config {
    Config {
        version: super::VERSION,
        preset: Preset::Polytope, // set to the row's own by Preset::config
        model: Model::Euclidean,
        n: 20,
        d: 2,
        seed: 1,
        beta: 1.0,
        dt: 0.1,
        until: 20.0,
        integrate_in: Space::Z,
        integrator: Integrator::Euler,
        q: MatrixSpec::Identity,
        k: MatrixSpec::Identity,
        v: MatrixSpec::Identity,
        init: Init::Cube,
        scale: 5.0,
        points: None,
        cluster_tol: 0.016,
        coords: Space::Z,
    }
}

/// The sphere presets' values over `base`: `model` on the unit sphere in 3-D, `n` tokens drawn
/// uniformly on it, integrated in `x` with the retraction scheme.
fn sphere(base: Config, model: Model, n: usize, beta: f64, dt: f64, until: f64) -> Config {
    Config {
        model,
        n,
        d: 3,
        beta,
        dt,
        until,
        integrate_in: Space::X,
        integrator: Integrator::Retraction,
        init: Init::Sphere,
        scale: 1.0,
        coords: Space::X,
        ..base
    }
}

impl LabPreset for Preset {
    const NOUN: &'static str = "preset";
    const DEFAULT: Self = Preset::Polytope;
    type Config = Config;
    fn all() -> &'static [Self] {
        &PRESETS
    }
    fn row(self) -> &'static PresetRow<Preset, Config> {
        &self.particle_row().row
    }
    fn pairs(self) -> Vec<(&'static str, String)> {
        self.config().pairs()
    }
}

impl Preset {
    fn particle_row(self) -> &'static ParticleRow {
        ROWS.iter().find(|r| r.row.preset == self).expect("the preset table has a row for each preset")
    }

    /// The token view's axis scales the preset suggests (the view key `axes` when a link does
    /// not write it): `per-axis` for `polytope-line`, whose third coordinate diverges in `z`
    /// and would flatten the polytope of the first two into a line on one scale; else `equal`.
    pub fn suggested_axes(self) -> &'static str {
        self.particle_row().axes
    }

    /// The overlays the preset suggests (the view key `overlays` when a link does not write it),
    /// in the order of [`crate::view::OVERLAYS`]: the theorem each preset shows drawn over it
    /// (science.md §1.3, §2.4).
    pub fn suggested_overlays(self) -> &'static [&'static str] {
        self.particle_row().overlays
    }

    /// The preset's configuration as a link of version `version` reads it: [`Preset::config`]
    /// with that version, and before [`super::CLUSTERS_AS_DRAWN`] the `cluster_tol` default of
    /// then, 1e-3 (so an older link keeps its clusters, and its canonical form its keys).
    pub fn config_at(self, version: u32) -> Config {
        let mut c = self.config();
        c.version = version;
        if version < super::CLUSTERS_AS_DRAWN {
            c.cluster_tol = 1e-3;
        }
        c
    }

    /// The heatmap's order the preset suggests (the view key `order` when a link does not write
    /// it) for a link of version `version`: from [`super::CLUSTERS_AS_DRAWN`] on, `leader` for
    /// the Euclidean presets whose attention turns Boolean (each token's row a 1 on its leader
    /// before the tokens arrive there: ordered by leader, `P` shows one full column per group at
    /// once, where ordered by cluster it would scatter), `cluster` for `collapse` and the sphere
    /// presets (clusters of tokens attending within their cluster); `cluster` for every preset
    /// before.
    pub fn suggested_order(self, version: u32) -> &'static str {
        if version < super::CLUSTERS_AS_DRAWN {
            return "cluster";
        }
        if self.attention_turns_boolean() {
            "leader"
        } else {
            "cluster"
        }
    }

    /// The heatmap's colour scale the preset suggests (the view key `heatmap` when a link does
    /// not write it) for a link of version `version`: `one` before
    /// [`crate::link::HEAT_SCALE_SUGGESTED`] (whose `migrate` step also writes `one`
    /// into such links); from it, `max` (0 to max P) where no entry of `P` comes near 1
    /// (`collapse`, whose `P` turns uniform, `1/n`; the sphere presets, whose clusters of `m`
    /// tokens attend about `1/m` within; `metastability`'s two clusters), so their structure
    /// shows instead of a near-black square; `one` (0 to 1) for the Euclidean presets whose `P`
    /// turns Boolean.
    pub fn suggested_heatmap(self, version: u32) -> &'static str {
        if version < crate::link::HEAT_SCALE_SUGGESTED {
            return "one";
        }
        if self.attention_turns_boolean() {
            "one"
        } else {
            "max"
        }
    }

    /// Whether the preset's attention `P` turns Boolean ([`ParticleRow::boolean_attention`]).
    fn attention_turns_boolean(self) -> bool {
        self.particle_row().boolean_attention
    }

    /// The preset's full configuration.
    pub fn config(self) -> Config {
        Config { preset: self, ..(self.row().config)(base()) }
    }
}

impl Default for Config {
    /// The default preset, `polytope`.
    fn default() -> Self {
        Preset::Polytope.config()
    }
}
