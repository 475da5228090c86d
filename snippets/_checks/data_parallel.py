"""Checks for the exercise "data_parallel": ``place(params, batch, mesh)`` and
``train_step(params, batch)``, a data-parallel step of a linear model: the batch split by rows
along the mesh's "data" axis, the parameters copied to every device.

The mesh holds every device the checker's process has (one on the site's build, eight in a
process that asked for them first); every check reads shardings, values and compile counts,
which mean the same on one device as on many. The step's values are compared with a float64
NumPy reference with its products at full float32 precision (``_device.full_precision``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _checks._device import full_precision

from jitkit import count_compiles

RATE = 0.1
ROWS = 8 * jax.device_count()  # an equal share for every device
_rng = np.random.default_rng(11)
X_HOST = _rng.normal(size=(ROWS, 3)).astype(np.float32)
Y_HOST = (X_HOST @ np.array([1.0, -2.0, 0.5], np.float32) + 0.3).astype(np.float32)
W_HOST, B_HOST = np.array([0.1, 0.2, -0.1], np.float32), np.float32(0.05)


def _mesh():
    return jax.make_mesh((jax.device_count(),), ("data",))


def _host():
    """Fresh arrays for one call: a donated parameter cannot be used twice."""
    return {"w": jnp.asarray(W_HOST), "b": jnp.asarray(B_HOST)}, {"x": X_HOST, "y": Y_HOST}


def _function(module, name):
    fn = getattr(module, name, None)
    assert callable(fn), f"expected a function named {name} at module scope, got none"
    return fn


def _placed(module, mesh):
    out = _function(module, "place")(*_host(), mesh)
    assert isinstance(out, tuple | list) and len(out) == 2, (
        f"expected place to return (params, batch), got {type(out).__name__}"
    )
    params, batch = out
    for name, tree, keys in (("params", params, {"w", "b"}), ("batch", batch, {"x", "y"})):
        assert isinstance(tree, dict) and set(tree) == keys, (
            f"expected place to return {name} as a dict with keys {sorted(keys)}, got {tree!r:.80}"
        )
    return params, batch


def _spec(leaf) -> tuple:
    """A leaf's sharding as one entry per dimension (None: not split), or why it has none."""
    assert isinstance(leaf, jax.Array), f"expected a jax.Array, got {type(leaf).__name__}"
    sharding = leaf.sharding
    assert isinstance(sharding, NamedSharding), (
        f"expected a NamedSharding over the mesh, got {type(sharding).__name__} (jax.device_put "
        "with NamedSharding(mesh, spec) gives one)"
    )
    spec = tuple(sharding.spec) + (None,) * (leaf.ndim - len(sharding.spec))
    return sharding.mesh, spec


def _assert_copied(tree, mesh, what):
    for name, leaf in tree.items():
        leaf_mesh, spec = _spec(leaf)
        assert leaf_mesh == mesh and all(entry is None for entry in spec), (
            f"expected {what} {name!r} copied to every device of the mesh (PartitionSpec()), "
            f"got spec {spec} on {leaf_mesh}"
        )


def _reference(steps):
    w, b = W_HOST.astype(np.float64), np.float64(B_HOST)
    x, y = X_HOST.astype(np.float64), Y_HOST.astype(np.float64)
    for _ in range(steps):
        residual = x @ w + b - y
        w, b = w - RATE * 2 * x.T @ residual / ROWS, b - RATE * 2 * residual.mean()
    return w, b


@check('place splits every leaf of the batch by rows along the mesh\'s "data" axis')
def batch_split(module):
    mesh = _mesh()
    _, batch = _placed(module, mesh)
    for name, leaf in batch.items():
        leaf_mesh, spec = _spec(leaf)
        want = ("data",) + (None,) * (leaf.ndim - 1)
        assert leaf_mesh == mesh and spec == want, (
            f"expected batch {name!r} split by rows, spec {want} on the given mesh, got spec "
            f"{spec}: PartitionSpec('data') splits the first dimension"
        )


@check("place gives every device a whole copy of the parameters (PartitionSpec())")
def params_copied(module):
    mesh = _mesh()
    params, _ = _placed(module, mesh)
    _assert_copied(params, mesh, "parameter")


def _stepped(module, mesh):
    """The parameters after one train_step on the placed arrays."""
    new = _function(module, "train_step")(*_placed(module, mesh))
    assert isinstance(new, dict) and set(new) == {"w", "b"}, (
        f"expected train_step to return the parameters as a dict with keys ['b', 'w'], "
        f"got {new!r:.80}"
    )
    return new


@check(f"train_step is one gradient step (rate {RATE}) on the mean squared error of x @ w + b")
def one_step(module):
    with full_precision():  # a TPU's default bfloat16 products would move the fourth digit
        new = _stepped(module, _mesh())
    want_w, want_b = _reference(1)
    got_w, got_b = np.asarray(new["w"], np.float64), float(new["b"])
    assert np.allclose(got_w, want_w, atol=1e-5) and abs(got_b - want_b) < 1e-5, (
        f"expected w = {np.round(want_w, 5).tolist()}, b = {want_b:.5f} after one step, "
        f"got w = {np.round(got_w, 5).tolist()}, b = {got_b:.5f}"
    )


@check("train_step returns the parameters copied to every device of the same mesh")
def result_copied(module):
    mesh = _mesh()
    _assert_copied(_stepped(module, mesh), mesh, "the returned parameter")


@check("the next two steps compile nothing: each takes the parameters as the last returned them")
def no_recompile(module):
    step = _function(module, "train_step")
    params, batch = _placed(module, _mesh())
    params = step(params, batch)  # may compile: the first step of this checker
    with count_compiles() as compiles:
        for _ in range(2):
            params = step(params, batch)
    assert compiles() == 0, (
        f"expected no compilation in steps 2 and 3, got {compiles()} "
        f"({', '.join(compiles.names)}): jit train_step once at module scope, and return the "
        "parameters with the sharding they came in with"
    )


@check("train_step donates the parameters and keeps the batch")
def donates_params(module):
    params, batch = _placed(module, _mesh())
    _function(module, "train_step")(params, batch)
    gone = sorted(name for name, leaf in params.items() if not leaf.is_deleted())
    assert not gone, (
        f"expected the parameters passed in to be deleted (donated), got {gone} still alive: "
        "jit train_step with donate_argnums=0, so each device reuses its copy's memory"
    )
    deleted = sorted(name for name, leaf in batch.items() if leaf.is_deleted())
    assert not deleted, (
        f"expected the batch to stay alive for the next step, got {deleted} deleted: donate "
        "only argument 0"
    )
