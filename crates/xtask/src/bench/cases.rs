//! The benchmark's grid of particle cases and the configuration string of each.
//!
//! Euclidean model integrated in x with `Q = K = V = I`, beta = 1 and Gaussian tokens (sd 1),
//! stepped with Euler or RK4 at `dt = 1e-4`, so that thousands of steps keep `t` near 1 and the
//! scores (which grow like `e^{2t}`) in the range where the softmax is not yet a hardmax; the
//! sphere model SA (Q = K = V = I, beta = 1, tokens uniform on the sphere) with the retraction
//! (its Euler scheme) or projected RK4 at `dt = 0.01`.

/// The two models timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// `dx_i/dt = sum_j P_ij V x_j` in R^d, integrated in x.
    Euclidean,
    /// SA on the unit sphere.
    SphereSa,
}

/// The two schemes timed: Euler (the retraction on the sphere) and RK4 (projected on the sphere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// One attention evaluation per step.
    Euler,
    /// Four attention evaluations per step.
    Rk4,
}

/// One case: a model, a scheme, `n` tokens of dimension `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// Velocity field.
    pub model: Model,
    /// Time stepping.
    pub scheme: Scheme,
    /// Number of tokens.
    pub n: usize,
    /// Token dimension.
    pub d: usize,
}

/// Numbers of tokens of the full grid; `--quick` keeps those up to [`QUICK_MAX_N`].
pub const NS: [usize; 3] = [256, 1024, 4096];
/// Token dimensions of the grid.
pub const DS: [usize; 4] = [2, 3, 16, 128];
/// Largest `n` with `--quick`.
pub const QUICK_MAX_N: usize = 1024;
/// `n` of the streaming-memory line.
pub const STREAMING_N: usize = 16384;

/// The grid, ordered by model, scheme, n, d (`quick`: n <= [`QUICK_MAX_N`]).
pub fn grid(quick: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for model in [Model::Euclidean, Model::SphereSa] {
        for scheme in [Scheme::Euler, Scheme::Rk4] {
            for n in NS.into_iter().filter(|&n| !quick || n <= QUICK_MAX_N) {
                for d in DS {
                    cases.push(Case { model, scheme, n, d });
                }
            }
        }
    }
    cases
}

impl Model {
    /// The name in configuration strings.
    pub fn name(self) -> &'static str {
        match self {
            Model::Euclidean => "euclidean",
            Model::SphereSa => "sphere-sa",
        }
    }
}

impl Case {
    /// The playground configuration string of the case (what every backend is given).
    pub fn config(&self) -> String {
        let (n, d) = (self.n, self.d);
        match (self.model, self.scheme) {
            (Model::Euclidean, scheme) => format!(
                "version=2&preset=polytope&n={n}&d={d}&beta=1&dt=0.0001&until=1000&integrate_in=x&coords=x&integrator={}&init=gaussian&scale=1",
                if scheme == Scheme::Rk4 { "rk4" } else { "euler" }
            ),
            (Model::SphereSa, scheme) => format!(
                "version=2&preset=sphere-sa&n={n}&d={d}&beta=1&dt=0.01&until=1000&integrator={}",
                if scheme == Scheme::Rk4 { "rk4" } else { "retraction" }
            ),
        }
    }

    /// The scheme's name as the table shows it.
    pub fn scheme_name(&self) -> &'static str {
        match (self.model, self.scheme) {
            (_, Scheme::Rk4) => "rk4",
            (Model::Euclidean, Scheme::Euler) => "euler",
            (Model::SphereSa, Scheme::Euler) => "retraction",
        }
    }

    /// A file-name-safe identifier, e.g. `euclidean-rk4-n1024-d3`.
    pub fn id(&self) -> String {
        format!("{}-{}-n{}-d{}", self.model.name(), self.scheme_name(), self.n, self.d)
    }

    /// Pair-evaluations per step: `n^2` per attention evaluation, 4 evaluations for RK4.
    pub fn pairs_per_step(&self) -> f64 {
        let evals = if self.scheme == Scheme::Rk4 { 4.0 } else { 1.0 };
        evals * (self.n * self.n) as f64
    }
}

/// The streaming-memory case: Euclidean Euler at n = [`STREAMING_N`], d = 3 (one instance, one step).
pub fn streaming_config() -> String {
    Case { model: Model::Euclidean, scheme: Scheme::Euler, n: STREAMING_N, d: 3 }.config()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_sizes_and_quick_limit() {
        assert_eq!(grid(false).len(), 2 * 2 * NS.len() * DS.len());
        let quick = grid(true);
        assert_eq!(quick.len(), 2 * 2 * 2 * DS.len());
        assert!(quick.iter().all(|c| c.n <= QUICK_MAX_N));
    }

    #[test]
    fn ids_are_distinct_and_pairs_count_rk4_stages() {
        let cases = grid(false);
        let mut ids: Vec<String> = cases.iter().map(Case::id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), cases.len());
        let c = Case { model: Model::SphereSa, scheme: Scheme::Rk4, n: 256, d: 3 };
        assert_eq!(c.pairs_per_step(), 4.0 * 65536.0);
        assert!(c.config().contains("integrator=rk4"));
        let e = Case { scheme: Scheme::Euler, ..c };
        assert_eq!(e.pairs_per_step(), 65536.0);
        assert!(e.config().contains("integrator=retraction"));
    }
}
