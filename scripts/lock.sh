#!/usr/bin/env bash
# Regenerate the locks from pyproject.toml: requirements/dev.txt (the runtime set, Web Push and the test tools),
# requirements/runtime.txt (the runtime set, what the serve command installs) and requirements/push.txt (the
# runtime set and the `push` extra, what the container installs), all at the same versions. Run after changing a
# dependency or to take newer releases (`./scripts/lock.sh --upgrade`, or `--upgrade-package NAME`); commit all three.
# uv resolves for every platform and Python the project supports (--universal), from PyPI alone whatever the
# machine's pip configuration says, and records every file's hash, so pip installs exactly what was tested.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-.venv/bin/uv}
[ -x "$UV" ] || UV=uv
common=(--quiet --universal --python-version 3.11 --generate-hashes --no-config
        --index-url https://pypi.org/simple --custom-compile-command ./scripts/lock.sh)
"$UV" pip compile "${common[@]}" "$@" pyproject.toml --extra dev --extra push -o requirements/dev.txt
# Constrained by the dev lock, so serving and testing run the same versions.
"$UV" pip compile "${common[@]}" pyproject.toml -c requirements/dev.txt -o requirements/runtime.txt
"$UV" pip compile "${common[@]}" pyproject.toml --extra push -c requirements/dev.txt -o requirements/push.txt
