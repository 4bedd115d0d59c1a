//! The files of a model folder as the CLI and the page read them (crates/core/src/model/text_file.rs,
//! tensor_file.rs): the text files' one encoding rule (a UTF-8 byte-order mark dropped, every other
//! encoding refused naming the file), `model.safetensors` sizes in `u64` (a tensor of 2^27 `F32`
//! elements, which overflowed a 32-bit size in the page), and a header that names a tensor twice,
//! or as both `X` and `bert.X`, refused as ambiguous, naming the tensor, the same way every run.

use crate::tiny_bert::*;
use attn_core::model::tensor_file::{Header, TensorFile};
use attn_core::model::text_file::decode;
use attn_core::model::{BertConfig, Encoder, ModelError, Serial, Tokenizer, Variant};

const TEXT: &str = "the dog jumps, the fox.";

/// The tiny vocabulary with `the` on its first line, where a byte-order mark lands.
fn vocab_the_first() -> String {
    let mut v = VOCAB.to_vec();
    v.swap(0, 5);
    v.join("\n") + "\n"
}

fn bom(text: &str) -> Vec<u8> {
    [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat()
}

fn ids(vocab: &str) -> Vec<String> {
    Tokenizer::from_files(vocab, None, 64).unwrap().encode(TEXT).unwrap().pieces
}

#[test]
fn a_utf8_byte_order_mark_is_dropped_and_gives_the_tokens_without_it() {
    let plain = vocab_the_first();
    let with_bom = bom(&plain);
    assert_eq!(decode("vocab.txt", &with_bom).unwrap(), plain);
    assert_eq!(decode("vocab.txt", plain.as_bytes()).unwrap(), plain);
    assert_eq!(
        ids(decode("vocab.txt", &with_bom).unwrap()),
        ["[CLS]", "the", "dog", "jumps", ",", "the", "fox", ".", "[SEP]"]
    );
    // What keeping the mark gave (the CLI before the rule): `the` became "\u{feff}the", unknown.
    let kept = std::str::from_utf8(&with_bom).unwrap();
    assert_eq!(ids(kept), ["[CLS]", "[UNK]", "dog", "jumps", ",", "[UNK]", "fox", ".", "[SEP]"]);
    // config.json and tokenizer_config.json with a mark read as without it.
    let config = bom(&config_json(""));
    assert!(serde_json::from_slice::<serde_json::Value>(&config).is_err(), "a mark is not JSON");
    assert_eq!(BertConfig::parse(decode("config.json", &config).unwrap()), BertConfig::parse(&config_json("")));
    assert_eq!(decode("tokenizer_config.json", &bom("{}")).unwrap(), "{}");
    // Only the leading mark: a second one is text (and the empty file is empty text).
    assert_eq!(decode("vocab.txt", &bom("\u{feff}a")).unwrap(), "\u{feff}a");
    assert_eq!(decode("vocab.txt", &[0xEF, 0xBB, 0xBF]).unwrap(), "");
    // The whole model: the same forward with and without the marks.
    let load = |c: &[u8], v: &[u8]| {
        Encoder::load(&safetensors(2, false), decode("config.json", c).unwrap(), decode("vocab.txt", v).unwrap(), None)
            .unwrap()
    };
    let a = load(config_json("").as_bytes(), plain.as_bytes());
    let b = load(&config, &with_bom);
    let e = a.encode(TEXT).unwrap();
    assert_eq!(b.encode(TEXT).unwrap(), e);
    assert_eq!(a.forward(&e, Variant::Transformer, true, &Serial), b.forward(&e, Variant::Transformer, true, &Serial));
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mark: [u8; 2] = if big_endian { [0xFE, 0xFF] } else { [0xFF, 0xFE] };
    let units = text.encode_utf16().flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() });
    mark.into_iter().chain(units).collect()
}

fn refused(file: &str, bytes: &[u8]) -> String {
    let e = decode(file, bytes).unwrap_err();
    assert!(matches!(&e, ModelError::TextFile { file: f, .. } if f == file), "{:?}", e);
    e.to_string()
}

