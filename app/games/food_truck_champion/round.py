"""The action round: lead, follow decisions, resolution in turn order, critiques, and market cleanup."""

from __future__ import annotations

from app.games.food_truck_champion.research import can_take_charge, market_research, take_charge
from app.games.food_truck_champion.staff import STAFF_TYPE, can_perform, cook, hire_from_market, staff_options
from app.games.food_truck_champion.zones import (
    Events,
    action_of,
    board_to_read,
    draw_card,
    event,
    is_owner_card,
)
from app.games.toolkit import JSON

FOLLOW_EXTRAS = ("none", "market_research", "take_charge")


def hired_matching(board: JSON, staff_action: str) -> int:
    """Number of Hired Staff cards showing `staff_action`."""
    return sum(1 for card in board["hired_staff"] if action_of(card) == staff_action)


def seats_after(state: JSON, seat: str | None) -> list[str]:
    """Players clockwise starting after `seat`; after the neutral seat that is the first player."""
    order: list[str] = state["order"]
    if seat is None:
        return list(order)
    i = order.index(seat)
    return order[i + 1:] + order[:i]


def play_to_centre(board: JSON, card: str) -> None:
    """Move a hand card (or the Owner card) to the board centre."""
    board["hand"].remove(card)
    board["centre"] = card
    if is_owner_card(card):
        board["owner"] = "centre"


def start_round(state: JSON, leader: str | None, card: str, staff_action: str, ev: Events) -> None:
    """Begin an action round led by `leader` (None = the neutral owner) with `card` as `staff_action`."""
    others = seats_after(state, leader)
    choices: dict[str, JSON] = {}
    if leader is not None:
        board = state["boards"][leader]
        play_to_centre(board, card)
        choices[leader] = {"choice": "lead", "card": card, "also": "none",
                           "left": 1 + hired_matching(board, staff_action), "pre_done": True}
        resolve = [leader, *others]
    else:
        state["neutral"]["centre"] = card
        resolve = list(others)  # its own list: to_decide is used up separately
    state["phase"] = "round"
    state["round"] = {
        "leader": leader,
        "lead_card": card,
        "lead_action": staff_action,
        "stage": "decide",
        "choices": choices,
        "to_decide": others,
        "to_resolve": resolve,
        "critique": None,
        "to_place": [],
    }
    ev.append(event("lead", seat=leader, card=card, action=staff_action))


# ---- decision phase -------------------------------------------------------------------------------


def decide_options(state: JSON, seat: str) -> list[JSON]:
    """Follow from hand, follow through Hired Staff (optionally with MR or TC), Market Research or Take Charge."""
    rnd = state["round"]
    board = state["boards"][seat]
    lead = rnd["lead_action"]
    out: list[JSON] = [
        {"type": "follow_hand", "card": c}
        for c in board["hand"]
        if is_owner_card(c) or action_of(c) == lead
    ]
    charge = can_take_charge(board)
    if hired_matching(board, lead):
        out.extend({"type": "follow_staff", "also": extra} for extra in FOLLOW_EXTRAS
                   if extra != "take_charge" or charge)
    out.append({"type": "market_research"})
    if charge:
        out.append({"type": "take_charge"})
    return out


def decide(state: JSON, seat: str, action: JSON, ev: Events) -> None:
    """Record one player's public, final choice for this round."""
    rnd = state["round"]
    lead = rnd["lead_action"]
    kind = action["type"]
    record: JSON = {"choice": kind, "card": None, "also": "none", "left": 0, "pre_done": False}
    board = state["boards"][seat] if kind == "follow_hand" else board_to_read(state, seat)
    if kind == "follow_hand":
        play_to_centre(board, action["card"])
        record.update(card=action["card"], left=1 + hired_matching(board, lead), pre_done=True)
    elif kind == "follow_staff":
        record.update(also=action["also"], left=hired_matching(board, lead), pre_done=action["also"] == "none")
    rnd["choices"][seat] = record
    rnd["to_decide"].pop(0)
    ev.append(event("decided", seat=seat, choice=kind, card=record["card"], also=record["also"],
                    actions=record["left"]))


# ---- resolution -----------------------------------------------------------------------------------


def resolver(state: JSON) -> str:
    """The player now resolving."""
    return str(state["round"]["to_resolve"][0])


def resolve_options(state: JSON, seat: str) -> list[JSON]:
    """One staff action of the round's lead action, or declining it."""
    return [*staff_options(state, seat, state["round"]["lead_action"]), {"type": "decline"}]


def must_ask(state: JSON, seat: str) -> bool:
    """Whether the resolver is asked; an impossible action is skipped unless that would reveal the hand."""
    if can_perform(state, seat, state["round"]["lead_action"]):
        return True
    board = board_to_read(state, seat)
    hidden_hand = any(not is_owner_card(c) for c in board["hand"])
    # Exec. Chef depends on the hidden hand: the player declines by hand so the table learns nothing.
    return STAFF_TYPE[state["round"]["lead_action"]] == "exec_chef" and hidden_hand and bool(board["plating"])


def perform(state: JSON, seat: str, action: JSON, ev: Events) -> None:
    """Carry out (or decline) one staff action of the resolving player."""
    record = state["round"]["choices"][seat]
    record["left"] -= 1
    kind = action["type"]
    if kind == "decline":
        ev.append(event("declined", seat=seat, action=state["round"]["lead_action"]))
    elif kind in ("prep_cook", "exec_chef"):
        cook(state, seat, action, ev)
    else:
        hire_from_market(state, seat, action, ev)


