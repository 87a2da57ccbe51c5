"""Copying JSON documents (faster than copy.deepcopy for the engine's state shape)."""

from __future__ import annotations

from typing import Any


def clone(doc: Any) -> Any:
    """A deep copy of a JSON document."""
    if isinstance(doc, dict):
        return {k: clone(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [clone(v) for v in doc]
    return doc
