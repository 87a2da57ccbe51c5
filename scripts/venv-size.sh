#!/usr/bin/env bash
# Print the size of the venv the serve command installs (the runtime set, requirements/runtime.txt), built afresh
# in a temporary folder, and fail when it exceeds $MAX_MB (default 150). The size follows from the lock,
# pyproject.toml, this script and setup.sh and the Python that builds the venv alone: once measured within the limit
# for those, it is not built again while they stay the same (a stamp in the dev venv, $VENV, default .venv).
# Web Push is not in it (the `push` extra: cryptography, aiohttp and requests, about 32 MB), so serving runs with push
# off unless the extra is installed (`./scripts/setup.sh push`, as the container does).
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_MB=${MAX_MB:-150}
PY=${PYTHON:-python3}
DEV_VENV=${VENV:-.venv}
digest=$({ cat requirements/runtime.txt pyproject.toml scripts/setup.sh scripts/venv-size.sh
           "$PY" -VV; echo "$MAX_MB"; } | sha256sum | cut -c1-16)
stamp=$DEV_VENV/.serve-venv-size-$digest
if [ -f "$stamp" ]; then
  echo "serve venv: $(cat "$stamp") MB (limit $MAX_MB MB; measured before for these locks)"
  exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
VENV=$dir/venv ./scripts/setup.sh runtime 2>/dev/null
mb=$(du -sm "$dir/venv" | cut -f1)
echo "serve venv: $mb MB (limit $MAX_MB MB)"
[ "$mb" -le "$MAX_MB" ]
if [ -d "$DEV_VENV" ]; then
  rm -f "$DEV_VENV"/.serve-venv-size-*
  echo "$mb" >"$stamp"
fi
