"""Every runnable block of every page under docs/ is a test (see engine/sybil_setup.py)."""

from engine.sybil_setup import docs

pytest_collect_file = docs.pytest()
