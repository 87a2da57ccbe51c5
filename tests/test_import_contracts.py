"""The import contracts (pyproject.toml, checked by `lint-imports` in the test command) cover every use case."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_services_values_contract_names_every_use_case_module() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    values = next(c for c in contracts if c["name"].startswith("The services' values stand alone"))
    modules = {f"app.services.{p.stem}" for p in (ROOT / "app" / "services").glob("*.py") if p.stem != "__init__"}
    # A new use case module must be forbidden to the values modules, or they could start importing it unnoticed.
    assert modules - set(values["source_modules"]) == set(values["forbidden_modules"])
