//! The typed configuration of a particle run: [`Config`], the values of its keys and its limits
//! (module doc of [`super`] for the keys and the canonical form).

use crate::link::CLUSTERS_AS_DRAWN;
use serde::Serialize;

crate::named_enum! {
    /// Which velocity field moves the tokens (science.md §1 and §2).
    pub enum Model {
        /// `dx_i/dt = sum_j P_ij V x_j` in R^d (science.md §1).
        Euclidean = "euclidean",
        /// Self-attention on the unit sphere, `P` row-stochastic (science.md §2, SA).
        SphereSa = "sphere-sa",
        /// Unnormalised self-attention on the sphere, `W_ij = e^{beta <Qx_i,Kx_j>} / n` (§2, USA).
        SphereUsa = "sphere-usa",
    }
}

crate::named_enum! {
    /// The time-stepping scheme.
    pub enum Integrator {
        /// Forward Euler (Euclidean only); in `z` it is the paper's reference scheme.
        Euler = "euler",
        /// Classical RK4; on the sphere, RK4 on the projected field, renormalised after the step.
        Rk4 = "rk4",
        /// The sphere papers' scheme: unprojected Euler step, then `x_i / |x_i|` (sphere only).
        Retraction = "retraction",
    }
}

crate::named_enum! {
    /// Raw tokens `x` or rescaled tokens `z = exp(-tV) x` (science.md §1).
    pub enum Space {
        /// Raw tokens.
        X = "x",
        /// Rescaled tokens (Euclidean model only).
        Z = "z",
    }
}

crate::named_enum! {
    /// How the initial tokens are drawn from the seed.
    pub enum Init {
        /// Uniform in the cube `[-scale, scale]^d`.
        Cube = "cube",
        /// Independent normal coordinates with standard deviation `scale`.
        Gaussian = "gaussian",
        /// Uniform on the sphere of radius `scale` (radius 1 for sphere models).
        Sphere = "sphere",
        /// The explicit `points` (`n x d`).
        Points = "points",
    }
}

/// A `d x d` matrix as written in a configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatrixSpec {
    /// `identity`: `I_d` (follows `d`).
    Identity,
    /// `-identity`: `-I_d`.
    NegIdentity,
    /// `psd`: the random-PSD construction from the seed (science.md §1): with `M` uniform in
    /// `[-1, 1]^{d x d}`, `V = M M^T` and `Q = K = M^T`, so `Q^T K = M M^T`.
    Psd,
    /// Explicit entries, row-major, `rows x cols` as written.
    Explicit {
        /// Number of rows written (must equal `d`).
        rows: usize,
        /// Number of entries per row (must equal `d`).
        cols: usize,
        /// The entries, row-major.
        data: Vec<f64>,
    },
}

/// Explicit initial tokens as written: `rows x cols`, row-major.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Points {
    /// Number of rows written (must equal `n` when used).
    pub rows: usize,
    /// Number of entries per row (must equal `d` when used).
    pub cols: usize,
    /// The entries, row-major.
    pub data: Vec<f64>,
}

/// A named starting configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// V = I, n = 20, d = 2: clusters at the vertices of a polytope (science.md §1).
    Polytope,
    /// V = I, n = 40, d = 3 (science.md §1).
    Polytope3d,
    /// The paper's 2-D V with a simple top eigenvalue: tokens end on parallel lines (§1).
    Hyperplanes,
    /// V = diag(1, 1, -0.5): a polytope in the first two coordinates, a line in the third (§1).
    PolytopeLine,
    /// d = 1, integrated in x: every token follows one of at most two leaders (§1).
    Leaders,
    /// Q^T K = V = M M^T with M uniform in [-1, 1]^{d x d} from the seed (§1).
    RandomPsd,
    /// V = -I in x: all tokens collapse to 0, slowly (§1).
    Collapse,
    /// SA on the sphere, beta = 1: one cluster quickly (§2).
    SphereSa,
    /// SA on the sphere, beta = 4: several clusters that persist (§2).
    SphereSaClusters,
    /// USA on the sphere, beta = 1 (§2).
    SphereUsa,
    /// SA, beta = 4, the 5 points of science.md §2: two clusters that last for hundreds of time units.
    Metastability,
}

