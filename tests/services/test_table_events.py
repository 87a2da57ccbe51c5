"""The table's own event kinds: every one the services emit is a `TableEvent` member, and docs/api/live-play.md
lists exactly the enum's values."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import orjson

from app.services.events import TableEvent

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api" / "live-play.md"
SERVICES = ROOT / "app" / "services"


def documented_events() -> set[str]:
    text = DOC.read_text()
    start = text.index("The table's own events (")
    end = text.index("\n\n", start)
    return set(re.findall(r"`(\w+) \{", text[start:end]))


def emitted_kinds() -> dict[str, list[str]]:
    """Each `type` of a dict literal built in app/services, as written (a member's name, or a literal's repr), with
    where: the services build no dict with a `type` but an event."""
    found: dict[str, list[str]] = {}
    for path in sorted(SERVICES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "type":
                    if (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                            and value.value.id == "TableEvent"):
                        kind = value.attr
                    else:
                        kind = ast.unparse(value)
                    found.setdefault(kind, []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_event_a_service_emits_is_a_member_and_every_member_is_emitted() -> None:
    emitted = emitted_kinds()
    members = {member.name for member in TableEvent}
    assert {kind: where for kind, where in emitted.items() if kind not in members} == {}, "not TableEvent members"
    assert members - set(emitted) == set(), "members no service emits"


def test_docs_list_exactly_the_enums_events() -> None:
    values = {member.value for member in TableEvent}
    documented = documented_events()
    assert values - documented == set(), "events missing from docs/api/live-play.md"
    assert documented - values == set(), "docs/api/live-play.md documents events TableEvent lacks"


def test_an_event_is_encoded_as_its_value() -> None:
    event = {"type": TableEvent.SEAT_JOINED, "seat": "0"}
    plain = {"type": "seat_joined", "seat": "0"}
    assert orjson.dumps(event) == orjson.dumps(plain) and json.dumps(event) == json.dumps(plain)
