"""Setup, the three turn options, passing the Active Player token, the neutral owner and the game end."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.food_truck_champion.data import (
    CARD_IDS,
    GRAY_ICONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPENING_HAND,
    STAFF_ACTIONS,
    TOKEN_VALUES,
    TOKENS,
    TRUCK_IDS,
    TRUCKS,
    market_size,
    stack_shape,
)
from app.games.food_truck_champion.research import can_take_charge, market_research, take_charge
from app.games.food_truck_champion.round import advance_round, start_round
from app.games.food_truck_champion.zones import Events, action_of, draw_card, event, is_owner_card
from app.games.rng import Rng, seed_state
from app.games.toolkit import JSON


def new_board(truck: str) -> JSON:
    """A truck board at setup: Owner face-down on the board, Starting Order in the Plating Area."""
    return {
        "truck": truck,
        "hand": [],
        "owner": "board",
        "centre": None,
        "fridge": [],
        "hired_staff": [],
        "plating": [{"card": TRUCKS[truck]["starting_order"], "on": []}],
        "completed": [],
        "awards": [],
        "tokens": [],
        "gray": {section: 0 for section in GRAY_ICONS},
    }


def setup(players: Sequence[str], seed: int) -> JSON:
    """Deal a new game for 2-5 seats: trucks, hands, market, token stacks, first player, neutral owner."""
    seats = [str(p) for p in players]
    n = len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS or len(set(seats)) != n:
        raise ValueError(f"Food Truck Champion needs {MIN_PLAYERS}-{MAX_PLAYERS} distinct seats")
    rng = Rng(seed_state(seed))
    trucks = list(TRUCK_IDS)
    rng.shuffle(trucks)
    first = rng.below(n)
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    order = seats[first:] + seats[:first]
    boards = {seat: new_board(trucks[i]) for i, seat in enumerate(seats)}
    for seat in order:
        boards[seat]["hand"] = deck[:OPENING_HAND]
        del deck[:OPENING_HAND]
    size = market_size(n)
    market = [[card] for card in deck[:size]]
    del deck[:size]
    shape = stack_shape(n)
    neutral = None
    if n == 2:
        # Any unused Owner card serves as the neutral owner; it only marks the neutral seat.
        neutral = {"owner": TRUCKS[trucks[n + rng.below(len(trucks) - n)]]["owner_card"], "stack": [],
                   "centre": None}
    return {
        "game": "food-truck-champion",
        "players": seats,
        "order": order,
        "first_player": order[0],
        "active": 0,
        "turn": 1,
        "neutral": neutral,
        "rng": rng.state,
        "deck": deck,
        "discard": [],
        "removed": [],
        "market": market,
        "stacks": {v: list(shape) for v in TOKEN_VALUES},
        "box_tokens": {v: TOKENS["popularity_tokens"][v] - shape.count("P") for v in TOKEN_VALUES},
        "critiques_aside": 0,
        "pending_critiques": 0,
        "end_triggered": False,
        "phase": "turn",
        "round": None,
        "pending": None,
        "boards": boards,
    }


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
