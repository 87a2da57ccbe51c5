"""Phase 1, the Foodie Visit: the roll, the 0 face, flyers, and every player collecting (spec 5.1)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.foodies.court import stall_at, stars_of
from app.games.foodies.data import DIE_FACES, SPACES
from app.games.foodies.effects import EFFECTS
from app.games.foodies.rewards import gain
from app.games.rng import Rng
from app.games.toolkit import JSON

CHOOSABLE_FACES = [face for face in DIE_FACES if face in SPACES]


def turn_order_from_active(state: JSON) -> list[str]:
    """All seats in turn order, starting with the active player."""
    seats = state["seats"]
    i = seats.index(state["active"])
    return seats[i:] + seats[:i]


def roll(state: JSON, events: list[JSON]) -> None:
    """Roll the ten-sided die; a 0 lets the active player choose the face."""
    rng = Rng(state["rng"])
    face = DIE_FACES[rng.below(len(DIE_FACES))]
    state["rng"] = rng.state
    state["die"] = face
    events.append({"type": "rolled", "seat": state["active"], "face": face, "visible_to": None})
    if face in SPACES:
        open_visit(state, face, events)
    else:
        state["phase"] = "choose_face"


def choose_face(state: JSON, face: int, events: list[JSON]) -> None:
    """After a 0, turn the die to any face 1-9."""
    if face not in CHOOSABLE_FACES:
        raise IllegalAction("bad_face", "Choose a face from 1 to 9.")
    state["die"] = face
    events.append({"type": "face_chosen", "seat": state["active"], "face": face, "visible_to": None})
    open_visit(state, face, events)


def keep_zero(state: JSON, events: list[JSON]) -> None:
    """Leave the die on 0: no space is visited, nobody collects (ruling A13)."""
    state["visited"] = None
    state["last_visit"] = {"face": 0, "visited": None, "collections": {}}
    events.append({"type": "zero_kept", "seat": state["active"], "visible_to": None})
    state["phase"] = "buy"


def open_visit(state: JSON, visited: int, events: list[JSON]) -> None:
    """Fix the visited number; wait for flyer decisions of every seat holding a flyer."""
    state["visited"] = visited
    deciders = [s for s in state["seats"] if state["players"][s]["flyers"] > 0]
    if not deciders:
        pay_out(state, events)
        return
    state["flyer_choices"] = {s: {"decided": False, "space": None} for s in deciders}
    state["phase"] = "flyers"


def flyer_targets(state: JSON) -> list[int]:
    """The spaces a flyer can redirect this visit to: orthogonal neighbours of the visited number."""
    return SPACES[state["visited"]].adjacent()


def decide_flyer(state: JSON, seat: str, space: int | None, events: list[JSON]) -> None:
    """Record one seat's secret flyer decision; pay out once all are in."""
    if space is not None and space not in flyer_targets(state):
        raise IllegalAction("not_adjacent",
                            f"A flyer only reaches a space next to {state['visited']} (not diagonally).")
    state["flyer_choices"][seat] = {"decided": True, "space": space}
    events.append({"type": "flyer_chosen", "seat": seat, "space": space, "visible_to": [seat]})
    if all(choice["decided"] for choice in state["flyer_choices"].values()):
        reveal = {s: c["space"] for s, c in state["flyer_choices"].items()}
        events.append({"type": "flyers_revealed", "choices": reveal, "visible_to": None})
        pay_out(state, events)


def pay_out(state: JSON, events: list[JSON]) -> None:
    """Every player collects from their collection space, then the buy phase begins."""
    visited = state["visited"]
    collections: dict[str, JSON] = {}
    for seat in turn_order_from_active(state):
        choice = state["flyer_choices"].get(seat)
        space = visited
        if choice is not None and choice["space"] is not None:
            # the flyer is discarded before collecting (the Thai effect counts what is left)
            state["players"][seat]["flyers"] -= 1
            space = choice["space"]
        collections[seat] = collect(state, seat, space, space != visited, events)
    state["flyer_choices"] = {}
    state["last_visit"] = {"face": state["die"], "visited": visited, "collections": collections}
    state["phase"] = "buy"


def collect(state: JSON, seat: str, space: int, by_flyer: bool, events: list[JSON]) -> JSON:
    """One player collects from one space of their own court (spec 5.1.3); returns the totals."""
    player = state["players"][seat]
    parts: list[JSON] = []
    parts += collect_tokens(state, seat, space, events)
    stall = stall_at(player["court"], space)
    if stall is not None:
        parts += collect_stall(state, seat, space, events)
    elif SPACES[space].printed_coins:
        coins = SPACES[space].printed_coins
        gain(state, seat, events, coins=coins)
        parts.append({"source": "printed", "coins": coins, "popularity": 0, "flyers": 0})
    totals = {key: sum(p[key] for p in parts) for key in ("coins", "popularity", "flyers")}
    events.append({"type": "collected", "seat": seat, "space": space, "by_flyer": by_flyer,
                   "card": stall.id if stall else None, **totals, "parts": parts, "visible_to": None})
    return {"space": space, "by_flyer": by_flyer, **totals}


def collect_tokens(state: JSON, seat: str, space: int, events: list[JSON]) -> list[JSON]:
    """Take the coin tokens and cash in the popularity tokens lying on the space."""
    player = state["players"][seat]
    coins = player["coin_tokens"][space - 1]
    popularity = player["popularity_tokens"][space - 1]
    if not coins and not popularity:
        return []
    player["coin_tokens"][space - 1] = 0
    player["popularity_tokens"][space - 1] = 0
    gain(state, seat, events, coins=coins, popularity=popularity, source="tokens")
    return [{"source": "tokens", "coins": coins, "popularity": popularity, "flyers": 0}]


def collect_stall(state: JSON, seat: str, space: int, events: list[JSON]) -> list[JSON]:
    """The stall's printed rewards, its culture effect, then its full stars."""
    player = state["players"][seat]
    stall = stall_at(player["court"], space)
    assert stall is not None
    parts: list[JSON] = []
    gain(state, seat, events, coins=stall.coins, popularity=stall.popularity, source="stalls")
    parts.append({"source": "stall", "coins": stall.coins, "popularity": stall.popularity, "flyers": 0})
    if stall.effect is not None:
        paid = EFFECTS[stall.effect](player, space, stall)
        gain(state, seat, events, coins=paid["coins"], popularity=paid["popularity"],
             flyers=paid["flyers"], source="effects")
        parts.append({"source": "effect", "effect": stall.effect, **paid})
    stars = stars_of(player["court"], space)
    if stars:
        gain(state, seat, events, popularity=stars, source="stars")
        parts.append({"source": "stars", "stars": stars, "coins": 0, "popularity": stars, "flyers": 0})
    return parts
