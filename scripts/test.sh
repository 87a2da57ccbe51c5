#!/usr/bin/env bash
# Set up and run the whole test suite (lint, types, tests) against the database in DATABASE_URL
# (unset = SQLite). Browser tests use Debian's Chromium (and its headless shell) and the proxy test nginx,
# installed here with apt when missing and when we are root; otherwise they are skipped (and fail under
# CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
export VENV
./scripts/setup.sh dev
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  # A policy-rc.d that says 101 keeps apt from starting the system's own nginx on port 80 (one made
  # here is removed afterwards; one the machine has is left alone).
  policy=/usr/sbin/policy-rc.d made_policy=
  if [ ! -e $policy ]; then printf '#!/bin/sh\nexit 101\n' >$policy && chmod +x $policy && made_policy=1; fi
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1 \
    || echo "could not install ${missing[*]}; their tests will be skipped" >&2
  [ -z "$made_policy" ] || rm -f $policy
fi
# The project's bytecode, compiled once, while the checks below run. Where
# PYTHONDONTWRITEBYTECODE is set (this CI's machine, the Dockerfile), every server and command the tests start would
# otherwise compile the app's modules from source again, ~0.3 s a start, and every pytest process (each worker)
# rewrite the asserts of every test module again, ~10 s of CPU: one collection allowed to write leaves pytest's
# rewritten modules for all of them to read. The files go in __pycache__ folders git ignores.
(
  "$VENV/bin/python" -m compileall -q app tests >/dev/null
  PYTHONDONTWRITEBYTECODE='' "$VENV/bin/pytest" -q -p no:cacheprovider --collect-only >/dev/null 2>&1 || true
) &
compiled=$!
# The checks below do not depend on each other, and each leaves much of a core idle (a resolver waiting on PyPI, pip
# unpacking, node starting up): the slower ones run side by side in the background, each into a log of its own
# printed whole when all are done, so the output reads as if they had run one after another.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
side_jobs=()
side() {  # side NAME COMMAND...: run COMMAND in the background, its output kept in $logs/NAME
  local name=$1
  shift
  ("$@") >"$logs/$name" 2>&1 &
  side_jobs+=("$name:$!")
}
side_results() {  # wait for every side job and print its output; fails if one failed
  local job failed=0
  for job in "${side_jobs[@]}"; do
    wait "${job#*:}" || { failed=1; echo "failed: ${job%%:*}" >>"$logs/${job%%:*}"; }
    cat "$logs/${job%%:*}"
  done
  return "$failed"
}
# The site's JavaScript: eslint, tsc over its JSDoc types and node's unit tests, with the tools pinned in
# package-lock.json (the site itself is served as written, with no build step).
frontend_checks() {
  if command -v node >/dev/null && command -v npm >/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    npm run --silent check
  elif [ "${CI:-}" = true ]; then
    echo "node and npm are needed for the frontend checks" >&2
    return 1
  else
    echo "node or npm missing: the frontend checks (eslint, tsc, node --test) are skipped" >&2
  fi
}
side frontend frontend_checks
# The whole run (no arguments) on the oldest supported Python does more than the tests asked for.
whole_on_oldest=no
if [ $# = 0 ] && "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
  whole_on_oldest=yes
fi
# It checks pyproject.toml's lower bounds: the lowest allowed versions resolve and serve (scripts/check-floors.sh;
# seconds once uv's cache holds them), and that the serve command's venv stays within 150 MB (scripts/venv-size.sh).
# On the oldest supported Python only: the oldest releases of some dependencies have no wheels for newer ones, and
# one venv size is enough.
if [ "$whole_on_oldest" = yes ]; then
  side floors env PYTHON="$VENV/bin/python" ./scripts/check-floors.sh
  side venv-size env PYTHON="$VENV/bin/python" ./scripts/venv-size.sh
fi
"$VENV/bin/ruff" check app tests bench scripts
"$VENV/bin/mypy" app
"$VENV/bin/lint-imports" --no-cache  # the layer contracts in pyproject.toml
side_results
wait "$compiled"
# One worker more than there are cores, at most 4: a test spends a fifth of its time waiting on a page, a server or
# a socket, which the extra worker fills (on two cores the SQLite pass takes 286 s on three workers against 310 s on
# two); `-n 0` after this runs everything in this process. Not `loadgroup` or `loadfile`: they key tests by node id,
# and schemathesis' generated tests share one, so all but one were dropped.
workers=${TEST_WORKERS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
[ "$workers" -le 4 ] || workers=4
# Tests marked `alone` stop a service the others share (Postgres), so they run afterwards, by themselves. Exit
# status 5 is "nothing collected": the arguments chose no test of that kind. BROWSER_TESTS=no leaves out the browser
# tests (marked e2e), whose server always runs on its own SQLite file whatever DATABASE_URL says.
marks="not alone"
[ "${BROWSER_TESTS:-yes}" != no ] || marks="$marks and not e2e"
# It also runs the API and socket tests twice, under the default websocket implementation
# (app/realtime/protocol.py) and under uvicorn's own, which it builds on and which WS_IMPL can choose: both must keep
# working (tests/socket_implementations.py).
if [ "$whole_on_oldest" = yes ]; then
  export TEST_WS_IMPLS=framed,websockets-sansio
fi
status=0
"$VENV/bin/pytest" -q -p no:cacheprovider -n "$workers" --dist load -m "$marks" "$@" || status=$?
[ "$status" = 5 ] && status=0
alone=0
"$VENV/bin/pytest" -q -p no:cacheprovider -n 0 -m alone "$@" || alone=$?
[ "$alone" = 5 ] && alone=0
[ "$status" != 0 ] && exit "$status"
exit "$alone"
