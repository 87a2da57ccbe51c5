"""Hidden information, from two sides.

1. Indistinguishability, for every engine over random states: a twin of the state
   that differs only in what a viewer may not know (the generator, deck order, other
   seats' hands, face-down cards, secret choices in progress) gives that viewer a
   byte-identical view. The twins are made here, independently of the engines' own tests.
2. The wire: a real food-truck game (the host's seat played over a socket, two bot
   seats) watched by a spectator socket. After the end the game is replayed from the
   revealed seed and the stored moves, and every frame each socket received is
   checked against it: the view is exactly the engine's view for that socket,
   events are only the ones it may see, and no seed, generator state or deck order
   appears anywhere before the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, cast

import httpx
import pytest

from app.games import GAMES
from app.games.base import Game
from tests.conftest import Server
from tests.games.contract import canonical, seats
from tests.hardening.helpers import SCALE, close_all, guests, moves, table_state
from tests.platform.client import Socket

JSON = dict[str, Any]
TRIED: Counter[str] = Counter()
STEP_CAP = {"food-chain-magnate": 300}
# Share of steps at which twins are checked (long games get a smaller share).
CHECK_RATE = {"food-truck-champion": 0.02, "food-chain-magnate": 0.05}


def _others(state: JSON, players: list[str], viewer: str | None) -> list[str]:
    return [p for p in players if p != viewer]


def _twin_food_truck(state: JSON, players: list[str], viewer: str | None, rnd: random.Random) -> JSON:
    s = copy.deepcopy(state)
    rnd.shuffle(s["central_deck"])
    for p in players:
        me = s["seats"][p]
        rnd.shuffle(me["truck_pile"])
        if p != viewer and s["phase"] != "prep":
            rnd.shuffle(me["draw_pile"])
            if me["hand"] and me["draw_pile"]:
                # Which of the seat's cards are in hand and which in the pile is theirs to know.
                i, j = rnd.randrange(len(me["hand"])), rnd.randrange(len(me["draw_pile"]))
                me["hand"][i], me["draw_pile"][j] = me["draw_pile"][j], me["hand"][i]
    return s


def _twin_food_truck_champion(state: JSON, players: list[str], viewer: str | None, rnd: random.Random) -> JSON:
    s = copy.deepcopy(state)
    if s["phase"] == "over":
        return s
    rnd.shuffle(s["deck"])
    others = _others(s, players, viewer)
    for p in others:
        board = s["boards"][p]
        if board["hand"] and s["deck"]:
            # A card of this hand and a card of the deck change places: the same counts, other cards.
            i, j = rnd.randrange(len(board["hand"])), rnd.randrange(len(s["deck"]))
            board["hand"][i], s["deck"][j] = s["deck"][j], board["hand"][i]
        rnd.shuffle(board["completed"])
    holders = [p for p in others if s["boards"][p]["tokens"]]
    if len(holders) >= 2:
        a, b = rnd.sample(holders, 2)
        ta, tb = s["boards"][a]["tokens"], s["boards"][b]["tokens"]
        ta[0], tb[0] = tb[0], ta[0]
    critique = (s.get("round") or {}).get("critique")
    if critique:
        picked = [p for p in others if critique.get(p) is not None]
        if len(picked) >= 2:
            a, b = rnd.sample(picked, 2)
            critique[a], critique[b] = critique[b], critique[a]
    return s


def _twin_foodies(state: JSON, players: list[str], viewer: str | None, rnd: random.Random) -> JSON:
    s = copy.deepcopy(state)
    rnd.shuffle(s["deck"])
    for seat, choice in s["flyer_choices"].items():
        if seat != viewer and choice.get("decided"):
            choice["space"] = rnd.choice([None, 1, 2, 3, 4, 5, 6])
    return s


def _twin_food_chain_magnate(state: JSON, players: list[str], viewer: str | None, rnd: random.Random) -> JSON:
    s = copy.deepcopy(state)
    sees_all = s["reserves_revealed"] or s["phase"] == "over" or (
        viewer is not None and "first_to_have_20" in (s["p"][viewer].get("milestones") or {}))
    if not sees_all:
        for p in _others(s, players, viewer):
            if s["p"][p]["reserve"] is not None:
                s["p"][p]["reserve"] = rnd.choice(["reserve_100", "reserve_200", "reserve_300"])
    secret = s.get("secret") or {}
    hidden = [p for p in secret if p != viewer]
    if len(hidden) >= 2:
        a, b = rnd.sample(hidden, 2)
        done_a, done_b = secret[a].get("done"), secret[b].get("done")
        secret[a], secret[b] = {**secret[b], "done": done_a}, {**secret[a], "done": done_b}
    return s


TWINS: dict[str, Callable[[JSON, list[str], str | None, random.Random], JSON]] = {
    "food-truck": _twin_food_truck,
    "food-truck-champion": _twin_food_truck_champion,
    "foodies": _twin_foodies,
    "food-chain-magnate": _twin_food_chain_magnate,
}


# The site's games, as registered when the tests are collected (servers in the test process add a test game later).
GAME_IDS = sorted(GAMES)


def test_every_registered_game_has_a_twin_maker() -> None:
    assert set(GAME_IDS) <= set(TWINS), set(GAME_IDS) - set(TWINS)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_of_twins_differing_only_in_hidden_information_are_identical(game_id: str) -> None:
    game: Game = GAMES[game_id]
    make_twin = TWINS[game_id]
    rnd = random.Random(game_id)
    for n in [n for n in range(game.min_players, game.max_players + 1) for _ in range(SCALE)]:
        players = seats(n)
        state = game.new_game(players, rnd.randrange(2**32))
        for _step in range(STEP_CAP.get(game_id, 10_000)):
            if rnd.random() < CHECK_RATE.get(game_id, 0.1):
                for viewer in [None, *players]:
                    twin = make_twin(state, players, viewer, rnd)
                    if "rng" in twin:
                        twin["rng"] = rnd.randrange(2**63)
                    assert canonical(game.view(state, viewer)) == canonical(game.view(twin, viewer)), (
                        game_id, n, _step, viewer)
                    TRIED[game_id] += 1
            if game.outcome(state) is not None:
                break
            player = rnd.choice(game.awaiting(state))
            state = game.apply(state, player, rnd.choice(game.actions(state, player))).state


class RecordingSocket(Socket):
    """A table socket that also keeps every frame as it came over the wire."""

    def __init__(self, ws: Any) -> None:
        self.frames: list[str] = []
        super().__init__(ws)

    async def _read(self) -> None:
        original = self.ws.recv

        async def recording_recv(*args: Any, **kw: Any) -> Any:
            raw = await original(*args, **kw)
            self.frames.append(raw if isinstance(raw, str) else raw.decode())
            return raw

        self.ws.recv = recording_recv
        await super()._read()


async def _play_seat(sock: Socket, seat: str, rnd: random.Random, timeout: float = 60) -> None:
    """Play the seat's turns (random legal moves) until the table is finished."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        latest = sock.latest
        if latest is not None and latest["table"]["status"] == "finished":
            return
        if latest is not None and seat in latest["awaiting"] and latest["actions"]:
            # At most 20 messages a second: the server's rate limit (a throttled act gets no answer).
            await asyncio.sleep(0.05)
            reply = await sock.act(rnd.choice(latest["actions"]), expected_version=latest["version"])
            if reply["type"] == "error":
                assert reply["code"] in ("stale_version", "not_your_turn"), reply
                await sock.until_version(latest["version"] + 1)
            else:
                await sock.until_acked(reply)
            continue
        sock.changed.clear()
        if sock.latest is latest:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(sock.changed.wait(), 1)
    raise AssertionError(f"the game did not finish in time: {sock.latest and {k: sock.latest[k] for k in ('version', 'awaiting', 'actions')} }")


