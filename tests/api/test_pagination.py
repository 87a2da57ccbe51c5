"""The one cursor pagination (services/pagination.py, docs/api/pagination.md): walking a list page by page gives each item once,
in the list's order, also when items are added during the walk; a cursor is opaque and a foreign or forged one is
refused as `bad_cursor`. The server runs on whichever database the suite runs on (SQLite, or Postgres with
DATABASE_URL); the leaderboard's and a profile's pages are walked in test_leaderboard.py and test_profiles.py."""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Integer, column, select, table

from app.services import pagination
from tests.conftest import Database, Server
from tests.platform.client import Player


@pytest.fixture
def own_server(fresh_db: Database, tmp_path: Path) -> Iterator[Server]:
    """A server with a database of its own: no other test's tables in its lists."""
    srv = Server(fresh_db, tmp_path).start()
    yield srv
    srv.stop()


async def walk(
    who: Player, path: str, field: str, limit: int, during: Any = None, most: int | None = None
) -> tuple[list[Any], int]:
    """Every item of a list by pages of `limit` (`during` runs once, after the first page; a page holds at most
    `most` items, `limit` unless said): the items and the number of pages."""
    items: list[Any] = []
    cursor, pages = None, 0
    while True:
        r = await who.http.get(path, params={"limit": limit, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.text
        page = r.json()
        assert len(page[field]) <= (most or limit)
        items += page[field]
        pages += 1
        cursor = page["next"]
        if pages == 1 and during is not None:
            await during()
        if cursor is None:
            return items, pages


async def test_the_lobby_and_my_tables_walk_each_table_once(own_server: Server) -> None:
    ana, ben = await Player.guest(own_server.url, "Ana"), await Player.guest(own_server.url, "Ben")
    made = [(await ana.table(name=f"Lunch {i}"))["id"] for i in range(7)]
    whole = (await ana.http.get("/api/tables", params={"limit": 100})).json()
    assert whole["next"] is None and [t["id"] for t in whole["tables"]] == list(reversed(made))

    tables, pages = await walk(ana, "/api/tables", "tables", 2)
    assert [t["id"] for t in tables] == list(reversed(made)) and pages == 4

    # Tables opened during the walk come before its cursor: the walk still gives each of the others exactly once.
    added: list[str] = []

    async def open_two() -> None:
        added.extend([(await ben.table())["id"] for _ in range(2)])

    tables, _ = await walk(ana, "/api/tables", "tables", 3, during=open_two)
    ids = [t["id"] for t in tables]
    assert len(ids) == len(set(ids)) and ids == list(reversed(made)) and len(added) == 2

    await ben.post(f"/api/tables/{made[0]}/join", {})
    await ben.post(f"/api/tables/{made[3]}/join", {})
    mine, _ = await walk(ben, "/api/me/tables", "tables", 1)
    assert sorted(t["id"] for t in mine) == sorted([*added, made[0], made[3]]) and len(mine) == 4
    mine_ana, pages = await walk(ana, "/api/me/tables", "tables", 3)
    assert sorted(t["id"] for t in mine_ana) == sorted(made) and pages == 3

    first = (await ana.http.get("/api/tables", params={"limit": 1})).json()
    # The lobby's cursor is not My tables' (nor any other list's), and a cursor is not something to make up.
    for path, cursor in [("/api/me/tables", first["next"]), ("/api/tables", "bm9uc2Vuc2U"), ("/api/tables", "!")]:
        r = await ana.http.get(path, params={"cursor": cursor})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_cursor", (path, cursor, r.text)
    await ana.close()
    await ben.close()


async def test_chat_history_walks_back_each_line_once_keeping_the_players_words(own_server: Server) -> None:
    ana, ben = await Player.guest(own_server.url, "Ana"), await Player.guest(own_server.url, "Ben")
    watchers = [await Player.guest(own_server.url, f"Watcher {i}") for i in range(3)]
    t = await ana.table()
    await ben.post(f"/api/tables/{t['id']}/join", {})
    path = f"/api/tables/{t['id']}/chat"
    sent: list[int] = []
    for i in range(4):
        for who in (ana, ben):
            sent.append((await who.post(path, {"text": f"{who.user['name']} {i}"})).json()["id"])
    for i in range(3):
        for who in watchers:
            sent.append((await who.post(path, {"text": f"{who.user['name']} {i}"})).json()["id"])

    # The first page holds the last `limit` lines of the players and as many of everyone else, oldest first.
    first = (await ana.http.get(path, params={"limit": 3})).json()
    ids = [m["id"] for m in first["messages"]]
    assert ids == sorted(ids) and len(ids) == 6 and first["next"]
    assert sum(m["user"]["id"] in (ana.user["id"], ben.user["id"]) for m in first["messages"]) == 3

    lines, pages = await walk(ana, path, "messages", 3, most=6)
    got = [m["id"] for m in lines]
    assert sorted(got) == sorted(sent) and len(got) == len(set(got)) and pages == 3

    r = await ana.http.get(path, params={"cursor": pagination.encode("tables", [datetime.now(UTC), "x"])})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_cursor"
    for who in (ana, ben, *watchers):
        await who.close()


def test_a_cursor_holds_the_lists_name_and_the_key_it_stopped_at() -> None:
    at = datetime(2026, 1, 2, 3, 4, 5, 6000, tzinfo=UTC)
    cursor = pagination.encode("tables", [at, "abc"])
    assert pagination.decode("tables", cursor, ["time", "str"]) == (at, "abc")
    assert pagination.decode("tables", None, ["time", "str"]) is None
    for name, kinds, bad in [
        ("my-tables", ["time", "str"], cursor),  # another list's
        ("tables", ["time", "str", "int"], cursor),  # another shape
        ("tables", ["int", "str"], cursor),  # another type
        ("tables", ["time", "str"], cursor[:-3]),
        ("tables", ["time", "str"], "é"),
        ("tables", ["time", "str"], "x" * (pagination.MAX_CURSOR + 1)),
        ("tables", ["int"], base64.urlsafe_b64encode(json.dumps(["tables", [2**70]]).encode()).decode()),
        ("tables", ["int"], pagination.encode("tables", [True])),
    ]:
        with pytest.raises(Exception) as refused:
            pagination.decode(name, bad, kinds)  # type: ignore[arg-type]
        assert getattr(refused.value, "code", None) == "bad_cursor", (name, bad)


def test_the_keyset_condition_takes_mixed_directions() -> None:
    """(a desc, b asc, c desc) after (5, 2, 9), checked against Python's own tuple order over every small row."""
    t = table("t", column("a", Integer), column("b", Integer), column("c", Integer))
    clause = pagination.after([(t.c.a, True), (t.c.b, False), (t.c.c, True)], (5, 2, 9))

    rows = [(a, b, c) for a in (4, 5, 6) for b in (1, 2, 3) for c in (8, 9, 10)]
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (a INTEGER, b INTEGER, c INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    sql = select(t.c.a, t.c.b, t.c.c).where(clause).compile(compile_kwargs={"literal_binds": True})
    found = sorted(db.execute(str(sql)).fetchall())
    expected = sorted(r for r in rows if (-r[0], r[1], -r[2]) > (-5, 2, -9))
    assert found == expected and 0 < len(found) < len(rows)
