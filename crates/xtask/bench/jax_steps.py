"""The particle equations in JAX: the formulas of numpy_steps.py on `jax.numpy` arrays, float64
(jax_enable_x64), one jit-compiled function per step, JAX's default threads.

Importing this module enables float64 in JAX.
"""

import jax
import jax.numpy as jnp

import numpy_steps

jax.config.update('jax_enable_x64', True)


def make_step(model, integrator, beta, dt, Q, K, V):
    """One jit-compiled step of `integrator` ('euler', 'retraction' or 'rk4') for `model`
    ('euclidean' or 'sphere-sa'): a function X -> X after one step (a JAX array)."""
    Q, K, V = jnp.asarray(Q), jnp.asarray(K), jnp.asarray(V)
    return jax.jit(numpy_steps.make_step(model, integrator, beta, dt, Q, K, V, xp=jnp))
