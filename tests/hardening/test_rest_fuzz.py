"""Generated input against every REST endpoint, from the server's own OpenAPI schema (schemathesis).

Valid and invalid requests (the schema's negative mode breaks types, drops required
fields, adds garbage) must never produce a 5xx; every answer must match its schema,
and every refusal must carry the API's error shape `{"error": {"code", "message"}}`.
Path ids point half of the time at real tables (open, private, running, finished) or
real players, so the handlers behind the 404 are reached too.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from app.main import create_app
from tests.conftest import Server
from tests.hardening.helpers import SCALE

schema = schemathesis.openapi.from_dict(create_app().openapi())
EXAMPLES_PER_OPERATION = 20 * SCALE
# Registering and signing in, a test of their own: a failure there names the door people come in by.
PASSWORD_PATHS = "^/api/auth/(register|login)$"
TRIED: Counter[str] = Counter()


@dataclass
class FuzzWorld:
    url: str
    log: Path
    tokens: list[str | None]
    table_ids: list[str]
    user_ids: list[str]


def _setup_world(url: str, log: Path) -> FuzzWorld:
    with httpx.Client(base_url=url, timeout=30) as c:

        users: list[str] = []

        def guest(name: str) -> str:
            r = c.post("/api/auth/guest", json={"name": name})
            r.raise_for_status()
            users.append(str(r.json()["user"]["id"]))
            return str(r.json()["token"])

        host, other = guest("Fuzz host"), guest("Fuzz other")
        auth = {"Authorization": f"Bearer {host}"}
        ids = []
        for body in (
            {"game": "tiny", "seats": 3},
            {"game": "tiny", "seats": 2, "visibility": "private"},
            {"game": "food-truck", "seats": 2},
        ):
            r = c.post("/api/tables", json=body, headers=auth)
            r.raise_for_status()
            ids.append(r.json()["id"])
        running = c.post("/api/tables", json={"game": "tiny", "seats": 2, "options": {"target": 1000}}, headers=auth)
        rid = running.json()["id"]
        c.post(f"/api/tables/{rid}/bots", json={"seat": "1"}, headers=auth).raise_for_status()
        c.post(f"/api/tables/{rid}/start", headers=auth).raise_for_status()
        ids.append(rid)
    return FuzzWorld(url, log, [host, other, None], ids, users)


@pytest.fixture(scope="module")
def world(server: Server) -> FuzzWorld:
    return _setup_world(server.url, server.log)


def _pick(seed: str, n: int) -> int:
    return int(hashlib.sha256(seed.encode()).hexdigest(), 16) % n


def _error_shape(response: Any) -> None:
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


def _call_and_check(case: schemathesis.Case, world: FuzzWorld) -> None:
    key = repr((case.method, case.path, case.path_parameters, case.query, case.body))
    if case.path_parameters and "table_id" in case.path_parameters:
        choice = _pick(key, 2 * len(world.table_ids))
        if choice < len(world.table_ids):
            case.path_parameters["table_id"] = world.table_ids[choice]
    if case.path_parameters and "user_id" in case.path_parameters:
        choice = _pick(key, 2 * len(world.user_ids))
        if choice < len(world.user_ids):
            case.path_parameters["user_id"] = world.user_ids[choice]
    token = world.tokens[_pick(key + "auth", len(world.tokens))]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = case.call(base_url=world.url, headers=headers)
    documented = case.method.lower() in schema.raw_schema["paths"].get(case.path, {})
    TRIED[f"{case.method} {case.path}" if documented else "undocumented methods"] += 1
    if response.status_code >= 500:
        # The server's log says why; show it with the failure.
        raise AssertionError(f"{response.status_code} {response.text}\n{world.log.read_text()[-4000:]}")
    case.validate_response(
        response,
        checks=[not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance],
    )
    if response.status_code >= 400:
        _error_shape(response)
    if not documented:
        # 405, or 404 where a GET falls through to the static frontend mounted at "/"
        assert response.status_code in (404, 405), (case.method, case.path, response.status_code)


_FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)


@schema.exclude(path_regex=PASSWORD_PATHS).parametrize()
@settings(_FUZZ, max_examples=EXAMPLES_PER_OPERATION)
def test_generated_requests_never_break_the_server(case: schemathesis.Case, world: FuzzWorld) -> None:
    _call_and_check(case, world)


@schema.include(path_regex=PASSWORD_PATHS).parametrize()
@settings(_FUZZ, max_examples=EXAMPLES_PER_OPERATION)
def test_generated_sign_ins_never_break_the_server(case: schemathesis.Case, world: FuzzWorld) -> None:
    _call_and_check(case, world)
