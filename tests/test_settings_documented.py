"""Every setting an operator can give is documented in the README's settings table."""

from __future__ import annotations

from app.config import Settings
from tests.conftest import ROOT


def test_every_setting_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| `")]
    documented = " ".join(line.split(" | ")[0] for line in table)
    missing = [name.upper() for name in Settings.model_fields if f"`{name.upper()}`" not in documented]
    assert not missing, f"settings missing from the README's table: {missing}"
