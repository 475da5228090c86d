"""Run normalise with its breakpoint, typing the commands from a script instead of a keyboard."""

import builtins
import contextlib


@contextlib.contextmanager
def typed_at_prompt(*commands):
    """Answer each (jdb) prompt with the next command, echoed as a terminal would show it."""
    queue, prompts = list(commands), []
    real_input = builtins.input

    def scripted_input(prompt=""):
        command = queue.pop(0) if queue else "c"  # out of commands: continue, never wait
        prompts.append(prompt)
        print(prompt + command)
        return command

    builtins.input = scripted_input  # what the debugger's prompt reads from
    try:
        yield prompts
        jax.effects_barrier()  # the debugger runs in a callback: wait until it is done
    finally:
        builtins.input = real_input


with typed_at_prompt("p total", "p v / total", "c") as prompts:
    normalise(jnp.arange(1.0, 4.0))
assert prompts == ["(jdb) "] * 3  # the breakpoint was hit: three commands answered
