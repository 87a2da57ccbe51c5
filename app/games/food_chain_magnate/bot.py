"""A sensible Food Chain Magnate bot: waitresses and a burger kitchen, campaigns near home, careful salaries."""

from __future__ import annotations

from app.games.base import BotLevel
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import entrances_of
from app.games.food_chain_magnate.data import SALARY
from app.games.food_chain_magnate.employees import structure_capacity
from app.games.food_chain_magnate.engine import ENGINE
from app.games.food_chain_magnate.phases.payday import pays_salary, salary_due
from app.games.food_chain_magnate.players import owned_cards
from app.games.food_chain_magnate.sample import sample_state
from app.games.rng import Rng
from app.games.search import Bot, decide, gentle
from app.games.toolkit import JSON

# Order in which cards are put to work: managers first (they open slots), then earners.
WORK_PRIORITY = [
    "executive_vice_president", "senior_vice_president", "vice_president", "junior_vice_president",
    "management_trainee", "guru", "coach", "trainer", "burger_chef", "pizza_chef", "burger_cook", "pizza_cook",
    "cfo", "brand_director", "brand_manager", "campaign_manager", "marketing_trainee", "kitchen_trainee",
    "waitress", "recruiting_girl", "zeppelin_pilot", "truck_driver", "cart_operator", "errand_boy",
    "hr_director", "recruiting_manager", "discount_manager", "pricing_manager",
    "regional_manager", "local_manager", "new_business_developer",
]
GROUPS = {
    "kitchen": {"kitchen_trainee", "burger_cook", "pizza_cook", "burger_chef", "pizza_chef"},
    "marketing": {"marketing_trainee", "campaign_manager", "brand_manager", "brand_director"},
    "buyer": {"errand_boy", "cart_operator", "truck_driver", "zeppelin_pilot"},
    "management": {"management_trainee", "junior_vice_president", "vice_president", "senior_vice_president",
                   "executive_vice_president"},
    "waitress": {"waitress"},
    "trainer": {"trainer", "coach", "guru"},
    "recruiting": {"recruiting_girl", "recruiting_manager", "hr_director"},
}
GROUP_ENTRY = {"kitchen": "kitchen_trainee", "marketing": "marketing_trainee", "buyer": "errand_boy",
               "management": "management_trainee", "waitress": "waitress", "trainer": "trainer",
               "recruiting": "recruiting_girl"}
HIRE_PLAN = [("marketing", 1), ("kitchen", 1), ("management", 1), ("trainer", 1), ("waitress", 1),
             ("recruiting", 1), ("buyer", 1), ("waitress", 2), ("kitchen", 2), ("marketing", 2), ("management", 2),
             ("waitress", 3), ("recruiting", 1), ("marketing", 3), ("waitress", 5)]
TRAIN_INTO = ["burger_cook", "campaign_manager", "cart_operator", "junior_vice_president", "brand_manager",
              "burger_chef", "truck_driver", "coach", "vice_president", "pizza_cook"]
TRAIN_LIMIT = {"burger_cook": 2, "campaign_manager": 2, "junior_vice_president": 2}
CAMPAIGN_PREFERENCE = {"radio": 0, "airplane": 1, "mailbox": 2, "billboard": 3}


def normal(state: JSON, seat: str, rng: Rng) -> JSON:
    """A legal, purposeful action for `seat` on a full state."""
    legal = ENGINE.actions(state, seat)
    if not legal:
        raise ValueError("the bot was asked to act without a legal action")
    phase = state["phase"]
    chooser = {
        "first_restaurants": _first_restaurant,
        "reserve": lambda s, p, a, r: a[r.below(len(a))],
        "restructuring": _restructure,
        "order_of_business": lambda s, p, a, r: min(a, key=lambda x: x["position"]),
        "working": _work,
        "payday_firing": _fire,
        "payday_forced": _forced_fire,
    }.get(phase)
    action = chooser(state, seat, legal, rng) if chooser else None
    return action if action in legal else legal[0]


def _group_count(state: JSON, seat: str, group: str) -> int:
    cards = owned_cards(state["p"][seat])
    return sum(1 for c in cards if c in GROUPS[group])


def _house_value(state: JSON, entrances: list[list[int]]) -> float:
    """How well a set of entrances serves the houses: nearer houses count more."""
    total = 0.0
    for h in state["houses"]:
        d = fcm_map.house_distance(state["map"], entrances, h)
        if d is not None:
            total += 1.0 / (1 + d)
    return total


