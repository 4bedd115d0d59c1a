//! `analysis::spectrum`: the eigenvalues of a real matrix (Hessenberg + shifted QR) and the top
//! left eigenvector `psi1` (science.md §1.3), against nalgebra on random matrices and known cases.

use attn_core::particles::analysis::spectrum::{eigenvalues, top_left_eigenvector};
use attn_core::rng::Rng;
use nalgebra::DMatrix;

/// `|psi^T V - lambda psi^T|`.
fn left_residual(v: &[f64], d: usize, lambda: f64, psi: &[f64]) -> f64 {
    (0..d)
        .map(|j| ((0..d).map(|i| psi[i] * v[i * d + j]).sum::<f64>() - lambda * psi[j]).abs())
        .fold(0.0, crate::common::nan_max)
}

fn sorted(mut e: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    e.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    e
}

#[test]
fn eigenvalues_equal_nalgebras_on_random_matrices() {
    let mut rng = Rng::new(3, 0);
    for d in [1, 2, 3, 5, 8, 17, 40] {
        let m: Vec<f64> = (0..d * d).map(|_| 2.0 * rng.uniform01() - 1.0).collect();
        let ours = sorted(eigenvalues(&m, d).unwrap());
        let theirs = DMatrix::from_row_slice(d, d, &m).complex_eigenvalues();
        let theirs = sorted(theirs.iter().map(|c| (c.re, c.im)).collect());
        assert_eq!(ours.len(), d);
        for (a, b) in ours.iter().zip(&theirs) {
            assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9, "d = {d}: {ours:?} vs {theirs:?}");
        }
    }
}

#[test]
fn psi1_of_the_papers_hyperplanes_matrix() {
    let v = [0.64709742, 0.81911926, 0.61210449, 0.63263484];
    let e = top_left_eigenvector(&v, 2).unwrap();
    assert!((e.lambda - 1.348).abs() < 1e-3, "{}", e.lambda);
    assert!(left_residual(&v, 2, e.lambda, &e.psi) < 1e-13);
    assert!(((e.psi[0] * e.psi[0] + e.psi[1] * e.psi[1]) - 1.0).abs() < 1e-15);
    // The largest-magnitude entry is positive.
    assert!(e.psi[0].abs().max(e.psi[1].abs()) == e.psi[0].max(e.psi[1]));
}

#[test]
fn psi1_of_symmetric_and_triangular_matrices() {
    let mut rng = Rng::new(11, 0);
    for d in [3, 6, 12] {
        let a: Vec<f64> = (0..d * d).map(|_| 2.0 * rng.uniform01() - 1.0).collect();
        let a = DMatrix::from_row_slice(d, d, &a);
        let s = &a * a.transpose();
        let v: Vec<f64> = (0..d * d).map(|k| s[(k / d, k % d)]).collect();
        let e = top_left_eigenvector(&v, d).unwrap();
        let sym = s.clone().symmetric_eigen();
        let top = sym.eigenvalues.iter().cloned().fold(f64::MIN, crate::common::nan_max);
        assert!((e.lambda - top).abs() < 1e-10 * top);
        assert!(left_residual(&v, d, e.lambda, &e.psi) < 1e-10 * top);
    }
    // Upper triangular: eigenvalues on the diagonal; the top one 3.
    let v = [1.0, 2.0, -1.0, 0.5, 0.0, 3.0, 4.0, 1.0, 0.0, 0.0, -2.0, 7.0, 0.0, 0.0, 0.0, 0.5];
    let e = top_left_eigenvector(&v, 4).unwrap();
    assert!((e.lambda - 3.0).abs() < 1e-12);
    assert!(left_residual(&v, 4, 3.0, &e.psi) < 1e-12);
}

#[test]
fn psi1_is_undefined_without_a_real_positive_simple_top_eigenvalue() {
    let id3 = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    assert_eq!(top_left_eigenvector(&id3, 3), None, "V = I: not simple");
    assert_eq!(top_left_eigenvector(&[-1.0, 0.0, 0.0, -1.0], 2), None, "V = -I");
    assert_eq!(top_left_eigenvector(&[1.0, 0.0, 0.0, -1.0], 2), None, "a tie in modulus");
    assert_eq!(top_left_eigenvector(&[0.0, -1.0, 1.0, 0.0], 2), None, "complex pair");
    assert_eq!(top_left_eigenvector(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.5], 3), None, "polytope-line");
    assert_eq!(top_left_eigenvector(&[1.0, 0.0, 0.0, -3.0], 2), None, "largest modulus negative");
    assert_eq!(top_left_eigenvector(&[f64::NAN], 1), None);
    let e = top_left_eigenvector(&[2.5], 1).unwrap();
    assert_eq!((e.lambda, e.psi), (2.5, vec![1.0]));
}

/// The configurations whose `psi1` bits are kept in `fixtures/psi1_bits.json`; the browser test
/// `tests/e2e/overlays.test.mjs` checks the wasm build gives the same bits.
const BIT_CONFIGS: [&str; 5] = [
    "version=4&preset=hyperplanes",
    "version=4&preset=hyperplanes&v=1,0.5;0.2,0.3",
    "version=4&preset=random-psd&seed=5",
    "version=4&preset=polytope-3d&v=psd&seed=2",
    "version=4&preset=polytope&d=8&v=psd&seed=3",
];

/// `lambda1` and `psi1` of each configuration as the hex of their `f64` bits, in one JSON object.
fn psi_bits() -> String {
    use attn_core::particles::analysis::metrics::top_eigen;
    use attn_core::particles::analysis::MetricsScratch;
    let rows: Vec<String> = BIT_CONFIGS
        .iter()
        .map(|c| {
            let sim = attn_core::Simulation::new(&attn_core::parse(c).unwrap());
            let e = top_eigen(&sim, &mut MetricsScratch::default()).expect("psi1 defined");
            let hex = |x: f64| format!("\"{:016x}\"", x.to_bits());
            let psi: Vec<String> = e.psi.iter().map(|&x| hex(x)).collect();
            format!("  \"{}\": {{\"lambda\": {}, \"psi\": [{}]}}", c, hex(e.lambda), psi.join(", "))
        })
        .collect();
    format!("{{\n{}\n}}\n", rows.join(",\n"))
}

/// The native bits equal the kept ones (`ATTN_WRITE_PSI_BITS=1` rewrites the file).
#[test]
fn psi1_bits_are_the_kept_ones() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/psi1_bits.json");
    let now = psi_bits();
    if std::env::var_os("ATTN_WRITE_PSI_BITS").is_some() {
        std::fs::write(path, &now).unwrap();
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), now);
}
