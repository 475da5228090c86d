"""A notebook's install cell on each kind of machine a learner opens it on: a CPU, a GPU or TPU
runtime (Colab's, Kaggle's), one whose accelerator JAX is another version, one where the CPU-only
JAX was installed over the accelerator, and no network. It runs in-process with the machine
faked: what is installed, the device files, a JAX already imported, and pip's answer."""

from __future__ import annotations

import fnmatch
import importlib.metadata
import types

import pytest

from engine.run.environment import locked_versions
from engine.site import setup_steps

PINS = setup_steps.requirements(["import matplotlib"])
JAX = locked_versions()["jax"]


# The files each kind of device leaves in /dev (a TPU v4's, a v5e's, an NVIDIA GPU's), and an
# Intel NPU's folder, which is no TPU.
DEVICE_FILES = {
    "tpu": ["/dev/accel0", "/dev/accel1"],
    "tpu-vfio": ["/dev/vfio/vfio", "/dev/vfio/0"],
    "gpu": ["/dev/nvidia0", "/dev/nvidiactl"],
    "npu": ["/dev/accel", "/dev/vfio/vfio"],
}


def machine(
    monkeypatch,
    installed: dict,
    devices: tuple = (),
    pip_works: bool = True,
    imported: dict | None = None,
    env: dict | None = None,
):
    """Run the cell on a faked machine; returns what it printed and the pip calls it made.
    ``imported``: modules already loaded in the kernel; ``env``: the runtime's variables."""

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

    files = [path for device in devices for path in DEVICE_FILES[device]]
    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.setattr("glob.glob", lambda pattern: fnmatch.filter(files, pattern))
    monkeypatch.setattr(
        "shutil.which", lambda name: "/usr/bin/nvidia-smi" if "gpu" in devices else None
    )
    for name in ("COLAB_TPU_ADDR", "TPU_ACCELERATOR_TYPE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    source = setup_steps.install_cell(PINS)
    assert source.rstrip().endswith("main()")
    namespace: dict = {}
    exec(compile(source.rstrip().removesuffix("main()"), "install-cell", "exec"), namespace)
    namespace["subprocess"] = FakeSubprocess
    # No jax loaded yet, unless the test says which modules the kernel has imported.
    namespace["sys"] = types.SimpleNamespace(executable="python", modules=imported or {})
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


def cpu_only_said(device: str, jax: str, why: str) -> str:
    """How the cell's sentence ends when the jax it found would run on the CPU."""
    return (
        f"but jax {jax} here runs on the CPU ({why}). To run on the {device.upper()}: "
        f'%pip install "jax[{device}]=={JAX}", then restart the kernel.'
    )


CPU_BUILD = "it is the CPU-only build"


@pytest.mark.unit
def test_a_cpu_only_jax_on_a_gpu_runtime_is_named_with_the_command_that_fixes_it(monkeypatch):
    """The pinned CPU build installed earlier on a GPU machine: every pin matches, yet nothing
    would run on the GPU. The cell says so instead of "Ready", and swaps nothing itself."""
    said, calls = machine(monkeypatch, ALL, devices=("gpu",))
    assert calls == []
    assert said.startswith("This runtime has a CUDA12, ") and "Ready" not in said, said
    assert said.endswith(cpu_only_said("cuda12", JAX, CPU_BUILD)), said


@pytest.mark.unit
@pytest.mark.parametrize(
    "devices, env",
    [
        (("tpu",), {}),  # a TPU v4 or before: /dev/accel0
        (("tpu-vfio",), {}),  # a v5e or after: /dev/vfio/0
        ((), {"TPU_ACCELERATOR_TYPE": "v5litepod-1"}),
        ((), {"COLAB_TPU_ADDR": "10.0.0.2:8470"}),
    ],
)
def test_a_cpu_only_jax_on_a_tpu_runtime_is_named_and_the_rest_installed(monkeypatch, devices, env):
    runtime = {"jax": "0.11.0", "jaxlib": "0.11.0", "numpy": "2.1.0"}  # no libtpu beside it
    said, calls = machine(monkeypatch, runtime, devices=devices, env=env)
    assert calls == [[p for p in PINS if p.startswith("matplotlib")]]  # not jax: the reader's call
    assert said.endswith(cpu_only_said("tpu", "0.11.0", CPU_BUILD)), said


@pytest.mark.unit
def test_an_imported_jax_on_the_cpu_is_named_though_its_plugin_is_installed(monkeypatch):
    """A CUDA plugin that did not start (a driver it does not match): JAX, already imported,
    says its default backend is the CPU. The same JAX on its GPU is ready."""
    runtime = {**ALL, "jax-cuda12-plugin": JAX}
    on = {
        backend: {"jax": types.SimpleNamespace(default_backend=lambda b=backend: b)}
        for backend in ("cpu", "gpu")
    }
    said, calls = machine(monkeypatch, runtime, devices=("gpu",), imported=on["cpu"])
    why = "its default backend is the CPU"
    assert calls == [] and said.endswith(cpu_only_said("cuda12", JAX, why)), said
    said, _ = machine(monkeypatch, runtime, devices=("gpu",), imported=on["gpu"])
    assert said.startswith(f"Ready: jax {JAX} on this CUDA12")


@pytest.mark.unit
def test_an_npus_accel_folder_is_no_tpu(monkeypatch):
    """/dev/accel is the kernel's folder for other accelerators (an Intel NPU); /dev/vfio/vfio is
    there without any chip. Neither makes the CPU build a mistake."""
    said, calls = machine(monkeypatch, {}, devices=("npu",))
    assert calls == [PINS] and said == f"Installed jax {JAX}."
