"""Every runnable block of every page under docs/ is a test (see engine/run/sybil_setup.py)."""

from engine.run.sybil_setup import docs

pytest_collect_file = docs.pytest()
