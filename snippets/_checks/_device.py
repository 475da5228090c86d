"""What a check needs to judge a solution alike on a CPU, a GPU and a TPU.

Not an exercise itself (its name starts with ``_``). A check that compares a solution's numbers
with a float64 NumPy reference either runs the solution at the precision the comparison needs
(``full_precision``) or allows the rounding of the device it runs on, with the sizes below, which
a TPU v5e showed (docs/data/accelerator.json). A wrong answer is off by far more. A message that
names a bug ("baked in the first object's weights") says so only when the result points to it
(it matches what that bug returns), never on any mismatch.

tests/test_checker_runs.py runs every checker under a TPU's rounding, emulated on the CPU
(tests/device_rounding.py): a reference that fails there judges the device, not the solution.
"""

from __future__ import annotations

import jax

# A TPU's float32 exp, log and tanh differ from NumPy's by about 1e-5, relative: a comparison of
# their results allows ten times that.
TRANSCENDENTAL_RTOL = 1e-4
# A TPU has no float64 unit and emulates it: ten float64 0.1s sum to 0.9999999999999986 there,
# not 0.9999999999999999, and the emulation's rounding reaches about 1e-12. A float32 sum is off
# by about 1e-7, so this tells them apart with a wide margin on both sides.
FLOAT64_RTOL = 1e-10


def full_precision():
    """Matrix products and convolutions in full float32 inside the block, on every device.

    Unless asked, a TPU multiplies float32 matrices in one bfloat16 pass: about 3 right digits
    ([2.4008 5.3696] for [2.4071 5.3629]), which a float64 reference would take for a wrong
    answer. The precision is fixed when a function is traced, so the solution's jitted functions
    are traced again inside the block (and counted compilations stay those of the block).
    """
    return jax.default_matmul_precision("highest")
