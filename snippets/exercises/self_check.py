# The two helpers the self-check cells call: list_checks(exercise_id) and self_check(exercise_id).
import types

from check_solution import checks_for, run_checks


def list_checks(exercise_id):
    """Print, in plain words, what the checker verifies for one exercise."""
    for number, item in enumerate(checks_for(exercise_id), start=1):
        print(f"{number}. {item.description}")


def answer():
    """Everything defined so far (in this page or notebook), as the module the checks take."""
    module = types.ModuleType("answer")
    module.__dict__.update({k: v for k, v in globals().items() if not k.startswith("__")})
    return module


def self_check(exercise_id):
    """Run an exercise's checks on your answer and print one line per check."""
    results = run_checks(exercise_id, answer())
    for result in results:
        print(result)
    print(f"{sum(r.passed for r in results)} of {len(results)} checks passed")
