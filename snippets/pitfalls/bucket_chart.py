import matplotlib.pyplot as plt

from jitkit import count_compiles

pool = np.asarray(jax.random.uniform(jax.random.key(5), (64,), minval=-1.0, maxval=1.0))
stream = [int(n) for n in jax.random.randint(jax.random.key(6), (40,), 1, 65)]


@jax.jit
def rms_exact(v):  # a fresh function: its cache starts empty
    return jnp.sqrt(jnp.mean(v**2))


jax.clear_caches()  # masked_rms starts from an empty cache too
exact_so_far, bucketed_so_far, results = [], [], []  # compilations after each call
with count_compiles() as compiles:
    for n in stream:
        rms_exact(pool[:n])
        exact_so_far.append(compiles("rms_exact"))
        results.append(rms_any_length(pool[:n]))
        bucketed_so_far.append(compiles("masked_rms"))

print(
    f"{len(stream)} calls, {len(set(stream))} distinct lengths: {exact_so_far[-1]} "
    f"compilations with exact shapes, {bucketed_so_far[-1]} with buckets"
)
assert exact_so_far[-1] == len(set(stream))  # one compile per distinct length
expected = [np.sqrt(np.mean(pool[:n] ** 2)) for n in stream]
assert np.allclose(results, expected, rtol=1e-5)  # the padding never leaks into the result
assert bucketed_so_far[-1] == len({bucket_for(n) for n in stream}) <= len(BUCKETS)

calls = np.arange(1, len(stream) + 1)
fig, ax = plt.subplots(figsize=(6.4, 3.4))
ax.step(calls, exact_so_far, where="post", label="exact shapes")
ax.step(calls, bucketed_so_far, where="post", label=f"bucketed {BUCKETS}")
for series in (exact_so_far, bucketed_so_far):
    ax.annotate(
        str(series[-1]),
        (calls[-1], series[-1]),
        xytext=(4, 0),
        textcoords="offset points",
        va="center",
    )
ax.set_xlabel("call number (random lengths 1 to 64)")
ax.set_ylabel("compilations so far")
ax.set_ylim(0, max(exact_so_far) * 1.15)
ax.set_xlim(0, len(stream) + 3)
ax.set_title("Compilations while lengths vary")
ax.legend(frameon=False)
ax.spines[["top", "right"]].set_visible(False)
fig.tight_layout()
fig.set_label(
    f"Step chart of compilations over {len(stream)} calls with random lengths: exact shapes "
    f"reach {exact_so_far[-1]} compilations, bucketed inputs stop at {bucketed_so_far[-1]}."
)
