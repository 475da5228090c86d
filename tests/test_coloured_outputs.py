"""Coloured outputs' HTML kept between builds (engine/site/colours.py): a warm rebuild converts
no output it converted before with the same converter, and so does not import nbconvert."""

from __future__ import annotations

import json

from engine.run import terminal
from engine.site import colours
from engine.site.colours import ColouredOutputs

RED = "\x1b[31mred\x1b[0m and plain"
GREEN = "\x1b[32mgreen\x1b[0m"


def test_a_warm_build_converts_nothing_and_shows_the_same_html(tmp_path):
    store = tmp_path / colours.STORE
    first = ColouredOutputs(store)
    shown = first.html(RED)
    first.save()
    assert first.conversions == 1 and shown == terminal.to_html(RED)
    assert 'class="ansi-red-fg"' in shown
    second = ColouredOutputs(store)
    assert second.html(RED) == shown and second.conversions == 0


def test_a_new_output_is_converted_and_an_unshown_one_is_not_kept(tmp_path):
    store = tmp_path / colours.STORE
    first = ColouredOutputs(store)
    first.html(RED)
    first.save()
    second = ColouredOutputs(store)
    assert second.html(GREEN) == terminal.to_html(GREEN) and second.conversions == 1
    second.save()
    kept = json.loads(store.read_text(encoding="utf-8"))["html"]
    assert list(kept.values()) == [terminal.to_html(GREEN)]


def test_a_fresh_build_converts_again(tmp_path):
    store = tmp_path / colours.STORE
    first = ColouredOutputs(store)
    first.html(RED)
    first.save()
    fresh = ColouredOutputs(store, fresh=True)
    fresh.html(RED)
    assert fresh.conversions == 1


def test_a_new_converter_converts_again(tmp_path, monkeypatch):
    store = tmp_path / colours.STORE
    first = ColouredOutputs(store)
    first.html(RED)
    first.save()
    monkeypatch.setattr(colours, "installed_distributions", lambda: b"nbconvert-99.0.dist-info")
    upgraded = ColouredOutputs(store)
    upgraded.html(RED)
    assert upgraded.conversions == 1


def test_the_converter_key_holds_terminal_py_and_the_installed_distributions(tmp_path, monkeypatch):
    key = colours.converter_key()
    monkeypatch.setattr(colours, "installed_distributions", lambda: b"other")
    assert colours.converter_key() != key
    monkeypatch.undo()
    edited = tmp_path / "terminal.py"
    edited.write_bytes(colours.CONVERTER.read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(colours, "CONVERTER", edited)
    assert colours.converter_key() != key


def test_without_a_store_every_build_converts():
    for _ in range(2):
        unkept = ColouredOutputs()
        unkept.html(RED)
        unkept.save()
        assert unkept.conversions == 1


def test_the_hook_draws_coloured_outputs_from_the_store(tmp_path):
    from engine.site import hook

    store = tmp_path / colours.STORE
    for conversions in (1, 0):
        state = hook.BuildState(colours=ColouredOutputs(store))
        fence = hook.render_output(state, RED + "\n", "Output")
        key = fence.split("\n")[1]
        html = hook.colour_outputs(state, f"<code>{key}\nred and plain\n</code>")
        assert html == f"<code>{terminal.to_html(RED)}\n</code>"
        assert state.colours.conversions == conversions
        state.colours.save()
