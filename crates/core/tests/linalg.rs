//! exp(tV) by the core's own scaling and squaring, against closed forms.

use attn_core::linalg::expm_scaled;

fn full(v: &[f64], d: usize, t: f64) -> Vec<f64> {
    let (m, s) = expm_scaled(v, d, t);
    m.iter().map(|x| x * s.exp()).collect()
}

#[test]
fn rotation_generator_gives_rotation() {
    // V = [[0, -1], [1, 0]]: exp(tV) is the rotation by t radians.
    for t in [0.1, 1.0, 3.0, 10.0] {
        let e = full(&[0.0, -1.0, 1.0, 0.0], 2, t);
        let want = [t.cos(), -t.sin(), t.sin(), t.cos()];
        for (a, b) in e.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "t = {}: {} vs {}", t, a, b);
        }
    }
}

#[test]
fn triangular_matrix_has_closed_form() {
    // V = [[1, 1], [0, 1]]: exp(tV) = e^t [[1, t], [0, 1]].
    for t in [0.5, 2.0, 20.0] {
        let e = full(&[1.0, 1.0, 0.0, 1.0], 2, t);
        let g = t.exp();
        let want = [g, t * g, 0.0, g];
        for (a, b) in e.iter().zip(want) {
            assert!((a - b).abs() <= 1e-12 * g.max(1.0), "t = {}: {} vs {}", t, a, b);
        }
    }
}

#[test]
fn huge_times_keep_the_scale_apart() {
    // exp(1000 V) overflows f64, but (M, s) stays finite with max |M| = 1.
    let (m, s) = expm_scaled(&[0.64709742, 0.81911926, 0.61210449, 0.63263484], 2, 1000.0);
    assert!(m.iter().all(|x| x.is_finite()));
    assert!((crate::common::max_abs(&m) - 1.0).abs() < 1e-12);
    assert!((s / 1000.0 - 1.348).abs() < 1e-2, "growth rate {}", s / 1000.0);
    let (d, sd) = expm_scaled(&[2.0, 0.0, 0.0, -1.0], 2, 500.0);
    assert_eq!(sd, 1000.0);
    assert_eq!(d[0], 1.0);
    assert_eq!(d[3], 0.0);
}
