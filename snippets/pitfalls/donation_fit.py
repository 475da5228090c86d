import warnings


def took_over(fn):
    """Whether fn's output took over the buffer of the float32[1000] it was donated."""
    donor = jnp.ones(1_000)
    address = donor.unsafe_buffer_pointer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the half-size case warns, as above
        out = jax.jit(fn, donate_argnums=0)(donor)
    return donor.is_deleted() and out.unsafe_buffer_pointer() == address


fits = {
    "float32[10, 100]": took_over(lambda v: v.reshape(10, 100) + 1),
    "int32[1000]": took_over(lambda v: (v * 3).astype(jnp.int32)),
    "float32[500]": took_over(lambda v: v[:500] * 2),
}
print(fits)
