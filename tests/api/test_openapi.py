"""The OpenAPI description says what the server does: its own error shape on every operation, and which operations
need a session and how to send one (app/api/openapi.py)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from app.main import create_app
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
        for status in ("422", "503", "default"):
            assert op["responses"][status]["content"]["application/json"]["schema"] == ERROR_REF, (
                method,
                path,
                status,
            )
        if "{" in path:
            assert "404" in op["responses"], (method, path)


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
