"""Ratings through the real server: a finished game changes its registered people's ratings once, the table and its
sockets show each change, the profile shows each game's rating; abandoned, private and one-person games are not
rated, nor are guests: a game against a guest moves nobody's rating, and a guest who registers mid-game is rated."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from app.services import glicko2
from tests.api.test_profiles import _profile, _tiny
from tests.conftest import IS_POSTGRES, Database, Server, ServerProcess
from tests.hardening.helpers import accounts, close_all, db_rows, guests, table_state, wait_for
from tests.platform.client import Player, Socket, play_picks


async def rated_table(server: Server, tid: str, token: str | None = None) -> dict[str, Any]:
    """The table once its rating is settled (right after the end, in the background)."""

    async def settled() -> dict[str, Any] | None:
        table = await table_state(server, tid, token)
        return table if table["ratings"] is not None or not table["rated"] else None

    return dict(await wait_for(settled))


def tiny_rating(profile: dict[str, Any]) -> tuple[int, int, int | None]:
    (row,) = [r for r in profile["ratings"] if r["game"] == "tiny"]
    return row["rating"], row["games"], row["last_change"]


async def test_a_finished_game_changes_both_ratings_once_and_everyone_sees_it(server: Server) -> None:
    ana, ben = await accounts(server, "Ana", "Ben")
    (cy,) = await guests(server, "Cy")
    assert tiny_rating(await _profile(server, ana.user["id"])) == (1500, 0, None)
    t = await ana.table(seats=2, options={"target": 1})
    assert t["rated"] is False and t["ratings"] is None  # one person so far
    await ben.post(f"/api/tables/{t['id']}/join", {})
    assert (await table_state(server, t["id"]))["rated"] is True  # public, two people: it will count
    await ben.post(f"/api/tables/{t['id']}/leave")

    won = await _tiny(ana, ben, (3, 0), server)
    tid = won["id"]
    watcher = await Socket.open(server.ws_url, tid, cy.token)
    table = await rated_table(server, tid)
    assert table["rated"] is True
    assert table["ratings"] == {"0": {"before": 1500, "after": 1662, "change": 162},
                                "1": {"before": 1500, "after": 1338, "change": -162}}
    seen = await watcher.until_version(table["version"])
    assert seen["table"]["ratings"] == table["ratings"]
    # The log says so, live and rebuilt: the rating is a lobby change of the finished table.
    lobby = (await cy.http.get(f"/api/tables/{tid}/moves")).json()["lobby"]
    rated = [e for entry in lobby for e in entry["events"] if e["type"] == "rated"]
    assert rated == [{"type": "rated", "visible_to": None, "changes": [
        {"seat": "0", "name": "Ana", "before": 1500, "after": 1662, "change": 162,
         "provisional": True},
        {"seat": "1", "name": "Ben", "before": 1500, "after": 1338, "change": -162,
         "provisional": True}]}]

    # The profiles, seen by anyone: each game's rating, rated games and last change, and each listed game's change.
    for who, rating in ((ana, (1662, 1, 162)), (ben, (1338, 1, -162))):
        profile = await _profile(server, who.user["id"])
        assert tiny_rating(profile) == rating
        assert [r["game"] for r in profile["ratings"]][:4] == [
            "food-truck", "food-truck-champion", "foodies", "food-chain-magnate"]
        assert {r["rating"] for r in profile["ratings"] if r["game"] != "tiny"} == {1500}
        (entry,) = profile["recent"]
        assert entry["rating"] == table["ratings"][entry["seat"]]
        assert [s["rating"] for s in entry["seats"]] == [table["ratings"]["0"], table["ratings"]["1"]]

    # Anything else the finished table goes through rates it no more: a rematch bumps its version.
    await ben.post(f"/api/tables/{tid}/rematch")
    assert (await table_state(server, tid))["ratings"] == table["ratings"]
    # A tie next: Ana, ahead now, gives a point back.
    tie = await rated_table(server, (await _tiny(ana, ben, (1, 1), server))["id"])
    assert tie["ratings"]["0"] == {"before": 1662, "after": 1577, "change": -85}
    assert tiny_rating(await _profile(server, ana.user["id"])) == (1577, 2, -85)
    assert tiny_rating(await _profile(server, ben.user["id"])) == (1423, 2, 85)
    assert await db_rows(server, "SELECT count(*) FROM rating_changes WHERE table_id = :t", t=tid) == [(2,)]
    await watcher.close()
    await close_all(ana, ben, cy)


async def _alone_with_a_bot(ana: Player, server: Server) -> dict[str, Any]:
    """A finished tiny game of Ana and a bot."""
    t = await ana.table(seats=2, options={"target": 1})
    await ana.post(f"/api/tables/{t['id']}/bots", {"seat": "1"})
    await ana.post(f"/api/tables/{t['id']}/start")
    sock = await Socket.open(server.ws_url, t["id"], ana.token)
    latest = await sock.expect("snapshot")
    while latest["table"]["status"] != "finished":
        if "0" in latest["awaiting"] and latest["actions"]:
            ack = await sock.act(latest["actions"][0])
            assert ack["type"] == "ack", ack
            # The next look is at the picture after this move: an update the bot's move brought before it still
            # offers the move just made.
            latest = await sock.until_acked(ack)
        else:
            latest = await sock.until_version(latest["version"] + 1)
    await sock.close()
    return await table_state(server, t["id"])


async def test_abandoned_private_and_one_person_games_are_not_rated(server: Server) -> None:
    ana, bo = await accounts(server, "Ana", "Bo")
    private = await _tiny(ana, bo, (3, 0), server, visibility="private")
    alone = await _alone_with_a_bot(ana, server)
    t = await ana.table(seats=2, options={"target": 1000})
    await bo.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    proposal = (await ana.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes"})).json()["abandon"]
    abandoned = (await bo.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes", "proposal": proposal["id"]})).json()
    assert abandoned["abandoned"] is True

    for table in (private, alone, abandoned):
        seen = await table_state(server, table["id"], ana.token)
        assert seen["rated"] is False and seen["ratings"] is None

    async def all_settled() -> bool:
        flags = await db_rows(server, "SELECT rated FROM game_tables WHERE id IN (:a, :b, :c)",
                              a=private["id"], b=alone["id"], c=abandoned["id"])
        return all(flag is not None and not flag for (flag,) in flags)

    await wait_for(all_settled)
    for who in (ana, bo):
        profile = await _profile(server, who.user["id"], who)
        assert tiny_rating(profile) == (1500, 0, None)
        assert all(entry["rating"] is None for entry in profile["recent"])
    assert await db_rows(server, "SELECT count(*) FROM player_ratings WHERE user_id IN (:a, :b)",
                         a=ana.user["id"], b=bo.user["id"]) == [(0,)]
    await close_all(ana, bo)


async def test_every_process_racing_to_rate_each_game_rates_it_once(fresh_db: Database, tmp_path: Path) -> None:
    """Each process's sweep runs every 0.2 s, racing the process that finished the game (on Postgres, two
    processes; SQLite is served by one): three games, each rated once."""
    fast = {"RATING_SWEEP_SECONDS": "0.2"}
    servers = [ServerProcess(fresh_db, tmp_path, **fast).start()]
    if IS_POSTGRES:
        servers.append(ServerProcess(fresh_db, tmp_path, **fast).start())
    try:
        ana, ben = await accounts(servers[0], "Ana", "Ben")
        for i in range(3):
            where = servers[i % len(servers)]
            for who in (ana, ben):
                who.http.base_url = where.url
            finished = await _tiny(ana, ben, (3, 0), where)
            # A spectator on the other process (on Postgres) is told of the rating too, by the broker.
            other = servers[(i + 1) % len(servers)]
            watcher = await Socket.open(other.ws_url, finished["id"])
            table = await rated_table(where, finished["id"])
            seen = await watcher.until_version(table["version"])
            assert seen["table"]["ratings"] == table["ratings"] is not None
            await watcher.close()
        assert await db_rows(servers[0], "SELECT count(*) FROM rating_changes") == [(6,)]
        a, b = glicko2.Rating(), glicko2.Rating()
        for _ in range(3):
            after = glicko2.game({"a": a, "b": b}, {"a": 1, "b": 2})
            # What is stored is a whole rating: the next game starts from it.
            a, b = (replace(after[x], rating=round(after[x].rating)) for x in "ab")
        assert await db_rows(servers[0], "SELECT rating, games FROM player_ratings ORDER BY rating") == [
            (b.rating, 3), (a.rating, 3)]
        await close_all(ana, ben)
        for server in servers:
            assert "rating failed" not in server.log.read_text()  # no attempt broke on another (a deadlock …)
    finally:
        for server in servers:
            server.stop()


async def _started(players: list[Player]) -> str:
    """A running public tiny game of one round of these players (the first hosts; seat i is players[i])."""
    t = await players[0].table(seats=len(players), options={"target": 1})
    for who in players[1:]:
        await who.post(f"/api/tables/{t['id']}/join", {})
    await players[0].post(f"/api/tables/{t['id']}/start")
    return str(t["id"])


async def _played(players: list[Player], picks: list[int], server: Server, tid: str | None = None) -> dict[str, Any]:
    """A public tiny game of these players (`_started`, unless `tid` is already) played to its end: each picks their
    number, so the higher pick places better."""
    tid = tid or await _started(players)
    socks = {str(i): await Socket.open(server.ws_url, tid, who.token) for i, who in enumerate(players)}
    await play_picks(socks, picks)
    for sock in socks.values():
        await sock.close()
    return await table_state(server, tid)


async def settled_flag(server: Server, tid: str) -> bool:
    """The table's stored `rated`, once the server has settled it."""

    async def flag() -> tuple[bool] | None:
        rows = await db_rows(server, "SELECT rated FROM game_tables WHERE id = :t", t=tid)
        return (bool(rows[0][0]),) if rows[0][0] is not None else None

    return (await wait_for(flag))[0]


