"""The model lab's forward in NumPy float32, as a Python user writes it, for `cargo xtask bench`.

  model_numpy.py forward MODEL_DIR ENCODE_JSON [ROUNDS]
      Reads the BERT folder's model.safetensors (parsed here: an 8-byte little-endian header
      length, a JSON header, raw data) and `attn encode`'s JSON (its `ids`, so the tokenizer is
      not timed, and its last hidden state `hidden`). Runs the encoder with every head's
      attention P_h and output O_h kept (matrix products with `@`, a max-subtracted softmax, the
      exact GELU through an erf polynomial, since NumPy has no erf), one warm-up and ROUNDS timed
      forwards (default 10). Prints one JSON line: best_ms, median_ms, rounds, n, max_abs_diff
      (of the last hidden state against attn encode's), numpy, blas.
  model_numpy.py random OUT_DIR LIKE_DIR
      Writes a bert-base-sized model with random weights (hidden 768, 12 layers, 12 heads,
      intermediate 3072; LIKE_DIR's vocabulary and tensor names) into OUT_DIR, for the memory line.
"""

import json
import math
import os
import shutil
import struct
import sys
import time

import numpy as np

DTYPES = {"F32": np.float32, "I64": np.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
        data = f.read()
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(data[a:b], dtype=DTYPES[t["dtype"]]).reshape(t["shape"])
    return out


def write_safetensors(path, tensors):
    header, offset = {}, 0
    for name, a in tensors.items():
        dtype = {np.dtype(np.float32): "F32", np.dtype(np.int64): "I64"}[a.dtype]
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for a in tensors.values():
            f.write(np.ascontiguousarray(a).tobytes())


def erf(x):
    # Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7 (float32 rounds at 6e-8).
    s = np.sign(x)
    a = np.abs(x)
    t = np.float32(1.0) / (np.float32(1.0) + np.float32(0.3275911) * a)
    y = np.float32(1.0) - (
        ((((np.float32(1.061405429) * t - np.float32(1.453152027)) * t + np.float32(1.421413741)) * t
          - np.float32(0.284496736)) * t + np.float32(0.254829592)) * t) * np.exp(-a * a)
    return s * y


def layer_norm(x, g, b, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def forward(w, config, ids):
    d, heads, eps = config["hidden_size"], config["num_attention_heads"], np.float32(config["layer_norm_eps"])
    n, dh = len(ids), d // heads
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.token_type_embeddings.weight"][0]
    x = x + w["embeddings.position_embeddings.weight"][:n]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    attentions, outputs = [], []
    for l in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{l}."
        lin = lambda v, name: v @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = lin(x, "attention.self.query").reshape(n, heads, dh).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(n, heads, dh).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(n, heads, dh).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / np.float32(math.sqrt(dh))
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        att = e / e.sum(axis=-1, keepdims=True)
        o = att @ v
        attentions.append(att)
        outputs.append(o)
        a = lin(o.transpose(1, 0, 2).reshape(n, d), "attention.output.dense")
        h = layer_norm(x + a, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
        m = lin(h, "intermediate.dense")
        m = np.float32(0.5) * m * (np.float32(1.0) + erf(m * np.float32(1 / math.sqrt(2))))
        y = h + lin(m, "output.dense")
        x = layer_norm(y, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    return x, attentions, outputs


def blas():
    try:
        cfg = np.show_config(mode="dicts")
        b = cfg["Build Dependencies"]["blas"]
        return f"{b.get('name', '?')} {b.get('version', '')}".strip()
    except Exception:  # older NumPy
        return "unknown BLAS"


def bench(model_dir, encode_json, rounds):
    w = read_safetensors(os.path.join(model_dir, "model.safetensors"))
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)
    with open(encode_json) as f:
        enc = json.load(f)
    ids = np.array(enc["ids"], dtype=np.int64)
    want = np.array(enc["hidden"], dtype=np.float32)
    hidden, _, _ = forward(w, config, ids)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        forward(w, config, ids)
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    print(json.dumps({
        "best_ms": times[0], "median_ms": times[len(times) // 2], "rounds": rounds, "n": int(len(ids)),
        "max_abs_diff": float(np.abs(hidden - want).max()), "numpy": np.__version__, "blas": blas(),
    }))


def random_model(out_dir, like_dir):
    like = read_safetensors(os.path.join(like_dir, "model.safetensors"))
    with open(os.path.join(like_dir, "config.json")) as f:
        config = json.load(f)
    old = {config["hidden_size"]: 768, config["intermediate_size"]: 3072}
    config.update(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072)
    rng = np.random.default_rng(0)
    tensors = {}
    for name, a in like.items():
        if name.startswith("encoder.layer.") and not name.startswith("encoder.layer.0."):
            continue
        names = [name.replace("layer.0.", f"layer.{l}.") for l in range(12)] if "layer.0." in name else [name]
        shape = [old.get(s, s) if name != "embeddings.position_ids" else s for s in a.shape]
        for nm in names:
            if a.dtype == np.int64:
                tensors[nm] = a.copy()
            elif "LayerNorm.weight" in nm:
                tensors[nm] = np.ones(shape, dtype=np.float32)
            else:
                tensors[nm] = (rng.standard_normal(shape, dtype=np.float32) * np.float32(0.02))
    os.makedirs(out_dir, exist_ok=True)
    write_safetensors(os.path.join(out_dir, "model.safetensors"), tensors)
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    for name in ["vocab.txt", "tokenizer_config.json"]:
        if os.path.exists(os.path.join(like_dir, name)):
            shutil.copy(os.path.join(like_dir, name), os.path.join(out_dir, name))


if __name__ == "__main__":
    if sys.argv[1] == "forward":
        bench(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 10)
    elif sys.argv[1] == "random":
        random_model(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown command {sys.argv[1]!r}: forward or random")
