"""Every visible block pastes (issue #62): a page's visible Python blocks, alone and in order, run
in one fresh interpreter after the conventions page's four imports, with nothing of this site
on ``sys.path`` (no ``jitkit``), and none raises what it does not declare. A learner who copies
what they see gets no ``NameError`` from a helper defined only in a fold, and no
``ModuleNotFoundError`` from a module they do not have; a ❌ block still raises what it declares.

The blocks run through the build's own child process (``engine.run.child``), so a block's
contract (its declared error, its time limit, its leftover processes) is judged as in the build.
It starts JAX once per page, so it is not a ``unit`` test; pages run in parallel under
`nox -s tests`, and a page whose code a reader never sees is not started at all.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from engine.page.model import ROOT, Block, Page
from engine.page.outline import visible_blocks
from engine.page.parser import page_paths, read_page
from tests import tiers
from tests.helpers import fence, page


def paste_failure(parsed: Page, scratch: Path) -> str:
    """Run ``parsed``'s visible blocks as a learner pastes them; the first broken block's
    report (with its page and line), or "" when every one kept its contract."""
    return run_failure(visible_blocks(parsed), parsed.path, scratch)


def run_failure(blocks: list[Block], where: str, scratch: Path) -> str:
    """Run ``blocks`` in order in one fresh interpreter, as the build's child runs a page but
    without this site's snippets on ``sys.path``; the first failure's report, or ""."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(scratch), "MPLBACKEND": "Agg"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # makes `import jax` ~3x slower in a fresh venv
    done = subprocess.run(
        [sys.executable, "-m", "engine.run.child"],
        input=pickle.dumps({"blocks": blocks, "project": ROOT}),
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=sum(block.timeout for block in blocks) + 120,
    )
    events = [json.loads(line) for line in done.stdout.decode().splitlines()]
    failed = [event["failure"]["message"] for event in events if event["event"] == "failed"]
    finished = any(event["event"] == "environment" for event in events)
    if failed or finished:
        return failed[0] if failed else ""
    return f"{where}: the process died:\n{done.stderr.decode()[-2000:]}"


PAGES = [path for path in page_paths() if visible_blocks(read_page(path))]
# What a page's paste verdict depends on besides the page (its source, snippets and imported
# modules count as the page: tests/tiers.py): the child that runs it, the outline that picks the
# visible blocks, the pinned JAX, and this proof.
PASTE_INPUTS = [
    "engine/run/",
    "engine/page/outline.py",
    "uv.lock",
    "tests/test_visible_code_pastes.py",
]


def paste_params() -> list:
    """Every page; the default tier runs the first of each part of the site (about, beyond,
    course, ...) and the pages whose inputs changed, `--full` all (a JAX start each: ~100 s)."""
    return tiers.one_per(PAGES, lambda path: Path(path).parent, lambda path: [path, *PASTE_INPUTS])


@pytest.mark.parametrize("path", paste_params())
def test_the_visible_blocks_of_a_page_run_alone_in_a_fresh_interpreter(path: str, tmp_path):
    failure = paste_failure(read_page(path), tmp_path)
    assert not failure, (
        f"{failure}\nA visible block must run pasted alone, in order, after the four imports: "
        "define its helper in view (or in a snippet the page shows), import at the top of the "
        "page, and keep jitkit in folds and checks"
    )


HELPER = "def double(x):\n    return 2 * x\n\n\nassert double(1) == 2"
USE = fence("print(double(jnp.ones(2)))")


def test_a_helper_defined_only_in_a_fold_is_caught(tmp_path):
    """The planted mistake: a check defines ``double``; the block a reader sees calls it."""
    first = fence("print(jnp.arange(3))")
    planted = page(f"# Demo\n\n{first}{fence(HELPER, 'check: a helper only a fold defines.')}{USE}")
    failure = paste_failure(planted, tmp_path)
    assert "NameError: name 'double' is not defined" in failure
    assert failure.startswith(f"{planted.path}:")
    shown = page(f"# Demo\n\n{first}{fence(HELPER)}{USE}")
    assert paste_failure(shown, tmp_path) == ""  # the same helper in view pastes


def test_an_import_of_jitkit_in_view_is_caught_and_a_declared_error_still_passes(tmp_path):
    """jitkit is this site's; a ❌ block that raises what it declares is a block that pastes."""
    imported = page(f"# Demo\n\n{fence('from jitkit import count_compiles')}")
    assert "No module named 'jitkit'" in paste_failure(imported, tmp_path)
    pair = fence("int(jnp.ones(2))", "bad: raises TypeError") + fence("print(1)", "good")
    assert paste_failure(page(f"# Demo\n\n{pair}"), tmp_path) == ""
    wrong = fence("int(jnp.ones(2))", "bad: raises NameError") + fence("print(1)", "good")
    assert "should raise NameError" in paste_failure(page(f"# Demo\n\n{wrong}"), tmp_path)


THREADS = "docs/beyond/threads-and-deployment.md"
SERVED_AFTER_WARM_UP = """
for n in sizes:  # every warmed signature, with new data
    features = np.random.default_rng(n).random((n, 16), dtype=np.float32)
    with jax.no_tracing(True):
        normalize(features)
        rank_jit(embed_jit(features))
unwarmed = np.zeros((4, 16), np.float32)
for fn in (normalize, embed_jit):
    try:
        with jax.no_tracing(True):
            fn(unwarmed)
    except RuntimeError as error:
        assert "re-tracing function" in str(error), error
    else:
        raise AssertionError(f"{fn.__name__} served a size it never saw without tracing")
"""


def test_the_warm_up_advice_followed_verbatim_serves_every_warmed_signature(tmp_path):
    """Issue #62: an ahead-of-time warm-up followed by `jax.no_tracing(True)` refused every
    warmed signature. The threads page's opening block and its warm-up section, as shown, in a
    fresh interpreter; then each warmed size serves under no_tracing and an unwarmed one raises."""
    parsed = read_page(THREADS)
    section = [b for b in visible_blocks(parsed) if b.section.startswith("Warm up ahead of time")]
    assert any("no_tracing" in block.source and block.good for block in section)
    check = page(fence(SERVED_AFTER_WARM_UP)).blocks[0]
    failure = run_failure([parsed.blocks[0], *section, check], THREADS, tmp_path)
    assert not failure, failure
