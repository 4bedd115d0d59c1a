//! `attn encode --head-dynamics L,H` (science.md §7.6) on the tiny random BERT: the section's
//! fixed shape, its numbers equal to the core's run on the same forward, the link's `bilinear`,
//! the sphere, the stop on a non-finite state, and the refused flags.

use crate::attn;
use attn_core::model::head_dynamics::{run_to_end, verdict, HeadDynamicsSpec, HeadRun};
use attn_core::model::keys::Bilinear;
use attn_core::model::{Encoder, Serial};
use serde_json::Value;

const TEXT: &str = "The quick brown fox jumps, the lazy dogs. A fox.";

fn folder(test: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("attn-head-dynamics-{}-{}", std::process::id(), test)).join("tiny-bert");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("model.safetensors"), crate::tiny_bert::safetensors(21, false)).unwrap();
    std::fs::write(dir.join("config.json"), crate::tiny_bert::config_json("")).unwrap();
    std::fs::write(dir.join("vocab.txt"), crate::tiny_bert::vocab_txt()).unwrap();
    dir
}

fn encode(dir: &std::path::Path, extra: &[&str]) -> (Value, String, String) {
    let args = ["encode", "--model", dir.to_str().unwrap(), "--text", TEXT, "--threads", "2"];
    let (code, out, err) = attn(&[&args[..], extra].concat());
    assert_eq!(code, 0, "{}", err);
    (serde_json::from_str(&out).unwrap(), out, err)
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// The core's run of `spec` on the tiny BERT and `TEXT`.
fn core_run(spec: HeadDynamicsSpec) -> (HeadRun, attn_core::model::head_dynamics::HeadDynamics) {
    let enc = Encoder::load(
        &crate::tiny_bert::safetensors(21, false),
        &crate::tiny_bert::config_json(""),
        &crate::tiny_bert::vocab_txt(),
        None,
    )
    .unwrap();
    let e = enc.encode(TEXT).unwrap();
    let mut run = HeadRun::from_encoder(&enc, &e, spec, &Serial).unwrap().unwrap();
    let result = run_to_end(&mut run);
    (run, result)
}

fn spec(bilinear: Bilinear, sphere: bool, dt: f64, until: f64) -> HeadDynamicsSpec {
    HeadDynamicsSpec { layer: 2, head: 1, bilinear, sphere, dt, until, cos_tol: 0.01 }
}

#[test]
fn head_dynamics_has_the_fixed_shape_and_the_cores_numbers() {
    let dir = folder("shape");
    let (v, out, _) = encode(&dir, &["--head-dynamics", "2,1", "--until", "2", "--dt", "0.05"]);
    assert!(
        out.contains(
            r#""head_dynamics":{"layer":2,"head":1,"bilinear":"sym","sphere":false,"dt":0.05,"until":2.0,"steps":40,"every":1,"verdict":"#
        ),
        "the keys in their fixed order: {}",
        out
    );
    let (run, want) = core_run(spec(Bilinear::Sym, false, 0.05, 2.0));
    // Printed text equals the core's values printed: the same bits.
    let field = |key: &str, text: String| {
        let f = format!(r#""{}":{}"#, key, text);
        assert!(out.contains(&f), "{} is not {}", key, text);
    };
    field("verdict", json(&verdict(run.matrices())));
    field("samples", json(&want.samples));
    let hidden = v["model"]["hidden"].as_u64().unwrap() as usize;
    let rows = |x: &[f64]| x.chunks(hidden).map(|r| r.to_vec()).collect::<Vec<_>>();
    field("x", json(&rows(&want.x)));
    field("z", json(&rows(want.z.as_ref().unwrap())));
    let hd = &v["head_dynamics"];
    assert_eq!(hd["samples"].as_array().unwrap().len(), 41, "steps 0..=40, every 1");
    assert_eq!(hd["final"]["step"], 40);
    assert!(hd["stopped"].is_null());
    let first = &hd["samples"][0];
    for key in
        ["step", "t", "clusters", "labels", "mean_cos", "boolean_distance", "leaders", "max_norm", "hyperplanes", "z"]
    {
        assert!(first.get(key).is_some(), "sample key {}", key);
    }
    let n = v["tokens"].as_array().unwrap().len();
    assert_eq!(first["labels"].as_array().unwrap().len(), n);
    assert_eq!(hd["final"]["x"].as_array().unwrap().len(), n);
}

#[test]
fn the_links_bilinear_and_the_sphere_reach_the_run() {
    let dir = folder("bilinear");
    let sha = {
        use sha2::{Digest, Sha256};
        let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
        Sha256::digest(&bytes).iter().take(8).map(|b| format!("{:02x}", b)).collect::<String>()
    };
    let link = format!("lab=model&model=tiny-bert@{}&text=the%20quick%20brown%20fox&bilinear=raw", sha);
    let (code, out, err) = attn(&[
        "encode",
        "--model",
        dir.to_str().unwrap(),
        "--config",
        &link,
        "--head-dynamics",
        "1,0",
        "--until",
        "1",
        "--dt",
        "0.1",
        "--sphere",
    ]);
    assert_eq!(code, 0, "{}", err);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["config"].as_str().unwrap().contains("&bilinear=raw"), "{}", v["config"]);
    let hd = &v["head_dynamics"];
    assert_eq!((hd["bilinear"].as_str(), hd["sphere"].as_bool()), (Some("raw"), Some(true)));
    assert!(hd["final"]["z"].is_null(), "no rescaled tokens on the sphere");
    let r = (v["model"]["hidden"].as_f64().unwrap()).sqrt();
    for row in hd["final"]["x"].as_array().unwrap() {
        let len = row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap().powi(2)).sum::<f64>().sqrt();
        assert!((len - r).abs() <= 1e-12, "|x_i| = {} on the sphere of radius {}", len, r);
    }
    assert!(hd["samples"].as_array().unwrap().iter().all(|s| s["z"].is_null() && s["hyperplanes"].is_null()));
}

