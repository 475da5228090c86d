# The numbers behind the scan widget: lax.scan runs each step function on each preset input,
# recording the carry going into every step, the carry coming out, and the step's output.
import json
import re

PRESETS = {
    "A": [2.0, -1.0, 3.0, 0.5, 4.0, -2.0],
    "B": [1.5, 1.5, -3.0, 2.0, 0.25],
}

# id: (button label, starting carry, step(carry, x) -> (new carry, output), its body as text)
STEPS = {
    "sum": (
        "Running sum",
        0.0,
        lambda c, x: (c + x, c + x),
        ["new = carry + x", "return new, new"],
    ),
    "product": (
        "Running product",
        1.0,
        lambda c, x: (c * x, c * x),
        ["new = carry * x", "return new, new"],
    ),
    "max": (
        "Running max",
        -np.inf,
        lambda c, x: (jnp.maximum(c, x), jnp.maximum(c, x)),
        ["new = jnp.maximum(carry, x)", "return new, new"],
    ),
    "ema": (
        "Exponential average",
        0.0,
        lambda c, x: (0.5 * c + 0.5 * x, 0.5 * c + 0.5 * x),
        ["new = 0.5 * carry + 0.5 * x", "return new, new"],
    ),
    "diff": ("Difference", 0.0, lambda c, x: (x, x - c), ["return x, x - carry"]),
}


def scan_with_history(step, init, xs):
    """lax.scan under jit, also emitting each step's incoming and outgoing carry."""

    def recorded(carry, x):
        new_carry, y = step(carry, x)
        return new_carry, (carry, new_carry, y)

    run = jax.jit(lambda values: lax.scan(recorded, jnp.float32(init), values))
    final, (before, after, ys) = run(jnp.asarray(xs, jnp.float32))
    return final, before, after, ys


def numpy_reference(step, init, xs):
    carry, rows = np.float32(init), []
    for x in np.asarray(xs, np.float32):
        new_carry, y = (np.float32(v) for v in step(carry, x))
        rows.append((carry, new_carry, y))
        carry = new_carry
    return carry, rows


FIELDS = ("before", "after", "y")


def as_json_number(value):
    value = float(value)
    if np.isfinite(value):
        return value
    return "Infinity" if value > 0 else "-Infinity"  # JSON has no infinities


data = {"scanViz": 1, "jax": jax.__version__, "dtype": "float32", "presets": PRESETS, "ops": []}
for op_id, (label, init, step, text) in STEPS.items():
    runs = {}
    for name, xs in PRESETS.items():
        final, before, after, ys = scan_with_history(step, init, xs)
        want_final, want_rows = numpy_reference(step, init, xs)
        got_rows = list(zip(np.asarray(before), np.asarray(after), np.asarray(ys), strict=True))
        assert np.array_equal(got_rows, want_rows) and final == want_final, (op_id, name)
        assert np.array_equal(np.asarray(after)[-1], final)  # the last carry out is the result
        runs[name] = {
            "steps": [
                {"x": x, **{key: as_json_number(v) for key, v in zip(FIELDS, row, strict=True)}}
                for x, row in zip(xs, got_rows, strict=True)
            ],
            "final": as_json_number(final),
        }
    same_twice = all(s["after"] == s["y"] for run in runs.values() for s in run["steps"])
    assert same_twice == (op_id != "diff")  # only Difference emits something other than its carry
    data["ops"].append(
        {"id": op_id, "label": label, "init": as_json_number(init), "step": text, "runs": runs}
    )


def one_line_leaves(text):
    """Put every object or list that holds no other object or list on one line."""
    return re.sub(r"[\[{][^\[\]{}]*[\]}]", lambda m: re.sub(r"\s*\n\s*", " ", m[0]), text)


text = one_line_leaves(json.dumps(data, indent=1))
assert json.loads(text) == data
print(text)
