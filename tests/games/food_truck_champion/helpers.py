"""Hand-made states, a step helper and the card/token accounting invariant for the Food Truck Champion tests."""

from __future__ import annotations

from collections import Counter

from app.games.base import Applied
from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.data import CARD_IDS, GRAY_ICONS, SECTIONS, TRUCKS
from app.games.food_truck_champion.setup import new_board
from app.games.food_truck_champion.zones import capacity, need
from app.games.toolkit import JSON
from tests.games.contract import canonical, seats


def make_state(
    n: int,
    trucks: list[str] | None = None,
    hands: dict[str, list[str]] | None = None,
    boards: dict[str, JSON] | None = None,
    market: list[list[str]] | None = None,
    deck_top: list[str] | None = None,
    discard: list[str] | None = None,
    stacks: dict[str, list[str]] | None = None,
    active: int = 0,
    removed: list[str] | None = None,
    check: bool = True,
) -> JSON:
    """A state at the start of seat `active`'s turn; seat "0" is the first player; unnamed cards fill the deck.

    `boards` entries override board fields (fridge, hired_staff, plating, completed, awards, tokens, gray, owner).
    `stacks` are written top to bottom; popularity tokens missing from the stacks are held by nobody, so
    tests that check the token invariant must keep them consistent.
    """
    players = seats(n)
    trucks = trucks or ["bear_burgers", "toro_taqueria", "crepe_escape", "green_machine", "curry_comet"][:n]
    state = ENGINE.new_game(players, 1)
    state["order"] = list(players)
    state["first_player"] = players[0]
    state["active"] = active
    state["boards"] = {seat: new_board(trucks[i]) for i, seat in enumerate(players)}
    for seat, cards in (hands or {}).items():
        state["boards"][seat]["hand"] = list(cards)
    for seat, fields in (boards or {}).items():
        state["boards"][seat].update(fields)
        if "owner" in fields and fields["owner"] == "hand":
            owner = TRUCKS[trucks[int(seat)]]["owner_card"]
            if owner not in state["boards"][seat]["hand"]:
                state["boards"][seat]["hand"].append(owner)
    if n == 2:
        unused = [t for t in TRUCKS if t not in trucks]
        state["neutral"] = {"owner": TRUCKS[unused[0]]["owner_card"], "stack": [], "centre": None}
    state["market"] = [list(p) for p in market] if market is not None else [[] for _ in state["market"]]
    state["discard"] = list(discard or [])
    state["removed"] = list(removed or [])
    if stacks is not None:
        state["stacks"] = {k: list(v) for k, v in stacks.items()}
        state["critiques_aside"] = 6 - sum(s.count("C") for s in state["stacks"].values())
        held = Counter(t for b in state["boards"].values() for t in b["tokens"])
        # Tokens neither in the stacks nor held by a modelled player count as out of play ("box").
        state["box_tokens"] = {v: 8 - state["stacks"][v].count("P") - held[int(v)] for v in state["stacks"]}
    placed = set(state["discard"]) | {c for p in state["market"] for c in p}
    for board in state["boards"].values():
        placed |= set(board["hand"]) | set(board["fridge"]) | set(board["hired_staff"])
        placed |= set(board["completed"]) | set(board["awards"])
        for slot in board["plating"]:
            placed |= {slot["card"], *slot["on"]}
    top = list(deck_top or [])
    state["deck"] = top + [c for c in CARD_IDS if c not in placed and c not in top]
    if check:
        check_invariant(state)
    return state


def step(state: JSON, seat: str, action: JSON) -> Applied:
    """Apply an action, checking that the input is untouched and the invariant holds after."""
    before = canonical(state)
    applied = ENGINE.apply(state, seat, action)
    assert canonical(state) == before, "apply mutated its input"
    check_invariant(applied.state)
    return applied


def run(state: JSON, *moves: tuple[str, JSON]) -> JSON:
    """Apply several (seat, action) moves; return the final state."""
    for seat, action in moves:
        state = step(state, seat, action).state
    return state


def zone_cards(state: JSON) -> list[str]:
    """Every card id lying anywhere in the state (game cards, Starting Orders and Owner cards)."""
    cards = list(state["deck"]) + list(state["discard"]) + list(state["removed"])
    for pile in state["market"]:
        cards.extend(pile)
    neutral = state["neutral"]
    if neutral is not None:
        cards.extend(neutral["stack"])
        if neutral["centre"] is not None:
            cards.append(neutral["centre"])
    for board in state["boards"].values():
        cards.extend(board["hand"] + board["fridge"] + board["hired_staff"] + board["completed"] + board["awards"])
        if board["centre"] is not None:
            cards.append(board["centre"])
        for slot in board["plating"]:
            cards.append(slot["card"])
            cards.extend(slot["on"])
    return cards


def check_invariant(state: JSON) -> None:
    """Every card, token and critique token accounted for; capacities and owner positions consistent."""
    cards = zone_cards(state)
    counts = Counter(cards)
    assert all(k == 1 for k in counts.values()), [c for c, k in counts.items() if k > 1]
    game_cards = sorted(c for c in cards if c.startswith("ftc-"))
    assert game_cards == CARD_IDS
    trucks = {b["truck"] for b in state["boards"].values()}
    starts = {c for c in cards if c.startswith("start-")}
    assert starts == {TRUCKS[t]["starting_order"] for t in trucks}
    for seat, board in state["boards"].items():
        owner = TRUCKS[board["truck"]]["owner_card"]
        where = board["owner"]
        assert (owner in board["hand"]) == (where == "hand")
        assert (board["centre"] == owner) == (where == "centre")
        assert (owner in cards) == (where != "board")
        for section in SECTIONS:
            assert 0 <= board["gray"][section] <= GRAY_ICONS[section]
            held = len(board["plating"]) if section == "plating" else len(board[section])
            assert held <= capacity(board, section), (seat, section)
        assert sum(board["gray"].values()) <= len(board["tokens"])
        for slot in board["plating"]:
            assert need(slot), "a complete ticket stayed in Plating"
        pending = state["pending"]
        if not (pending and pending["kind"] == "discard" and pending["seat"] == seat):
            assert len(board["hand"]) <= 7
    for value in ("1", "2", "3"):
        held = sum(b["tokens"].count(int(value)) for b in state["boards"].values())
        assert state["stacks"][value].count("P") + held + state["box_tokens"][value] == 8, value
        assert not state["stacks"][value] or state["stacks"][value][0] == "P"
    assert sum(s.count("C") for s in state["stacks"].values()) + state["critiques_aside"] == 6
    assert state["pending_critiques"] >= 0