def run_pre_action(state: JSON, seat: str, record: JSON, ev: Events) -> None:
    """Market Research / Take Charge chosen for this round, done before any bonus staff action."""
    record["pre_done"] = True
    extra = record["also"] if record["choice"] == "follow_staff" else record["choice"]
    if extra == "market_research":
        market_research(state, seat, ev)
    elif extra == "take_charge":
        take_charge(state, seat, ev)


# ---- critiques ------------------------------------------------------------------------------------


def start_critique(state: JSON, ev: Events) -> None:
    """Open one critique pass: every player with a Completed ticket picks one (a lone ticket is picked for them)."""
    picks: dict[str, str | None] = {}
    for seat in state["order"]:
        completed = board_to_read(state, seat)["completed"]
        if completed:
            picks[seat] = completed[0] if len(completed) == 1 else None
    state["round"]["critique"] = picks
    ev.append(event("critique_started", seats=list(picks), remaining=state["pending_critiques"]))


def critique_options(state: JSON, seat: str) -> list[JSON]:
    """The player's Completed tickets, one of which goes to Awards."""
    return [{"type": "critique", "card": c} for c in state["boards"][seat]["completed"]]


def critique(state: JSON, seat: str, card: str, ev: Events) -> None:
    """Record a secret critique pick; revealed only when everyone has picked."""
    state["round"]["critique"][seat] = card
    ev.append(event("critique_chosen", seat=seat))
    ev.append(event("critique_pick", [seat], seat=seat, card=card))


def finish_critique(state: JSON, ev: Events) -> None:
    """Move every pick face-up to Awards and close this pass."""
    for seat, card in state["round"]["critique"].items():
        board = state["boards"][seat]
        board["completed"].remove(card)
        board["awards"].append(card)
        ev.append(event("awarded", seat=seat, card=card))
    state["round"]["critique"] = None
    state["pending_critiques"] -= 1


# ---- cleanup --------------------------------------------------------------------------------------


def start_cleanup(state: JSON, ev: Events) -> None:
    """Owner cards go back face-down on their boards; the neutral card goes under the neutral owner."""
    rnd = state["round"]
    rnd["stage"] = "market"
    leader = rnd["leader"]
    order = seats_after(state, None) if leader is None else [leader, *seats_after(state, leader)]
    for seat in order:
        centre = board_to_read(state, seat)["centre"]
        if centre is not None and is_owner_card(centre):
            board = state["boards"][seat]
            board["centre"] = None
            board["owner"] = "board"
            ev.append(event("owner_returned", seat=seat))
    neutral = state["neutral"]
    if neutral is not None and neutral["centre"] is not None:
        neutral["stack"].append(neutral["centre"])
        ev.append(event("neutral_card_stacked", card=neutral["centre"]))
        neutral["centre"] = None
    rnd["to_place"] = [s for s in order if board_to_read(state, s)["centre"] is not None]


def place_options(state: JSON) -> list[JSON]:
    """An empty market position if there is one, otherwise any position (covering its top card)."""
    empty = [i + 1 for i, pile in enumerate(state["market"]) if not pile]
    positions = empty or list(range(1, len(state["market"]) + 1))
    return [{"type": "place_card", "position": p} for p in positions]


def place_card(state: JSON, seat: str, position: int, ev: Events) -> None:
    """Put the player's played card on a market position."""
    board = state["boards"][seat]
    card = board["centre"]
    pile = state["market"][position - 1]
    covered = pile[-1] if pile else None
    pile.append(card)
    board["centre"] = None
    state["round"]["to_place"].pop(0)
    ev.append(event("card_to_market", seat=seat, card=card, position=position, covered=covered))


def refill_market(state: JSON, ev: Events) -> None:
    """Fill each empty position in order from the deck (a position stays empty when nothing can be drawn)."""
    for i, pile in enumerate(state["market"]):
        if pile:
            continue
        card = draw_card(state, ev)
        if card is None:
            continue
        pile.append(card)
        ev.append(event("market_refilled", position=i + 1, card=card))


# ---- driving the round ----------------------------------------------------------------------------


def advance_round(state: JSON, ev: Events) -> bool:
    """Run every automatic step until a player must decide; True when the round is over."""
    rnd = state["round"]
    while state["pending"] is None:
        stage = rnd["stage"]
        if stage == "decide":
            if rnd["to_decide"]:
                return False
            rnd["stage"] = "resolve"
        elif stage == "resolve":
            if not rnd["to_resolve"]:
                rnd["stage"] = "critique"
                continue
            seat = resolver(state)
            record = rnd["choices"][seat]
            if not record["pre_done"]:
                run_pre_action(state, seat, record, ev)
                continue
            if record["left"] > 0:
                if must_ask(state, seat):
                    return False
                record["left"] -= 1
                ev.append(event("skipped", seat=seat, action=rnd["lead_action"]))
                continue
            rnd["to_resolve"].pop(0)
        elif stage == "critique":
            if rnd["critique"] is None:
                if state["pending_critiques"] <= 0:
                    start_cleanup(state, ev)
                    continue
                start_critique(state, ev)
            if any(card is None for card in rnd["critique"].values()):
                return False
            finish_critique(state, ev)
        else:
            if rnd["to_place"]:
                options = place_options(state)
                if len(options) > 1:
                    return False
                place_card(state, rnd["to_place"][0], options[0]["position"], ev)
                continue
            refill_market(state, ev)
            state["round"] = None
            ev.append(event("round_ended"))
            return True
    return False
