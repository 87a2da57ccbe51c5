#!/usr/bin/env bash
# Set up and run the whole test suite (lint, types, tests) against the database in DATABASE_URL
# (unset = SQLite). Browser tests use Debian's Chromium, installed here with apt when missing and
# when we are root; otherwise they are skipped (and fail under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
    || echo "could not install chromium; browser tests will be skipped" >&2
fi
.venv/bin/ruff check app tests bench
.venv/bin/mypy app
exec .venv/bin/pytest -q -p no:cacheprovider "$@"
