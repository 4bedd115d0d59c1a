//! A tiny random BERT written by the tests (no download): `config.json`, `vocab.txt` and a
//! `model.safetensors` serialised here by hand (8-byte header length, JSON header, little-endian
//! data), with or without the `bert.` prefix, plus `cls.*` and `pooler.*` tensors the loader must
//! ignore. Shared by the core's tests and the CLI's (`#[path]`).

#![allow(dead_code)]

/// Hidden size, heads, layers, feed-forward width, positions of the tiny model.
pub const D: usize = 8;
pub const HEADS: usize = 2;
pub const LAYERS: usize = 2;
pub const FF: usize = 16;
pub const POSITIONS: usize = 48;

/// The tiny vocabulary (lower case: no piece other than the specials has an upper-case letter).
pub const VOCAB: [&str; 16] = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "quick", "brown", "fox", "dog", "lazy", ".", ",", "##s", "a",
    "jumps",
];

pub fn vocab_txt() -> String {
    VOCAB.join("\n") + "\n"
}

/// `config.json` of the tiny model, with `extra` fields spliced in (they override: JSON readers
/// keep the last duplicate; serde_json keeps the last one too).
pub fn config_json(extra: &str) -> String {
    let base = format!(
        "\"model_type\": \"bert\", \"hidden_act\": \"gelu\", \"hidden_size\": {}, \"num_attention_heads\": {}, \
         \"num_hidden_layers\": {}, \"intermediate_size\": {}, \"max_position_embeddings\": {}, \"vocab_size\": {}, \
         \"type_vocab_size\": 2, \"layer_norm_eps\": 1e-12, \"position_embedding_type\": \"absolute\"",
        D,
        HEADS,
        LAYERS,
        FF,
        POSITIONS,
        VOCAB.len()
    );
    if extra.is_empty() {
        format!("{{{}}}", base)
    } else {
        format!("{{{}, {}}}", base, extra)
    }
}

/// One tensor: name, shape, dtype name, raw little-endian bytes.
pub struct Tensor {
    pub name: String,
    pub shape: Vec<usize>,
    pub dtype: &'static str,
    pub data: Vec<u8>,
}

pub fn f32_tensor(name: &str, shape: &[usize], values: &[f32]) -> Tensor {
    Tensor {
        name: name.to_string(),
        shape: shape.to_vec(),
        dtype: "F32",
        data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

/// The safetensors bytes of `tensors`, in the given order.
pub fn serialize(tensors: &[Tensor]) -> Vec<u8> {
    let mut header = String::from("{");
    let mut offset = 0usize;
    for (k, t) in tensors.iter().enumerate() {
        let shape: Vec<String> = t.shape.iter().map(|s| s.to_string()).collect();
        if k > 0 {
            header.push(',');
        }
        header.push_str(&format!(
            "\"{}\":{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{},{}]}}",
            t.name,
            t.dtype,
            shape.join(","),
            offset,
            offset + t.data.len()
        ));
        offset += t.data.len();
    }
    header.push('}');
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(header.as_bytes());
    for t in tensors {
        out.extend_from_slice(&t.data);
    }
    out
}

/// A deterministic generator of weights (an LCG; values in (-scale, scale)).
pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen(seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407))
    }
    pub fn next(&mut self, scale: f32) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let u = (self.0 >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * scale
    }
    pub fn vec(&mut self, len: usize, scale: f32) -> Vec<f32> {
        (0..len).map(|_| self.next(scale)).collect()
    }
}

