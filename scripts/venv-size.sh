#!/usr/bin/env bash
# Print the size of the venv the serve command installs (the runtime set, requirements/runtime.txt), built afresh
# in a temporary folder, and fail when it exceeds $MAX_MB (default 150).
# Web Push is not in it (the `push` extra: cryptography, aiohttp and requests, about 32 MB), so serving runs with push
# off unless the extra is installed (`./scripts/setup.sh push`, as the container does).
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_MB=${MAX_MB:-150}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
VENV=$dir/venv ./scripts/setup.sh runtime 2>/dev/null
mb=$(du -sm "$dir/venv" | cut -f1)
echo "serve venv: $mb MB (limit $MAX_MB MB)"
[ "$mb" -le "$MAX_MB" ]
