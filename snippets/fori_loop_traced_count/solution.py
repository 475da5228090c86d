import jax
from jax import lax


@jax.jit
def logistic_steps(x0, r, n):
    def one_step(i, x):  # fori_loop passes the loop index first, then the carry
        return r * x * (1 - x)

    return lax.fori_loop(0, n, one_step, x0)
