"""A greedy bot: cook what the fridge and hand allow, stock what the tickets need, lead what pays most."""

from __future__ import annotations

from collections import Counter

from app.games.base import BotLevel
from app.games.food_truck_champion.data import TICKETS, TRUCKS
from app.games.food_truck_champion.engine import ENGINE
from app.games.food_truck_champion.round import hired_matching
from app.games.food_truck_champion.rules import actions as legal_actions
from app.games.food_truck_champion.sample import sample_state
from app.games.food_truck_champion.scoring import score_board
from app.games.food_truck_champion.staff import staff_options
from app.games.food_truck_champion.zones import action_of, icons_of, ingredient_of, is_owner_card, need
from app.games.rng import Rng
from app.games.search import Bot, decide, gentle
from app.games.toolkit import JSON

# How much a hired card of each action is worth keeping (cooking actions complete orders).
STAFF_WORTH = {"Prep Cook": 2.0, "Exec. Chef": 2.0, "Driver": 1.6, "Cashier": 1.0, "Manager": 0.6}


class Kitchen:
    """What one player's board needs and holds, computed once per decision."""

    def __init__(self, board: JSON) -> None:
        self.board = board
        needs: Counter[str] = Counter()
        for slot in board["plating"]:
            needs.update(need(slot))
        needs.subtract(ingredient_of(c) for c in board["fridge"])
        self.needs = +needs
        self.have = Counter(ingredient_of(c) for c in board["fridge"] + board["hand"] if not is_owner_card(c))
        self.profile = Counter(TRUCKS[board["truck"]]["flavor_profile"])
        self._tickets: dict[tuple[str, ...], float] = {}

    def ingredient_worth(self, ingredient: str) -> float:
        """Worth of one more ingredient in the Fridge."""
        return 2.5 if self.needs[ingredient] > 0 else 0.2

    def ticket_worth(self, ticket: str, placed: tuple[str, ...] = ()) -> float:
        """Worth of a ticket in Plating: its size, how much of it we can cover, our logo and profile."""
        key = (ticket, *placed)
        if key not in self._tickets:
            icons = Counter(icons_of(ticket))
            icons.subtract(ingredient_of(c) for c in placed)
            missing = +icons
            covered = sum(min(k, self.have[x]) for x, k in missing.items())
            uncovered = sum(missing.values()) - covered
            overlap = sum(min(k, self.profile[x]) for x, k in Counter(icons_of(ticket)).items())
            logo = 1.0 if TICKETS[ticket]["logo"] == self.board["truck"] else 0.0
            self._tickets[key] = (len(icons_of(ticket)) * 1.2 + covered - 1.3 * uncovered + 0.3 * overlap + logo
                                  + 0.8 * len(placed))
        return self._tickets[key]


def gain(state: JSON, kitchen: Kitchen, action: JSON) -> float:
    """Estimated value of one concrete staff action for the acting player."""
    board = kitchen.board
    kind = action["type"]
    if kind in ("prep_cook", "exec_chef"):
        slot = next(s for s in board["plating"] if s["card"] == action["ticket"])
        completes = len(need(slot)) == 1
        base = 3.0 if kind == "prep_cook" else 2.6
        return base + (4.0 + 2.0 * len(icons_of(slot["card"])) if completes else 0.0)
    top = state["market"][action["position"] - 1][-1]
    replaced = action.get("replace")
    if kind == "driver":
        lost = kitchen.ingredient_worth(ingredient_of(replaced)) + 0.3 if replaced else 0.0
        return kitchen.ingredient_worth(ingredient_of(top)) - lost
    if kind == "cashier":
        lost = 0.0
        if replaced:
            slot = next(s for s in board["plating"] if s["card"] == replaced)
            lost = kitchen.ticket_worth(replaced, tuple(slot["on"])) + 0.5
        return kitchen.ticket_worth(top) - lost
    lost = STAFF_WORTH[action_of(replaced)] + 0.3 if replaced else 0.0
    return STAFF_WORTH[action_of(top)] - lost


def potential(state: JSON, seat: str, staff_action: str, count: int, spent: str | None = None) -> float:
    """Rough worth of performing `staff_action` `count` times now (best distinct gains, positive only)."""
    if count <= 0:
        return 0.0
    options = staff_options(state, seat, staff_action)
    if spent is not None:
        options = [o for o in options if o.get("card") != spent]
    kitchen = Kitchen(state["boards"][seat])
    gains = sorted((gain(state, kitchen, o) for o in options), reverse=True)
    # Distinct options rarely all stay available: count the first fully, later ones at a discount.
    positive = [g for g in gains[:count] if g > 0]
    return sum(g * (1.0 if i == 0 else 0.6) for i, g in enumerate(positive))


def research_worth(state: JSON, board: JSON) -> float:
    """Worth of drawing two cards (nothing when the deck and discard pile are empty)."""
    if not state["deck"] and not state["discard"]:
        return -1.0
    return 1.8 if len(board["hand"]) <= 3 else 0.6


def card_keep_worth(board: JSON, card: str) -> float:
    """How much a hand card is worth keeping (as a cooking ingredient or a staff action)."""
    if is_owner_card(card):
        return 10.0
    needed = 2.0 if any(ingredient_of(card) in need(s) for s in board["plating"]) else 0.0
    return needed + STAFF_WORTH[action_of(card)] * 0.5


