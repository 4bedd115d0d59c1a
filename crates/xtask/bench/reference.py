"""Times the Python references of the particle stepper for `cargo xtask bench`.

    python reference.py --backend numpy|jax CASES.json
    python reference.py --versions

CASES.json is a list of {"id", "dir", "steps", "out"}: `dir` holds what `attn bench --dump-initial`
wrote (case.json with the equations' parameters, the initial tokens x0.f64 and Q, K, V as raw
little-endian float64). Each case takes one warm-up step (for JAX: compilation and one step),
then exactly `steps` timed steps, the same number as the native run it is compared with; the
tokens after them are written to `out` (n x d little-endian float64). One JSON line per case on
stdout: {"id", "backend", "ms_per_step", "warmup_ms", "steps", "memory_bytes", "memory"}, or
{"id", "backend", "error"}. Memory: NumPy, the tracemalloc peak while loading the inputs and
taking the warm-up step (tracing is off while timing); JAX, the process's ru_maxrss after the
case (process-wide, so it never goes down from one case to the next).
"""

import argparse
import json
import os
import resource
import sys
import time
import tracemalloc


def load_case(directory):
    """The case's parameters and its initial tokens X (n x d) and Q, K, V (d x d) as NumPy arrays."""
    import numpy as np

    with open(os.path.join(directory, 'case.json')) as f:
        case = json.load(f)
    n, d = case['n'], case['d']
    if case['model'] not in ('euclidean', 'sphere-sa') or case['integrate_in'] != 'x':
        raise ValueError(f"the reference implements the euclidean model in x and sphere-sa, not {case['model']} in {case['integrate_in']}")

    def read(name, rows):
        return np.fromfile(os.path.join(directory, case[name]), dtype='<f8').reshape(rows, d)

    return case, read('tokens', n), read('q', d), read('k', d), read('v', d)


def run_numpy(spec):
    import numpy as np
    import numpy_steps

    tracemalloc.start()
    case, X, Q, K, V = load_case(spec['dir'])
    step = numpy_steps.make_step(case['model'], case['integrator'], case['beta'], case['dt'], Q, K, V)
    start = time.perf_counter()
    X = step(X)
    warmup = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    start = time.perf_counter()
    for _ in range(spec['steps']):
        X = step(X)
    seconds = time.perf_counter() - start
    np.ascontiguousarray(X, dtype='<f8').tofile(spec['out'])
    return {'warmup_ms': warmup * 1e3, 'ms_per_step': seconds * 1e3 / spec['steps'],
            'memory_bytes': peak, 'memory': 'tracemalloc peak (inputs and one step)'}


def run_jax(spec):
    import numpy as np
    import jax_steps

    case, X, Q, K, V = load_case(spec['dir'])
    step = jax_steps.make_step(case['model'], case['integrator'], case['beta'], case['dt'], Q, K, V)
    X = jax_steps.jnp.asarray(X)
    start = time.perf_counter()
    X = step(X).block_until_ready()
    warmup = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(spec['steps']):
        X = step(X)
    X.block_until_ready()
    seconds = time.perf_counter() - start
    np.ascontiguousarray(np.asarray(X), dtype='<f8').tofile(spec['out'])
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    return {'warmup_ms': warmup * 1e3, 'ms_per_step': seconds * 1e3 / spec['steps'],
            'memory_bytes': maxrss, 'memory': 'ru_maxrss (process-wide)'}


def versions():
    """The versions of Python, NumPy (and its BLAS) and JAX, or why one cannot be imported."""
    out = {'python': sys.version.split()[0]}
    try:
        import numpy as np
        out['numpy'] = np.__version__
        try:
            blas = np.show_config(mode='dicts')['Build Dependencies']['blas']
            out['blas'] = f"{blas.get('name')} {blas.get('version')}"
        except Exception:  # the build information's layout changed: the version is enough
            pass
    except ImportError as e:
        out['numpy_error'] = str(e)
    try:
        import jax
        out['jax'] = jax.__version__
    except ImportError as e:
        out['jax_error'] = str(e)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--backend', choices=['numpy', 'jax'])
    parser.add_argument('--versions', action='store_true', help='print the versions as JSON and exit')
    parser.add_argument('cases', nargs='?')
    args = parser.parse_args()
    if args.versions:
        print(json.dumps(versions()))
        return
    if not args.backend or not args.cases:
        parser.error('give --backend and CASES.json (or --versions)')
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    run = run_numpy if args.backend == 'numpy' else run_jax
    with open(args.cases) as f:
        specs = json.load(f)
    for spec in specs:
        try:
            result = run(spec)
            result.update({'id': spec['id'], 'backend': args.backend, 'steps': spec['steps']})
        except Exception as e:  # one failed case is reported and the others still run
            result = {'id': spec['id'], 'backend': args.backend, 'error': f'{type(e).__name__}: {e}'}
        print(json.dumps(result), flush=True)


if __name__ == '__main__':
    main()
