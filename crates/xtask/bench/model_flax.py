"""transformers' Flax BERT on the model benchmark's tokens, for `cargo xtask bench` (no target).

  model_flax.py MODEL_DIR ENCODE_JSON [ROUNDS]
      When `transformers.FlaxBertModel` imports (transformers 4.x with flax and jax; transformers
      5 has no Flax models) and loads MODEL_DIR's weights, times the jit-compiled forward with
      every attention map kept (output_attentions), after compilation, best of ROUNDS (default 10),
      and checks its last hidden state against `attn encode`'s. Prints one JSON line: best_ms,
      median_ms, rounds, max_abs_diff, versions; or {"error": why}.
"""

import json
import sys
import time


def main(model_dir, encode_json, rounds):
    try:
        import jax
        import numpy as np
        import transformers
        from transformers import FlaxBertModel
    except Exception as e:  # not installed, or transformers without Flax
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        return
    try:
        model = FlaxBertModel.from_pretrained(model_dir)
    except Exception as e:
        print(json.dumps({"error": f"cannot load {model_dir}: {type(e).__name__}: {e}"}))
        return
    with open(encode_json) as f:
        enc = json.load(f)
    ids = np.array([enc["ids"]], dtype=np.int32)
    run = jax.jit(lambda i: model(i, output_attentions=True))
    out = run(ids)
    jax.block_until_ready(out)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        jax.block_until_ready(run(ids))
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    diff = float(np.abs(np.asarray(out.last_hidden_state[0]) - np.array(enc["hidden"], dtype=np.float32)).max())
    print(json.dumps({
        "best_ms": times[0], "median_ms": times[len(times) // 2], "rounds": rounds, "max_abs_diff": diff,
        "versions": f"transformers {transformers.__version__}, JAX {jax.__version__}",
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10)
