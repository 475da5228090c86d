"""Which code raised a ❌ block's error: the error index lists only the errors JAX raises. Its
class cannot tell: JAX raises Python's TypeError and ValueError too, from Python and from C++.

JAX drops its own frames from a traceback, so while a ❌ ``raises`` block runs, tracebacks stay
whole and the innermost frame names the module that raised. An error that compiled code raises
(JAX's C++ checks a jitted call's arguments) has no frame of its own: the callables that raise
out of compiled code into the page's own lines are watched (``sys.monitoring``) for those.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

_ATTRIBUTE = "_jitdocs_raised_in"
_monitoring = sys.monitoring


@contextlib.contextmanager
def watched(page_files: set[str]) -> Iterator[dict]:
    """While the block runs: whole tracebacks, and the module of each compiled callable that
    raised into ``page_files``' code, by (code, instruction offset)."""
    jax = sys.modules["jax"]
    tool = next(i for i in range(6) if _monitoring.get_tool(i) is None)
    raised: dict = {}

    def on_call(code, offset, called, arg0):
        return None if code.co_filename in page_files else _monitoring.DISABLE

    def on_c_raise(code, offset, called, arg0):
        if code.co_filename in page_files:
            raised[(code, offset)] = _module_of(called)

    filtering = jax.config.jax_traceback_filtering
    jax.config.update("jax_traceback_filtering", "off")
    _monitoring.use_tool_id(tool, "jitdocs raiser")
    _monitoring.register_callback(tool, _monitoring.events.CALL, on_call)
    _monitoring.register_callback(tool, _monitoring.events.C_RAISE, on_c_raise)
    events = _monitoring.events  # C_RAISE is set with C_RETURN, and fires where CALL does
    _monitoring.set_events(tool, events.CALL | events.C_RAISE | events.C_RETURN)
    try:
        yield raised
    finally:
        _monitoring.set_events(tool, 0)
        _monitoring.free_tool_id(tool)
        _monitoring.restart_events()  # what on_call disabled
        jax.config.update("jax_traceback_filtering", filtering)


def remember(error: BaseException, raised: dict) -> None:
    """Note on ``error`` the module that raised it: its innermost frame's, or when that frame is
    the page's, the compiled callable's that raised there."""
    innermost = error.__traceback__
    while innermost is not None and innermost.tb_next is not None:
        innermost = innermost.tb_next
    if innermost is None:
        return
    frame = innermost.tb_frame
    module = frame.f_globals.get("__name__", "")
    setattr(error, _ATTRIBUTE, raised.get((frame.f_code, innermost.tb_lasti), module))


def raised_in(error: BaseException) -> str:
    return getattr(error, _ATTRIBUTE, "")


def _module_of(called) -> str:
    """A builtin function's own module (``hash``: builtins); else its type's (a jitted function:
    jaxlib's), since JAX's wrappers copy the wrapped function's ``__module__``."""
    if type(called).__name__ == "builtin_function_or_method":
        return getattr(called, "__module__", None) or "builtins"
    return type(called).__module__
