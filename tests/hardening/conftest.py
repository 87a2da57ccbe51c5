"""The hardening run ends with a tally of the inputs each attack tried (quoted in docs/reliability.md)."""

from __future__ import annotations

import sys
from typing import Any

TALLY_MODULES = ("test_rest_fuzz", "test_engine_walks", "test_ws_input", "test_hidden_info", "test_races")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = []
    for name in TALLY_MODULES:
        module = sys.modules.get(f"tests.hardening.{name}")
        tried = getattr(module, "TRIED", None)
        if tried:
            total = sum(v if isinstance(v, int) else v.get("legal", 0) + v.get("illegal", 0) for v in tried.values())
            lines.append(f"{name}: {total} inputs: " + ", ".join(f"{k}={v}" for k, v in sorted(tried.items())))
    if lines:
        terminalreporter.section("hardening tally")
        for line in lines:
            terminalreporter.write_line(line)
