import statistics

k_left, k_right, k_vec = jax.random.split(jax.random.key(11), 3)
left = jax.random.normal(k_left, (1024, 1024))
right = jax.random.normal(k_right, (1024, 1024))
vec = jax.random.normal(k_vec, (100,))  # small: eager time is then mostly dispatch


def one_matmul(a, b):
    return a @ b


def many_small_ops(v):
    for _ in range(25):  # 75 tiny element-wise operations in a row
        v = jnp.cos(v) * 0.8 + 0.05
    return v


def eager_and_jit_medians(fn, *fn_args, rounds=5):
    """Median seconds per call, eager and jitted, measured in alternating rounds."""
    jitted = jax.jit(fn)
    eager_runs, jit_runs = [], []
    for _ in range(rounds):  # alternate, so a busy moment on the machine hurts both sides alike
        eager_runs += time_it(fn, *fn_args, runs=4).runs
        jit_runs += time_it(jitted, *fn_args, runs=4).runs
    return statistics.median(eager_runs), statistics.median(jit_runs)


# jit must win on the chain of small ops (assert_faster re-measures when the machine is busy)...
chain_ratio = assert_faster(
    jax.jit(many_small_ops), many_small_ops, vec, min_ratio=1.5, runs=15, label="eager/jit chain"
)
print(f"chain of small ops: jit is {chain_ratio:.1f}x faster than eager")

# ...and must NOT clearly win on one big matmul: the same XLA kernel does the work either way.
with count_compiles() as eager_programs:
    one_matmul(left, right)
assert eager_programs.names == ["jit(matmul)"]  # eager mode already runs one compiled product
for _attempt in range(3):
    eager_s, jit_s = eager_and_jit_medians(one_matmul, left, right)
    matmul_ratio = eager_s / jit_s
    if 2 / 3 < matmul_ratio < 3 / 2:  # a skewed measurement: measure again
        break
claim_ratio("eager / jit, 1024x1024 matmul", matmul_ratio, at_least=1 / 3, at_most=3)
print(f"one big matmul: eager {eager_s * 1e3:.1f} ms, jit {jit_s * 1e3:.1f} ms", end=" ")
print(f"(ratio {matmul_ratio:.2f})")
