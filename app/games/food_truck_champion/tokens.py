"""Popularity token stacks: taking a token, revealing critiques, the end trigger and gray icons."""

from __future__ import annotations

from app.games.food_truck_champion.data import END_TRIGGER_STACKS, GRAY_ICONS, SECTIONS, TOKEN_VALUES
from app.games.food_truck_champion.zones import Events, event
from app.games.toolkit import JSON


def token_on_top(state: JSON, value: int) -> bool:
    """True when the stack of `value` still has a popularity token on top."""
    stack = state["stacks"][str(value)]
    return bool(stack) and stack[0] == "P"


def lower_choices(state: JSON, value: int) -> list[int]:
    """Lower-valued stacks a player may take from when the exact value has run out."""
    return [int(v) for v in TOKEN_VALUES if int(v) < value and token_on_top(state, int(v))]


def exhausted_stacks(state: JSON) -> int:
    """Number of stacks holding nothing at all."""
    return sum(1 for v in TOKEN_VALUES if not state["stacks"][v])


def take_token(state: JSON, seat: str, value: int, ev: Events) -> None:
    """Remove the top token of stack `value`; reveal critiques beneath it; check the end trigger."""
    stack = state["stacks"][str(value)]
    stack.pop(0)
    state["boards"][seat]["tokens"].append(value)
    ev.append(event("token_taken", seat=seat, value=value))
    # A revealed critique token is set aside at once, so a stack's top is never a critique.
    while stack and stack[0] == "C":
        stack.pop(0)
        state["critiques_aside"] += 1
        state["pending_critiques"] += 1
        ev.append(event("critique_revealed", value=value, pending=state["pending_critiques"]))
    if not stack:
        ev.append(event("stack_exhausted", value=value))
    if not state["end_triggered"] and exhausted_stacks(state) >= END_TRIGGER_STACKS:
        state["end_triggered"] = True
        ev.append(event("end_triggered", reason="stacks"))


def free_gray_sections(board: JSON) -> list[str]:
    """Sections that still have an uncovered gray icon."""
    return [s for s in SECTIONS if board["gray"][s] < GRAY_ICONS[s]]


def place_token(board: JSON, seat: str, section: str | None, ev: Events) -> None:
    """Put the token just taken face-down on a gray icon of `section` (or beside the board when None)."""
    if section is not None:
        board["gray"][section] += 1
    ev.append(event("token_placed", seat=seat, section=section))