def choose_turn(state: JSON, seat: str, legal: list[JSON]) -> list[tuple[float, JSON]]:
    """Score the turn options: lead the action that pays most, else research or take charge."""
    board = state["boards"][seat]
    scored: list[tuple[float, JSON]] = []
    for option in legal:
        kind = option["type"]
        if kind == "market_research":
            scored.append((research_worth(state, board), option))
        elif kind == "take_charge":
            scored.append((0.9, option))
        else:
            card = option["card"]
            act = option["action"] if is_owner_card(card) else action_of(card)
            worth = potential(state, seat, act, 1 + hired_matching(board, act), spent=card)
            cost = 1.5 if is_owner_card(card) else 0.4
            scored.append((worth - cost, option))
    return scored


def choose_decision(state: JSON, seat: str, legal: list[JSON]) -> list[tuple[float, JSON]]:
    """Score following from hand, through Hired Staff, Market Research and Take Charge."""
    board = state["boards"][seat]
    lead = state["round"]["lead_action"]
    hired = hired_matching(board, lead)
    scored: list[tuple[float, JSON]] = []
    for option in legal:
        kind = option["type"]
        if kind == "follow_hand":
            cost = 1.5 if is_owner_card(option["card"]) else 0.4
            scored.append((potential(state, seat, lead, 1 + hired, spent=option["card"]) - cost, option))
        elif kind == "follow_staff":
            extra = {"none": 0.0, "market_research": research_worth(state, board), "take_charge": 0.9}[option["also"]]
            scored.append((potential(state, seat, lead, hired) + extra, option))
        elif kind == "market_research":
            scored.append((research_worth(state, board), option))
        else:
            scored.append((0.9, option))
    return scored


def choose_critique(board: JSON, legal: list[JSON]) -> list[tuple[float, JSON]]:
    """Prefer the ticket that adds most to flavor-profile sets in Awards."""
    profile = Counter(TRUCKS[board["truck"]]["flavor_profile"])
    pool = Counter(i for t in board["awards"] for i in icons_of(t))
    scored = []
    for option in legal:
        after = pool + Counter(icons_of(option["card"]))
        sets = min(after[x] // k for x, k in profile.items())
        partial = sum(min(after[x], k * (sets + 1)) for x, k in profile.items())
        scored.append((sets * 10.0 + partial, option))
    return scored


def choose_place(state: JSON, seat: str, legal: list[JSON]) -> list[tuple[float, JSON]]:
    """Cover the market card we would miss least."""
    kitchen = Kitchen(state["boards"][seat])
    scored = []
    for option in legal:
        pile = state["market"][option["position"] - 1]
        scored.append((-kitchen.ingredient_worth(ingredient_of(pile[-1])) if pile else 0.0, option))
    return scored


def score_options(state: JSON, seat: str, legal: list[JSON]) -> list[tuple[float, JSON]]:
    """Score every legal option of the current step."""
    board = state["boards"][seat]
    kind = legal[0]["type"]
    pending = state["pending"]
    if pending is not None:
        if pending["kind"] == "discard":
            return [(-card_keep_worth(board, o["card"]), o) for o in legal]
        if pending["kind"] == "token":
            return [(float(o.get("value", 0)), o) for o in legal]
        order = {"plating": 3.0, "fridge": 2.0, "hired_staff": 1.0}
        return [(order[o["section"]], o) for o in legal]
    rnd = state["round"]
    if rnd is None:
        return choose_turn(state, seat, legal)
    if rnd["stage"] == "decide":
        return choose_decision(state, seat, legal)
    if rnd["stage"] == "resolve":
        kitchen = Kitchen(board)
        return [(0.0 if o["type"] == "decline" else gain(state, kitchen, o), o) for o in legal]
    if kind == "critique":
        return choose_critique(board, legal)
    return choose_place(state, seat, legal)


def normal(state: JSON, player: str, rng: Rng) -> JSON:
    """The best-scoring legal action on a full state (ties broken at random)."""
    legal = legal_actions(state, player)
    if not legal:
        raise ValueError("the bot was asked to move while not awaited")
    scored = score_options(state, player, legal)
    best = max(score for score, _ in scored)
    top = [option for score, option in scored if score >= best - 1e-9]
    return top[rng.below(len(top))]


def shortlist(state: JSON, seat: str, legal: list[JSON]) -> list[JSON]:
    """The actions worth searching, best-scored first."""
    scored = score_options(state, seat, legal)
    return [option for _, option in sorted(scored, key=lambda so: -so[0])]


def standing(state: JSON, seat: str) -> float:
    """How near `seat` is to winning: its score so far against the best rival's, as final scoring counts it."""
    scores = {s: float(score_board(state["boards"][s])["total"]) for s in state["players"]}
    lead = scores[seat] - max(v for s, v in scores.items() if s != seat)
    return min(1.0, max(0.0, 0.5 + lead / 40))


BOT = Bot(engine=ENGINE, sample=sample_state, normal=normal, easy=gentle(ENGINE, normal, 5), standing=standing,
          playouts=32, horizon=60, candidates=4, margin=0.02, shortlist=shortlist)


def choose(view: JSON, player: str, seed: int, level: BotLevel, playouts: int | None = None) -> JSON:
    """The bot's move for `player` at `level`, decided from that seat's view alone."""
    return decide(BOT, view, player, seed, level, playouts)
