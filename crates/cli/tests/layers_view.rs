//! `attn encode --layers-view` (science.md §7.5) on the tiny random BERT: the section's fixed
//! shape, its numbers equal to the core's on the same forward, the link's `cos_tol`, and `null`
//! with `non_finite` entries where the forward overflowed.

use crate::attn;
use attn_core::model::layers_view::{layers_view, LayerStats, BINS};
use attn_core::model::{Encoder, Serial, Variant};
use serde_json::{json, Value};

const TEXT: &str = "The quick brown fox jumps, the lazy dogs. A fox.";

fn folder(test: &str, safetensors: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("attn-layers-view-{}-{}", std::process::id(), test)).join("tiny-bert");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("model.safetensors"), safetensors).unwrap();
    std::fs::write(dir.join("config.json"), crate::tiny_bert::config_json("")).unwrap();
    std::fs::write(dir.join("vocab.txt"), crate::tiny_bert::vocab_txt()).unwrap();
    dir
}

fn encode(dir: &std::path::Path, extra: &[&str]) -> (Value, String) {
    let args = ["encode", "--model", dir.to_str().unwrap(), "--text", TEXT, "--threads", "2"];
    let (code, out, err) = attn(&[&args[..], extra].concat());
    assert_eq!(code, 0, "{}", err);
    (serde_json::from_str(&out).unwrap(), out)
}

/// `v` printed as `attn encode` prints it.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