async def _rest_mid_game(server: Server, tid: str, token: str, spectator: Socket) -> JSON:
    """Mid-game (20 moves in), what REST tells a spectator and the host: moves and a replay step."""
    await spectator.until_version((spectator.latest or {"version": 0})["version"] + 20, timeout=60)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as anon:
        moves_spectator = (await anon.get(f"/api/tables/{tid}/moves")).json()["moves"]
        step = min(20, len(moves_spectator))
        replay = (await anon.get(f"/api/tables/{tid}/replay", params={"step": step})).json()
    async with httpx.AsyncClient(base_url=server.url, timeout=30,
                                 headers={"Authorization": f"Bearer {token}"}) as host:
        moves_host = (await host.get(f"/api/tables/{tid}/moves")).json()["moves"]
    return {"moves_spectator": moves_spectator, "moves_host": moves_host, "replay": replay, "step": step}


def _frames_by_version(frames: list[str]) -> list[JSON]:
    return [m for m in (json.loads(f) for f in frames) if m.get("type") in ("snapshot", "update", "draft")]


def _with_drafts(game: Any, state: JSON, viewer: str | None, msg: JSON, listed: list[JSON], seq: int) -> JSON:
    """The state the viewer's frame shows: the table's, with the viewer's drafts at that time, which are the first
    steps of the viewer's next move (this test never takes a step back)."""
    drafts = msg.get("draft", 0)
    if not drafts:
        return state
    carrying = next(m for m in listed if m["seq"] > seq and m["seat"] == viewer)
    for step in carrying["steps"][:drafts]:
        state = game.apply(state, viewer, step).state
    return state


