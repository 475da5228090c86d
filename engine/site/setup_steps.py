"""What a reader installs to run the site's code, read from ``uv.lock``: a notebook's install
cell, the setup page's steps, and ``check.py``, the checker as one file.
"""

from __future__ import annotations

from pathlib import Path

from engine.page.model import ROOT
from engine.run.environment import locked_versions
from engine.run.imports import project_files

CORE = ("jax", "jaxlib", "numpy")  # every page's code
# Packages only some pages need, with the words in a page's code (or its bundled files) that
# mean it needs them: charts need matplotlib; jax.export's serialize/deserialize need flatbuffers,
# and a bounded persistent cache needs filelock, which jax does not install.
OPTIONAL = {
    "matplotlib": ("matplotlib",),
    "flatbuffers": (".serialize(", "deserialize("),
    "filelock": ("jax_compilation_cache_max_size",),
}
CHECKER_URI = "downloads/check.py"
SETUP_PAGE = "about/run-it-yourself/"  # its URL; SETUP_DOC is its file
SETUP_DOC = "about/run-it-yourself.md"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "0.0.0.0", "[::1]")
INSTALLERS = {  # the set-up page's two ways: how each makes a venv and installs into it
    "pip": ("python3 -m venv jit-course", "python -m pip install"),
    "uv": ("uv venv jit-course --python 3.12", "uv pip install"),
}


def requirements(sources: list[str] | None = None, root: Path = ROOT) -> list[str]:
    """Pins for code that needs them (``sources``), or every package a page may need (None)."""
    versions = locked_versions(root)
    code = None if sources is None else "\n".join(sources)
    extra = [
        name
        for name, words in OPTIONAL.items()
        if code is None or any(word in code for word in words)
    ]
    return [f"{name}=={versions[name]}" for name in (*CORE, *extra)]


def public_url(url: str) -> str:
    """``url`` ending in /; "" for none or a preview address, which no download may name."""
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    return url.rstrip("/") + "/" if url and host not in LOCAL_HOSTS else ""


def install_cell(pins: list[str], setup_url: str = "") -> str:
    """The notebook's first cell: install the pinned packages unless they are there, and on a
    GPU or TPU runtime never swap the runtime's JAX for the CPU build (tests/test_install_cell.py
    runs it for each kind of machine)."""
    where = f": {setup_url}" if setup_url else ": the site's page About > Run it yourself"
    pinned = ", ".join(repr(pin.split("==")[0]) + ": " + repr(pin.split("==")[1]) for pin in pins)
    return INSTALL_CELL.replace("<WHERE>", where).replace("<PINNED>", pinned)


INSTALL_CELL = """\
# Run this cell first. It installs what this notebook needs at the versions the site was built
# with, unless they are here already. On a GPU or TPU runtime it keeps the runtime's own JAX, or
# installs the pinned one with its accelerator extra: never the CPU build in its place. A CPU-only
# JAX found on such a runtime is named, with the command that installs the accelerator's build.
# Other ways to set up (pip, uv, the repository)<WHERE>
import glob
import importlib.metadata
import os
import shutil
import subprocess
import sys

PINNED = {<PINNED>}


def installed(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def hardware():
    \"\"\"'tpu' or 'gpu' when this machine has one, whatever is installed, else ''.\"\"\"
    chips = glob.glob("/dev/accel[0-9]*") + glob.glob("/dev/vfio/[0-9]*")
    if chips or os.environ.get("COLAB_TPU_ADDR") or os.environ.get("TPU_ACCELERATOR_TYPE"):
        return "tpu"  # /dev/accelN: a TPU v4 or before; /dev/vfio/N: a v5e or after
    return "gpu" if shutil.which("nvidia-smi") or glob.glob("/dev/nvidia[0-9]*") else ""


def accelerator(version=installed):
    \"\"\"'tpu', 'cuda12' or 'cuda13' for the runtime's accelerator ('' for none), without
    starting JAX (a TPU admits one process, and JAX may not be installed yet).\"\"\"
    found = hardware()
    if version("libtpu") or found == "tpu":
        return "tpu"
    for plugin in ("jax-cuda13-plugin", "jax-cuda12-plugin"):
        if version(plugin):
            return plugin.split("-")[1]
    return "cuda12" if found == "gpu" else ""


def on_cpu_only(device, version=installed):
    \"\"\"Why the installed jax would run on the CPU of this GPU or TPU runtime ('' if it would
    not): it is the CPU-only build (no libtpu or CUDA plugin beside it), or, once imported, its
    default backend is the CPU.\"\"\"
    if not device or not version("jax"):
        return ""
    if device == "tpu":
        builds = [version("libtpu"), version("libtpu-nightly")]
    else:  # the CUDA plugins, or an older jaxlib built with CUDA ("0.4.1+cuda11...")
        builds = [version(f"jax-cuda{n}-plugin") for n in (12, 13)]
        builds.append("cuda" in (version("jaxlib") or ""))
    if not any(builds):
        return "it is the CPU-only build"
    jax = sys.modules.get("jax")
    try:
        backend = jax.default_backend() if jax else ""
    except Exception:  # a backend that fails to start runs nothing on the device either
        backend = "cpu"
    return "its default backend is the CPU" if backend == "cpu" else ""


def plan(device, version=installed):
    \"\"\"The requirements to install, and the sentence that says what runs.\"\"\"
    wrong = {name: pin for name, pin in PINNED.items() if version(name) != pin}
    jax = version("jax")
    missing = [f"{n}=={p}" for n, p in wrong.items() if not (n.startswith("jax") or version(n))]
    if why := on_cpu_only(device, version):  # said, not swapped: the learner chooses
        fix = f'%pip install "jax[{device}]=={PINNED["jax"]}"'
        return missing, (
            f"This runtime has a {device.upper()}, but jax {jax} here runs on the CPU ({why}). "
            f"To run on the {device.upper()}: {fix}, then restart the kernel."
        )
    if not wrong:
        ran = f"jax {jax}" + (f" on this {device.upper()}" if device else "")
        return [], f"Ready: {ran}, as the site was built" + (
            " (its outputs come from a CPU: yours may differ)." if device else "."
        )
    if device and jax:  # the runtime's accelerator JAX stays; add only what is missing
        differs = "" if jax == PINNED["jax"] else f", not the site's {PINNED['jax']}"
        return missing, (
            f"Keeping this runtime's jax {jax} for its {device.upper()}{differs}: "
            "outputs may differ from the site's, which come from a CPU."
        )
    extra, support = (f"[{device}]", f" with its {device.upper()} support") if device else ("", "")
    rest = [f"{n}=={p}" for n, p in PINNED.items() if n != "jax"]
    return [f"jax{extra}=={PINNED['jax']}", *rest], f"Installed jax {PINNED['jax']}{support}."


def main():
    device = accelerator()
    requirements, said = plan(device)
    if requirements:
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", *requirements])
        if done.returncode != 0:  # a runtime's JAX that stays is still worth saying
            kept = said + " " if device and installed("jax") else ""
            said = kept + (
                f"Could not install {' '.join(requirements)} (no network?); "
                f"running with jax {installed('jax') or 'missing: this notebook needs it'}."
            )
        elif "jax" in sys.modules:
            said += " Restart the kernel so the new packages load."
    print(said)


main()
"""