def _first_restaurant(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON:
    spots = [a for a in legal if a["type"] in ("restaurant_at", "restaurant_entrance")]
    if not spots:
        return legal[0]
    if spots[0]["type"] == "restaurant_entrance":
        return max(spots, key=lambda a: _house_value(state, [a["entrance"]]))
    # Anchors: judged by the houses on the same or a neighbouring tile (cheap), entrances by road distance.
    def value(a: JSON) -> float:
        tr, tc = fcm_map.tile_of(a["cell"])
        total = 0.0
        for h in state["houses"]:
            hr, hc = fcm_map.tile_of(h["cells"][0])
            gap = abs(hr - tr) + abs(hc - tc)
            total += 2.0 if gap == 0 else 1.0 if gap == 1 else 0.0
        return total + rng.below(100) / 1000

    return max(spots, key=value)


def _restructure(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON:
    hand = list(state["p"][seat]["hand"])
    wanted: list[str] = []
    for c in sorted(hand, key=lambda x: WORK_PRIORITY.index(x) if x in WORK_PRIORITY else 99):
        if c == "luxuries_manager":
            continue
        if structure_capacity(wanted + [c], state["ceo_slots"])[0]:
            wanted.append(c)
    chosen = list(state["secret"][seat]["work"])
    for c in wanted:
        if c in chosen:
            chosen.remove(c)
        else:
            return {"type": "work", "card": c}
    return {"type": "submit"}


def _work(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON:
    step = state["work"]["step"]
    handler = {"recruit": _recruit, "train": _train, "marketing": _market,
               "food_and_drinks": _food_and_drinks}.get(step)
    if handler is not None:
        action = handler(state, seat, legal, rng)
        if action is not None:
            return action
    if state["pending"] is not None:
        return legal[0]
    return {"type": "done"}


def _recruit(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON | None:
    for group, count in HIRE_PLAN:
        if _group_count(state, seat, group) < count:
            hire = {"type": "hire", "card": GROUP_ENTRY[group]}
            if hire in legal:
                return hire
    if len(owned_cards(state["p"][seat])) < 12:
        hire = {"type": "hire", "card": "waitress"}
        if hire in legal:
            return hire
    return None


def _affordable_extra_salary(state: JSON, seat: str) -> bool:
    """Another salaried card keeps this round's salaries within cash (the training milestone counts)."""
    due = salary_due(state, seat) + SALARY
    if "first_to_train" in state["milestones_available"] and "first_to_train" not in state["p"][seat]["milestones"]:
        due -= 15
    return due <= state["p"][seat]["cash"]


def _train(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON | None:
    if not _affordable_extra_salary(state, seat):
        return None
    owned = owned_cards(state["p"][seat])
    trains = [a for a in legal if a["type"] == "train" and a["into"] in TRAIN_INTO
              and owned.count(a["into"]) < TRAIN_LIMIT.get(a["into"], 1)]
    if not trains:
        return None
    return min(trains, key=lambda a: TRAIN_INTO.index(a["into"]))


def _main_food(state: JSON, seat: str) -> str:
    p = state["p"][seat]
    pizza = sum(1 for c in owned_cards(p) if c in ("pizza_cook", "pizza_chef"))
    burger = sum(1 for c in owned_cards(p) if c in ("burger_cook", "burger_chef"))
    return "pizza" if pizza > burger else "burger"


def _spot_value(state: JSON, seat: str, spot: JSON, number: int) -> float:
    campaign = {"type": _campaign_type(number), "number": number, **spot}
    if campaign["type"] == "airplane":
        campaign["covers"] = card_covers(number)
    entrances = entrances_of(state, seat)
    houses = {h["number"]: h for h in state["houses"]}
    value = 0.0
    for n in fcm_map.campaign_reach(state["map"], state["houses"], campaign):
        d = fcm_map.house_distance(state["map"], entrances, houses[n]) if entrances else None
        if d is not None:
            value += 1.0 / (1 + d)
    return value


def _campaign_type(number: int) -> str:
    from app.games.food_chain_magnate.data import CAMPAIGNS

    return str(CAMPAIGNS[number]["type"])


def card_covers(number: int) -> int:
    """Rows or columns an airplane covers."""
    from app.games.food_chain_magnate.data import CAMPAIGNS

    return int(CAMPAIGNS[number]["covers"])


def _market(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON | None:
    pending = state["pending"]
    if pending is None:
        picks = [a for a in legal if a["type"] == "campaign"]
        if not picks or not entrances_of(state, seat):
            return None
        return min(picks, key=lambda a: (CAMPAIGN_PREFERENCE[_campaign_type(a["number"])], -a["number"]))
    if "spot" not in pending:
        spots = legal if len(legal) <= 60 else [legal[rng.below(len(legal))] for _ in range(60)]
        return max(spots, key=lambda a: _spot_value(state, seat, {k: v for k, v in a.items() if k != "type"},
                                                     pending["number"]))
    food = _main_food(state, seat)
    ads = [a for a in legal if a["good"] == food]
    return max(ads, key=lambda a: a["duration"])


def _food_and_drinks(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON | None:
    food = _main_food(state, seat)
    for a in legal:
        if a["type"] == "produce" and (a["good"] == food or a["card"] != "kitchen_trainee"):
            return a
    buys = [a for a in legal if a["type"] == "buy"]
    if buys:
        return max(buys, key=lambda a: len(a.get("sources", [])) or 1)
    return None


def _fire(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON:
    """Fire salaried cards idling on the beach, and more while salaries would exceed half the cash."""
    chosen = state["secret"][seat]["fire"]
    due = salary_due(state, seat) - SALARY * sum(1 for f in chosen if pays_salary(state, seat, f["card"]))
    fires = [a for a in legal if a["type"] == "fire" and pays_salary(state, seat, a["card"])]
    beach = [a for a in fires if a["from"] == "beach" and a["card"] not in GROUPS["management"]]
    if beach and due > 0:
        return beach[0]
    if fires and due > state["p"][seat]["cash"] // 2:
        return fires[0]
    return {"type": "submit"}


def _forced_fire(state: JSON, seat: str, legal: list[JSON], rng: Rng) -> JSON:
    beach = [a for a in legal if a["from"] == "beach"]
    return (beach or legal)[0]


def standing(state: JSON, seat: str) -> float:
    """How near `seat` is to winning: its cash against the best rival's (cash decides the game)."""
    cash = {s: state["p"][s]["cash"] for s in state["players"]}
    lead = cash[seat] - max(v for s, v in cash.items() if s != seat)
    return min(1.0, max(0.0, 0.5 + lead / 400))


BOT = Bot(engine=ENGINE, sample=sample_state, normal=normal, easy=gentle(ENGINE, normal, 5), standing=standing,
          playouts=12, horizon=60, retreats=frozenset({"take_back"}))


def choose(view: JSON, player: str, seed: int, level: BotLevel, playouts: int | None = None) -> JSON:
    """The bot's move for `player` at `level`, decided from that seat's view alone."""
    return decide(BOT, view, player, seed, level, playouts)
