"""Which module raised a ❌ block's error (engine/run/raiser.py): the error index lists only the
errors JAX's code raised, so this must tell JAX's Python, JAX's C++, NumPy and the page apart."""

from __future__ import annotations

import pytest

from engine.run import terminal
from engine.run.execute import execute_block, fence_filename, new_namespace
from tests.helpers import PAIR_GOOD, fence, page

BLOCKS = {
    "jax._src.core": (
        "TracerBoolConversionError",
        "@jax.jit\ndef relu(x):\n    return x if x > 0 else 0.0\n\nrelu(1.0)",
    ),
    # raised by jaxlib's C++ straight into the page's line: no frame of JAX's own
    "jaxlib._jax": (
        "ValueError",
        "jax.jit(lambda v, dims: v.reshape(dims), static_argnums=1)(jnp.zeros(6), [3, 2])",
    ),
    "numpy.testing._private.utils": (
        "AssertionError",
        "np.testing.assert_array_equal(np.ones(2), np.zeros(2))",
    ),
    "__main__": ("ValueError", "raise ValueError('the page raised this itself')"),
}


@pytest.mark.parametrize("module", BLOCKS)
def test_the_module_that_raised_is_recorded(module):
    error_type, code = BLOCKS[module]
    demo = page(fence(code, f"bad: raises {error_type}") + PAIR_GOOD)
    outcome = execute_block(demo.blocks[0], new_namespace())
    assert outcome.error_type == error_type
    assert outcome.raised_in == module or outcome.raised_in.startswith(module + ".")


def test_watching_changes_neither_the_message_nor_the_settings():
    """The message shown is the one a reader gets (JAX's traceback filtering off only while the
    block runs), and the block after it runs as the reader's would."""
    import jax

    code = "jax.jit(lambda n: jnp.zeros(n))(3)"
    demo = page(fence(code, "bad: raises TypeError") + PAIR_GOOD)
    namespace = new_namespace()
    before = jax.config.jax_traceback_filtering
    outcome = execute_block(demo.blocks[0], namespace)
    assert jax.config.jax_traceback_filtering == before
    try:
        exec(compile(code, fence_filename(demo.blocks[0]), "exec"), new_namespace())
    except TypeError as error:
        assert terminal.steady(terminal.clean(str(error).strip())) == outcome.error_message
    else:
        pytest.fail("the block should raise for the reader too")
