# Trigger each kind of tracer misuse under jit and record what JAX raises.
errors = jax.errors


def as_bool(t):  # `if t:` / bool(t)
    return 1.0 if t > 0 else 0.0


def as_index(t):  # range(t), or a traced t indexing a Python list
    return sum(range(t))


def as_numpy(t):  # handing a tracer to NumPy
    return np.asarray(t)


def as_float(t):  # float(t)
    return float(t)


triggers = [
    ("if t: / bool(t)", as_bool, 1.0),
    ("range(t) / list[t]", as_index, 3),
    ("np.asarray(t)", as_numpy, 1.0),
    ("float(t)", as_float, 1.0),
]
rows = []
for situation, fn, arg in triggers:
    try:
        jax.jit(fn)(arg)
    except errors.JAXTypeError as err:  # the common parent: catches all four
        cls = type(err)
    else:
        raise AssertionError(f"{situation} ran without error")
    rows.append((situation, cls.__name__, cls.__base__.__name__))

raised = [cls_name for _, cls_name, _ in rows]
assert raised == [
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "ConcretizationTypeError",
]
# Of the three Tracer...ConversionError classes, only the bool one is a ConcretizationTypeError;
# JAXTypeError (a TypeError) parents all four.
tracer_errors = [getattr(errors, name) for name in raised[:3]]
is_concretization = [issubclass(c, errors.ConcretizationTypeError) for c in tracer_errors]
assert is_concretization == [True, False, False]
assert all(issubclass(getattr(errors, n), errors.JAXTypeError) for n in raised)
assert issubclass(errors.JAXTypeError, TypeError)

header = ("situation", "exception raised", "direct parent")
widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]
for row in [header, tuple("-" * w for w in widths), *rows]:
    print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
