"""Ending a running game by agreement: one player proposes, every other player whose seat no bot plays agrees."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import Database, Server
from tests.platform.client import Player, Socket


async def _started(
    server: Server, names: tuple[str, ...] = ("Ana", "Ben", "Cy"), visibility: str = "public", **options: Any
) -> tuple[list[Player], str]:
    """The first player hosts a tiny game for all of them, started; a long one unless `options` say otherwise."""
    players = [await Player.guest(server.url, n) for n in names]
    t = await players[0].table(seats=len(players), visibility=visibility, options={"target": 1000, **options})
    code = {"invite_code": t["invite_code"]} if visibility == "private" else {}
    for who in players[1:]:
        await who.post(f"/api/tables/{t['id']}/join", code)
    refused = await players[0].post(f"/api/tables/{t['id']}/abandon", {"vote": "yes"}, ok=False)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_playing"  # not started yet
    await players[0].post(f"/api/tables/{t['id']}/start")
    return players, t["id"]


async def vote(who: Player, tid: str, vote: Any, proposal: Any = None, status: int = 200) -> dict[str, Any]:
    """A vote's answer: the table, or the error's body when `status` says it is refused."""
    body: dict[str, Any] = {"vote": vote} if proposal is None else {"vote": vote, "proposal": proposal}
    r = await who.post(f"/api/tables/{tid}/abandon", body, ok=False)
    assert r.status_code == status, r.text
    return dict(r.json()) if status == 200 else dict(r.json()["error"])


async def test_when_every_player_agrees_the_game_ends_abandoned_with_no_winner(server: Server) -> None:
    (ana, ben, cy), tid = await _started(server)
    dee = await Player.guest(server.url, "Dee")  # watching
    sb = await Socket.open(server.ws_url, tid, ben.token)
    v = (await sb.expect("snapshot"))["version"]

    # Refusals change nothing.
    assert (await vote(dee, tid, "yes", status=403))["code"] == "not_seated"
    async with httpx.AsyncClient(base_url=server.url) as anon:
        assert (await anon.post(f"/api/tables/{tid}/abandon", json={"vote": "yes"})).status_code == 401
    assert (await vote(ana, tid, "maybe", status=422))["code"] == "bad_vote"
    assert (await vote(ana, tid, None, status=422))["code"] == "bad_vote"
    assert (await vote(ana, tid, "yes", proposal="1", status=422))["code"] == "bad_proposal"
    assert (await vote(ana, tid, "yes", proposal=v, status=409))["code"] == "no_proposal"  # none is open
    assert (await vote(ben, tid, "no", status=409))["code"] == "no_proposal"
    assert (await ana.http.get(f"/api/tables/{tid}")).json()["version"] == v

    # Ana proposes: everyone sees it, with whose say it still needs.
    table = await vote(ana, tid, "yes")
    proposal = {"id": v + 1, "by": "0", "yes": ["0"], "waiting": ["1", "2"]}
    assert table["abandon"] == proposal and table["status"] == "playing" and table["version"] == v + 1
    seen = await sb.until_version(v + 1)
    assert seen["table"]["abandon"] == proposal
    assert {"type": "abandon_proposed", "seat": "0", "name": "Ana", "visible_to": None} in seen["events"]
    assert (await vote(ana, tid, "yes", status=409))["code"] == "already_voted"
    assert (await vote(ben, tid, "yes", proposal=v + 7, status=409))["code"] == "no_proposal"

    # Play goes on meanwhile, and a move leaves the proposal open.
    assert (await sb.act({"type": "pick", "n": 1}))["type"] == "ack"
    assert (await ana.http.get(f"/api/tables/{tid}")).json()["abandon"] == {**proposal, "id": v + 1}

    table = await vote(ben, tid, "yes", proposal=v + 1)
    assert table["abandon"]["yes"] == ["0", "1"] and table["abandon"]["waiting"] == ["2"]
    assert table["my_seat"] == "1"
    done = await vote(cy, tid, "yes")
    assert done["status"] == "finished" and done["abandoned"] is True
    assert done["outcome"] is None and done["awaiting"] == [] and done["abandon"] is None
    assert done["seed"] is not None  # over, so the seed is revealed as for any finished game
    last = await sb.until_version(done["version"])
    assert last["table"]["abandoned"] is True and last["actions"] == [] and last["awaiting"] == []
    kinds = [e["type"] for e in last["events"]]
    assert kinds[-2:] == ["abandon_agreed", "abandoned"]

    # Over: no more votes, no more moves.
    assert (await vote(cy, tid, "yes", status=409))["code"] == "not_playing"
    assert (await sb.act({"type": "pick", "n": 2}))["code"] == "not_playing"

    # Its moves stay viewable, in full now; the replay and the seed check see the game as it was left.
    moves = (await dee.http.get(f"/api/tables/{tid}/moves")).json()["moves"]
    assert len(moves) == 1 and moves[0]["action"] == {"type": "pick", "n": 1}
    replay = (await dee.http.get(f"/api/tables/{tid}/replay", params={"step": 1})).json()
    # (a replay shows each step as a spectator saw it, here as of any game's replay: a secret pick stays hidden)
    assert replay["total"] == 1 and replay["view"]["picks"]["1"] == "hidden"
    checked = (await dee.http.get(f"/api/tables/{tid}/verify")).json()
    assert checked["ok"] is True and checked["abandoned"] is True and "abandoned" in checked["detail"]

    # Listed among finished games, marked abandoned, in the lobby and in each player's tables.
    listed = (await dee.http.get("/api/tables", params={"status": "finished"})).json()["tables"]
    assert [x["abandoned"] for x in listed if x["id"] == tid] == [True]
    mine = (await cy.http.get("/api/me/tables")).json()["tables"]
    assert [(x["status"], x["abandoned"]) for x in mine if x["id"] == tid] == [("finished", True)]
    playing = (await dee.http.get("/api/tables", params={"status": "playing"})).json()["tables"]
    assert tid not in [x["id"] for x in playing]

    # The players may play again.
    again = (await ben.post(f"/api/tables/{tid}/rematch")).json()
    assert again["status"] == "open" and again["abandoned"] is False and again["seats"][1]["user"]["name"] == "Ben"
    assert (await ana.post(f"/api/tables/{tid}/rematch")).json()["id"] == again["id"]
    await sb.close()
    for who in (ana, ben, cy, dee):
        await who.close()


async def test_one_no_ends_the_proposal_and_another_may_follow(server: Server) -> None:
    (ana, ben), tid = await _started(server, ("Ana", "Ben"))
    sa = await Socket.open(server.ws_url, tid, ana.token)
    await sa.expect("snapshot")
    opened = await vote(ana, tid, "yes")
    declined = await vote(ben, tid, "no", proposal=opened["abandon"]["id"])
    assert declined["abandon"] is None and declined["status"] == "playing" and declined["abandoned"] is False
    seen = await sa.until_version(declined["version"])
    assert seen["table"]["abandon"] is None
    assert {"type": "abandon_declined", "seat": "1", "name": "Ben", "visible_to": None, "withdrawn": False} in (
        seen["events"])
    # A "yes" that answered the proposal just declined opens no new one.
    assert (await vote(ana, tid, "yes", proposal=opened["abandon"]["id"], status=409))["code"] == "no_proposal"
    assert (await vote(ben, tid, "no", status=409))["code"] == "no_proposal"

    # Ben proposes in turn, then thinks better of it: his own "no" withdraws it.
    second = await vote(ben, tid, "yes")
    assert second["abandon"]["by"] == "1" and second["abandon"]["waiting"] == ["0"]
    withdrawn = await vote(ben, tid, "no")
    assert withdrawn["abandon"] is None and withdrawn["status"] == "playing"
    seen = await sa.until_version(withdrawn["version"])
    assert seen["events"][-1]["type"] == "abandon_declined" and seen["events"][-1]["withdrawn"] is True
    # The game goes on.
    assert (await sa.act({"type": "pick", "n": 0}))["type"] == "ack"
    await sa.close()
    for who in (ana, ben):
        await who.close()


async def test_a_player_a_bot_stands_in_for_keeps_their_say_until_away_the_full_wait(
    fresh_db: Database, tmp_path: Path
) -> None:
    # The wait is long enough for the steps before it to finish within it on a loaded machine; the test then moves
    # the server's clock past it.
    server = Server(fresh_db, tmp_path, BOT_DELAY="0.05", STAND_IN_AFTER="60").start()
    try:
        # Unrated, so the host may hand a seat to a bot at once (at a rated table they wait like anyone)...
        (ana, ben, cy), tid = await _started(server, visibility="private")
        await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})
        # ...but that does not take Ben's say: he stepped out a moment ago, and the game is not ended behind his back.
        proposed = await vote(ana, tid, "yes")
        assert proposed["abandon"]["waiting"] == ["1", "2"]
        assert (await vote(cy, tid, "yes"))["abandon"]["waiting"] == ["1"]
        assert (await vote(ana, tid, "yes", status=409))["code"] == "already_voted"
        # Ben, back and still played by the bot, says no: the proposal is over.
        declined = await vote(ben, tid, "no")
        assert declined["abandon"] is None and declined["status"] == "playing"

        # Proposed again; once Ben has been away the full stand-in wait, his say is no longer needed, and the next
        # "yes" (the proposer's again) finds the proposal agreed.
        await vote(ana, tid, "yes")
        sc = await Socket.open(server.ws_url, tid, cy.token)
        await sc.expect("snapshot")
        waiting = await vote(cy, tid, "yes")
        assert waiting["abandon"]["waiting"] == ["1"]
        assert (await vote(ana, tid, "yes", status=409))["code"] == "already_voted"  # Ben stepped out just now
        await server.advance(60)
        # The proposal says so at once, on the server's clock, before any vote finds it.
        assert (await ana.http.get(f"/api/tables/{tid}")).json()["abandon"]["waiting"] == []
        done = await vote(ana, tid, "yes")
        assert done["status"] == "finished" and done["abandoned"] is True and done["outcome"] is None
        seen = await sc.until_version(done["version"])
        assert [e["type"] for e in seen["events"]][-1] == "abandoned"
        # Over: nobody hands seats to bots or takes them back any more.
        assert (await ben.post(f"/api/tables/{tid}/reclaim", ok=False)).json()["error"]["code"] == "not_playing"
        refused = await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "2"}, ok=False)
        assert refused.json()["error"]["code"] == "not_playing"
        await sc.close()
        for who in (ana, ben, cy):
            await who.close()
    finally:
        server.stop()


async def test_a_stand_in_called_after_the_full_wait_takes_the_say_at_once(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, BOT_DELAY="0.05", STAND_IN_AFTER="1").start()
    try:
        (ana, ben), tid = await _started(server, ("Ana", "Ben"))
        # Both are awaited (a secret pick each); Ana picks, and the table then waits on Ben alone.
        sa = await Socket.open(server.ws_url, tid, ana.token)
        await sa.expect("snapshot")
        assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
        await vote(ana, tid, "yes")
        await server.advance(1.2)  # the table has waited the full stand-in wait on Ben
        done = (await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})).json()
        assert done["status"] == "finished" and done["abandoned"] is True
        await sa.close()
        for who in (ana, ben):
            await who.close()
    finally:
        server.stop()


async def test_bots_from_the_start_have_no_say_and_stop_playing_an_abandoned_game(
    fresh_db: Database, tmp_path: Path
) -> None:
    # The bots wait far longer than the test takes, until the test moves the server's clock.
    server = Server(fresh_db, tmp_path, BOT_DELAY="60").start()
    try:
        ana = await Player.guest(server.url, "Ana")
        tables = []
        for _ in range(2):  # the first is abandoned; the second, played on, shows when the bots have had their turn
            t = await ana.table(seats=3, options={"target": 1000})
            for seat in ("1", "2"):
                await ana.post(f"/api/tables/{t['id']}/bots", {"seat": seat})
            started = (await ana.post(f"/api/tables/{t['id']}/start")).json()
            assert started["awaiting"] == ["0", "1", "2"]
            tables.append(started)
        t, control = tables
        # Alone with bots, Ana's proposal is agreed at once, before the bots have made their picks.
        done = await vote(ana, t["id"], "yes")
        assert done["status"] == "finished" and done["abandoned"] is True
        deadline = asyncio.get_running_loop().time() + 15
        for delays in range(1, 3):  # two bot delays: time for a bot to pick at either table, twice over
            await server.advance(60)
            while (await ana.http.get(f"/api/tables/{control['id']}")).json()["version"] < control["version"] + delays:
                assert asyncio.get_running_loop().time() < deadline, "the bots at the table played on never moved"
                await asyncio.sleep(0.05)
        after = (await ana.http.get(f"/api/tables/{t['id']}")).json()
        assert after["version"] == done["version"] and after["move_count"] == done["move_count"]
        await ana.close()
    finally:
        server.stop()


async def test_the_games_own_end_ends_an_open_proposal(server: Server) -> None:
    (ana, ben), tid = await _started(server, ("Ana", "Ben"), target=1)
    sa, sb = [await Socket.open(server.ws_url, tid, who.token) for who in (ana, ben)]
    for sock in (sa, sb):
        await sock.expect("snapshot")
    proposed = await vote(ana, tid, "yes")
    for sock in (sa, sb):
        assert (await sock.act({"type": "pick", "n": 1}))["type"] == "ack"
    latest = await sa.until_version(proposed["version"] + 2)
    while latest["table"]["status"] == "playing":
        seat = latest["awaiting"][0]
        assert (await {"0": sa, "1": sb}[seat].act({"type": "bump"}))["type"] == "ack"
        latest = await sa.until_version(latest["version"] + 1)
    table = latest["table"]
    assert table["abandoned"] is False and table["abandon"] is None and table["outcome"]["winners"]
    assert (await vote(ben, tid, "yes", status=409))["code"] == "not_playing"
    fresh = (await ben.http.get(f"/api/tables/{tid}")).json()
    assert fresh["abandon"] is None and fresh["status"] == "finished"
    for sock in (sa, sb):
        await sock.close()
    for who in (ana, ben):
        await who.close()
