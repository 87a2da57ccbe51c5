#!/usr/bin/env bash
# Set up (the runtime dependencies only, requirements/runtime.txt) and start the server on http://127.0.0.1:8000 (SQLite under ./data unless DATABASE_URL is set).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh runtime
exec "${VENV:-.venv}/bin/python" -m app.main
