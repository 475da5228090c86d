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


for v in samples:  # the lengths from the block above: 4, 4, 7, 7, 7, 11, 4
    n = v.shape[0]
    print(f"length {n:2d} padded to {bucket_for(n)}: rms {float(rms_any_length(v)):.4f}")
