#!/usr/bin/env bash
# On the offline accelerator machine, from the checkout: keep the wheel parts this call carried
# (.cache/accelerator, from `nox -s accelerator -- wheels`) under /tmp, which outlives a call while
# the machine stays warm; once every part has come, install them into a venv and print its python.
# A venv, not PYTHONPATH: page processes get a PYTHONPATH of their own (run.pages.child_variables).
set -euo pipefail
here=.cache/accelerator
keep=${JITDOCS_DEVICE_DIR:-/tmp/jitdocs-device}
# The checkout's .python-version picks 3.12 for python3: resolve it here, before leaving.
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
mkdir -p "$keep/parts"
[ -f "$here/parts.sha256" ] && cp "$here/parts.sha256" "$keep/"
for part in "$here"/part-*; do
  if [ -e "$part" ]; then cp "$part" "$keep/parts/"; fi
done
cd "$keep"
if [ ! -x venv/bin/python ]; then
  need=$(awk '{print $2}' parts.sha256 | while read -r p; do [ -e "parts/$p" ] || echo "$p"; done)
  if [ -n "$need" ]; then
    echo "accelerator-setup: have $(ls parts | wc -l) parts; still to carry:" $need
    exit 3
  fi
  (cd parts && sha256sum -c --quiet ../parts.sha256)
  mkdir -p wheels && cat parts/part-* | tar -x -C wheels
  "$python" -m venv --without-pip venv
  PIP_CONFIG_FILE=/dev/null "$python" -m pip install --isolated -q --no-index --no-deps \
    --no-compile --no-cache-dir --target "$keep/site" wheels/*.whl
  echo "$keep/site" > "$(venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/jitdocs-device.pth"
  rm -rf wheels parts
fi
env -u PYTHONPATH venv/bin/python -c 'import jax, jaxlib; print("accelerator-setup: ready:", jax.__version__, jaxlib.__version__)'
echo "accelerator-setup: python: $keep/venv/bin/python"
