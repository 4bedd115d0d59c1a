//! `attn depth`: output schema, similarity and path options, and errors that name the key with
//! exit code 2.

use crate::attn;

const SMALL: &str = "lab=depth&preset=collapse-small&layers=4&tokens=16";

#[test]
fn depth_prints_residuals_and_singular_values_per_variant() {
    let (code, out, err) = attn(&["depth", "--config", SMALL, "--format", "json"]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["config"], format!("version=7&{}", SMALL));
    assert_eq!((v["n"].as_u64(), v["layers"].as_u64(), v["heads"].as_u64()), (Some(16), Some(4), Some(4)));
    let shares = v["path_shares"].as_array().unwrap();
    assert_eq!(shares.len(), 5);
    let variants = v["variants"].as_array().unwrap();
    let names: Vec<&str> = variants.iter().map(|x| x["variant"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["SAN", "SAN+MLP", "SAN+skip", "transformer"]);
    for x in variants {
        let r = x["residual"].as_array().unwrap();
        assert_eq!(r.len(), 5);
        let sv = x["singular_values"].as_array().unwrap();
        assert_eq!((sv.len(), sv[0].as_array().unwrap().len()), (5, 16));
        assert!(x.get("similarity").is_none() && x.get("paths").is_none());
    }
    // Pure attention collapses, the skip connection keeps the tokens apart.
    assert!(variants[0]["residual"][4].as_f64().unwrap() < 1e-3);
    assert!(variants[2]["residual"][4].as_f64().unwrap() > 0.3);
}

#[test]
fn depth_similarity_and_paths() {
    let config = "lab=depth&preset=context-text&layers=2&variants=san-skip,transformer";
    let (code, out, err) = attn(&["depth", "--config", config, "--similarity", "--paths"]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let n = v["n"].as_u64().unwrap() as usize;
    assert_eq!(v["labels"][0], "[CLS]");
    assert_eq!(v["sentence"].as_array().unwrap().len(), n);
    assert!(v["chance_level"].as_f64().unwrap() > 0.0);
    let skip = &v["variants"][0];
    let layers = skip["similarity"].as_array().unwrap();
    assert_eq!(layers.len(), 2);
    assert_eq!(layers[0]["layer"], 1);
    let heads = layers[0]["heads"].as_array().unwrap();
    assert_eq!(heads.len(), 8);
    assert_eq!(heads[0]["distance_histogram"].as_array().unwrap().len(), n);
    for key in ["pairs", "cutoff", "same_sentence", "top_token", "top_token_share", "separator_mass"] {
        assert!(heads[0].get(key).is_some(), "{}", key);
    }
    let paths = &skip["paths"];
    assert_eq!(paths["norms"].as_array().unwrap().len(), 3);
    assert!(paths["error"].as_f64().unwrap() < 1e-5);
    assert!(v["variants"][1]["paths"]["unavailable"].as_str().unwrap().contains("MLP"));
}

#[test]
fn depth_csv_has_a_row_per_variant_and_layer() {
    let (code, out, _) =
        attn(&["depth", "--config", &format!("{}&variants=san,transformer", SMALL), "--format", "csv"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("variant,layer,residual,composite_norm,sigma_1,"));
    assert_eq!(lines.len(), 1 + 2 * 5);
    assert!(lines[1].starts_with("SAN,0,"));
    assert!(lines[10].starts_with("transformer,4,"));
}

#[test]
fn depth_errors_name_the_key_and_exit_2() {
    for (config, key) in [
        ("lab=depth&layers=0", "`layers`"),
        ("lab=depth&heads=x", "`heads`"),
        ("lab=training", "`lab`"),
        ("lab=depth&bogus=1", "`bogus`"),
    ] {
        let (code, out, err) = attn(&["depth", "--config", config]);
        assert_eq!(code, 2, "{}", config);
        assert!(out.is_empty());
        assert!(err.contains(key) && !err.contains("panicked"), "{}: {}", config, err);
    }
}

#[test]
fn presets_lists_the_depth_presets() {
    let (code, out, _) = attn(&["presets"]);
    assert_eq!(code, 0);
    for name in ["bert-init", "collapse-small", "context-text", "particle-euler"] {
        assert!(out.lines().any(|l| l.starts_with(name) && l.ends_with("(lab=depth)")), "{}", name);
    }
}
