//! `attn bench --config`: the report, the dumped inputs and final tokens (the same bits as
//! `attn run`), the peak heap (grows like n d, not n^2), and refused flags.

use crate::attn;
use std::path::{Path, PathBuf};

fn read_f64(path: &Path) -> Vec<f64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
    bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attn-bench-test-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The tokens of every frame of `attn run --config config --until until`, read from its CSV
/// (shortest round-trip numbers, parsed exactly by `str::parse`).
fn run_frames(config: &str, until: &str) -> Vec<Vec<f64>> {
    let (code, out, err) = attn(&["run", "--config", config, "--until", until, "--format", "csv"]);
    assert_eq!(code, 0, "{}", err);
    let mut frames: Vec<Vec<f64>> = Vec::new();
    for line in out.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let step: usize = cells[0].parse().unwrap();
        if frames.len() <= step {
            frames.resize(step + 1, Vec::new());
        }
        frames[step].extend(cells[3..].iter().map(|x| x.parse::<f64>().unwrap()));
    }
    frames
}

#[test]
fn a_case_reports_its_steps_and_writes_the_same_tokens_as_attn_run() {
    for (name, config) in [
        ("sphere", "preset=sphere-sa&n=48&d=3&integrator=rk4&dt=0.01&until=100"),
        ("euclid", "preset=polytope&n=40&d=2&integrate_in=x&coords=x&integrator=euler&init=gaussian&scale=1&dt=0.001&until=100"),
    ] {
        let dir = scratch_dir(name);
        let out_path = dir.join("final.f64");
        std::fs::create_dir_all(&dir).unwrap();
        let (code, out, err) = attn(&[
            "bench", "--config", config, "--steps", "3", "--json",
            "--dump-initial", dir.to_str().unwrap(), "--tokens-out", out_path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{}", err);
        let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(report["steps"], 3);
        assert_eq!(report["threads"], 1);
        let n = report["n"].as_u64().unwrap();
        assert_eq!(report["pair_evaluations_per_step"].as_u64().unwrap(), n * n * if name == "sphere" { 4 } else { 1 });
        assert!(report["ms_per_step"].as_f64().unwrap() > 0.0);

        let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
        let dt = case["dt"].as_f64().unwrap();
        assert_eq!(case["n"].as_u64(), Some(n));
        assert_eq!(case["integrate_in"], "x");
        assert_eq!(case["beta"], 1.0);
        let d = case["d"].as_u64().unwrap() as usize;
        assert_eq!(read_f64(&dir.join("v.f64")).len(), d * d);

        // One warm-up step and 3 timed steps: the frames of `attn run` at steps 0 and 4.
        let frames = run_frames(config, &format!("{}", 4.0 * dt));
        let (first, last) = (&frames[0], frames.last().unwrap());
        assert_eq!(frames.len(), 5);
        let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
        assert_eq!(bits(&read_f64(&dir.join("x0.f64"))), bits(first), "{name}: initial tokens");
        assert_eq!(bits(&read_f64(&out_path)), bits(last), "{name}: tokens after 1 + 3 steps");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn threads_give_the_same_bits_as_one_thread() {
    let config = "preset=sphere-sa&n=300&d=3&integrator=rk4&dt=0.01&until=100";
    let dir = scratch_dir("threads");
    std::fs::create_dir_all(&dir).unwrap();
    let mut finals = Vec::new();
    for threads in ["1", "2", "3"] {
        let out_path = dir.join(format!("final-{threads}.f64"));
        let (code, out, err) = attn(&[
            "bench",
            "--config",
            config,
            "--steps",
            "2",
            "--threads",
            threads,
            "--json",
            "--tokens-out",
            out_path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{}", err);
        let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(report["threads"].as_u64().unwrap().to_string(), threads);
        finals.push(std::fs::read(&out_path).unwrap());
    }
    assert_eq!(finals[0].len(), 300 * 3 * 8);
    assert!(finals[1] == finals[0] && finals[2] == finals[0], "threaded tokens differ from one thread's");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_peak_heap_grows_like_n_d_not_n_squared() {
    let (n, d) = (512usize, 2usize);
    let config = format!(
        "preset=polytope&n={n}&d={d}&integrate_in=x&coords=x&integrator=rk4&init=gaussian&scale=1&dt=0.001&until=100"
    );
    let (code, out, err) = attn(&["bench", "--config", &config, "--steps", "1", "--json"]);
    assert_eq!(code, 0, "{}", err);
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let peak = report["peak_heap_bytes"].as_u64().unwrap() as usize;
    // The run holds at least its state, backup, 5 RK4 buffers and queries, keys, values, M z.
    assert!(peak >= 11 * n * d * 8, "peak {peak} below the run's own buffers");
    assert!(peak < n * n * 8 / 2, "peak {peak}: an n x n buffer on the stepping path");
}

#[test]
fn bad_flags_are_refused_with_exit_2() {
    let (code, _, err) = attn(&["bench"]);
    assert_eq!(code, 2);
    assert!(err.contains("--config"), "{err}");
    for (args, needle) in [
        (vec!["bench", "--config", "n=8", "--threads", "0"], "--threads"),
        (vec!["bench", "--config", "n=8", "--steps", "0"], "--steps"),
        (vec!["bench", "--config", "n=0"], "`n`"),
    ] {
        let (code, _, err) = attn(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
