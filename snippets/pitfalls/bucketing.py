"""Bucketed padding with a mask: any length works, and each bucket compiles at most once."""

BUCKETS = (8, 16, 32, 64)


def bucket_for(length):
    return next(size for size in BUCKETS if size >= length)


@jax.jit
def masked_rms(padded, length):
    # `length` is traced, so padded[:length] is impossible; compare positions with it instead
    valid = jnp.arange(padded.shape[0]) < length
    squares = jnp.where(valid, padded**2, 0.0)
    return jnp.sqrt(squares.sum() / length)


def rms_any_length(values):
    length = values.shape[0]
    padded = np.zeros(bucket_for(length), dtype=np.float32)  # padding happens on the host
    padded[:length] = values
    return masked_rms(padded, length)


pool = np.asarray(jax.random.uniform(jax.random.key(5), (64,), minval=-1.0, maxval=1.0))
stream = [int(n) for n in jax.random.randint(jax.random.key(6), (40,), 1, 65)]

bucketed_so_far = []  # compilations after each call, for the chart below
results = []
with count_compiles() as compiles:
    for n in stream:
        results.append(rms_any_length(pool[:n]))
        bucketed_so_far.append(compiles("masked_rms"))

expected = [np.sqrt(np.mean(pool[:n] ** 2)) for n in stream]
print(f"{len(stream)} calls, {len(set(stream))} distinct lengths, "
      f"{compiles('masked_rms')} compilations of masked_rms")
assert np.allclose(results, expected, rtol=1e-5)  # the padding never leaks into the result
assert compiles("masked_rms") == len({bucket_for(n) for n in stream}) <= len(BUCKETS)
