//! exp(tV) by the core's own scaling and squaring, against closed forms; the blocked product
//! against the plain loop.

use attn_core::linalg::{expm_scaled, rows_times};

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

#[test]
fn rows_times_is_the_plain_loop_bit_for_bit() {
    let mut rng = attn_core::rng::Rng::new(11, 0);
    let mut next = || rng.uniform(-0.5, 0.5);
    for (n, k, m, ldx, ldw) in
        [(1, 1, 1, 1, 1), (5, 3, 9, 4, 12), (9, 17, 16, 17, 16), (13, 40, 35, 41, 35), (4, 0, 8, 0, 8)]
    {
        let mut x: Vec<f64> = (0..n * ldx).map(|_| next()).collect();
        let w: Vec<f64> = (0..k * ldw).map(|_| next() * 1e3).collect();
        if n > 1 && k > 0 {
            // A token of zeros (the zero start keeps +0.0 for negative weights) and a NaN.
            x[ldx..ldx + k].iter_mut().for_each(|v| *v = 0.0);
            x[0] = f64::NAN;
        }
        let mut got = vec![0.0; n * m];
        rows_times(&x, ldx, &w, ldw, n, k, m, &mut got);
        for i in 0..n {
            for o in 0..m {
                let mut s = 0.0;
                for c in 0..k {
                    s += x[i * ldx + c] * w[c * ldw + o];
                }
                assert_eq!(got[i * m + o].to_bits(), s.to_bits(), "n {n} k {k} m {m}: entry {i}, {o}");
            }
        }
    }
}