async def test_a_game_against_a_guest_moves_no_rating_and_says_it_is_not_rated(server: Server) -> None:
    (ana,) = await accounts(server, "Ana")
    (gus,) = await guests(server, "Gus")
    t = await ana.table(seats=2, options={"target": 1})
    await gus.post(f"/api/tables/{t['id']}/join", {})
    seen = await table_state(server, t["id"])
    # Public, two people, but one a guest: not rated, and the seat says why.
    assert seen["rated"] is False
    assert [s["guest"] for s in seen["seats"]] == [False, True]
    await gus.post(f"/api/tables/{t['id']}/leave")

    tid = (await _played([ana, gus], [3, 0], server))["id"]
    assert await settled_flag(server, tid) is False
    table = await table_state(server, tid)
    assert table["rated"] is False and table["ratings"] is None
    lobby = (await ana.http.get(f"/api/tables/{tid}/moves")).json()["lobby"]
    assert not [e for entry in lobby for e in entry["events"] if e["type"] == "rated"]
    assert tiny_rating(await _profile(server, ana.user["id"])) == (1500, 0, None)
    guest = await _profile(server, gus.user["id"])
    # A guest's profile has no ratings at all (not a 1500 that would read as a rating).
    assert guest["user"]["registered"] is False and guest["ratings"] == []
    (entry,) = guest["recent"]
    assert entry["rating"] is None and [s["guest"] for s in entry["seats"]] == [False, True]
    assert await db_rows(server, "SELECT count(*) FROM player_ratings WHERE user_id IN (:a, :g)",
                         a=ana.user["id"], g=gus.user["id"]) == [(0,)]
    assert await db_rows(server, "SELECT count(*) FROM rating_changes WHERE table_id = :t", t=tid) == [(0,)]
    await close_all(ana, gus)