async def test_no_frame_of_a_real_game_carries_hidden_information(server: Server) -> None:
    game = GAMES["food-truck"]
    (host,) = await guests(server, "Host")
    t = await host.table(game="food-truck", seats=3, options={"trucks": "random"})
    tid = t["id"]
    for seat in ("1", "2"):
        await host.post(f"/api/tables/{tid}/bots", {"seat": seat})
    seated = cast(RecordingSocket, await RecordingSocket.open(server.ws_url, tid, host.token))
    spectator = cast(RecordingSocket, await RecordingSocket.open(server.ws_url, tid))
    await seated.expect("snapshot")
    await spectator.expect("snapshot")
    await host.post(f"/api/tables/{tid}/start")
    probe = asyncio.ensure_future(_rest_mid_game(server, tid, host.token, spectator))
    await _play_seat(seated, "0", random.Random(7))
    mid = await probe
    final = await table_state(server, tid, host.token)
    await spectator.until_version(final["version"])
    assert final["status"] == "finished" and final["seed"] is not None
    # Replay the game from the revealed seed and the (now unredacted) moves: the state at every version.
    listed = await moves(server, tid)
    players = seats(3)
    state = game.new_game(players, final["seed"], final["options"])
    first = final["version"] - len(listed)
    states = {first: state}
    for m in listed:
        for step in m["steps"] or ():
            state = game.apply(state, m["seat"], step).state
        state = game.apply(state, m["seat"], m["action"]).state
        states[first + m["seq"]] = state
    assert game.outcome(state) is not None
    secrets = [str(final["seed"])]
    for viewer, sock in (("0", seated), (None, spectator)):
        checked = 0
        for msg in _frames_by_version(sock.frames):
            v = msg["version"]
            if v < first:
                assert msg["view"] is None
                continue
            running = v < final["version"]
            seen = _with_drafts(game, states[v], viewer, msg, listed, v - first)
            expected = game.view(seen, viewer)
            assert canonical(msg["view"]) == canonical(expected), (viewer, v)
            if viewer is not None and viewer in msg["awaiting"]:
                assert canonical(msg["actions"]) == canonical(game.actions(seen, viewer))
            else:
                assert msg["actions"] == []
            for ev in msg.get("events", []):
                assert not running or ev["visible_to"] is None or viewer in ev["visible_to"], (viewer, ev)
            if running and "table" in msg:
                assert msg["table"]["seed"] is None
                # The view itself was compared with game.view just above, and views are proven blind to
                # hidden information by the indistinguishability tests in this file; scanning it for pile
                # orders would flag a pile that happens to be in the order of the public collection.
                text = json.dumps({key: value for key, value in msg.items() if key != "view"})
                hidden = [str(states[v]["rng"]), *secrets]
                deck = states[v]["central_deck"]
                if len(deck) >= 4:
                    hidden.append(json.dumps(deck)[1:-1])
                for p in players:
                    if p != viewer and len(states[v]["seats"][p]["draw_pile"]) >= 4:
                        hidden.append(json.dumps(states[v]["seats"][p]["draw_pile"])[1:-1])
                leaked = [h for h in hidden if h in text]
                assert not leaked, (viewer, v, leaked)
                assert '"rng"' not in text and '"central_deck"' not in text
            checked += 1
        TRIED[f"frames to {'spectator' if viewer is None else 'seat ' + viewer}"] += checked
        assert checked >= len(listed) // 2, (viewer, checked, len(listed))
    # What REST told the spectator and the host mid-game.
    mid_text = json.dumps(mid)
    assert str(final["seed"]) not in mid_text and '"rng"' not in mid_text and '"central_deck"' not in mid_text
    step = mid["step"]
    assert canonical(mid["replay"]["view"]) == canonical(game.view(states[first + step], None))
    assert all(e["visible_to"] is None for e in mid["replay"]["events"])
    for who, listed_then in (("spectator", mid["moves_spectator"]), ("0", mid["moves_host"])):
        for m in listed_then:
            mine = who == m["seat"]
            assert (m["action"] is not None) == mine, (who, m)
            assert all(e["visible_to"] is None or who in e["visible_to"] for e in m["events"]), (who, m)
            if mine:
                assert m["action"] == listed[m["seq"] - 1]["action"]
    TRIED["REST answers mid-game"] += 3
    await close_all(seated, spectator, host)
