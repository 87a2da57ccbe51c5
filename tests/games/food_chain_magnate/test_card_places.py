"""Every card is in exactly one place around restructuring: hand, structure, beach, busy or supply (issue 9).

A browser game showed an empty hand at the start of round 8 with kitchen trainees back in round 9; these
games check, at every step, that a round starts with every non-busy card in hand and that the reveal moves
exactly the hand into structure + beach.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.employees import initial_supply
from app.games.food_chain_magnate.players import active_seats
from tests.games import contract
from tests.games.food_chain_magnate.helpers import JSON, purposeful

AFTER_REVEAL = ("order_of_business", "working", "payday_firing", "payday_forced")


def _places(state: JSON) -> Counter[str]:
    out: Counter[str] = Counter({c: n for c, n in state["supply"].items() if n})
    for p in state["p"].values():
        out.update(p["hand"] + p["work"] + p["beach"] + [b["card"] for b in p["busy"]])
    return out


def check_places(before: JSON, after: JSON, events: list[JSON]) -> None:
    """Conservation and the zone each phase allows; across a reveal, the hand becomes structure + beach."""
    assert _places(after) == Counter({c: n for c, n in initial_supply(len(after["players"])).items() if n})
    for s in active_seats(after):
        p = after["p"][s]
        if after["phase"] == "restructuring":
            assert p["work"] == [] and p["beach"] == [], (s, after["round"])
        if after["phase"] in AFTER_REVEAL:
            assert p["hand"] == [], (s, after["round"], after["phase"])
        if before["phase"] == "restructuring" and after["phase"] != "restructuring" and not before["p"][s]["out"]:
            assert Counter(before["p"][s]["hand"]) == Counter(p["work"] + p["beach"]), (s, after["round"])
        if after["phase"] == "restructuring" and before["phase"] != "restructuring":
            # a new round: everything owned and not on a campaign comes home to the hand
            owned_before = before["p"][s]["hand"] + before["p"][s]["work"] + before["p"][s]["beach"]
            # marketeers back from ended campaigns (a fired busy marketeer leaves its campaign running)
            ended = {e["campaign"] for e in events if e["type"] == "campaign_ended" and e["player"] == s}
            placed = [e["campaign"] for e in events if e["type"] == "campaign_placed" and e["player"] == s]
            fired_busy = Counter(e["card"] for e in events if e["type"] == "fired" and e["player"] == s
                                 and e["from"] == "busy")
            left_busy = Counter(b["card"] for b in before["p"][s]["busy"] if b not in p["busy"])
            returning = left_busy - fired_busy + Counter(c["card"] for c in placed if c["number"] in ended)
            gained, lost = ledger(events, s)
            expected = Counter(owned_before) + returning + gained - lost
            assert Counter(p["hand"]) == expected, (s, after["round"])


def ledger(events: list[JSON], seat: str) -> tuple[Counter[str], Counter[str]]:
    """Cards the seat gained and lost in one step, read from its public events."""
    gained: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    for e in events:
        if e.get("player") != seat:
            continue
        if e["type"] == "hired" and not e.get("phantom"):
            gained[e["card"]] += 1
        elif e["type"] == "trained":
            gained[e["into"]] += 1
            if not e.get("phantom"):
                lost[e["from"]] += 1
        elif e["type"] == "free_cards":
            gained[e["card"]] += e["count"]
        elif e["type"] == "fired" and e.get("from") != "busy":
            lost[e["card"]] += 1
        elif e["type"] == "campaign_placed":
            lost[e["campaign"]["card"]] += 1  # busy now, until its campaign ends
    return gained, lost


def chooser(rnd: random.Random, bots: set[str]) -> object:
    def choose(state: JSON, player: str, legal: list[JSON]) -> JSON:
        if player in bots:
            return ENGINE.bot_action(ENGINE.view(state, player), player, rnd.randrange(1 << 30))
        if rnd.random() < 0.5:
            return rnd.choice(legal)
        return purposeful(state, player, legal, rnd)
    return choose


GAMES = [(n, 300 + 10 * n + k, False) for n in (2, 3, 4, 5) for k in range(4)] + [(3, 399, True)]


@pytest.mark.parametrize(("n", "seed", "intro"), GAMES)
def test_every_card_in_one_place_through_many_rounds(n: int, seed: int, intro: bool) -> None:
    rnd = random.Random(seed)
    state = ENGINE.new_game(contract.seats(n), seed, {"intro": intro})
    choose = chooser(rnd, {"0"} if n == 2 else {"0", "2"})
    rounds_seen = set()
    for _ in range(5_000):
        if ENGINE.outcome(state) is not None:
            break
        player = rnd.choice(ENGINE.awaiting(state))
        legal = ENGINE.actions(state, player)
        applied = ENGINE.apply(state, player, choose(state, player, legal))  # type: ignore[operator]
        new = applied.state
        check_places(state, new, applied.events)
        rounds_seen.add(new["round"])
        state = new
    assert len(rounds_seen) >= 5
