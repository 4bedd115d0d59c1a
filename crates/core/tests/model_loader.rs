//! Loading a BERT model (crates/core/src/model/config.rs, weights.rs, encoder.rs) on a tiny random
//! BERT written by the test: with and without the `bert.` prefix, extra tensors ignored, and every
//! hostile file refused naming the file and the tensor or field at fault.

use crate::tiny_bert::*;
use attn_core::model::{BertConfig, Encoder, ModelError, Serial, Variant};

fn load(bytes: &[u8], config: &str, vocab: &str) -> Result<Encoder, ModelError> {
    Encoder::load(bytes, config, vocab, None)
}

/// The error message of loading these files (panics if they load).
fn refused(bytes: &[u8], config: &str, vocab: &str) -> (ModelError, String) {
    let e = load(bytes, config, vocab).expect_err("must be refused");
    let m = e.to_string();
    (e, m)
}

#[test]
fn the_tiny_model_loads_with_and_without_the_prefix_and_gives_the_same_bits() {
    let plain = load(&safetensors(3, false), &config_json(""), &vocab_txt()).unwrap();
    let prefixed = load(&safetensors(3, true), &config_json(""), &vocab_txt()).unwrap();
    assert!(!plain.weights.prefixed && prefixed.weights.prefixed);
    assert_eq!(plain.config.d_head(), D / HEADS);
    assert_eq!(plain.weights.layers.len(), LAYERS);
    let e = plain.encode("The quick brown fox.").unwrap();
    assert_eq!(e.pieces, ["[CLS]", "the", "quick", "brown", "fox", ".", "[SEP]"]);
    let a = plain.forward(&e, Variant::Transformer, true, &Serial);
    let b = prefixed.forward(&e, Variant::Transformer, true, &Serial);
    assert_eq!(a, b);
    // Another seed gives other numbers (the weights are read, not assumed).
    let other = load(&safetensors(4, false), &config_json(""), &vocab_txt()).unwrap();
    assert_ne!(other.forward(&e, Variant::Transformer, false, &Serial).hidden[LAYERS], a.hidden[LAYERS]);
}

#[test]
fn gamma_and_beta_layernorm_names_are_read_too() {
    let mut t = tensors(3, "");
    for x in t.iter_mut() {
        if x.name.contains("LayerNorm") {
            x.name = x.name.replace(".weight", ".gamma").replace(".bias", ".beta");
        }
    }
    let old = load(&serialize(&t), &config_json(""), &vocab_txt()).unwrap();
    let new = load(&safetensors(3, false), &config_json(""), &vocab_txt()).unwrap();
    let e = new.encode("a dog").unwrap();
    assert_eq!(old.forward(&e, Variant::San, false, &Serial), new.forward(&e, Variant::San, false, &Serial));
}

#[test]
fn config_errors_name_the_field() {
    let cases = [
        ("\"model_type\": \"gpt2\"", "model_type"),
        ("\"hidden_act\": \"relu\"", "hidden_act"),
        ("\"num_attention_heads\": 0", "num_attention_heads"),
        ("\"num_attention_heads\": 3", "num_attention_heads"),
        ("\"hidden_size\": -8", "hidden_size"),
        ("\"num_hidden_layers\": 1.5", "num_hidden_layers"),
        ("\"layer_norm_eps\": 0", "layer_norm_eps"),
        ("\"max_position_embeddings\": 100000000", "max_position_embeddings"),
        ("\"position_embedding_type\": \"relative_key\"", "position_embedding_type"),
    ];
    for (extra, field) in cases {
        let e = BertConfig::parse(&config_json(extra)).expect_err(extra);
        match &e {
            ModelError::Config { field: f, .. } => assert_eq!(f, field, "{}", extra),
            other => panic!("{}: {:?}", extra, other),
        }
        assert!(e.to_string().starts_with(&format!("config.json: `{}`", field)), "{}", e);
    }
    let no_type = config_json("").replace("\"model_type\": \"bert\", ", "");
    assert!(BertConfig::parse(&no_type).unwrap_err().to_string().contains("`model_type`"));
    assert!(BertConfig::parse("[1, 2]").unwrap_err().to_string().starts_with("config.json:"));
    assert!(BertConfig::parse("{").unwrap_err().to_string().contains("not valid JSON"));
    // Sizes come from the file.
    let c = BertConfig::parse(&config_json("\"intermediate_size\": 40, \"layer_norm_eps\": 1e-5")).unwrap();
    assert_eq!((c.intermediate, c.layer_norm_eps), (40, 1e-5));
}

