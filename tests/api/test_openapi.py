"""The OpenAPI description says what the server does: its own error shape on every operation, and which operations
need a session and how to send one (app/api/openapi.py)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from app.api.openapi import REFUSALS
from app.main import create_app
from app.services.events import TableEvent
from tests.conftest import Server

SCHEMA = create_app().openapi()
ERROR_REF = {"$ref": "#/components/schemas/Error"}


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in SCHEMA["paths"].items() for method, op in ops.items()]


def test_every_operation_describes_its_refusals_in_the_servers_error_shape() -> None:
    assert "HTTPValidationError" not in json.dumps(
        SCHEMA
    )  # FastAPI's own 422 body, which the server never sends
    error = SCHEMA["components"]["schemas"]["Error"]
    assert error["required"] == ["error"] and error["properties"]["error"]["required"] == ["code", "message"]
    for path, method, op in operations():
        responses = op["responses"]
        assert "default" not in responses, (method, path)  # every status is listed, or it is a bug
        for status, answer in responses.items():
            if int(status) >= 400:
                assert answer["content"]["application/json"]["schema"] == ERROR_REF, (method, path, status)
                assert answer["description"].startswith("`"), (method, path, status)  # its codes
        if op.get("parameters") or "requestBody" in op:
            assert "invalid_request" in responses["422"]["description"], (method, path)
        if "{" in path:
            assert "404" in responses, (method, path)
    # Each operation's own refusals name no operation the server does not have.
    assert set(REFUSALS) == {(method, path) for path, method, _ in operations()}
    assert "`push_unavailable`" in SCHEMA["paths"]["/api/me/push"]["post"]["responses"]["503"]["description"]
    assert "`already_started`" in SCHEMA["paths"]["/api/tables/{table_id}/join"]["post"]["responses"]["409"][
        "description"
    ]
    assert set(SCHEMA["paths"]["/api/health/live"]["get"]["responses"]) == {"200"}


def test_operations_that_need_a_session_say_so_and_how_to_send_it() -> None:
    schemes = SCHEMA["components"]["securitySchemes"]
    assert schemes["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schemes["bearer"]["description"],
    }
    assert schemes["cookie"]["in"] == "cookie" and schemes["cookie"]["name"] == "session"
    required = {(m, p) for p, m, op in operations() if op.get("security") == [{"bearer": []}, {"cookie": []}]}
    optional = {(m, p) for p, m, op in operations() if op.get("security", [None])[0] == {}}
    assert ("get", "/api/me") in required and ("post", "/api/tables") in required
    assert ("get", "/api/tables") in optional and ("post", "/api/auth/logout") in optional
    assert all("401" in SCHEMA["paths"][p][m]["responses"] for m, p in required)
    public = {(m, p) for p, m, op in operations() if "security" not in op}
    assert ("get", "/api/health/ready") in public and ("post", "/api/auth/guest") in public


async def test_each_operation_said_to_need_a_session_refuses_a_request_without_one(server: Server) -> None:
    """Against the running server: every operation the description marks as needing a session answers 401
    `not_signed_in` without one (path ids filled with well-formed ids of nothing)."""
    fill = {
        "table_id": "0123456789abcdef",
        "user_id": "0123456789abcdef",
        "message_id": "1",
        "game_id": "tiny",
    }
    checked = 0
    async with httpx.AsyncClient(base_url=server.url) as c:
        for path, method, op in operations():
            if op.get("security") != [{"bearer": []}, {"cookie": []}]:
                continue
            url = path.format(**fill)
            r = await c.request(method.upper(), url, json={} if method in ("post", "put", "patch") else None)
            assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in", (
                method,
                path,
                r.text,
            )
            checked += 1
    assert checked >= 20


async def test_an_address_no_operation_takes_is_refused_in_the_error_shape(server: Server) -> None:
    """404 for an /api/ address nothing takes (a chat line's id that is not a number too), 405 where another method
    has an operation there; never the site's files' answer."""
    async with httpx.AsyncClient(base_url=server.url) as c:
        for method, url, status in [
            ("DELETE", "/api/tables/0123456789abcdef/chat/abc", 404),
            ("DELETE", "/api/tables/0123456789abcdef/chat/-1", 404),
            ("POST", "/api/nothing/here", 404),
            ("DELETE", "/api/tables/0123456789abcdef/chat/mode", 405),
            ("POST", "/api/games", 405),
        ]:
            r = await c.request(method, url)
            code = {404: "not_found", 405: "method_not_allowed"}[status]
            assert r.status_code == status and r.json()["error"]["code"] == code, (method, url, r.text)


def test_the_lobby_log_names_the_tables_own_event_kinds() -> None:
    events = SCHEMA["components"]["schemas"]["LobbyLogOut"]["properties"]["events"]["items"]
    assert events["properties"]["type"]["enum"] == [kind.value for kind in TableEvent]
    assert events["required"] == ["type"] and events["additionalProperties"] is True
