"""docs/api/live-play.md, the socket reference, and app/messages.py's models describe the same messages.

The models are checked against the server's real messages by the test client (tests/platform/client.py) in every
socket test; this checks them against the reference people read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from pydantic import BaseModel

from app.messages import AnyClientMessage, AnyServerMessage

DOC = Path(__file__).resolve().parents[2] / "docs" / "api" / "live-play.md"


def live_play_section() -> str:
    return DOC.read_text()


def models(union: object) -> list[type[BaseModel]]:
    return list(get_args(get_args(union)[0]))


def tag(model: type[BaseModel]) -> str:
    return str(get_args(model.model_fields["type"].annotation)[0])


def test_every_message_type_is_documented_and_every_documented_one_exists() -> None:
    section = live_play_section()
    documented = set(re.findall(r'\{"type": "(\w+)"', section))
    server = {tag(m) for m in models(AnyServerMessage)}
    client = {tag(m) for m in models(AnyClientMessage)}
    assert server - documented == set(), "server messages missing from docs/api/live-play.md"
    assert client - documented == set(), "client messages missing from docs/api/live-play.md"
    assert documented - server - client == set(), "docs/api/live-play.md documents messages app/messages.py lacks"


def test_every_field_of_every_message_is_named_in_the_reference() -> None:
    section = live_play_section()
    for model in models(AnyServerMessage) + models(AnyClientMessage):
        for field in model.model_fields:
            assert f'"{field}"' in section or f"`{field}`" in section, (tag(model), field)
