"""The five staff actions (Driver, Cashier, Manager, Prep Cook, Exec. Chef) and completing an order."""

from __future__ import annotations

from app.games.food_truck_champion.data import STARTING_ORDERS, TICKETS
from app.games.food_truck_champion.tokens import (
    free_gray_sections,
    lower_choices,
    place_token,
    take_token,
    token_on_top,
)
from app.games.food_truck_champion.zones import (
    Events,
    accessible,
    board_to_read,
    capacity,
    event,
    icons_of,
    ingredient_of,
    is_owner_card,
    need,
    take_from_market,
)
from app.games.toolkit import JSON

# Action type of each staff action, and the board section a market-taking action fills.
STAFF_TYPE: dict[str, str] = {
    "Driver": "driver",
    "Cashier": "cashier",
    "Manager": "manager",
    "Prep Cook": "prep_cook",
    "Exec. Chef": "exec_chef",
}
MARKET_SECTION: dict[str, str] = {"driver": "fridge", "cashier": "plating", "manager": "hired_staff"}


def section_cards(board: JSON, section: str) -> list[str]:
    """Card ids lying in a board section (for Plating: the ticket cards)."""
    if section == "plating":
        return [slot["card"] for slot in board["plating"]]
    return list(board[section])


def market_options(state: JSON, board: JSON, kind: str) -> list[JSON]:
    """Driver / Cashier / Manager: take an accessible market card into a free space, or replace a card."""
    section = MARKET_SECTION[kind]
    present = section_cards(board, section)
    room = len(present) < capacity(board, section)
    out: list[JSON] = []
    for position in accessible(state):
        if room:
            out.append({"type": kind, "position": position})
        out.extend({"type": kind, "position": position, "replace": card} for card in present)
    return out


def placement_options(board: JSON, kind: str) -> list[JSON]:
    """Prep Cook (from the Fridge) / Exec. Chef (from hand): put an ingredient a ticket still needs on it."""
    source = board["fridge"] if kind == "prep_cook" else board["hand"]
    needs = [(slot["card"], need(slot)) for slot in board["plating"]]
    out: list[JSON] = []
    for card in source:
        if is_owner_card(card):
            continue
        face = ingredient_of(card)
        out.extend({"type": kind, "card": card, "ticket": ticket} for ticket, missing in needs if face in missing)
    return out


def staff_options(state: JSON, seat: str, staff_action: str) -> list[JSON]:
    """Every concrete way for `seat` to perform one `staff_action` now (declining not included)."""
    board = state["boards"][seat]
    kind = STAFF_TYPE[staff_action]
    if kind in MARKET_SECTION:
        return market_options(state, board, kind)
    return placement_options(board, kind)


def can_perform(state: JSON, seat: str, staff_action: str) -> bool:
    """Whether `staff_options` offers anything, found without listing the options (the round asks it often)."""
    board = board_to_read(state, seat)
    kind = STAFF_TYPE[staff_action]
    if kind in MARKET_SECTION:
        section = MARKET_SECTION[kind]
        present = len(board[section])
        return any(state["market"]) and (present > 0 or present < capacity(board, section))
    source = board["fridge"] if kind == "prep_cook" else board["hand"]
    needs = [need(slot) for slot in board["plating"]]
    return any(
        ingredient_of(card) in missing for card in source if not is_owner_card(card) for missing in needs
    )


def hire_from_market(state: JSON, seat: str, action: JSON, ev: Events) -> None:
    """Driver, Cashier or Manager: move the top market card into the board section, replacing if asked."""
    board = state["boards"][seat]
    kind = action["type"]
    section = MARKET_SECTION[kind]
    position = int(action["position"])
    card = take_from_market(state, position)
    replaced = action.get("replace")
    if replaced is not None:
        discard_from_section(state, seat, section, replaced, ev)
    if section == "plating":
        board["plating"].append({"card": card, "on": []})
    else:
        board[section].append(card)
    ev.append(event("took_from_market", seat=seat, action=kind, card=card, position=position, section=section))


def discard_from_section(state: JSON, seat: str, section: str, card: str, ev: Events) -> None:
    """A replaced card goes to the discard pile; a replaced ticket goes first, then its ingredients."""
    board = state["boards"][seat]
    if section == "plating":
        slot = next(s for s in board["plating"] if s["card"] == card)
        board["plating"].remove(slot)
        # A Starting Order is not a game card: it leaves the game instead of being discarded.
        if card in STARTING_ORDERS:
            state["removed"].append(card)
        else:
            state["discard"].append(card)
        state["discard"].extend(slot["on"])
        ev.append(event("replaced", seat=seat, section=section, card=card, ingredients=list(slot["on"])))
        return
    board[section].remove(card)
    state["discard"].append(card)
    ev.append(event("replaced", seat=seat, section=section, card=card, ingredients=[]))


def cook(state: JSON, seat: str, action: JSON, ev: Events) -> None:
    """Prep Cook / Exec. Chef: place the ingredient on the ticket, then complete the order if nothing is missing."""
    board = state["boards"][seat]
    card = action["card"]
    source = board["fridge"] if action["type"] == "prep_cook" else board["hand"]
    source.remove(card)
    slot = next(s for s in board["plating"] if s["card"] == action["ticket"])
    slot["on"].append(card)
    ev.append(event("ingredient_placed", seat=seat, action=action["type"], card=card, ticket=slot["card"],
                    ingredient=ingredient_of(card)))
    if not need(slot):
        complete_order(state, seat, slot, ev)


def complete_order(state: JSON, seat: str, slot: JSON, ev: Events) -> None:
    """Move the ticket to Completed, discard its ingredients, and take a popularity token by ticket size."""
    board = state["boards"][seat]
    board["plating"].remove(slot)
    board["completed"].append(slot["card"])
    state["discard"].extend(slot["on"])
    value = len(icons_of(slot["card"]))
    ev.append(event("order_completed", seat=seat, ticket=slot["card"], dish=TICKETS[slot["card"]]["dish"],
                    value=value))
    if token_on_top(state, value):
        take_token(state, seat, value, ev)
        ask_token_placement(state, seat, value, ev)
    elif lower_choices(state, value):
        state["pending"] = {"kind": "token", "seat": seat, "value": value}
    else:
        ev.append(event("no_token", seat=seat, value=value))


def ask_token_placement(state: JSON, seat: str, value: int, ev: Events) -> None:
    """Place a just-taken token: ask only when there is a real choice of gray icons."""
    board = state["boards"][seat]
    free = free_gray_sections(board)
    if len(free) > 1:
        state["pending"] = {"kind": "place_token", "seat": seat, "value": value}
    else:
        place_token(board, seat, free[0] if free else None, ev)


def choose_lower_token(state: JSON, seat: str, value: int | None, ev: Events) -> None:
    """Lesser-value fallback: take the top of a lower stack (`value`), or nothing (None)."""
    state["pending"] = None
    if value is None:
        ev.append(event("no_token", seat=seat, value=0))
        return
    take_token(state, seat, value, ev)
    ask_token_placement(state, seat, value, ev)
