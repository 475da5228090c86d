"""Benchmarks and profilers: what the nox sessions bench, stress, lighthouse and profile run.
Not tests (pytest does not collect this folder); tests/test_bench_build.py and
tests/test_suite_profile.py test their logic."""