#[test]
fn other_encodings_are_refused_naming_the_file() {
    let vocab = vocab_txt();
    assert_eq!(
        refused("vocab.txt", &utf16(&vocab, false)),
        "vocab.txt: is UTF-16 (little-endian) text (it starts with the byte-order mark FF FE); save it as UTF-8"
    );
    assert_eq!(
        refused("vocab.txt", &utf16(&vocab, true)),
        "vocab.txt: is UTF-16 (big-endian) text (it starts with the byte-order mark FE FF); save it as UTF-8"
    );
    let utf32: Vec<u8> =
        [0xFF, 0xFE, 0, 0].into_iter().chain(vocab.chars().flat_map(|c| (c as u32).to_le_bytes())).collect();
    assert!(refused("config.json", &utf32).starts_with("config.json: is UTF-32 (little-endian) text"));
    let utf32be: Vec<u8> =
        [0, 0, 0xFE, 0xFF].into_iter().chain(vocab.chars().flat_map(|c| (c as u32).to_be_bytes())).collect();
    assert!(refused("config.json", &utf32be).starts_with("config.json: is UTF-32 (big-endian) text"));
    // Latin-1 `é` on line 3 (after the mark, counted in the file's bytes).
    let latin1 = [&b"[PAD]\n[UNK]\ncaf"[..], &[0xE9], &b"\n"[..]].concat();
    assert_eq!(
        refused("vocab.txt", &latin1),
        "vocab.txt: is not UTF-8 text: byte 15 (line 3) is not valid UTF-8; save it as UTF-8"
    );
    assert!(refused("vocab.txt", &[&[0xEF, 0xBB, 0xBF][..], &latin1].concat()).contains("byte 18 (line 3)"));
    // UTF-16 without a mark: valid UTF-8 with NULs.
    let bare: Vec<u8> = vocab.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    assert_eq!(
        refused("tokenizer_config.json", &bare),
        "tokenizer_config.json: holds a NUL byte at byte 1 (line 1): it is not UTF-8 text (UTF-16 without a byte-order \
         mark?); save it as UTF-8"
    );
}

/// A header (8-byte length and JSON, no data) of `entries`.
fn header(entries: &str) -> Vec<u8> {
    let json = format!("{{{}}}", entries);
    [&(json.len() as u64).to_le_bytes()[..], json.as_bytes()].concat()
}

#[test]
fn a_tensor_of_2_27_f32_elements_is_sized_in_u64_and_read() {
    // 2^27 F32 elements are 2^32 bits: the safetensors crate's usize product overflowed on wasm32.
    let entry = r#""cls.predictions.decoder.weight":{"dtype":"F32","shape":[4194304,32],"data_offsets":[0,536870912]}"#;
    let h = Header::parse(&header(entry)).unwrap();
    assert_eq!(h.data_bytes(), 1 << 29);
    assert_eq!(h.largest().map(|t| (t.name.as_str(), t.bytes())), Some(("cls.predictions.decoder.weight", 1 << 29)));
    assert_eq!(h.file_bytes(), header(entry).len() as u64 + (1 << 29));
    let e = TensorFile::parse(&header(entry)).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "model.safetensors: the file is truncated: its header describes {} bytes, the file has {}",
            h.file_bytes(),
            header(entry).len()
        )
    );
    // The tiny model with that tensor after its own (never read: the lab ignores `cls.*`) loads.
    // The zeros are allocated, not written: the test touches only the header and the tiny data.
    let tiny = safetensors(5, false);
    let n = u64::from_le_bytes(tiny[..8].try_into().unwrap()) as usize;
    let json = std::str::from_utf8(&tiny[8..8 + n]).unwrap().trim_end();
    let data = &tiny[8 + n..];
    let json = format!(
        "{},\"cls.predictions.decoder.weight\":{{\"dtype\":\"F32\",\"shape\":[4194304,32],\"data_offsets\":[{},{}]}}}}",
        &json[..json.len() - 1],
        data.len(),
        data.len() + (1 << 29)
    );
    let mut bytes = vec![0u8; 8 + json.len() + data.len() + (1 << 29)];
    bytes[..8].copy_from_slice(&(json.len() as u64).to_le_bytes());
    bytes[8..8 + json.len()].copy_from_slice(json.as_bytes());
    bytes[8 + json.len()..][..data.len()].copy_from_slice(data);
    let enc = Encoder::load(&bytes, &config_json(""), &vocab_txt(), None).unwrap();
    let plain = Encoder::load(&safetensors(5, false), &config_json(""), &vocab_txt(), None).unwrap();
    let e = plain.encode(TEXT).unwrap();
    assert_eq!(enc.forward(&e, Variant::San, false, &Serial), plain.forward(&e, Variant::San, false, &Serial));
}

