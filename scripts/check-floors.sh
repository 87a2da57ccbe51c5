#!/usr/bin/env bash
# Check that pyproject.toml's lower bounds work: resolve the runtime set with every direct dependency at the lowest
# version its bound allows (uv's lowest-direct), install it into a throwaway venv, and start the server from this
# source tree (scripts/smoke.py: ready, the lobby page, a guest, a table, its socket). Needs PyPI; uv's cache makes
# a second run take seconds. $PYTHON (default python3) chooses the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-.venv/bin/uv}
[ -x "$UV" ] || UV=uv
PY=${PYTHON:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pyver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
"$UV" pip compile --quiet --no-config --index-url https://pypi.org/simple --resolution lowest-direct \
  --python-version "$pyver" pyproject.toml --extra push -o "$dir/lowest.txt"
echo "lowest allowed versions (Python $pyver):" $(grep -oE '^[a-z0-9_.-]+==[^ ]+' "$dir/lowest.txt" | tr '\n' ' ')
"$UV" venv --quiet --no-config --python "$PY" "$dir/venv"
"$UV" pip install --quiet --no-config --index-url https://pypi.org/simple --python "$dir/venv/bin/python" \
  -r "$dir/lowest.txt"
DATABASE_URL="sqlite+aiosqlite:///$dir/floors.sqlite3" PYTHONPATH=. \
  "$dir/venv/bin/python" scripts/smoke.py -- "$dir/venv/bin/python" -m app.main
