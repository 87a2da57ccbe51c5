"""Player profiles: per-game counts and wins (ties shared), the recent games, privacy, paging, 404."""

from __future__ import annotations

import secrets
from typing import Any

import httpx

from tests.conftest import Server
from tests.hardening.helpers import guests, table_state, wait_for
from tests.platform.client import Player, Socket, play_picks


async def _tiny(host: Player, other: Player, picks: tuple[int, int], server: Server,
                visibility: str = "public") -> dict[str, Any]:
    """A finished tiny game of `host` (seat 0) and `other` (seat 1), who pick these numbers: one round, so the
    higher pick wins and equal picks tie."""
    t = await host.table(seats=2, options={"target": 1}, visibility=visibility)
    tid = t["id"]
    await other.post(f"/api/tables/{tid}/join", {"invite_code": t.get("invite_code")})
    await host.post(f"/api/tables/{tid}/start")
    socks = {"0": await Socket.open(server.ws_url, tid, host.token), "1": await Socket.open(server.ws_url, tid, other.token)}
    await play_picks(socks, picks)
    for sock in socks.values():
        await sock.close()
    return await table_state(server, tid, host.token)


async def _bots_game(host: Player, server: Server, game: str) -> dict[str, Any]:
    """A real game of `game` finished by bots: one in seat 1, one standing in for the host in seat 0."""
    t = await host.table(game=game, seats=2)
    tid = t["id"]
    await host.post(f"/api/tables/{tid}/bots", {"seat": "1"})
    await host.post(f"/api/tables/{tid}/start")
    await host.post(f"/api/tables/{tid}/stand_in", {"seat": "0"})

    async def done() -> dict[str, Any] | None:
        table = await table_state(server, tid, host.token)
        return table if table["status"] == "finished" else None

    return dict(await wait_for(done, timeout=90))


async def _profile(server: Server, user_id: str, who: Player | None = None, ok: bool = True,
                   **params: Any) -> Any:
    headers = {"Authorization": f"Bearer {who.token}"} if who else {}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30) as c:
        r = await c.get(f"/api/players/{user_id}", params=params)
    if ok:
        assert r.status_code == 200, r.text
        return r.json()
    return r


