//! Resolving a configuration into numbers: the matrices `Q, K, V` and the initial tokens.

use crate::linalg::{identity, matmul, normalize, transpose};
use crate::particles::config::{Config, Init, MatrixSpec, Model};
use crate::rng::Rng;

/// PRNG stream for random matrices (independent of `n`).
pub const STREAM_MATRICES: u64 = 1;
/// PRNG stream for initial tokens.
pub const STREAM_TOKENS: u64 = 2;

/// The resolved `Q, K, V`, each `d x d` row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrices {
    /// Query matrix.
    pub q: Vec<f64>,
    /// Key matrix.
    pub k: Vec<f64>,
    /// Value matrix.
    pub v: Vec<f64>,
}

/// The random-PSD factor `M` (`d x d`, entries uniform in [-1, 1]) for a seed (science.md §1).
pub fn psd_factor(seed: u32, d: usize) -> Vec<f64> {
    let mut rng = Rng::new(seed, STREAM_MATRICES);
    (0..d * d).map(|_| rng.uniform(-1.0, 1.0)).collect()
}

/// Resolves `q`, `k`, `v` of a validated configuration to numbers. `psd` gives `V = M M^T` and
/// `Q = K = M^T` with `M = psd_factor(seed, d)`.
pub fn matrices(c: &Config) -> Matrices {
    let d = c.d;
    let m = psd_factor(c.seed, d);
    let mt = transpose(&m, d);
    let resolve = |spec: &MatrixSpec, is_value: bool| -> Vec<f64> {
        match spec {
            MatrixSpec::Identity => identity(d),
            MatrixSpec::NegIdentity => identity(d).into_iter().map(|x| -x).collect(),
            MatrixSpec::Psd => {
                if is_value {
                    let mut out = vec![0.0; d * d];
                    matmul(&m, &mt, d, &mut out);
                    out
                } else {
                    mt.clone()
                }
            }
            MatrixSpec::Explicit { data, .. } => data.clone(),
        }
    };
    Matrices { q: resolve(&c.q, false), k: resolve(&c.k, false), v: resolve(&c.v, true) }
}

/// The initial tokens `x(0)` (`n x d`, row-major) of a validated configuration.
///
/// cube: uniform in `[-scale, scale]^d`; gaussian: coordinates N(0, scale^2); sphere: uniform on
/// the sphere of radius `scale` (normalised Gaussian vectors); points: as given. Sphere models put
/// every token on the unit sphere (`x_i / |x_i|`) whatever the distribution.
pub fn tokens(c: &Config) -> Vec<f64> {
    let (n, d) = (c.n, c.d);
    let mut rng = Rng::new(c.seed, STREAM_TOKENS);
    let mut x = vec![0.0; n * d];
    match c.init {
        Init::Cube => x.iter_mut().for_each(|v| *v = rng.uniform(-c.scale, c.scale)),
        Init::Gaussian => x.iter_mut().for_each(|v| *v = c.scale * rng.normal()),
        Init::Sphere => {
            for row in x.chunks_mut(d) {
                loop {
                    row.iter_mut().for_each(|v| *v = rng.normal());
                    if normalize(row) {
                        break;
                    }
                }
                row.iter_mut().for_each(|v| *v *= c.scale);
            }
        }
        Init::Points => {
            if let Some(p) = &c.points {
                x.copy_from_slice(&p.data);
            }
        }
    }
    if c.model != Model::Euclidean {
        for row in x.chunks_mut(d) {
            normalize(row);
        }
    }
    x
}
