"""The replay's views: a live game's replay and move list show a spectator and an opponent nothing hidden; once the
game is over, each player's view (their hand as it was) at every step."""

from __future__ import annotations

import random
from typing import Any

import httpx

from app.games import GAMES
from app.services.record import redact_events
from tests.conftest import Server
from tests.games.contract import canonical, seats
from tests.hardening.helpers import close_all, guests, moves, table_state
from tests.hardening.test_hidden_info import _twin_food_truck_champion
from tests.platform.client import Socket

GAME = "food-truck-champion"
LIVE_MOVES = 14


async def _play(socks: dict[str, Socket], rnd: random.Random, count: int) -> None:
    """The two players make `count` random legal moves between them, each answered before the next."""
    made = 0
    while made < count:
        acted = False
        for seat, sock in socks.items():
            latest = sock.latest
            if latest is None or seat not in latest["awaiting"] or not latest["actions"]:
                continue
            reply = await sock.act(rnd.choice(latest["actions"]))
            assert reply["type"] == "ack", reply
            for other in socks.values():
                await other.until_version(reply["version"])
            made += 1
            acted = True
            break
        assert acted, "nobody could move"


async def _replay(client: httpx.AsyncClient, tid: str, step: int, seat: str | None = None) -> httpx.Response:
    params: dict[str, Any] = {"step": step}
    if seat is not None:
        params["seat"] = seat
    return await client.get(f"/api/tables/{tid}/replay", params=params)


async def test_a_live_replay_shows_nothing_hidden_and_a_finished_one_each_hand(server: Server) -> None:
    ana, bo = await guests(server, "Ana", "Bo")
    tid = (await ana.table(game=GAME, seats=2))["id"]
    await bo.post(f"/api/tables/{tid}/join", {})
    socks = {"0": await Socket.open(server.ws_url, tid, ana.token), "1": await Socket.open(server.ws_url, tid, bo.token)}
    for sock in socks.values():
        await sock.expect("snapshot")
    await ana.post(f"/api/tables/{tid}/start")
    for sock in socks.values():
        await sock.expect("update")
    await _play(socks, random.Random(39), LIVE_MOVES)

    # While the game runs: what an opponent (Bo, about Ana's hand) and a spectator get from the replay and the list.
    live: dict[str, list[dict[str, Any]]] = {"opponent": [], "spectator": []}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as anon:
        for who, client in (("opponent", bo.http), ("spectator", anon)):
            for step in range(LIVE_MOVES + 1):
                r = await _replay(client, tid, step)
                assert r.status_code == 200, r.text
                live[who].append(r.json())
        assert (await _replay(anon, tid, LIVE_MOVES + 1)).json()["error"]["code"] == "bad_step"
        # No player's own view while it runs, not even one's own: the replay is the same for everyone.
        for client, seat in ((bo.http, "0"), (ana.http, "0"), (bo.http, "1"), (anon, "0")):
            r = await _replay(client, tid, 3, seat)
            assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over", r.text
        listed_live = {"opponent": await moves(server, tid, bo.token), "spectator": await moves(server, tid)}

    # The players end it by agreement: the seed is revealed and every move can be replayed here.
    for p in (ana, bo):
        await p.post(f"/api/tables/{tid}/abandon", {"vote": "yes"})
    final = await table_state(server, tid)
    assert final["status"] == "finished" and final["seed"] is not None
    full = await moves(server, tid)
    assert len(full) == LIVE_MOVES
    game = GAMES[GAME]
    states = [game.new_game(seats(2), final["seed"], final["options"])]
    for m in full:
        states.append(game.apply(states[-1], m["seat"], m["action"]).state)

    rnd = random.Random(7)
    hidden_somewhere = 0
    for who in ("opponent", "spectator"):
        for step, answer in enumerate(live[who]):
            state = states[step]
            assert answer["step"] == step and answer["seat"] is None
            assert canonical(answer["view"]) == canonical(game.view(state, None))
            # Indistinguishable from a state that differs only in what nobody at the table may see of another.
            twin = _twin_food_truck_champion(state, seats(2), None, rnd)
            assert canonical(answer["view"]) == canonical(game.view(twin, None))
            hidden_somewhere += canonical(game.view(state, "0")) != canonical(answer["view"])
            expected = redact_events(full[step - 1]["events"], None, False) if step else []
            assert answer["events"] == expected
        for m, shown in zip(full, listed_live[who], strict=True):
            viewer = "1" if who == "opponent" else None
            assert shown["action"] is None if m["seat"] == "0" or who == "spectator" else shown["action"] == m["action"]
            assert shown["events"] == redact_events(m["events"], viewer, False)
    assert hidden_somewhere, "Ana's view never differed from the spectator's: the test proves nothing"

    # After the end: each player's view at each step (their hand as it was), to anyone who may see the table.
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as anon:
        for client in (ana.http, anon):
            for step in (0, 5, LIVE_MOVES):
                for seat in ("0", "1"):
                    r = await _replay(client, tid, step, seat)
                    assert r.status_code == 200, r.text
                    assert r.json()["seat"] == seat
                    assert canonical(r.json()["view"]) == canonical(game.view(states[step], seat))
                    assert r.json()["events"] == (full[step - 1]["events"] if step else [])
        for seat in ("2", "", "x" * 9):
            r = await _replay(anon, tid, 1, seat)
            assert r.status_code == 422 and r.json()["error"]["code"] in ("bad_seat", "invalid_request"), r.text
    await close_all(*socks.values(), ana, bo)


async def test_a_replay_of_a_table_not_started_names_why(server: Server) -> None:
    (ana,) = await guests(server, "Ana")
    tid = (await ana.table(game=GAME, seats=2))["id"]
    r = await _replay(ana.http, tid, 0, "0")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    await close_all(ana)


async def test_a_step_beyond_any_game_is_refused_in_the_servers_own_words(server: Server) -> None:
    """A step past any SQL integer is refused before it reaches the database, which would overflow on it."""
    ana, ben = await guests(server, "Ana", "Ben")
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    for step in (2**31, 2**63, 10**30):
        r = await ana.http.get(f"/api/tables/{t['id']}/replay", params={"step": step})
        assert r.status_code == 422 and r.json()["error"]["code"] and r.json()["error"]["message"], r.text
    assert (await ana.http.get(f"/api/tables/{t['id']}/replay", params={"step": 0})).status_code == 200
    await close_all(ana, ben)
