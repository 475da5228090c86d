#!/usr/bin/env bash
# On the accelerator machine, after accelerator_setup.sh: record what is not current yet, in order
# (the pages, the checkers, the notebooks written from the new records; with --machine-jax also the notebooks
# with the machine's own JAX, for its own Python, with a kernel from the machine's package index)
# into /tmp/jitdocs-device/accelerator.json, begun from the checkout's docs/data/accelerator.json:
# current records are skipped, so a call cut off goes on where it stopped. Each step ends by the
# deadline (JITDOCS_SECONDS, default 540, inside the device tool's 600), and the file is copied to
# $OUT after each one.
set -uo pipefail
keep=${JITDOCS_DEVICE_DIR:-/tmp/jitdocs-device}
data=$keep/accelerator.json
python=$keep/venv/bin/python
deadline=$((SECONDS + ${JITDOCS_SECONDS:-540}))
[ -f "$data" ] || cp docs/data/accelerator.json "$data"
failed=0
step() {
  local left=$((deadline - SECONDS))
  if [ "$left" -le 10 ]; then echo "accelerator-record: out of time before: $*"; failed=1; return; fi
  timeout "$left" env -u PYTHONPATH PYTHONUNBUFFERED=1 "$python" -m engine.tools.accelerator \
    "$@" --data "$data" || failed=1
  cp "$data" "${OUT:-.}/accelerator.json"
}
step record
step checkers
# The notebooks as the site writes them, wrapping the claims the new records say fail here.
env -u PYTHONPATH "$python" -m engine.site.write_notebooks "$keep/notebooks" --data "$data" || failed=1
step notebooks --site "$keep/notebooks"
if [[ " $* " == *" --machine-jax "* ]]; then
  PIP_CONFIG_FILE=/dev/null python3.11 -m pip install --isolated -q --only-binary=:all: \
    --index-url file:///opt/pypi/simple --target "$keep/k311" ipykernel matplotlib || failed=1
  step notebooks --site "$keep/notebooks" --kernel-python python3.11 \
    --kernel-pythonpath "${PYTHONPATH:-}:$keep/k311"
fi
echo "accelerator-record: done in $SECONDS s, $([ $failed = 0 ] && echo "all current" || echo "not all current: call again")"
exit $failed
