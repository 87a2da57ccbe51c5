"""The three turn options, passing the Active Player token, the neutral owner and the game end."""

from __future__ import annotations

from app.games.food_truck_champion.data import (
    STAFF_ACTIONS,
)
from app.games.food_truck_champion.research import can_take_charge, market_research, take_charge
from app.games.food_truck_champion.round import advance_round, start_round
from app.games.food_truck_champion.zones import Events, action_of, draw_card, event, is_owner_card
from app.games.toolkit import JSON


def cycle_length(state: JSON) -> int:
    """Seats the Active Player token visits: the players, plus the neutral owner with two players."""
    return len(state["order"]) + (1 if state["neutral"] is not None else 0)


def active_seat(state: JSON) -> str | None:
    """The seat holding the Active Player token (None while the neutral owner has it)."""
    i = state["active"]
    return str(state["order"][i]) if i < len(state["order"]) else None


def turn_options(state: JSON, seat: str) -> list[JSON]:
    """Market Research, Take Charge (Owner on the board), or Lead with any hand card (the Owner as any action)."""
    board = state["boards"][seat]
    out: list[JSON] = [{"type": "market_research"}]
    if can_take_charge(board):
        out.append({"type": "take_charge"})
    for card in board["hand"]:
        if is_owner_card(card):
            out.extend({"type": "lead", "card": card, "action": a} for a in STAFF_ACTIONS)
        else:
            out.append({"type": "lead", "card": card})
    return out


def take_turn(state: JSON, seat: str, action: JSON, ev: Events) -> None:
    """Carry out the active player's chosen turn action."""
    kind = action["type"]
    if kind == "market_research":
        market_research(state, seat, ev)
        state["phase"] = "end_turn"
    elif kind == "take_charge":
        take_charge(state, seat, ev)
        state["phase"] = "end_turn"
    else:
        card = action["card"]
        staff_action = action["action"] if is_owner_card(card) else action_of(card)
        start_round(state, seat, card, staff_action, ev)


def neutral_turn(state: JSON, ev: Events) -> None:
    """The neutral owner always leads with the top deck card; with nothing to draw it skips and the end triggers."""
    card = draw_card(state, ev)
    if card is None:
        ev.append(event("neutral_skipped"))
        # Ruling R26: every neutral lead buries a card for good, so an empty supply would stall the game.
        if not state["end_triggered"]:
            state["end_triggered"] = True
            ev.append(event("end_triggered", reason="supply_exhausted"))
        state["phase"] = "end_turn"
        return
    start_round(state, None, card, action_of(card), ev)


def pass_token(state: JSON, ev: Events) -> None:
    """Pass the Active Player token clockwise, or end the game when it would reach the first player."""
    nxt = (state["active"] + 1) % cycle_length(state)
    if state["end_triggered"] and nxt == 0:
        state["phase"] = "over"
        ev.append(event("game_over"))
        return
    state["active"] = nxt
    state["turn"] += 1
    seat = active_seat(state)
    ev.append(event("turn_started", seat=seat, turn=state["turn"]))
    if seat is None:
        neutral_turn(state, ev)
    else:
        state["phase"] = "turn"


def advance(state: JSON, ev: Events) -> None:
    """Run the game forward until some player has to decide (or the game is over)."""
    while state["pending"] is None:
        phase = state["phase"]
        if phase == "round":
            if not advance_round(state, ev):
                return
            state["phase"] = "end_turn"
        elif phase == "end_turn":
            pass_token(state, ev)
        else:
            return