async def test_two_people_and_a_guest_are_rated_between_the_two_only(server: Server) -> None:
    ana, bo = await accounts(server, "Ana", "Bo")
    (gus,) = await guests(server, "Gus")
    # Ana first, the guest second, Bo last: between the two rated people, Ana beat Bo.
    table = await _played([ana, gus, bo], [3, 2, 0], server)
    assert table["rated"] is True
    rated = await rated_table(server, table["id"])
    assert rated["ratings"] == {"0": {"before": 1500, "after": 1662, "change": 162},
                                "2": {"before": 1500, "after": 1338, "change": -162}}
    lobby = (await ana.http.get(f"/api/tables/{table['id']}/moves")).json()["lobby"]
    assert [e["changes"] for entry in lobby for e in entry["events"] if e["type"] == "rated"] == [[
        {"seat": "0", "name": "Ana", "before": 1500, "after": 1662, "change": 162,
         "provisional": True},
        {"seat": "2", "name": "Bo", "before": 1500, "after": 1338, "change": -162,
         "provisional": True}]]
    assert tiny_rating(await _profile(server, ana.user["id"])) == (1662, 1, 162)
    assert tiny_rating(await _profile(server, bo.user["id"])) == (1338, 1, -162)
    assert (await _profile(server, gus.user["id"]))["ratings"] == []
    assert await db_rows(server, "SELECT count(*) FROM player_ratings WHERE user_id = :g", g=gus.user["id"]) == [(0,)]
    await close_all(ana, bo, gus)


async def test_a_guest_who_registers_mid_game_is_rated_and_their_finished_games_stay_as_they_were(
    server: Server,
) -> None:
    (ana,) = await accounts(server, "Ana")
    (gus,) = await guests(server, "Gus")
    before = (await _played([ana, gus], [0, 3], server))["id"]
    assert await settled_flag(server, before) is False

    tid = await _started([ana, gus])
    watcher = await Socket.open(server.ws_url, tid)
    snap = await watcher.expect("snapshot")
    assert snap["table"]["rated"] is False
    refused = await gus.post("/api/auth/register", {"username": "x", "password": "short"}, ok=False)
    assert refused.status_code == 422 and (await table_state(server, tid))["version"] == snap["version"]
    answer = (await gus.post("/api/auth/register", {"username": f"gus{tid}", "password": "correct horse"})).json()
    assert answer["user"]["id"] == gus.user["id"]
    # Every socket of the running table hears of it at once, the table now rated, the log saying why.
    told = await watcher.until_version(snap["version"] + 1)
    assert told["table"]["rated"] is True and [s["guest"] for s in told["table"]["seats"]] == [False, False]
    assert {"type": "registered", "seat": "1", "name": "Gus", "rated": True, "visible_to": None} in told["events"]
    await watcher.close()
    # His guest token still works (the same id); the game ends rated between the two of them.
    await _played([ana, gus], [0, 3], server, tid)
    rated = await rated_table(server, tid)
    assert rated["rated"] is True and rated["ratings"]["1"] == {"before": 1500, "after": 1662, "change": 162}
    assert tiny_rating(await _profile(server, gus.user["id"])) == (1662, 1, 162)
    # The game Gus played as a guest stays unrated, his seat there a guest's.
    old = await table_state(server, before)
    assert old["rated"] is False and old["ratings"] is None and old["seats"][1]["guest"] is True
    await close_all(ana, gus)