#[test]
fn a_vocabulary_with_duplicates_or_of_the_wrong_size_is_refused() {
    let dup = vocab_txt().replace("lazy", "dog");
    let (e, m) = refused(&safetensors(1, false), &config_json(""), &dup);
    assert!(matches!(e, ModelError::Vocab(_)), "{:?}", e);
    assert!(m.starts_with("vocab.txt:") && m.contains("\"dog\" is on line 10 and again on line 11"), "{}", m);
    let short = vocab_txt().replace("jumps\n", "");
    let (e, m) = refused(&safetensors(1, false), &config_json(""), &short);
    assert!(matches!(e, ModelError::Mismatch(_)));
    assert!(m.contains("vocab.txt has 15 pieces") && m.contains("`vocab_size` is 16"), "{}", m);
}

#[test]
fn a_truncated_file_is_refused_naming_the_file() {
    let bytes = safetensors(1, false);
    for cut in [0, 5, 8, 40, bytes.len() / 2, bytes.len() - 1] {
        let (e, m) = refused(&bytes[..cut], &config_json(""), &vocab_txt());
        assert!(matches!(e, ModelError::Weights { .. }), "{:?}", e);
        assert!(m.starts_with("model.safetensors:"), "cut {}: {}", cut, m);
    }
    let (_, m) = refused(&bytes[..bytes.len() - 1], &config_json(""), &vocab_txt());
    assert!(m.contains("truncated"), "{}", m);
    let mut longer = bytes.clone();
    longer.push(0);
    let (_, m) = refused(&longer, &config_json(""), &vocab_txt());
    assert!(m.contains("extra bytes"), "{}", m);
}

/// The tiny model's tensors with `f` applied to the one named `name`.
fn edited(name: &str, f: impl Fn(&mut Tensor)) -> Vec<u8> {
    let mut t = tensors(1, "");
    let x = t.iter_mut().find(|x| x.name == name).expect(name);
    f(x);
    serialize(&t)
}

#[test]
fn a_header_claiming_1e12_elements_is_refused_naming_the_tensor() {
    let name = "encoder.layer.1.intermediate.dense.weight";
    let bytes = edited(name, |t| t.shape = vec![1_000_000, 1_000_000]);
    let (e, m) = refused(&bytes, &config_json(""), &vocab_txt());
    assert_eq!(
        e,
        ModelError::Weights {
            tensor: name.into(),
            why: "its shape [1000000, 1000000] needs 4000000000000 bytes of data, its offsets give 512".into()
        }
    );
    assert!(m.starts_with(&format!("model.safetensors: tensor `{}`", name)), "{}", m);
    let overflow = edited(name, |t| t.shape = vec![1 << 40, 1 << 40]);
    let (_, m) = refused(&overflow, &config_json(""), &vocab_txt());
    assert!(m.contains(name), "{}", m);
}

#[test]
fn wrong_dtype_shape_or_missing_tensors_are_refused_naming_the_tensor() {
    let q = "encoder.layer.0.attention.self.query.weight";
    let f64s = edited(q, |t| {
        t.dtype = "F64";
        t.data.extend(vec![0u8; t.data.len()]);
    });
    let (_, m) = refused(&f64s, &config_json(""), &vocab_txt());
    assert_eq!(m, format!("model.safetensors: tensor `{}`: has dtype F64; the model lab reads F32 weights", q));
    let shape = edited(q, |t| t.shape = vec![4, 16]);
    let (_, m) = refused(&shape, &config_json(""), &vocab_txt());
    assert_eq!(m, format!("model.safetensors: tensor `{}`: has shape [4, 16]; config.json implies [8, 8]", q));
    let renamed = edited(q, |t| t.name = "encoder.layer.0.attention.self.q.weight".into());
    let (_, m) = refused(&renamed, &config_json(""), &vocab_txt());
    assert_eq!(m, format!("model.safetensors: tensor `{}`: is missing", q));
    // A configuration with more layers than the file holds.
    let (_, m) = refused(&safetensors(1, false), &config_json("\"num_hidden_layers\": 3"), &vocab_txt());
    assert!(m.contains("encoder.layer.2.") && m.ends_with("is missing"), "{}", m);
    // A larger hidden size than the file's: the first tensor read says so.
    let (_, m) = refused(&safetensors(1, true), &config_json("\"hidden_size\": 16"), &vocab_txt());
    assert!(m.contains("embeddings.word_embeddings.weight") && m.contains("[16, 16]"), "{}", m);
}