/// Every tensor of the tiny model (names without prefix), random from `seed`.
pub fn tensors(seed: u64, prefix: &str) -> Vec<Tensor> {
    let mut g = Gen::new(seed);
    let mut t = Vec::new();
    let mut add = |name: &str, shape: &[usize], scale: f32, offset: f32, g: &mut Gen| {
        let len = shape.iter().product();
        let v: Vec<f32> = g.vec(len, scale).into_iter().map(|x| x + offset).collect();
        t.push(f32_tensor(&format!("{}{}", prefix, name), shape, &v));
    };
    let v = VOCAB.len();
    add("embeddings.word_embeddings.weight", &[v, D], 1.0, 0.0, &mut g);
    add("embeddings.position_embeddings.weight", &[POSITIONS, D], 0.5, 0.0, &mut g);
    add("embeddings.token_type_embeddings.weight", &[2, D], 0.5, 0.0, &mut g);
    add("embeddings.LayerNorm.weight", &[D], 0.2, 1.0, &mut g);
    add("embeddings.LayerNorm.bias", &[D], 0.1, 0.0, &mut g);
    for l in 0..LAYERS {
        let p = format!("encoder.layer.{}", l);
        for m in ["query", "key", "value"] {
            add(&format!("{}.attention.self.{}.weight", p, m), &[D, D], 0.6, 0.0, &mut g);
            add(&format!("{}.attention.self.{}.bias", p, m), &[D], 0.1, 0.0, &mut g);
        }
        add(&format!("{}.attention.output.dense.weight", p), &[D, D], 0.4, 0.0, &mut g);
        add(&format!("{}.attention.output.dense.bias", p), &[D], 0.1, 0.0, &mut g);
        add(&format!("{}.attention.output.LayerNorm.weight", p), &[D], 0.2, 1.0, &mut g);
        add(&format!("{}.attention.output.LayerNorm.bias", p), &[D], 0.1, 0.0, &mut g);
        add(&format!("{}.intermediate.dense.weight", p), &[FF, D], 0.4, 0.0, &mut g);
        add(&format!("{}.intermediate.dense.bias", p), &[FF], 0.1, 0.0, &mut g);
        add(&format!("{}.output.dense.weight", p), &[D, FF], 0.3, 0.0, &mut g);
        add(&format!("{}.output.dense.bias", p), &[D], 0.1, 0.0, &mut g);
        add(&format!("{}.output.LayerNorm.weight", p), &[D], 0.2, 1.0, &mut g);
        add(&format!("{}.output.LayerNorm.bias", p), &[D], 0.1, 0.0, &mut g);
    }
    add("pooler.dense.weight", &[D, D], 0.3, 0.0, &mut g);
    t.push(Tensor { name: "cls.predictions.bias".into(), shape: vec![v], dtype: "F16", data: vec![0; 2 * v] });
    t
}

/// The tiny model's `model.safetensors` (`prefix`: with `bert.` on the encoder's names).
pub fn safetensors(seed: u64, prefix: bool) -> Vec<u8> {
    serialize(&tensors(seed, if prefix { "bert." } else { "" }))
}

/// Writes the tiny model's three files into `dir` (created).
pub fn write_dir(dir: &std::path::Path, seed: u64) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("model.safetensors"), safetensors(seed, false)).unwrap();
    std::fs::write(dir.join("config.json"), config_json("")).unwrap();
    std::fs::write(dir.join("vocab.txt"), vocab_txt()).unwrap();
}

/// The tiny model's tensors (no prefix) with every value of `name` passed through `f` (its flat
/// index and value): a broken variant (a NaN, an infinity, weights that overflow `f32`).
pub fn tensors_with(seed: u64, name: &str, f: impl Fn(usize, f32) -> f32) -> Vec<Tensor> {
    let mut t = tensors(seed, "");
    let target = t.iter_mut().find(|t| t.name == name).expect("a tensor of the tiny model");
    let values: Vec<f32> = target
        .data
        .chunks_exact(4)
        .enumerate()
        .map(|(k, b)| f(k, f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        .collect();
    target.data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    t
}

/// The tiny model whose feed-forward output weights of layer `layer` (0-based) are all `3e38`:
/// finite weights whose products overflow `f32`, so from layer `layer + 1` on the hidden states of
/// the transformer and SAN+MLP are not finite (SAN and SAN+skip never run the feed-forward).
pub fn overflowing_safetensors(seed: u64, layer: usize) -> Vec<u8> {
    serialize(&tensors_with(seed, &format!("encoder.layer.{}.output.dense.weight", layer), |_, _| 3e38))
}