/// One complete, validated particle-lab configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    /// The configuration version whose numbers the run follows, written first in its canonical
    /// string: [`VERSION`] (6) for every configuration made today (presets and their edits); 1
    /// for a link written under version 0 (no `version` key) or 1, whose attention weights keep
    /// the Taylor exponential so that the link replays bit for bit (see `version.rs`); 2, 3, 4
    /// or 5 for a link written then. Versions 2 to 6 give the same tokens: from version 2 on, the
    /// attention weights use the rational exponential; version 5 changed the clusters rule, the
    /// default `cluster_tol` and the heatmap's default order ([`Config::clusters_as_drawn`]);
    /// version 6 changed only other labs' defaults.
    /// Set by the link's `version` key only.
    pub version: u32,
    /// The preset the configuration starts from.
    pub preset: Preset,
    /// Velocity field.
    pub model: Model,
    /// Number of tokens, `1..=`[`MAX_N`] (16384; the page runs up to 4096, web `page_limits`).
    pub n: usize,
    /// Token dimension, 1..=256.
    pub d: usize,
    /// PRNG seed.
    pub seed: u32,
    /// Inverse temperature `beta`, in (0, 1000].
    pub beta: f64,
    /// Time step, in (0, 1].
    pub dt: f64,
    /// Time at which the run stops, in [0, 1e6] (time units).
    pub until: f64,
    /// Variable integrated (Euclidean: x or z; sphere: x).
    pub integrate_in: Space,
    /// Time-stepping scheme.
    pub integrator: Integrator,
    /// Query matrix `Q` (`d x d`).
    pub q: MatrixSpec,
    /// Key matrix `K` (`d x d`).
    pub k: MatrixSpec,
    /// Value matrix `V` (`d x d`).
    pub v: MatrixSpec,
    /// Initial distribution.
    pub init: Init,
    /// Scale of the initial distribution, in (0, 1e6].
    pub scale: f64,
    /// Explicit initial tokens (`n x d`, row-major), used only when `init = points`.
    pub points: Option<Points>,
    /// Single-linkage tolerance for `clusters`, relative to the token spread
    /// ([`Config::cluster_reference`]), in (0, 1).
    pub cluster_tol: f64,
    /// View key: coordinates shown and analysed (x or z). Never changes the numbers.
    pub coords: Space,
}

impl Config {
    /// Whether the run counts clusters as the token view draws them (versions from
    /// [`CLUSTERS_AS_DRAWN`] on): tokens closer than `cluster_tol` times the larger of the
    /// initial and the current spread are linked, the spread the page's view spans (it follows
    /// growing tokens and never zooms in past the initial ones), and `cluster_tol`'s default,
    /// 0.016, is 4 CSS px on the page's default 2-D token plot (267 px across 1.08 spreads).
    /// Older links keep the initial spread and 1e-3 (science.md §1.7).
    pub fn clusters_as_drawn(&self) -> bool {
        self.version >= CLUSTERS_AS_DRAWN
    }

    /// The spread `clusters` measures `cluster_tol` against, for tokens whose spread is
    /// `current` ([`crate::particles::analysis::spread`] of the displayed coordinates) in a run
    /// whose initial tokens' spread is `initial`: the larger of the two when
    /// [`Config::clusters_as_drawn`] (a current spread that is not finite counts as the initial),
    /// else `initial`.
    pub fn cluster_reference(&self, initial: f64, current: f64) -> f64 {
        if self.clusters_as_drawn() && current.is_finite() {
            initial.max(current)
        } else {
            initial
        }
    }
}

/// Largest number of tokens.
pub const MAX_N: usize = 16384;
/// Largest token dimension.
pub const MAX_D: usize = 256;
/// Largest absolute matrix entry or point coordinate.
pub const MAX_ENTRY: f64 = 1e6;
/// Largest number of steps a run may ask for (`until / dt`).
pub const MAX_STEPS: f64 = 1e8;