def render(kind: str, site_url: str = "", root: Path = ROOT) -> str:
    """The setup page's install steps, from the lock: ``pip``, ``uv`` or ``versions``."""
    pins = " ".join(f'"{pin}"' for pin in requirements(root=root))
    checker = (site := public_url(site_url)) and site + CHECKER_URI
    fetch = f"curl -O {checker}" if checker else "# then download check.py (see Check an answer)"
    if kind == "versions":
        versions = locked_versions(root)
        rows = [f"| `{name}` | {versions[name]} |" for name in (*CORE, *OPTIONAL)]
        return "| Package | Version |\n| --- | --- |\n" + "\n".join(rows) + "\n"
    if kind in ("tpu", "cuda12"):  # the accelerator's build of the pinned JAX, the rest as pinned
        pins = " ".join(f'"{pin}"' for pin in requirements(root=root) if not pin.startswith("jax"))
        jax = f'"jax[{kind}]=={locked_versions(root)["jax"]}"'
        return f"```bash\npython -m pip install {jax} {pins}\n```\n"
    venv, install = INSTALLERS[kind]
    lines = [f"{venv} && . jit-course/bin/activate", f"{install} {pins} jupyterlab", fetch]
    return "```bash\n" + "\n".join([*lines, "python check.py tax_brackets my_tax.py"]) + "\n```\n"


def checker_script(root: Path = ROOT) -> str:
    """``check.py``: the checker, its checks and jitkit in one file a reader can download."""
    files = project_files(["from check_solution import checks_for"], root)
    lines = [
        '"""Check an answer to an exercise or a practice-track lesson of "jax.jit, executed".',
        "",
        "    python check.py <exercise-id> <your_file.py>",
        "",
        "Needs only jax and numpy. It unpacks the site's checker and its checks into a temporary",
        'folder and runs them: the same code as "nox -s check" in the repository.',
        '"""',
        "",
        "import sys",
        "import tempfile",
        "from pathlib import Path",
        "",
        "FILES = {",
    ]
    lines += [f"    {name!r}: {text!r}," for name, text in files.items()]
    lines += [
        "}",
        "",
        "",
        "def main():",
        "    # A temporary folder, removed on exit: checking an answer leaves nothing behind.",
        '    with tempfile.TemporaryDirectory(prefix="jitdocs-check-") as temp:',
        "        folder = Path(temp)",
        "        for name, text in FILES.items():",
        "            (folder / name).parent.mkdir(parents=True, exist_ok=True)",
        '            (folder / name).write_text(text, encoding="utf-8")',
        '        sys.path[:0] = [str(folder), str(folder / "snippets")]',
        "        from check_solution import main as check",
        "",
        "        return check(sys.argv[1:])",
        "",
        "",
        'if __name__ == "__main__":',
        "    sys.exit(main())",
    ]
    return "\n".join(lines) + "\n"
