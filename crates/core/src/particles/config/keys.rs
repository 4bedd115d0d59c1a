//! The particle lab's key table: every key of a particle link, defined once (name, kind and
//! range, meaning, the docs' text, how it reads and writes [`Config`]). Parsing, range checks, the
//! canonical order and the table of docs/links.md derive from it ([`crate::link::keys`]); the cross-key
//! checks (shapes, model family, `until / dt`) are [`super::validate()`]'s.

use super::matrix::{format_rows, matrix_text, parse_matrix, parse_rows};
use super::{Config, Init, Integrator, Model, Points, Space, MAX_D, MAX_N};
use crate::link::{Key, Kind};
use crate::{key_choice, key_count, key_float, key_lab, key_preset, key_seed};

/// A matrix key (`q`, `k`, `v`): rows by `;`, entries by `,`, or a named matrix.
macro_rules! matrix_key {
    ($f:ident, $meaning:expr) => {
        Key {
            name: stringify!($f),
            kind: Kind::Custom,
            meaning: $meaning,
            effect: "",
            allowed: MATRIX_ALLOWED,
            get: |c| matrix_text(&c.$f),
            set: |c, v| {
                c.$f = parse_matrix(stringify!($f), v.str())?;
                Ok(())
            },
        }
    };
}

/// Every key of the particle lab after `version`, in canonical order (`coords`, a view key
/// kept in [`Config`], last).
pub const PARTICLES_TABLE: &[Key<Config>] = &[
    key_preset!("see the table below"),
    key_lab!(
        "particles",
        "`particles` (default); `lab=training` is the training lab, whose keys are [below](#training-lab); `lab=depth` the [depth lab](#depth-lab); `lab=model` the [model lab](#model-lab)"
    ),
    Key { effect: "the sphere models keep every token on the unit sphere (`sphere-usa`: attention weights not normalised by the row sum)", ..key_choice!(model, Model, "velocity field") },
    Key { effect: "more tokens: a denser initial cloud; the work per step grows as n²", allowed: "1..=16384 (the page runs up to 4096)", ..key_count!(n, 1, MAX_N, "number of tokens") },
    Key { effect: "d > 3 is shown projected (PCA or two chosen coordinates)", ..key_count!(d, 1, MAX_D, "token dimension") },
    Key { effect: "another seed: other initial tokens (and `psd` matrices), same distribution", ..key_seed!(seed, "PRNG seed") },
    Key { effect: "larger β: sharper attention; on the sphere more clusters, lasting longer (sphere-sa-clusters at t = 15: 1 at β = 1, 3 at β = 4); in R^d the same limit (polytope: the same vertices at β = 1 and 5)", ..key_float!(beta, open 0.0, closed 1000.0, "inverse temperature β") },
    Key { effect: "smaller dt: closer to the ODE, more steps to reach until", ..key_float!(dt, open 0.0, closed 1.0, "time step") },
    Key { effect: "later: tokens closer to their limit", allowed: "0 <= until <= 1e6, until/dt <= 1e8", ..key_float!(until, closed 0.0, closed 1e6, "stop time") },
    Key {
        effect: "`z` stays bounded where `x` grows like e^(tV)",
        allowed: "`x`, `z` (z: euclidean only)",
        ..key_choice!(integrate_in, Space, "integrated variable: raw `x` or rescaled `z = exp(-tV) x`")
    },
    Key {
        effect: "`rk4`: four evaluations per step, higher accuracy",
        allowed: "euclidean: `euler`, `rk4`; sphere: `retraction`, `rk4` (projected)",
        ..key_choice!(integrator, Integrator, "time stepping")
    },
    Key { effect: "with `K`, decides who attends to whom: scores ⟨Q xᵢ, K xⱼ⟩", ..matrix_key!(q, "`Q` (d x d)") },
    Key { effect: "with `Q`, decides who attends to whom: scores ⟨Q xᵢ, K xⱼ⟩", ..matrix_key!(k, "`K` (d x d)") },
    Key { effect: "its spectrum decides the limit: I gives a polytope's vertices, a simple top eigenvalue parallel hyperplanes, -I a collapse", ..matrix_key!(v, "`V` (d x d)") },
    Key {
        allowed: "`cube` ([-scale, scale]^d), `gaussian` (sd scale), `sphere` (radius scale), `points`",
        ..key_choice!(init, Init, "initial tokens")
    },
    Key { effect: "larger: scores grow as scale², so attention turns Boolean sooner", ..key_float!(scale, open 0.0, closed 1e6, "size of the initial distribution") },
    Key {
        name: "points",
        kind: Kind::Custom,
        meaning: "explicit initial tokens, used when `init=points`",
        effect: "",
        allowed: "n rows of d numbers",
        get: |c| c.points.as_ref().map(|p| format_rows(&p.data, p.cols)).unwrap_or_default(),
        set: |c, v| {
            c.points = if v.str().is_empty() {
                None
            } else {
                let (rows, cols, data) = parse_rows("points", v.str())?;
                Some(Points { rows, cols, data })
            };
            Ok(())
        },
    },
    Key { effect: "larger: nearby tokens count as one cluster sooner", ..key_float!(cluster_tol, open 0.0, open 1.0, "single-linkage tolerance, relative to the larger of the initial and the current spread, the extent the token view spans (0.016: 4 CSS px on the page's default token plot; links of version 4 or older: the initial spread, default 1e-3)") },
    Key {
        effect: "`z` removes the e^(tV) growth, so the clusters show",
        allowed: "`x`, `z` (z: euclidean only)",
        ..key_choice!(coords, Space, "view key: coordinates shown and analysed")
    },
];

const MATRIX_ALLOWED: &str = "rows by `;`, entries by `,` (`v=1,0;0,2`), or `identity`, `-identity`, `psd`";
