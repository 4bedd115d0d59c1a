//! `attn encode` never prints a silent number for a broken model: weights that are not finite
//! and a `layer_norm_eps` that is 0 in `f32` are refused naming the tensor or key (exit 2); finite
//! weights that overflow `f32` during the forward give `null` for every value that is not finite
//! and a top-level `non_finite` list of where they are (exit 0).

use crate::attn;
use crate::tiny_bert::*;
use serde_json::{json, Value};
use std::path::PathBuf;

/// The tiny model's folder with `safetensors` and `config.json` as given.
fn folder(test: &str, safetensors: &[u8], config: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attn-non-finite-{}-{}", std::process::id(), test)).join("tiny-bert");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("model.safetensors"), safetensors).unwrap();
    std::fs::write(dir.join("config.json"), config).unwrap();
    std::fs::write(dir.join("vocab.txt"), vocab_txt()).unwrap();
    dir
}

const TEXT: &str = "The quick brown fox jumps, the lazy dogs. A fox.";

fn residual(v: &Value, variant: &str) -> Vec<Value> {
    let curve = v["variants"].as_array().unwrap().iter().find(|c| c["variant"] == variant).unwrap();
    curve["residual"].as_array().unwrap().clone()
}

#[test]
fn an_overflow_during_the_forward_prints_null_and_lists_where() {
    let dir = folder("overflow", &overflowing_safetensors(21, 0), &config_json(""));
    let args = ["encode", "--model", dir.to_str().unwrap(), "--text", TEXT];
    let extra = ["--attention", "1,0", "--attention", "2,1", "--similarity", "2,0"];
    let (code, out, err) = attn(&[&args[..], &extra[..]].concat());
    assert_eq!(code, 0, "{}", err);
    let v: Value = serde_json::from_str(&out).unwrap();
    // Layer 1's feed-forward overflows: the transformer and SAN+MLP have no value from layer 1 on
    // (before: 0.0, a perfect rank collapse); SAN and SAN+skip never run the feed-forward.
    for variant in ["transformer", "SAN+MLP"] {
        let r = residual(&v, variant);
        assert!(r[0].as_f64().is_some_and(|x| x > 0.0), "{}: {:?}", variant, r);
        assert_eq!(r[1..], [Value::Null, Value::Null], "{}", variant);
    }
    for variant in ["SAN", "SAN+skip"] {
        assert!(residual(&v, variant).iter().all(|x| x.as_f64().is_some_and(f64::is_finite)), "{}", variant);
    }
    assert!(v["hidden"].as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap()).all(Value::is_null));
    let p1 = &v["attention"][0]["p"];
    assert!(p1.as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap()).all(|x| x.is_number()));
    assert!(v["attention"][1]["p"].as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap()).all(Value::is_null));
    assert_eq!(
        v["non_finite"],
        json!([
            {"variant": "SAN+MLP", "layer": 1, "what": "residual"},
            {"variant": "SAN+MLP", "layer": 2, "what": "residual"},
            {"variant": "transformer", "layer": 1, "what": "residual"},
            {"variant": "transformer", "layer": 2, "what": "residual"},
            {"variant": "transformer", "layer": 2, "what": "hidden"},
            {"variant": "transformer", "layer": 2, "head": 1, "what": "attention"},
            {"variant": "transformer", "layer": 2, "head": 0, "what": "similarity"},
        ])
    );
    // The key comes after the outputs it describes; a finite model prints none.
    assert!(out.find("\"non_finite\":").unwrap() > out.find("\"similarity\":").unwrap());
    let fine = folder("fine", &safetensors(21, false), &config_json(""));
    let (code, out, _) = attn(&["encode", "--model", fine.to_str().unwrap(), "--text", TEXT]);
    assert_eq!(code, 0);
    assert!(!out.contains("non_finite") && !out.contains("null"), "{}", out);
}

#[test]
fn weights_that_are_not_finite_and_a_zero_eps_are_refused_naming_them() {
    let q = "encoder.layer.0.attention.self.query.weight";
    let nan = serialize(&tensors_with(21, q, |k, v| if k == 9 { f32::NAN } else { v }));
    let dir = folder("nan", &nan, &config_json(""));
    let (code, out, err) = attn(&["encode", "--model", dir.to_str().unwrap(), "--text", TEXT]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.lines().count(), 1, "{}", err);
    assert!(err.contains(&format!("tensor `{}`: entry 9 (row 1, column 1 of [8, 8]) is NaN", q)), "{}", err);
    let dir = folder("eps", &safetensors(21, false), &config_json("\"layer_norm_eps\": 1e-50"));
    let (code, _, err) = attn(&["encode", "--model", dir.to_str().unwrap(), "--text", TEXT]);
    assert_eq!(code, 2);
    assert!(err.contains("config.json: `layer_norm_eps` is 1.000e-50, which is 0 in f32"), "{}", err);
}
