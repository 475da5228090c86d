"""Every exercise and lesson checker over its reference solution and each of its wrong solutions,
in this one process (a TPU admits one), as plain JSON data: what the accelerator recorder
calls to learn whether the checkers judge right on its device.

    python -m engine.tools.checker_runs --out FILE.json

prints one line per checker and exits 1 when a verdict is wrong: a reference that fails a check,
or a wrong solution that passes the check its ``Fails:`` line names (``engine.tools.solutions``
finds both).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

from engine.page.model import ROOT, SNIPPETS
from engine.tools import solutions


def checker() -> ModuleType:
    """``check_solution``, imported as the checks import it (by its own name, from snippets/),
    so that they share its ``NotChecked``."""
    if str(SNIPPETS) not in sys.path:
        sys.path.insert(0, str(SNIPPETS))
    return importlib.import_module("check_solution")


def _where(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def _failures(results) -> list[dict]:
    return [
        {"check": r.description, "message": r.message, "checked": r.checked}
        for r in results
        if not r.passed
    ]


def _results(checker_id: str, path: Path, until: str | None = None):
    """The checks' results for the solution at ``path``, or the error that kept them from
    running (the file did not import, or names no check of this checker)."""
    check_solution = checker()
    name = f"checked_{checker_id}_{path.parent.name}_{path.stem}"
    try:
        module = check_solution.load_module(path, name)
        return check_solution.run_checks(checker_id, module, until=until), ""
    except Exception as error:  # recorded, so that one broken file does not hide the rest
        return [], f"{type(error).__name__}: {error}"


def reference_verdict(checker_id: str, path: Path) -> dict:
    results, error = _results(checker_id, path)
    failed = _failures(results)
    return {
        "file": _where(path),
        "checks": len(results),
        "passed": bool(results) and not failed and not error,
        "failed": failed,
        "error": error,
    }


def wrong_verdict(checker_id: str, path: Path) -> dict:
    """Did the solution fail the check its ``Fails:`` line names? The checks run up to that one
    (``run_checks``' ``until``), whose result is then the full run's."""
    try:
        named = solutions.named_check(path)
    except ValueError as error:
        return {"file": _where(path), "named": "", "failed_named": False, "error": str(error)}
    results, error = _results(checker_id, path, until=named)
    failed = _failures(results)
    return {
        "file": _where(path),
        "named": named,
        "failed_named": any(f["check"] == named for f in failed),
        "failed": failed,
        "error": error,
    }


def run_checker(checker_id: str, reference: Path) -> dict:
    wrong = [wrong_verdict(checker_id, path) for path in solutions.wrong_solutions(checker_id)]
    verdict = {"reference": reference_verdict(checker_id, reference), "wrong": wrong}
    verdict["right"] = verdict["reference"]["passed"] and all(w["failed_named"] for w in wrong)
    return verdict


def run_all(ids: list[str] | None = None) -> dict:
    """``{checker id: {"reference": ..., "wrong": [...], "right": bool}}`` for every checker (or
    those in ``ids``). ``reference``: ``passed`` (every check passed), else the ``failed`` checks
    with their messages, or the ``error`` that kept them from running; each of ``wrong``:
    the check it ``named``, whether it ``failed_named``, and every check that ``failed``."""
    found = solutions.references()
    unknown = sorted(set(ids or []) - set(found))
    if unknown:
        raise ValueError(f"unknown checker ids {unknown} (known: {', '.join(found)})")
    return {
        checker_id: run_checker(checker_id, reference)
        for checker_id, reference in found.items()
        if ids is None or checker_id in ids
    }


def brief(verdict: dict) -> dict:
    """What the data file keeps of a checker's run: its verdict and whatever was judged wrong."""
    reference = verdict["reference"]
    missed = [Path(w["file"]).name for w in verdict["wrong"] if not w["failed_named"]]
    kept = {"right": verdict["right"], "wrong_solutions": len(verdict["wrong"])}
    if not reference["passed"]:
        kept["reference"] = reference["error"] or "; ".join(
            f"{f['check']}: {f['message']}" for f in reference["failed"]
        )
    return kept | ({"wrong_passed": missed} if missed else {})


def device() -> str:
    """The device the checks ran on, as a page's record names it."""
    import jax  # the checks imported it already

    found = jax.devices()
    return f"{found[0].platform} ({found[0].device_kind}, {len(found)} device(s))"


def summary(checker_id: str, verdict: dict) -> str:
    """One line: ``ok`` or ``WRONG``, the reference's verdict, the wrong solutions'."""
    reference, wrong = verdict["reference"], verdict["wrong"]
    if reference["passed"]:
        said = f"reference passes {reference['checks']} checks"
    elif reference["error"]:
        said = f"reference did not run: {reference['error']}"
    else:
        said = "reference FAILS " + "; ".join(
            f"'{f['check']}': {f['message']}" for f in reference["failed"]
        )
    caught = sum(w["failed_named"] for w in wrong)
    said += f"; {caught} of {len(wrong)} wrong solutions fail the check they name"
    missed = [
        f"{Path(w['file']).name} passed '{w['named']}'" + (f" ({w['error']})" if w["error"] else "")
        for w in wrong
        if not w["failed_named"]
    ]
    said += f" ({'; '.join(missed)})" if missed else ""
    return f"{'ok   ' if verdict['right'] else 'WRONG'} {checker_id}: {said}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the verdicts to this JSON file")
    parser.add_argument("ids", nargs="*", help="checker ids (default: every checker)")
    args = parser.parse_args(argv)
    verdicts = run_all(args.ids or None)
    if args.out:
        args.out.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for checker_id, verdict in verdicts.items():
        print(summary(checker_id, verdict))
    return 0 if all(v["right"] for v in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
