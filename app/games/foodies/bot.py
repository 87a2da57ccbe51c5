"""A greedy Foodies bot: values coins, popularity and flyers, and buys the stall that most raises its court's income."""

from __future__ import annotations

from app.games.base import BotLevel
from app.games.foodies.chefs import meets_requirement
from app.games.foodies.data import SPACES
from app.games.foodies.engine import ENGINE
from app.games.foodies.market import price_of
from app.games.foodies.sample import sample_state
from app.games.foodies.visit import collect
from app.games.rng import Rng
from app.games.search import Bot, decide, gentle
from app.games.toolkit import JSON, copy_json

COIN = 1.0
POPULARITY = 3.0  # one popularity is worth about three coins to a stall-buying player
FLYER = 1.5
CHEF_BONUS = 8.0  # making a special chef claimable is worth nearly its 3 popularity
LATE_ROLLS = 8  # with fewer rolls left, coins are worth more as chef-for-hire popularity
SPEND = 1.0  # the worth of a coin spent on a stall
ROLLS_PER_POPULARITY = 1.5  # rolls the game lasts per point the leader still needs


def worth(gains: JSON) -> float:
    """The value of a collection in coins."""
    return COIN * gains["coins"] + POPULARITY * gains["popularity"] + FLYER * gains["flyers"]


def collection_value(player: JSON, seat: str, space: int) -> float:
    """What collecting from `space` would pay this player now, in coins, without changing anything."""
    sandbox = {"players": {seat: copy_json(player)}, "end_triggered": True, "threshold": 0}
    return worth(collect(sandbox, seat, space, False, []))


def court_income(player: JSON, seat: str) -> float:
    """Expected value of one roll for this court (each space about one chance in nine)."""
    return sum(collection_value(player, seat, s) for s in SPACES) / len(SPACES)


def rolls_left(state: JSON) -> float:
    """A rough guess of how many rolls the game still has."""
    leader = max(p["popularity"] for p in state["players"].values())
    return max(float(len(state["seats"])), (state["threshold"] - leader) * ROLLS_PER_POPULARITY)


def best_visit_value(player: JSON, seat: str, visited: int) -> float:
    """The best this player can get from a visit to `visited`, using a flyer if it pays."""
    best = collection_value(player, seat, visited)
    if player["flyers"] > 0:
        spent = {**player, "flyers": player["flyers"] - 1}
        for n in SPACES[visited].adjacent():
            best = max(best, collection_value(spent, seat, n) - FLYER)
    return best


def choose_face(state: JSON, seat: str, legal: list[JSON]) -> JSON:
    """Pick the face that pays this bot most relative to its rivals (or keep the 0)."""
    rivals = [s for s in state["seats"] if s != seat]

    def score(face: int) -> float:
        mine = best_visit_value(state["players"][seat], seat, face)
        theirs = sum(best_visit_value(state["players"][r], r, face) for r in rivals) / max(1, len(rivals))
        return mine - 0.5 * theirs

    best = max(legal, key=lambda a: score(a["face"]) if a["type"] == "choose_face" else 0.0)
    return best


def choose_flyer(state: JSON, seat: str, legal: list[JSON]) -> JSON:
    """Use a flyer only where it pays more than staying put plus the flyer's own worth."""
    player = state["players"][seat]
    spent = {**player, "flyers": player["flyers"] - 1}

    def score(action: JSON) -> float:
        if action["type"] == "no_flyer":
            return collection_value(player, seat, state["visited"])
        return collection_value(spent, seat, action["space"]) - FLYER

    return max(legal, key=score)


def buy_scores(state: JSON, seat: str, legal: list[JSON], rng: Rng | None) -> list[tuple[float, JSON]]:
    """Each buy's worth: the income it adds over the rest of the game and the chefs it opens, less its price.

    Skipping is worth 0; `rng` breaks near-ties (none: the listed order decides)."""
    player = state["players"][seat]
    base = court_income(player, seat)
    horizon = rolls_left(state)
    open_chefs = [c["id"] for c in state["special_chefs"] if c["claimed_by"] is None]
    claimable_now = {c for c in open_chefs if meets_requirement(player["court"], c)}
    scored: list[tuple[float, JSON]] = [(0.0, {"type": "skip_buy"})]
    for action in legal:
        if action["type"] != "buy":
            continue
        card = state["market"][action["slot"] - 1]
        court = list(player["court"])
        court[action["space"] - 1] = card
        after = {**player, "court": court, "coins": player["coins"] - price_of(action["slot"])}
        gain = (court_income(after, seat) - base) * horizon
        gain += CHEF_BONUS * sum(1 for c in open_chefs if c not in claimable_now and meets_requirement(court, c))
        jitter = rng.below(100) / 1000 if rng is not None else 0.0
        scored.append((gain - SPEND * price_of(action["slot"]) + jitter, action))
    return scored


def choose_buy(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON:
    """Buy the stall and space that most raise expected income over the rest of the game, if any does."""
    best_score, best = 0.0, {"type": "skip_buy"}
    for score, action in buy_scores(state, seat, legal, rng):
        if score > best_score:
            best_score, best = score, action
    return best


def shortlist(state: JSON, seat: str, legal: list[JSON]) -> list[JSON]:
    """The actions worth searching, most promising first: buys by their greedy worth, else as listed."""
    if state["phase"] != "buy":
        return legal
    return [action for _, action in sorted(buy_scores(state, seat, legal, None), key=lambda sa: -sa[0])]


def choose_hire(state: JSON, seat: str, legal: list[JSON]) -> JSON:
    """Claim every special chef possible; hire the chef for hire when coins are spare or the end is near."""
    claims = [a for a in legal if a["type"] == "claim_chef"]
    if claims:
        return claims[0]
    if {"type": "hire_chef"} in legal:
        coins = state["players"][seat]["coins"]
        if state["end_triggered"] or rolls_left(state) < LATE_ROLLS or coins >= 11:
            return {"type": "hire_chef"}
    return {"type": "end_turn"}


def normal(state: JSON, player: str, rng: Rng) -> JSON:
    """The greedy move on a full state: the best face, flyer, stall and chef by the coin values above."""
    legal = ENGINE.actions(state, player)
    if not legal:
        raise ValueError(f"seat {player} has nothing to do now")
    phase = state["phase"]
    if phase == "choose_face":
        return choose_face(state, player, legal)
    if phase == "flyers":
        return choose_flyer(state, player, legal)
    if phase == "buy":
        return choose_buy(state, player, legal, rng)
    if phase == "hire":
        return choose_hire(state, player, legal)
    return legal[0]


def standing(state: JSON, seat: str) -> float:
    """How near `seat` is to winning: popularity, and what its coins, flyers and court should still bring,
    against the best rival's."""
    players = state["players"]
    horizon = rolls_left(state)

    def points(s: str) -> float:
        player = players[s]
        wealth = player["coins"] + FLYER * player["flyers"] + court_income(player, s) * horizon
        return player["popularity"] + wealth / POPULARITY

    lead = points(seat) - max(points(s) for s in state["seats"] if s != seat)
    return min(1.0, max(0.0, 0.5 + lead / state["threshold"]))


BOT = Bot(engine=ENGINE, sample=sample_state, normal=normal, easy=gentle(ENGINE, normal, 5), standing=standing,
          playouts=36, horizon=20, candidates=6, shortlist=shortlist)


def choose(view: JSON, player: str, seed: int, level: BotLevel, playouts: int | None = None) -> JSON:
    """The bot's move for `player` at `level`, decided from that seat's view alone."""
    return decide(BOT, view, player, seed, level, playouts)