/// The refusal of loading the tiny model from `t`'s tensors.
fn refusal(t: &[Tensor]) -> String {
    Encoder::load(&serialize(t), &config_json(""), &vocab_txt(), None).unwrap_err().to_string()
}

#[test]
fn a_tensor_named_twice_or_under_two_names_read_as_one_is_refused_as_ambiguous() {
    let q = "encoder.layer.0.attention.self.query.weight";
    let extra = |name: &str, from: &str| {
        let mut t = tensors(1, "");
        let copy = t.iter().find(|x| x.name == from).map(|x| Tensor {
            name: name.into(),
            shape: x.shape.clone(),
            dtype: x.dtype,
            data: x.data.clone(),
        });
        t.push(copy.unwrap());
        t
    };
    assert_eq!(
        refusal(&extra(q, q)),
        format!(
            "model.safetensors: tensor `{}`: is named twice in the header: which of the two the lab should read is \
             ambiguous; the file is refused",
            q
        )
    );
    assert_eq!(
        refusal(&extra(&format!("bert.{}", q), q)),
        format!(
            "model.safetensors: tensor `{q}`: the file holds both `{q}` and `bert.{q}`, which the lab reads as one \
             tensor: which one is meant is ambiguous; the file is refused"
        )
    );
    let ln = "embeddings.LayerNorm.weight";
    assert!(refusal(&extra("embeddings.LayerNorm.gamma", ln)).starts_with(&format!(
        "model.safetensors: tensor `{}`: the file holds both `{}` and `embeddings.LayerNorm.gamma`",
        ln, ln
    )));
    // Tensors the lab does not read are not spared: the file is ambiguous all the same.
    assert!(refusal(&extra("bert.pooler.dense.weight", "pooler.dense.weight")).contains("tensor `pooler.dense.weight`"));
    // `bert.` alone (the prefixed file) and distinct names load.
    assert!(Encoder::load(&safetensors(1, true), &config_json(""), &vocab_txt(), None).is_ok());
}

#[test]
fn an_offset_refusal_names_the_same_tensor_every_run() {
    // Two tensors on the same bytes: the one sorted second (by offsets, then name) is named.
    let h = header(
        r#""b":{"dtype":"F32","shape":[8],"data_offsets":[0,32]},"a":{"dtype":"F32","shape":[8],"data_offsets":[0,32]},"c":{"dtype":"F32","shape":[8],"data_offsets":[32,64]}"#,
    );
    let bytes = [h.clone(), vec![0; 64]].concat();
    let first = TensorFile::parse(&bytes).unwrap_err();
    assert_eq!(
        first.to_string(),
        "model.safetensors: tensor `b`: its data starts at byte 0 of the data, where the tensors before it end at byte \
         32: it overlaps the data before it"
    );
    for _ in 0..50 {
        assert_eq!(TensorFile::parse(&bytes).unwrap_err(), first);
    }
    // A gap is named too, and the first bad entry in the header's order wins over a later one.
    let gap = header(
        r#""a":{"dtype":"F32","shape":[8],"data_offsets":[0,32]},"c":{"dtype":"F32","shape":[8],"data_offsets":[40,72]}"#,
    );
    assert!(Header::parse(&gap).unwrap_err().to_string().ends_with("leaves a gap before it"));
    let two = header(
        r#""z":{"dtype":"F32","shape":[9],"data_offsets":[0,32]},"a":{"dtype":"F32","shape":[9],"data_offsets":[32,64]}"#,
    );
    assert!(Header::parse(&two)
        .unwrap_err()
        .to_string()
        .starts_with("model.safetensors: tensor `z`: its shape [9] needs 36"));
}
