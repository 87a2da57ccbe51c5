"""The wheel runs on its own: built from this tree, installed with the runtime lock into a fresh venv outside it,
`foodgames migrate` and `foodgames serve` work and serve the API and the site."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, SECRET, Database

UV = Path(sys.executable).parent / "uv"


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
def test_the_wheel_installs_migrates_and_serves_outside_the_source_tree(
    fresh_db: Database, tmp_path: Path
) -> None:
    if not UV.exists():
        pytest.skip("needs uv (the dev set installs it)")
    dist = tmp_path / "dist"
    run(UV, "build", "--wheel", "--no-config", "--out-dir", dist, ROOT, cwd=tmp_path)
    (wheel,) = dist.glob("foodgames-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for carried in ("app/frontend/index.html", "app/migrations/env.py", "app/alembic.ini", "app/cli.py"):
        assert carried in names, f"the wheel lacks {carried}"
    assert any(n.startswith("app/migrations/versions/0001_") for n in names)
    assert not any(n.startswith(("tests/", "bench/")) for n in names)

    venv = tmp_path / "venv"
    run(UV, "venv", "--quiet", "--no-config", "--python", sys.executable, venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    run(
        UV,
        "pip",
        "install",
        "--quiet",
        "--no-config",
        "--python",
        python,
        "-r",
        ROOT / "requirements/runtime.txt",
        cwd=tmp_path,
    )
    run(UV, "pip", "install", "--quiet", "--no-config", "--no-deps", "--python", python, wheel, cwd=tmp_path)

    here = tmp_path / "elsewhere"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"DATABASE_URL": fresh_db.url, "SECRET_KEY": SECRET, "LOG_LEVEL": "warning"}
    located = run(python, "-c", "import app; print(app.__file__)", cwd=here, env=env)
    assert Path(located.strip()).is_relative_to(venv), located  # the installed package, not this tree
    foodgames = venv / "bin" / "foodgames"
    assert run(foodgames, "--version", cwd=here, env=env).strip() == "foodgames, version 0.1.0"
    assert "migrated" in run(foodgames, "migrate", cwd=here, env=env)
    # The server starts on the migrated database (no migrations of its own) and serves the API, the site and a game.
    env["RUN_MIGRATIONS"] = "false"
    out = run(python, ROOT / "scripts" / "smoke.py", "--", foodgames, "serve", cwd=here, env=env)
    assert "smoke check passed" in out
    shutil.rmtree(venv, ignore_errors=True)