def _counts(profile: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    return {g["game"]: (g["played"], g["won"], g["shared"]) for g in profile["games"]}


async def test_counts_wins_ties_and_recent_games_across_games(server: Server) -> None:
    ana, ben, cy = await guests(server, "Ana", "Ben", "Cy")
    won = await _tiny(ana, ben, (3, 0), server)
    tie = await _tiny(ana, ben, (1, 1), server)
    private = await _tiny(ana, ben, (0, 3), server, visibility="private")
    truck = await _bots_game(ana, server, "food-truck")
    ana_won_truck = "0" in truck["outcome"]["winners"]

    mine = await _profile(server, ana.user["id"], ana)
    assert mine["user"]["name"] == "Ana" and mine["user"]["registered"] is False
    assert mine["user"]["member_since"].endswith("+00:00")
    assert _counts(mine) == {"food-truck": (1, int(ana_won_truck), 0), "tiny": (3, 2, 1)}
    assert mine["totals"] == {"played": 4, "won": 2 + int(ana_won_truck), "shared": 1}
    assert [e["table_id"] for e in mine["recent"]] == [truck["id"], private["id"], tie["id"], won["id"]]
    assert mine["next"] is None

    by_id = {e["table_id"]: e for e in mine["recent"]}
    first = by_id[won["id"]]
    assert (first["game"], first["seat"], first["place"], first["score"], first["won"], first["shared"]) == (
        "tiny", "0", 1, 4, True, False)
    assert first["winners"] == ["0"] and first["visibility"] == "public"
    assert [(s["seat"], s["user"]["name"], s["bot"], s["place"], s["score"], s["won"]) for s in first["seats"]] == [
        ("0", "Ana", False, 1, 4, True), ("1", "Ben", False, 2, 1, False)]
    shared = by_id[tie["id"]]
    assert (shared["place"], shared["won"], shared["shared"], sorted(shared["winners"])) == (1, True, True, ["0", "1"])
    assert [s["place"] for s in shared["seats"]] == [1, 1]
    lost = by_id[private["id"]]
    assert (lost["place"], lost["won"], lost["shared"], lost["visibility"]) == (2, False, False, "private")
    bots = by_id[truck["id"]]
    # The bot that stood in for Ana leaves the seat hers; the other seat is a bot's own.
    assert [(s["user"] and s["user"]["id"], s["bot"]) for s in bots["seats"]] == [(ana.user["id"], True), (None, True)]
    assert bots["won"] == ana_won_truck and bots["title"] == "Food Truck"
    assert bots["score"] == truck["outcome"]["scores"]["0"]

    # Ben's own record: the tie and the private game are his wins.
    assert _counts(await _profile(server, ben.user["id"], ben)) == {"tiny": (3, 2, 1)}


async def test_a_private_table_counts_and_shows_only_for_those_who_may_see_it(server: Server) -> None:
    ana, ben, cy = await guests(server, "Ana", "Ben", "Cy")
    public = await _tiny(ana, ben, (2, 1), server)
    private = await _tiny(ana, ben, (0, 3), server, visibility="private")
    for viewer in (None, cy):
        seen = await _profile(server, ana.user["id"], viewer)
        assert _counts(seen) == {"tiny": (1, 1, 0)}
        assert seen["totals"] == {"played": 1, "won": 1, "shared": 0}
        assert [e["table_id"] for e in seen["recent"]] == [public["id"]]
        assert private["id"] not in str(seen)
        # A table's id is no cursor: naming the private one tells nothing either.
        refused = await _profile(server, ana.user["id"], viewer, ok=False, cursor=private["id"])
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_cursor"
    # Ben sat at it: he sees it on Ana's profile too.
    seen_by_ben = await _profile(server, ana.user["id"], ben)
    assert [e["table_id"] for e in seen_by_ben["recent"]] == [private["id"], public["id"]]
    assert _counts(seen_by_ben) == {"tiny": (2, 1, 0)}


async def test_recent_games_page_with_a_cursor(server: Server) -> None:
    ana, ben = await guests(server, "Ana", "Ben")
    tables = [await _tiny(ana, ben, (i % 4, 0), server) for i in range(5)]
    newest_first = [t["id"] for t in reversed(tables)]
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = await _profile(server, ana.user["id"], None, **params)
        assert len(page["recent"]) <= 2
        assert page["totals"]["played"] == 5  # the counts are not paged
        seen += [e["table_id"] for e in page["recent"]]
        pages += 1
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == newest_first and pages == 3
    too_many = await _profile(server, ana.user["id"], None, ok=False, limit=51)
    assert too_many.status_code == 422 and too_many.json()["error"]["code"] == "invalid_request"
    first = await _profile(server, ana.user["id"], None, limit=2)
    # Not a cursor, a table's id, and another list's cursor (the leaderboard's shape and name differ).
    for bad_cursor in ("nonsense", secrets.token_hex(8), "eyJhIjoxfQ", first["next"][:-2]):
        bad = await _profile(server, ana.user["id"], None, ok=False, cursor=bad_cursor)
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_cursor", bad_cursor
    # A cursor is a place in the order, good for another player's list too: Ana's games are Ben's.
    assert (await _profile(server, ben.user["id"], None, limit=2, cursor=first["next"]))["recent"][0]["table_id"] == (
        newest_first[2])


async def test_an_unknown_player_is_not_found_and_an_account_says_so(server: Server) -> None:
    for unknown in (secrets.token_hex(8), "not-an-id", "x" * 16):
        r = await _profile(server, unknown, ok=False)
        assert r.status_code == 404
        assert r.json() == {"error": {"code": "not_found", "message": "No such player."}}
    (dee,) = await guests(server, "Dee")
    await dee.post("/api/auth/register", {"username": f"dee{secrets.token_hex(4)}", "password": "correct horse"})
    seen = await _profile(server, dee.user["id"])
    assert seen["user"]["registered"] is True and "username" not in seen["user"]
    assert seen["games"] == [] and seen["recent"] == [] and seen["totals"] == {"played": 0, "won": 0, "shared": 0}


async def test_an_abandoned_game_is_listed_but_not_counted(server: Server) -> None:
    """A game its players agreed to end has no result: it shows on the profile, marked, and counts for nothing."""
    ana, bo = await guests(server, "Ana", "Bo")
    await _tiny(ana, bo, (2, 1), server)
    t = await ana.table(seats=2, options={"target": 1000})
    await bo.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    proposal = (await ana.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes"})).json()["abandon"]
    ended = (await bo.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes", "proposal": proposal["id"]})).json()
    assert ended["abandoned"] is True and ended["status"] == "finished"

    mine = await _profile(server, ana.user["id"], ana)
    assert _counts(mine) == {"tiny": (1, 1, 0)} and mine["totals"]["played"] == 1
    newest, older = mine["recent"]
    assert newest["table_id"] == t["id"] and newest["abandoned"] is True
    assert newest["won"] is False and newest["place"] is None and newest["winners"] == []
    assert older["abandoned"] is False and older["won"] is True
    for who in (ana, bo):
        await who.close()
