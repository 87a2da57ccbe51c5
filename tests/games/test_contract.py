"""The engine tests' own checks: `canonical` and `assert_json` refuse what JSON cannot hold."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.games.contract import assert_json, canonical


@dataclass
class Card:
    name: str


@pytest.mark.parametrize("doc", [{"at": datetime(2030, 1, 1, tzinfo=UTC)}, {1: "a"}, {"s": {1, 2}}, [Card("x")]])
def test_a_document_json_cannot_hold_is_refused(doc: Any) -> None:
    with pytest.raises(TypeError):
        canonical(doc)
    with pytest.raises(TypeError):
        assert_json(doc)


def test_keys_are_sorted_and_a_float_that_is_not_finite_is_refused() -> None:
    assert canonical({"b": [1.5, True], "a": None}) == '{"a":null,"b":[1.5,true]}'
    for bad in (math.nan, math.inf):
        with pytest.raises(ValueError):
            assert_json({"x": [bad]})
