"""A sensible Food Truck player: claim contested meals early, keep safe cards for later, rescue blocked cards.

Every level decides from the seat's view alone (`choose`); the greedy policy reads a full state sampled to fit
that view, and uses of it only its own draw pile and what is public (collections, served cards).
"""

from __future__ import annotations

from collections import Counter

from app.games.base import BotLevel
from app.games.food_truck.data import is_dessert, meal_type
from app.games.food_truck.engine import ENGINE
from app.games.food_truck.rules import legal_actions, moment
from app.games.food_truck.sample import sample_state
from app.games.food_truck.table import is_blocked, showing
from app.games.rng import Rng
from app.games.search import Bot, decide, gentle
from app.games.toolkit import JSON


def others_copies(state: JSON, player: str) -> Counter[str]:
    """How many cards of each meal type the other players own."""
    counts: Counter[str] = Counter()
    for p in state["players"]:
        if p != player:
            counts.update(meal_type(c) for c in state["seats"][p]["collection"])
    return counts


def plan_order(state: JSON, player: str, cards: list[str]) -> list[str]:
    """A prep order: one claim card per contested meal (most contested first), then the safe cards."""
    theirs = others_copies(state, player)
    mine = Counter(meal_type(c) for c in cards)
    claims: list[str] = []
    rest: list[str] = []
    claimed: set[str] = set()
    for card in cards:
        meal = meal_type(card)
        if not is_dessert(card) and theirs[meal] and meal not in claimed:
            claimed.add(meal)
            claims.append(card)
        else:
            rest.append(card)
    claims.sort(key=lambda c: (-(theirs[meal_type(c)] + mine[meal_type(c)]), -theirs[meal_type(c)], c))
    # Piles of claimed meals come right after the claims: they are safe only if the claim held anyway.
    rest.sort(key=lambda c: (is_dessert(c), theirs[meal_type(c)] == 0, c))
    return claims + rest


def _card_value(state: JSON, player: str, card: str) -> tuple[int, int]:
    """How good a card is to own: few copies with the others, more with me."""
    theirs = others_copies(state, player)
    mine = Counter(meal_type(c) for c in state["seats"][player]["collection"])
    meal = meal_type(card)
    return (-theirs[meal], mine[meal])


def _prep_move(state: JSON, player: str) -> JSON:
    me = state["seats"][player]
    hand = Counter(me["hand"])
    for card in plan_order(state, player, me["collection"]):
        if hand[card]:
            return {"type": "place", "card": card}
    return {"type": "place", "card": me["hand"][0]}


def _rearrange_move(state: JSON, player: str) -> JSON:
    todo = state["rearrange"]["todo"]
    safe = [c for c in todo if not is_blocked(state, player, c)]
    order = plan_order(state, player, safe) + [c for c in todo if c not in safe]
    return {"type": "rearrange", "card": order[0]}


def _rescue(state: JSON, player: str, legal: list[JSON], card: str) -> JSON | None:
    """A Truck play that saves a blocked revealed card, if one exists."""
    me = state["seats"][player]
    plays = {a["effect"]: a for a in legal if a["type"] == "play_truck"}
    if "E5" in plays:
        return plays["E5"]
    meal = meal_type(card)
    blockers = [p for p in showing(state, meal) if p != player]
    for a in legal:
        if a.get("effect") == "E2" and len(blockers) == 1 and (a["seat"], a["meal"]) == (blockers[0], meal):
            return a
    swaps = [a for a in legal if a.get("effect") == "E3" and not is_blocked(state, player, a["card"])]
    if swaps:
        return max(swaps, key=lambda a: (_card_value(state, player, a["card"]), a["card"]))
    nxt = me["draw_pile"][0] if me["draw_pile"] else card
    if "E4" in plays and not is_blocked(state, player, nxt):
        return plays["E4"]
    top = [card, *me["draw_pile"][:4]]
    if "E1" in plays and any(not is_blocked(state, player, c) for c in top):
        return plays["E1"]
    return None


def _window_a_move(state: JSON, player: str, legal: list[JSON]) -> JSON:
    me = state["seats"][player]
    pile = me["draw_pile"]
    plays = [a for a in legal if a["type"] == "play_truck"]
    top_blocked = bool(pile) and is_blocked(state, player, pile[0])
    if plays and plays[0]["effect"] == "E1" and top_blocked and any(
            not is_blocked(state, player, c) for c in pile[:5]):
        return plays[0]
    if plays and plays[0]["effect"] == "E2":
        if not pile:
            own = [a for a in plays if a["seat"] == player]
            if own:
                return own[0]
        elif is_blocked(state, player, pile[0]):
            blockers = [p for p in showing(state, meal_type(pile[0])) if p != player]
            for a in plays:
                if len(blockers) == 1 and (a["seat"], a["meal"]) == (blockers[0], meal_type(pile[0])):
                    return a
    return {"type": "reveal"}


def normal(state: JSON, player: str, rng: Rng) -> JSON:
    """The greedy move for this seat on a full state."""
    legal = legal_actions(state, player)
    if not legal:
        raise ValueError(f"seat {player} has no legal action now")
    now = moment(state)
    if now == "trucks":
        return rng.choice(legal)
    if now == "prep":
        return _prep_move(state, player)
    if now == "rearrange":
        return _rearrange_move(state, player)
    if now == "reveal":
        return _window_a_move(state, player, legal)
    if now == "decide":
        card = state["seats"][player]["pending"]
        if is_blocked(state, player, card):
            return _rescue(state, player, legal, card) or {"type": "resolve"}
        return {"type": "resolve"}
    return max(legal, key=lambda a: (_card_value(state, player, a["card"]), a["card"]))


def standing(state: JSON, seat: str) -> float:
    """How near `seat` is to winning: its victory points against the best rival's, out of the target."""
    vp = {p: state["seats"][p]["vp"] for p in state["players"]}
    lead = vp[seat] - max(v for p, v in vp.items() if p != seat)
    return min(1.0, max(0.0, 0.5 + lead / (2 * state["vp_target"])))


# The easy level lapses less often than in the other games: a random Food Truck move is often harmless,
# so a lapse every other move leaves too little of the greedy player to beat random play reliably.
BOT = Bot(engine=ENGINE, sample=sample_state, normal=normal, easy=gentle(ENGINE, normal, 3), standing=standing,
          playouts=60, horizon=400)


def choose(view: JSON, player: str, seed: int, level: BotLevel, playouts: int | None = None) -> JSON:
    """The bot's move for `player` at `level`, decided from that seat's view alone."""
    return decide(BOT, view, player, seed, level, playouts)
