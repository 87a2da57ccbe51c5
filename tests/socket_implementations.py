"""The API and socket tests (tests/api, tests/realtime) under each websocket implementation the server can serve
with: the configured one (WS_IMPL, default `framed`, app/realtime/protocol.py), or each one TEST_WS_IMPLS names
(comma-separated; the whole test command names `framed` and uvicorn's own `websockets-sansio`, so both keep working).
Each test of those folders runs once per implementation, its id ending in the implementation's name.

Their conftests import these fixtures. Both run in the same pass as every other test rather than in a pass of their
own: many wait on a server or a socket, and alone they left a third of the machine idle that the other tests fill."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.conftest import Database, Server

WS_IMPLS = [name for name in os.environ.get("TEST_WS_IMPLS", "").split(",") if name] or [
    os.environ.get("WS_IMPL", "framed")
]


@pytest.fixture(scope="session", params=WS_IMPLS)
def ws_impl(request: pytest.FixtureRequest) -> str:
    """The websocket implementation this test's servers serve with."""
    return str(request.param)


@pytest.fixture(autouse=True)
def _servers_started_in_the_test_use_it(ws_impl: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A server's settings read WS_IMPL from the environment, in this process or in a process of its own.
    monkeypatch.setenv("WS_IMPL", ws_impl)


@pytest.fixture(scope="session")
def server(
    server: Server, ws_impl: str, database: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The shared server (tests/conftest.py) where it serves with `ws_impl`, else one beside it that does, on the
    same database."""
    if server.settings().ws_impl == ws_impl:
        yield server
        return
    other = Server(database, tmp_path_factory.mktemp("server"), WS_IMPL=ws_impl).start()
    yield other
    other.stop()
