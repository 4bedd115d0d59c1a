//! `attn encode --spectrum` and `--repeat` (science.md §7) on the tiny random BERT: the JSON
//! shapes other tools read, the link's `cos_tol`, and the refusals naming the flag.

use crate::attn;
use attn_core::model::clusters::cosine_clusters;
use attn_core::model::forward::{embed, layer};
use attn_core::model::{Encoder, Serial, Variant};

const TEXT: &str = "The quick brown fox jumps, the lazy dogs. A fox.";

fn tiny_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("attn-trained-{}-{}", std::process::id(), test)).join("tiny-bert");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    crate::tiny_bert::write_dir(&dir, 21);
    dir
}

fn encoder(dir: &std::path::Path) -> Encoder {
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
    let text = |f: &str| String::from_utf8(read(f)).unwrap();
    Encoder::load(&read("model.safetensors"), &text("config.json"), &text("vocab.txt"), None).unwrap()
}

#[test]
fn spectrum_lists_every_eigenvalue_sorted() {
    let dir = tiny_dir("spectrum");
    let d = dir.to_str().unwrap();
    let (code, out, err) = attn(&["encode", "--model", d, "--text", TEXT, "--spectrum", "2,1", "--spectrum", "1,0"]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sp = v["spectrum"].as_array().unwrap();
    assert_eq!(sp.len(), 2);
    assert_eq!((sp[0]["layer"].as_u64(), sp[0]["head"].as_u64()), (Some(2), Some(1)));
    assert_eq!((sp[1]["layer"].as_u64(), sp[1]["head"].as_u64()), (Some(1), Some(0)));
    for entry in sp {
        for key in ["v", "s"] {
            let e: Vec<(f64, f64)> = serde_json::from_value(entry[key].clone()).unwrap();
            assert_eq!(e.len(), crate::tiny_bert::D, "{}", key);
            let m: Vec<f64> = e.iter().map(|(re, im)| (re * re + im * im).sqrt()).collect();
            assert!(m.windows(2).all(|w| w[0] >= w[1]), "{} not sorted by modulus: {:?}", key, e);
            if key == "s" {
                assert!(e.iter().all(|&(_, im)| im == 0.0), "{:?}", e);
            }
        }
        // V_h has rank <= d_k = 4: the last 4 eigenvalues are exactly 0.
        let v: Vec<(f64, f64)> = serde_json::from_value(entry["v"].clone()).unwrap();
        assert!(v[4..].iter().all(|&e| e == (0.0, 0.0)), "{:?}", v);
        assert!(v[..4].iter().all(|&e| e != (0.0, 0.0)), "{:?}", v);
    }
}

#[test]
fn repeat_has_the_fixed_shape_and_the_forward_layers_states() {
    let dir = tiny_dir("repeat");
    let d = dir.to_str().unwrap();
    let args = ["encode", "--model", d, "--text", TEXT, "--repeat", "2", "--iterations", "7", "--every", "3"];
    let (code, out, err) = attn(&[&args[..], &["--variant", "SAN+skip"]].concat());
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["repeat"];
    assert_eq!(r["layer"], 2);
    assert_eq!(r["variant"], "SAN+skip");
    assert_eq!(r["iterations"], 7);
    assert_eq!(r["every"], 3);
    assert!(r["stopped"].is_null());
    let steps = r["steps"].as_array().unwrap();
    let its: Vec<u64> = steps.iter().map(|s| s["iteration"].as_u64().unwrap()).collect();
    assert_eq!(its, [0, 3, 6, 7]);
    // The keys in the fixed order (serde_json's map sorts them: read the text).
    assert!(
        out.contains(
            r#""repeat":{"layer":2,"variant":"SAN+skip","iterations":7,"every":3,"steps":[{"iteration":0,"clusters":"#
        ),
        "{}",
        out
    );
    assert!(out.contains(r#"],"stopped":null}"#), "{}", out);
    // The labels are the clusters of the states the forward's own layer function gives.
    let enc = encoder(&dir);
    let e = enc.encode(TEXT).unwrap();
    let (n, c) = (e.ids.len(), &enc.config);
    let mut x = embed(&e.ids, c, &enc.weights);
    x = layer(&x, n, c, &enc.weights.layers[0], Variant::Transformer, &Serial).0;
    let mut t = 0;
    for step in steps {
        while t < step["iteration"].as_u64().unwrap() {
            x = layer(&x, n, c, &enc.weights.layers[1], Variant::SanSkip, &Serial).0;
            t += 1;
        }
        let labels: Vec<usize> = serde_json::from_value(step["labels"].clone()).unwrap();
        assert_eq!(labels, cosine_clusters(&x, n, c.hidden, 0.01), "iteration {}", t);
        assert_eq!(step["clusters"].as_u64().unwrap() as usize, labels.iter().max().unwrap() + 1);
    }
    // The link's cos_tol is the rule's: at 2, every token is linked.
    let (code, out, err) = attn(&[
        "encode",
        "--model",
        d,
        "--config",
        &format!("lab=model&model=tiny-bert@{}&text=the%20fox&cos_tol=2", sha16(&dir)),
        "--repeat",
        "1",
        "--iterations",
        "1",
    ]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["config"].as_str().unwrap().contains("&cos_tol=2"), "{}", v["config"]);
    assert_eq!(v["repeat"]["steps"][1]["clusters"], 1);
}

fn sha16(dir: &std::path::Path) -> String {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    Sha256::digest(&bytes).iter().take(8).map(|b| format!("{:02x}", b)).collect()
}

#[test]
fn bad_flags_are_refused_naming_them() {
    let dir = tiny_dir("refusals");
    let d = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 7] = [
        (&["--iterations", "3"], "--iterations needs --repeat"),
        (&["--every", "3"], "--every needs --repeat"),
        (&["--repeat", "1"], "--repeat needs --iterations"),
        (&["--repeat", "3", "--iterations", "1"], "invalid --repeat 3: the model has layers 1..=2"),
        (&["--repeat", "1", "--iterations", "1001"], "invalid --iterations 1001"),
        (&["--repeat", "1", "--iterations", "2", "--variant", "san"], "invalid --variant \"san\""),
        (&["--spectrum", "1,2"], "invalid --spectrum \"1,2\": head 2 is out of range"),
    ];
    for (extra, want) in cases {
        let (code, out, err) = attn(&[&["encode", "--model", d, "--text", TEXT][..], extra].concat());
        assert_eq!(code, 2, "{:?}: {}", extra, out);
        assert!(err.contains(want), "{:?}: {}", extra, err);
    }
}

/// A link's `repeat_layer`, `iterations` and `variant` (the page's run) print the same section as
/// the flags; a flag overrides the link's key; without either, no section.
#[test]
fn a_links_repeat_keys_print_the_same_section_as_the_flags() {
    let dir = tiny_dir("link-repeat");
    let d = dir.to_str().unwrap();
    let link = format!("lab=model&model=tiny-bert@{}&text=the%20fox%20jumps", sha16(&dir));
    let run = |args: &[&str]| {
        let (code, out, err) = attn(&[&["encode", "--model", d][..], args].concat());
        assert_eq!(code, 0, "{:?}: {}", args, err);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["repeat"].clone()
    };
    let keyed = format!("{}&repeat_layer=2&iterations=7&variant=SAN%2Bskip", link);
    let from_link = run(&["--config", &keyed]);
    let from_flags = run(&["--config", &link, "--repeat", "2", "--iterations", "7", "--variant", "SAN+skip"]);
    assert_eq!(from_link, from_flags);
    assert_eq!(from_link["variant"], "SAN+skip");
    assert_eq!(from_link["steps"].as_array().unwrap().len(), 8);
    let overridden = run(&["--config", &keyed, "--iterations", "3"]);
    assert_eq!(overridden["iterations"], 3);
    assert_eq!(overridden["variant"], "SAN+skip");
    assert!(run(&["--config", &link]).is_null());
    // A link past the model is refused naming the key.
    let (code, _, err) = attn(&["encode", "--model", d, "--config", &format!("{}&repeat_layer=3", link)]);
    assert_eq!(code, 2);
    assert!(err.contains("`repeat_layer`: the model has layers 1..=2"), "{}", err);
}