#[test]
fn a_non_finite_state_stops_the_run_with_exit_zero() {
    let dir = folder("stop");
    let (v, _, err) = encode(&dir, &["--head-dynamics", "1,0", "--dt", "1e306", "--until", "3e306"]);
    let stopped = &v["head_dynamics"]["stopped"];
    let step = stopped["step"].as_u64().expect("a step of 1e306 overflows");
    let what = stopped["what"].as_str().unwrap();
    assert!(what.contains("overflowed"), "{}", what);
    assert!(err.contains(&format!("note: the head's particles stopped: {}", what)), "{}", err);
    let samples = v["head_dynamics"]["samples"].as_array().unwrap();
    assert!(samples.iter().all(|s| s["step"].as_u64().unwrap() < step));
    assert!(v["head_dynamics"]["final"]["x"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .all(|x| x.is_f64()));
}

#[test]
fn bad_flags_are_refused_naming_them() {
    let dir = folder("refusals");
    let d = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["--until", "3"], "--until needs --head-dynamics"),
        (&["--dt", "0.1"], "--dt needs --head-dynamics"),
        (&["--sphere"], "--sphere needs --head-dynamics"),
        (&["--head-dynamics", "3,0"], "invalid --head-dynamics \"3,0\""),
        (&["--head-dynamics", "1,0", "--dt", "0"], "invalid --dt 0"),
        (&["--head-dynamics", "1,0", "--dt", "1e-9"], "at most 100000"),
    ];
    for (extra, want) in cases {
        let (code, out, err) = attn(&[&["encode", "--model", d, "--text", "the fox"][..], extra].concat());
        assert_eq!(code, 2, "{:?}: {}", extra, out);
        assert!(err.contains(want), "{:?}: {}", extra, err);
        assert!(out.is_empty(), "{:?}: nothing on stdout", extra);
    }
}
