"""Fast copies of the JSON state (apply works on a copy; the static map is shared, never changed)."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def deep(doc: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, scalars)."""
    if isinstance(doc, dict):
        return {k: deep(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [deep(v) for v in doc]
    return doc


def clone(state: JSON) -> JSON:
    """A copy of the state that may be changed freely, except its `map`, which is shared."""
    return {k: (v if k == "map" else deep(v)) for k, v in state.items()}
