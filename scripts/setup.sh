#!/usr/bin/env bash
# Create the venv ($VENV, default .venv, with $PYTHON, default python3) and install a locked dependency set into it:
# `runtime` (what serving needs, requirements/runtime.txt), `push` (that and Web Push, the `push` extra,
# requirements/push.txt) or `dev` (those and the test tools, requirements/dev.txt; the default). pip checks every
# file against the lock's hashes. The project itself is installed editable, without dependencies, for the
# `foodgames` command. Idempotent: nothing is installed while the lock and pyproject.toml
# are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:-dev}
case "$SET" in
  runtime|push|dev) ;;
  *) echo "usage: $0 [runtime|push|dev]" >&2; exit 2 ;;
esac
PY=${PYTHON:-python3}
VENV=${VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
lock=requirements/$SET.txt
digest=$(cat requirements/runtime.txt requirements/push.txt requirements/dev.txt pyproject.toml | sha256sum | cut -c1-16)
# A dev install holds the other sets too, and a push install the runtime set.
if [ -f "$VENV/.installed-$SET-$digest" ] || [ -f "$VENV/.installed-dev-$digest" ] \
   || { [ "$SET" = runtime ] && [ -f "$VENV/.installed-push-$digest" ]; }; then
  exit 0
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$lock"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e .
rm -f "$VENV"/.installed-*
touch "$VENV/.installed-$SET-$digest"
