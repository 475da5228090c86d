"""A notebook's install cell on each kind of machine a learner opens it on: a CPU, a GPU or TPU
runtime (Colab's, Kaggle's), one whose accelerator JAX is another version, and no network. It
runs in-process with the machine faked: what is installed, the devices, and pip's answer."""

from __future__ import annotations

import importlib.metadata
import types

import pytest

from engine.run.environment import locked_versions
from engine.site import setup_steps

PINS = setup_steps.requirements(["import matplotlib"])
JAX = locked_versions()["jax"]


def machine(monkeypatch, installed: dict, devices: tuple = (), pip_works: bool = True):
    """Run the cell on a faked machine; returns what it printed and the pip calls it made."""

    def version(name):
        if name not in installed:
            raise importlib.metadata.PackageNotFoundError(name)
        return installed[name]

    calls = []

    class Done:
        returncode = 0 if pip_works else 1

    class FakeSubprocess:
        @staticmethod
        def run(command):
            calls.append(command[command.index("install") + 2 :])
            return Done()

    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.setattr("os.path.exists", lambda path: path == "/dev/accel0" and "tpu" in devices)
    monkeypatch.setattr(
        "shutil.which", lambda name: "/usr/bin/nvidia-smi" if "gpu" in devices else None
    )
    monkeypatch.delenv("COLAB_TPU_ADDR", raising=False)
    source = setup_steps.install_cell(PINS)
    assert source.rstrip().endswith("main()")
    namespace: dict = {}
    exec(compile(source.rstrip().removesuffix("main()"), "install-cell", "exec"), namespace)
    namespace["subprocess"] = FakeSubprocess
    namespace["sys"] = types.SimpleNamespace(executable="python", modules={})  # no jax loaded yet
    printed = []
    namespace["print"] = printed.append
    namespace["main"]()
    return printed[0], calls


ALL = {pin.split("==")[0]: pin.split("==")[1] for pin in PINS}


@pytest.mark.unit
def test_on_a_cpu_it_installs_every_pin_and_nothing_when_they_are_there(monkeypatch):
    said, calls = machine(monkeypatch, {})
    assert calls == [PINS] and said == f"Installed jax {JAX}."
    said, calls = machine(monkeypatch, ALL)
    assert calls == [] and said == f"Ready: jax {JAX}, as the site was built."


@pytest.mark.unit
def test_a_tpu_runtime_keeps_its_own_jax_of_another_version_and_says_so(monkeypatch):
    runtime = {"jax": "0.10.2", "jaxlib": "0.10.2", "libtpu": "0.0.40", "numpy": "2.1.0"}
    said, calls = machine(monkeypatch, runtime, devices=("tpu",))
    assert calls == [[p for p in PINS if p.startswith("matplotlib")]]  # only what is missing
    assert said.startswith(f"Keeping this runtime's jax 0.10.2 for its TPU, not the site's {JAX}")
    assert "outputs may differ" in said


@pytest.mark.unit
def test_a_gpu_runtime_keeps_its_cuda_jax(monkeypatch):
    runtime = {**ALL, "jax-cuda12-plugin": JAX}
    said, calls = machine(monkeypatch, runtime, devices=("gpu",))
    assert calls == [] and said.startswith(f"Ready: jax {JAX} on this CUDA12")
    said, calls = machine(monkeypatch, {**runtime, "jax": "0.11.0"}, devices=("gpu",))
    assert (
        calls == [] and "Keeping this runtime's jax 0.11.0 for its CUDA12, not the site's" in said
    )


@pytest.mark.unit
@pytest.mark.parametrize("device, extra", [("gpu", "cuda12"), ("tpu", "tpu")])
def test_an_accelerator_without_jax_gets_the_pinned_one_with_its_extra(monkeypatch, device, extra):
    said, calls = machine(monkeypatch, {"numpy": "2.1.0"}, devices=(device,))
    assert calls[0][0] == f"jax[{extra}]=={JAX}", calls
    assert not any(pin == f"jax=={JAX}" for pin in calls[0])  # never the CPU build
    assert said == f"Installed jax {JAX} with its {extra.upper()} support."


@pytest.mark.unit
def test_without_a_network_it_says_what_runs(monkeypatch):
    said, _ = machine(monkeypatch, {"jax": "0.10.2"}, pip_works=False)
    assert said.startswith("Could not install") and said.endswith("running with jax 0.10.2.")
    said, _ = machine(monkeypatch, {}, pip_works=False)
    assert said.endswith("running with jax missing: this notebook needs it.")


@pytest.mark.unit
def test_an_offline_tpu_runtime_keeps_its_jax_and_says_both(monkeypatch):
    runtime = {"jax": "0.10.2", "jaxlib": "0.10.2", "libtpu": "0.0.40", "numpy": "2.1.0"}
    said, calls = machine(monkeypatch, runtime, devices=("tpu",), pip_works=False)
    assert calls == [[p for p in PINS if p.startswith("matplotlib")]]
    assert said.startswith("Keeping this runtime's jax 0.10.2 for its TPU"), said
    assert said.endswith("(no network?); running with jax 0.10.2."), said