#[test]
fn layers_view_has_the_fixed_shape_and_the_cores_numbers() {
    let bytes = crate::tiny_bert::safetensors(21, false);
    let dir = folder("shape", &bytes);
    let (v, out) = encode(&dir, &["--layers-view"]);
    assert!(
        out.contains(r#""layers_view":{"components":3,"bins":64,"variance":["#),
        "the keys in their fixed order: {}",
        out
    );
    for key in ["total_variance", "coords", "histograms", "clusters", "labels", "mean_cos", "effective_rank"] {
        assert!(out.contains(&format!(r#","{}":"#, key)), "{}", key);
    }
    assert!(v.get("non_finite").is_none());
    // The core's view of the same forward, number for number: the printed text is the core's
    // values printed (serde_json reads a float back to within an ulp, so compare the text).
    let c = crate::tiny_bert::config_json("");
    let enc = Encoder::load(&bytes, &c, &crate::tiny_bert::vocab_txt(), None).unwrap();
    let e = enc.encode(TEXT).unwrap();
    let (n, d) = (e.ids.len(), enc.config.hidden);
    let want = layers_view(&enc.forward(&e, Variant::Transformer, false, &Serial).hidden, n, d, 0.01);
    let stats: Vec<&LayerStats> = want.layers.iter().map(|s| s.as_ref().unwrap()).collect();
    let coords: Vec<Vec<&[f64]>> = want.coords.iter().map(|c| c.chunks(3).collect()).collect();
    let printed = |key: &str, text: String| {
        let field = format!(r#""{}":{}"#, key, text);
        assert!(out.contains(&field), "{} is not {}: {}", key, text, out);
    };
    printed("variance", json(&want.pca.variance));
    printed("total_variance", json(&want.pca.total_variance));
    printed("coords", json(&coords));
    printed("histograms", json(&stats.iter().map(|s| &s.histogram).collect::<Vec<_>>()));
    printed("clusters", json(&stats.iter().map(|s| s.clusters).collect::<Vec<_>>()));
    printed("labels", json(&stats.iter().map(|s| &s.labels).collect::<Vec<_>>()));
    printed("mean_cos", json(&stats.iter().map(|s| s.mean_cos).collect::<Vec<_>>()));
    printed("effective_rank", json(&stats.iter().map(|s| s.effective_rank).collect::<Vec<_>>()));
    // The shape.
    let lv = &v["layers_view"];
    let layers = crate::tiny_bert::LAYERS + 1;
    for key in ["coords", "histograms", "clusters", "labels", "mean_cos", "effective_rank"] {
        assert_eq!(lv[key].as_array().unwrap().len(), layers, "{}", key);
    }
    for l in 0..layers {
        let rows = lv["coords"][l].as_array().unwrap();
        assert_eq!(rows.len(), n);
        assert!(rows.iter().all(|r| r.as_array().unwrap().len() == 3));
        let hist: Vec<u64> = serde_json::from_value(lv["histograms"][l].clone()).unwrap();
        assert_eq!((hist.len(), hist.iter().sum::<u64>()), (BINS, (n * (n - 1) / 2) as u64));
        assert_eq!(lv["labels"][l].as_array().unwrap().len(), n);
        let rank = stats[l].effective_rank;
        assert!((1.0..=n.min(d) as f64).contains(&rank), "layer {}: {}", l, rank);
    }
    // Layer 1's state is --repeat 2's repetition 0: the same statistics.
    let (r, text) = encode(&dir, &["--layers-view", "--repeat", "2", "--iterations", "1"]);
    let (step, lv) = (&r["repeat"]["steps"][0], &r["layers_view"]);
    assert_eq!((&step["labels"], &step["clusters"]), (&lv["labels"][1], &lv["clusters"][1]));
    // The printed numbers (the repeat section comes first).
    let after = |from: &str, key: &str| text[text.find(from).unwrap()..].split(key).nth(1).unwrap().to_string();
    let repeated = after(r#""repeat":"#, r#""mean_cos":"#);
    let listed = after(r#""layers_view":"#, r#""mean_cos":["#);
    assert_eq!(repeated.split([',', '}']).next(), listed.split(',').nth(1), "{}", text);
    // Without the flag, no section.
    let (plain, _) = encode(&dir, &[]);
    assert!(plain.get("layers_view").is_none());
}

#[test]
fn the_links_cos_tol_sets_the_clusters() {
    let bytes = crate::tiny_bert::safetensors(21, false);
    let dir = folder("cos-tol", &bytes);
    let (v, _) = encode(&dir, &["--layers-view"]);
    let clusters = |v: &Value| -> Vec<u64> { serde_json::from_value(v["layers_view"]["clusters"].clone()).unwrap() };
    let n = v["ids"].as_array().unwrap().len() as u64;
    assert_eq!(clusters(&v), [n, n, n], "the tiny BERT's tokens are apart at 0.01");
    let link = v["config"].as_str().unwrap().to_string() + "&cos_tol=2";
    let args = ["encode", "--model", dir.to_str().unwrap(), "--config", &link, "--layers-view"];
    let (code, out, err) = attn(&args);
    assert_eq!(code, 0, "{}", err);
    let w: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(clusters(&w), [1, 1, 1], "at cos_tol = 2 every token is linked");
    assert_eq!(w["layers_view"]["labels"][0], json!(vec![0; n as usize]));
    // cos_tol changes the clusters only.
    assert_eq!(w["layers_view"]["coords"], v["layers_view"]["coords"]);
    assert_eq!(w["layers_view"]["mean_cos"], v["layers_view"]["mean_cos"]);
}

#[test]
fn an_overflowing_layer_prints_null_and_is_listed() {
    // Layer 1's feed-forward overflows: h_1 and h_2 are not finite, h_0 is.
    let dir = folder("overflow", &crate::tiny_bert::overflowing_safetensors(21, 0));
    let (v, _) = encode(&dir, &["--layers-view"]);
    let lv = &v["layers_view"];
    for key in ["histograms", "clusters", "labels", "mean_cos", "effective_rank"] {
        assert!(!lv[key][0].is_null(), "{}", key);
        assert_eq!(lv[key].as_array().unwrap()[1..], [Value::Null, Value::Null], "{}", key);
    }
    let coords = |l: usize| lv["coords"][l].as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap().clone());
    assert!(coords(0).all(|x| x.as_f64().is_some_and(f64::is_finite)));
    assert!(coords(1).chain(coords(2)).all(|x| x.is_null()));
    // The fit is layer 0's alone: its variances are numbers.
    assert!(nums(&lv["variance"]).iter().all(|x| x.is_finite()));
    let listed: Vec<&Value> =
        v["non_finite"].as_array().unwrap().iter().filter(|e| e["what"] == "layers_view").collect();
    assert_eq!(
        listed,
        [
            &json!({"variant": "transformer", "layer": 1, "what": "layers_view"}),
            &json!({"variant": "transformer", "layer": 2, "what": "layers_view"})
        ]
    );
}

/// A link's view key `hidden_layer` (the layer the page's tokens through the layers show) is
/// checked against the model, naming the key as the page does, and kept in the printed link.
#[test]
fn a_links_hidden_layer_is_checked_against_the_model_and_kept() {
    use sha2::{Digest, Sha256};
    let bytes = crate::tiny_bert::safetensors(21, false);
    let dir = folder("hidden-layer", &bytes);
    let sha: String = Sha256::digest(&bytes).iter().take(8).map(|b| format!("{:02x}", b)).collect();
    let link = |k: usize| format!("lab=model&model=tiny-bert@{}&text=the%20fox&hidden_layer={}", sha, k);
    let run = |k: usize| attn(&["encode", "--model", dir.to_str().unwrap(), "--config", &link(k), "--layers-view"]);
    let (code, out, err) = run(2);
    assert_eq!(code, 0, "{}", err);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["config"].as_str().unwrap().ends_with("&hidden_layer=2"), "{}", v["config"]);
    assert_eq!(v["layers_view"]["coords"].as_array().unwrap().len(), 3);
    let (code, _, err) = run(3);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "invalid --config: `hidden_layer`: the model has hidden states 0..=2 (0: the embeddings, 2: the last"
        ),
        "{}",
        err
    );
}
