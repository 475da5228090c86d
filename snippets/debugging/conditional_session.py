"""Call normalise_checked twice: it stops only for the input whose total is not positive."""

for sample in (jnp.arange(1.0, 4.0), jnp.array([1.0, -3.0])):
    print("calling with", sample)
    with typed_at_prompt("p total", "c") as prompts:
        normalise_checked(sample)
    stops = len(prompts) > 0
    assert stops == bool(sample.sum() <= 0)  # a stop only where the predicate holds
