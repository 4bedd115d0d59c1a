"""The particle equations in JAX: the same formulas as numpy_steps.py (see there), float64
(jax_enable_x64), one jit-compiled function per step, JAX's default threads.

Importing this module enables float64 in JAX.
"""

import jax
import jax.numpy as jnp

jax.config.update('jax_enable_x64', True)


def attention(X, Q, K, beta):
    """The attention matrix P (n x n, row-stochastic)."""
    S = (X @ Q.T) @ (X @ K.T).T
    E = jnp.exp(beta * (S - S.max(axis=1, keepdims=True)))
    return E / E.sum(axis=1, keepdims=True)


def velocity(X, Q, K, V, beta, projected):
    """sum_j P_ij V x_j for every token, projected on the tangent space of the sphere at x_i when
    `projected`."""
    F = attention(X, Q, K, beta) @ (X @ V.T)
    if projected:
        F = F - jnp.sum(X * F, axis=1, keepdims=True) * X
    return F


def normalize(X):
    """Each token divided by its Euclidean norm."""
    return X / jnp.sqrt(jnp.sum(X * X, axis=1, keepdims=True))


def make_step(model, integrator, beta, dt, Q, K, V):
    """One jit-compiled step of `integrator` ('euler', 'retraction' or 'rk4') for `model`
    ('euclidean' or 'sphere-sa'): a function X -> X after one step (a JAX array)."""
    sphere = model == 'sphere-sa'
    Q, K, V = jnp.asarray(Q), jnp.asarray(K), jnp.asarray(V)

    def f(X):
        return velocity(X, Q, K, V, beta, projected=sphere)

    if integrator in ('euler', 'retraction'):
        def step(X):
            X = X + dt * velocity(X, Q, K, V, beta, projected=False)
            return normalize(X) if sphere else X
    elif integrator == 'rk4':
        def step(X):
            k1 = f(X)
            k2 = f(X + 0.5 * dt * k1)
            k3 = f(X + 0.5 * dt * k2)
            k4 = f(X + dt * k3)
            X = X + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            return normalize(X) if sphere else X
    else:
        raise ValueError(f'unknown integrator {integrator!r}')
    return jax.jit(step)
