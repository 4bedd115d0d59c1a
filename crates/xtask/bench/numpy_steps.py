"""The particle equations in NumPy, written the way a Python user would: matrix products and a
max-subtracted softmax over the whole n x n attention matrix, float64 (docs/science.md
sections 1 and 2).

    Euclidean:  dx_i/dt = sum_j P_ij V x_j
    sphere SA:  dx_i/dt = Pi_{x_i}( sum_j P_ij V x_j ),   Pi_x(y) = y - <x, y> x
    P_ij = exp(beta (s_ij - max_k s_ik)) / sum_k exp(beta (s_ik - max_k s_ik)),  s_ij = <Q x_i, K x_j>

Schemes: forward Euler (Euclidean), the retraction (sphere: unprojected Euler step, then each token
divided by its norm) and classical RK4 (on the sphere on the projected field, renormalised after
the step). X is n x d (tokens are rows); Q, K, V act as Q x_i, so on all tokens as X @ Q.T.

Every function takes the array module `xp`: NumPy here, `jax.numpy` in jax_steps.py, which jits
the same formulas.
"""

import numpy as np


def attention(X, Q, K, beta, xp=np):
    """The attention matrix P (n x n, row-stochastic)."""
    S = (X @ Q.T) @ (X @ K.T).T
    E = xp.exp(beta * (S - S.max(axis=1, keepdims=True)))
    return E / E.sum(axis=1, keepdims=True)


def velocity(X, Q, K, V, beta, projected, xp=np):
    """sum_j P_ij V x_j for every token, projected on the tangent space of the sphere at x_i when
    `projected`."""
    F = attention(X, Q, K, beta, xp) @ (X @ V.T)
    if projected:
        F = F - xp.sum(X * F, axis=1, keepdims=True) * X
    return F


def normalize(X, xp=np):
    """Each token divided by its Euclidean norm."""
    return X / xp.sqrt(xp.sum(X * X, axis=1, keepdims=True))


def make_step(model, integrator, beta, dt, Q, K, V, xp=np):
    """One step of `integrator` ('euler', 'retraction' or 'rk4') for `model` ('euclidean' or
    'sphere-sa'): a function X -> X after one step."""
    sphere = model == 'sphere-sa'

    def f(X):
        return velocity(X, Q, K, V, beta, sphere, xp)

    if integrator in ('euler', 'retraction'):
        def step(X):
            X = X + dt * velocity(X, Q, K, V, beta, False, xp)
            return normalize(X, xp) if sphere else X
    elif integrator == 'rk4':
        def step(X):
            k1 = f(X)
            k2 = f(X + 0.5 * dt * k1)
            k3 = f(X + 0.5 * dt * k2)
            k4 = f(X + dt * k3)
            X = X + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            return normalize(X, xp) if sphere else X
    else:
        raise ValueError(f'unknown integrator {integrator!r}')
    return step