#[test]
fn a_header_that_is_not_json_or_has_bad_offsets_is_refused() {
    let mut bytes = safetensors(1, false);
    bytes[9] = b'#';
    let (_, m) = refused(&bytes, &config_json(""), &vocab_txt());
    assert!(m.starts_with("model.safetensors: the header does not parse"), "{}", m);
    let mut huge = safetensors(1, false);
    huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    let (_, m) = refused(&huge, &config_json(""), &vocab_txt());
    assert!(m.starts_with("model.safetensors:"), "{}", m);
}

#[test]
fn texts_without_pieces_or_too_long_are_refused() {
    let enc = load(&safetensors(1, false), &config_json(""), &vocab_txt()).unwrap();
    assert_eq!(enc.encode(""), Err(ModelError::NoPieces(String::new())));
    assert_eq!(enc.encode("   "), Err(ModelError::NoPieces("3 whitespace characters".into())));
    let held = "1 whitespace character, 1 control character and 1 format character";
    assert_eq!(enc.encode("\u{200b}\t\u{0}"), Err(ModelError::NoPieces(held.into())));
    // Not empty: combining marks (stripped with the accents: the tiny vocabulary is lower case)
    // and private-use characters (dropped) leave nothing, and the message says so.
    for (text, held) in [
        ("\u{301}\u{308}", "2 combining marks"),
        ("\u{e000}", "1 private-use character"),
        (
            " \u{301} \u{f8ff}\u{fffd}",
            "2 whitespace characters, 1 private-use character, 1 U+FFFD replacement character and 1 combining mark",
        ),
    ] {
        let e = enc.encode(text).unwrap_err();
        assert_eq!(e, ModelError::NoPieces(held.into()), "{:?}", text);
        let said = e.to_string();
        assert!(
            said.starts_with(&format!("no word piece remains after cleaning: the text holds only {} (", held)),
            "{}",
            said
        );
        assert!(!said.contains("empty"), "{}", said);
    }
    assert_eq!(ModelError::NoPieces(String::new()).to_string(), "the text is empty");
    let long = "a ".repeat(POSITIONS - 1);
    assert_eq!(enc.encode(&long), Err(ModelError::TooManyTokens { tokens: POSITIONS + 1, max: POSITIONS }));
    assert_eq!(enc.encode(&"a ".repeat(POSITIONS - 2)).unwrap().ids.len(), POSITIONS);
    // A piece outside the vocabulary is [UNK], not an error.
    assert_eq!(enc.encode("zebra").unwrap().pieces, ["[CLS]", "[UNK]", "[SEP]"]);
}

#[test]
fn the_weight_count_is_the_files_and_the_memory_estimate_adds_activations_and_maps() {
    // The tiny file's F32 tensors, less the pooler's (ignored by the forward).
    let file: usize = tensors(1, "")
        .iter()
        .filter(|t| t.dtype == "F32" && !t.name.starts_with("pooler"))
        .map(|t| t.shape.iter().product::<usize>())
        .sum();
    let c = BertConfig::parse(&config_json("")).unwrap();
    assert_eq!(c.weight_count(), file as u64);
    let n = 10u64;
    let want = 4 * (file as u64 + 3 * n * FF as u64 + (LAYERS * HEADS) as u64 * n * n);
    assert_eq!(c.memory_bytes(10), want);
    // all-MiniLM-L6-v2's sizes: its file holds 22,713,728 numbers, of which the pooler's 147,840
    // and `embeddings.position_ids` (512) are not read.
    let minilm = BertConfig::parse(
        &config_json("")
            .replace("\"hidden_size\": 8", "\"hidden_size\": 384")
            .replace("\"num_attention_heads\": 2", "\"num_attention_heads\": 12")
            .replace("\"num_hidden_layers\": 2", "\"num_hidden_layers\": 6")
            .replace("\"intermediate_size\": 16", "\"intermediate_size\": 1536")
            .replace("\"max_position_embeddings\": 48", "\"max_position_embeddings\": 512")
            .replace("\"vocab_size\": 16", "\"vocab_size\": 30522"),
    )
    .unwrap();
    assert_eq!(minilm.weight_count(), 22_713_728 - 147_840 - 512);
}
