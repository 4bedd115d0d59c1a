//! The speed targets at the widths attention heads live at (d = 16 and d = 128), read off the
//! particle comparison's rows, per model and scheme, each marked met or not met. (The
//! targets at d <= 3, which must stay met, are [`super::table::targets`].)

use super::cases::{Model, Scheme};
use super::particles::{Backend, Row};
use super::table::{find, ns_pair, ratio, sig3};

/// What a target reads off a row.
#[derive(Clone, Copy, Debug)]
enum Value {
    /// `num` ms per step over `den` ms per step (> 1: `den` is faster).
    Ratio(Backend, Backend),
    /// Nanoseconds per pair-evaluation of a backend.
    NsPair(Backend),
}

/// One target at one `(n, d)`: the value, its direction and bound.
struct Target {
    n: usize,
    d: usize,
    value: Value,
    at_least: bool,
    bound: f64,
}

const fn t(n: usize, d: usize, value: Value, at_least: bool, bound: f64) -> Target {
    Target { n, d, value, at_least, bound }
}

const TARGETS: [Target; 9] = [
    t(4096, 16, Value::Ratio(Backend::NumPy, Backend::Wasm1), true, 1.0),
    t(4096, 16, Value::Ratio(Backend::Jax, Backend::WasmPool), true, 0.6),
    t(1024, 16, Value::Ratio(Backend::NumPy, Backend::Wasm1), true, 0.8),
    t(1024, 128, Value::NsPair(Backend::Wasm1), false, 80.0),
    t(4096, 128, Value::NsPair(Backend::Wasm1), false, 80.0),
    t(1024, 128, Value::NsPair(Backend::Native1), false, 30.0),
    t(4096, 128, Value::NsPair(Backend::Native1), false, 30.0),
    t(1024, 128, Value::Ratio(Backend::Jax, Backend::NativeAll), true, 0.5),
    t(4096, 128, Value::Ratio(Backend::Jax, Backend::NativeAll), true, 0.5),
];

fn name(value: Value) -> String {
    match value {
        Value::Ratio(a, b) => format!("{}/{}", a.name(), b.name()),
        Value::NsPair(b) => format!("{} ns per pair", b.name()),
    }
}

fn read(row: &Row, value: Value) -> Option<f64> {
    match value {
        Value::Ratio(a, b) => ratio(row, a, b),
        Value::NsPair(b) => ns_pair(row, b),
    }
}

/// One line per target and scheme: `what, n, d, scheme <=|>= bound: model value (met), ...`.
pub fn targets(rows: &[Row]) -> Vec<String> {
    let mut lines = Vec::new();
    for t in &TARGETS {
        for scheme in [Scheme::Euler, Scheme::Rk4] {
            let per_model: Vec<String> = [Model::Euclidean, Model::SphereSa]
                .iter()
                .map(|&m| match find(rows, m, scheme, t.n, t.d).and_then(|r| read(r, t.value)) {
                    Some(v) => {
                        let met = if t.at_least { v >= t.bound } else { v <= t.bound };
                        format!("{} {} ({})", m.name(), sig3(v), if met { "met" } else { "NOT met" })
                    }
                    None => format!("{} not measured", m.name()),
                })
                .collect();
            let scheme = if scheme == Scheme::Rk4 { "RK4" } else { "Euler/retraction" };
            lines.push(format!(
                "{}, n = {}, d = {}, {scheme} {} {}: {}",
                name(t.value),
                t.n,
                t.d,
                if t.at_least { ">=" } else { "<=" },
                sig3(t.bound),
                per_model.join(", ")
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cases::Case;
    use crate::bench::particles::Measure;

    #[test]
    fn d128_targets_are_judged_per_model_and_scheme() {
        let mut r = Row {
            case: Case { model: Model::Euclidean, scheme: Scheme::Euler, n: 1024, d: 128 },
            steps: Some(2),
            results: Default::default(),
        };
        // 1024^2 pairs per Euler step: 52.4288 ms is 50 ns per pair.
        let m = Measure { ms_per_step: 52.4288, memory_bytes: None, same_bits: Some(true), rel_diff: None };
        let wasm1 = crate::bench::particles::BACKENDS.iter().position(|&b| b == Backend::Wasm1).unwrap();
        r.results[wasm1] = Some(Ok(m));
        let lines = targets(&[r]);
        assert_eq!(lines.len(), 2 * 9);
        let wasm = lines.iter().find(|l| l.starts_with("wasm-1 ns per pair, n = 1024, d = 128, Euler")).unwrap();
        assert!(wasm.ends_with("<= 80.0: euclidean 50.0 (met), sphere-sa not measured"), "{wasm}");
        assert!(lines.iter().any(|l| l.starts_with("native-1 ns per pair, n = 4096, d = 128, RK4 <= 30.0")));
    }
}
