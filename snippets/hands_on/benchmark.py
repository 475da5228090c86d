"""Eager vs jit on heavy_score, a function dominated by one large matrix multiplication."""

from jitkit import Timing, count_compiles, time_it

matmul_jit = jax.jit(jnp.matmul)

# Eagerly, every operation is compiled and run as its own small XLA program.
with count_compiles() as compiles:
    eager_value = heavy_score(left, right)
print("eager programs:", ", ".join(compiles.names))
assert compiles("matmul") == 1 and compiles.total >= 5
assert jnp.allclose(eager_value, heavy_score_jit(left, right), rtol=1e-4)  # same answer

# Under jit, XLA fuses the elementwise tail: no sine or log is left as a kernel of its own.
compiled_hlo = heavy_score_jit.lower(left, right).compile().as_text()
entry = compiled_hlo[compiled_hlo.index("ENTRY") :]
assert "fusion(" in entry and "sine(" not in entry and "log(" not in entry
# The matmul stays: jit hands XLA the same product (each compiler then spells it its own way).
assert heavy_score_jit.lower(left, right).as_text().count("stablehlo.dot_general") == 1


# Alternate the three in rounds, so a busy moment on the machine hits all of them alike.
candidates = {"eager": heavy_score, "jit": heavy_score_jit, "matmul alone (jit)": matmul_jit}
runs_of = {name: [] for name in candidates}
for _round in range(5):
    for name, fn in candidates.items():
        runs_of[name] += time_it(fn, left, right, runs=3).runs
eager_t, jit_t, matmul_t = (Timing(tuple(runs_of[name])) for name in candidates)
for name, timing in (("eager", eager_t), ("jit", jit_t), ("matmul alone (jit)", matmul_t)):
    print(f"{name:>19}: {timing}  (median of 15 runs)")

whole_gain = eager_t.median / jit_t.median
print(f"eager / jit on the whole function: {whole_gain:.2f}x")
# What the matmul alone costs, for comparison (measured, not asserted: on a busy machine two
# multi-threaded matmuls timed in turn can differ by 2x either way).
print(f"jitted function / its matmul alone: {jit_t.median / matmul_t.median:.2f}")

product = matmul_jit(left, right)
tail_jit = jax.jit(tail_only)
tail_runs = {"eager": [], "jit": []}
for _round in range(5):  # in rounds too; the check below holds the ratios to their claims
    tail_runs["eager"] += time_it(tail_only, product, runs=3).runs
    tail_runs["jit"] += time_it(tail_jit, product, runs=3).runs
tail_speedup = Timing(tuple(tail_runs["eager"])).median / Timing(tuple(tail_runs["jit"])).median
print(f"jit speed-up on the elementwise tail alone: {tail_speedup:.1f}x")
