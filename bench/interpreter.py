"""The Python a benchmark runs on, for its report: builds differ by 10-20 % on the same machine
(docs/performance.md, "The machine and how to read a figure")."""

from __future__ import annotations

import sys


def interpreter() -> str:
    """This Python's version and path (the servers a benchmark starts run on it too)."""
    return f"Python {sys.version.split()[0]} ({sys.executable})"
