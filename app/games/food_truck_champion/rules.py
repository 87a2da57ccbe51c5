"""Who is awaited, the complete list of legal actions, and applying one action (or refusing it with a code)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from app.games.base import Applied, IllegalAction
from app.games.food_truck_champion.diagnose import diagnose
from app.games.food_truck_champion.research import discard, discard_options
from app.games.food_truck_champion.round import (
    critique,
    critique_options,
    decide,
    decide_options,
    perform,
    place_card,
    place_options,
    resolve_options,
    resolver,
)
from app.games.food_truck_champion.staff import choose_lower_token
from app.games.food_truck_champion.tokens import free_gray_sections, lower_choices, place_token
from app.games.food_truck_champion.turn import active_seat, advance, take_turn, turn_options
from app.games.food_truck_champion.zones import Events
from app.games.toolkit import JSON, is_listed


def working_copy(state: JSON) -> JSON:
    """The copy of the state that `apply` changes: copied field by field as docs/games/food-truck-champion.md
    describes them, except that each truck board is copied only when a step first looks it up.

    Most steps touch one or two boards, so the new state shares the others with the old one (which nothing
    changes). Tests check that a state after `apply` shares nothing else with its input, so a new field that
    holds a list or dict must be copied here too."""
    new = dict(state)  # the scalars: game, first_player, active, turn, rng, counters, phase ...
    for key in ("players", "order", "deck", "discard", "removed"):
        new[key] = list(state[key])
    new["market"] = [list(pile) for pile in state["market"]]
    new["stacks"] = {value: list(stack) for value, stack in state["stacks"].items()}
    new["box_tokens"] = dict(state["box_tokens"])
    if state["neutral"] is not None:
        new["neutral"] = {**state["neutral"], "stack": list(state["neutral"]["stack"])}
    if state["round"] is not None:
        new["round"] = copy_round(state["round"])
    if state["pending"] is not None:
        new["pending"] = dict(state["pending"])
    new["boards"] = BoardsCopiedOnLookup(state["boards"])
    return new


class BoardsCopiedOnLookup(Mapping[str, JSON]):
    """The `boards` of a working copy: the first lookup of a seat's board copies it, so the step may change it.

    Every way of reading a board (`[seat]`, `get`, `values`, `items`) goes through that lookup, except `peek`
    (`zones.board_to_read`), for steps that only read; `boards` holds the copied boards and the still shared
    ones, and becomes the new state's `boards` at the end."""

    def __init__(self, shared: JSON) -> None:
        self.boards: JSON = dict(shared)
        self.copied: set[str] = set()

    def __getitem__(self, seat: str) -> JSON:
        board: JSON = self.boards[seat]
        if seat not in self.copied:
            board = self.boards[seat] = copy_board(board)
            self.copied.add(seat)
        return board

    def peek(self, seat: str) -> JSON:
        """The seat's board as it is now, not copied: it may be shared with the input, so it is only read."""
        board: JSON = self.boards[seat]
        return board

    def __iter__(self) -> Iterator[str]:
        return iter(self.boards)

    def __len__(self) -> int:
        return len(self.boards)


def copy_round(rnd: JSON) -> JSON:
    """A deep copy of an action round."""
    new = dict(rnd)
    new["choices"] = {seat: dict(choice) for seat, choice in rnd["choices"].items()}
    for key in ("to_decide", "to_resolve", "to_place"):
        new[key] = list(rnd[key])
    if rnd["critique"] is not None:
        new["critique"] = dict(rnd["critique"])
    return new


def copy_board(board: JSON) -> JSON:
    """A deep copy of a truck board."""
    new = dict(board)
    for key in ("hand", "fridge", "hired_staff", "completed", "awards", "tokens"):
        new[key] = list(board[key])
    new["plating"] = [{**slot, "on": list(slot["on"])} for slot in board["plating"]]
    new["gray"] = dict(board["gray"])
    return new


def awaiting(state: JSON) -> list[str]:
    """Seats whose input is awaited now; several during a critique pass (secret, simultaneous picks)."""
    if state["phase"] == "over":
        return []
    pending = state["pending"]
    if pending is not None:
        return [pending["seat"]]
    rnd = state["round"]
    if rnd is None:
        seat = active_seat(state)
        return [] if seat is None else [seat]
    stage = rnd["stage"]
    if stage == "decide":
        return [rnd["to_decide"][0]]
    if stage == "resolve":
        return [resolver(state)]
    if stage == "critique":
        return [seat for seat, card in rnd["critique"].items() if card is None]
    return [rnd["to_place"][0]]


def pending_options(state: JSON, pending: JSON) -> list[JSON]:
    """Choices inside a step: discarding, the lesser-value token, or where a token goes."""
    board = state["boards"][pending["seat"]]
    if pending["kind"] == "discard":
        return discard_options(board)
    if pending["kind"] == "token":
        return [*({"type": "take_token", "value": v} for v in lower_choices(state, pending["value"])),
                {"type": "decline_token"}]
    return [{"type": "place_token", "section": s} for s in free_gray_sections(board)]


def actions(state: JSON, player: str) -> list[JSON]:
    """Every legal action of `player` now (empty when they are not awaited)."""
    if player not in awaiting(state):
        return []
    return step_options(state, player)


def step_options(state: JSON, player: str) -> list[JSON]:
    """The legal actions of an awaited player in the current step."""
    if state["pending"] is not None:
        return pending_options(state, state["pending"])
    rnd = state["round"]
    if rnd is None:
        return turn_options(state, player)
    stage = rnd["stage"]
    if stage == "decide":
        return decide_options(state, player)
    if stage == "resolve":
        return resolve_options(state, player)
    if stage == "critique":
        return critique_options(state, player)
    return place_options(state)


def dispatch(state: JSON, player: str, action: JSON, ev: Events) -> None:
    """Route a legal action to the rule step that carries it out."""
    kind = action["type"]
    pending = state["pending"]
    if pending is not None:
        if kind == "discard":
            discard(state, player, action["card"], ev)
        elif kind == "take_token":
            choose_lower_token(state, player, int(action["value"]), ev)
        elif kind == "decline_token":
            choose_lower_token(state, player, None, ev)
        else:
            state["pending"] = None
            place_token(state["boards"][player], player, action["section"], ev)
        return
    rnd = state["round"]
    if rnd is None:
        take_turn(state, player, action, ev)
    elif rnd["stage"] == "decide":
        decide(state, player, action, ev)
    elif rnd["stage"] == "resolve":
        perform(state, player, action, ev)
    elif rnd["stage"] == "critique":
        critique(state, player, action["card"], ev)
    else:
        place_card(state, player, int(action["position"]), ev)


def apply(state: JSON, player: str, action: JSON) -> Applied:
    """Apply a legal action to a copy of the state and run on to the next decision."""
    if state["phase"] == "over":
        raise IllegalAction("game_over", "The game is over.")
    if player not in state["boards"]:
        raise IllegalAction("no_such_seat", "You are not playing at this table.")
    if player not in awaiting(state):
        raise IllegalAction("not_your_turn", "It is not your turn to act.")
    if not isinstance(action, dict) or not is_listed(action, step_options(state, player)):
        raise diagnose(state, player, action)
    return apply_listed(state, player, action)


def apply_listed(state: JSON, player: str, action: JSON) -> Applied:
    """`apply` of an action that `actions(state, player)` lists, without listing them again."""
    new = working_copy(state)
    ev: Events = []
    dispatch(new, player, action, ev)
    advance(new, ev)
    new["boards"] = new["boards"].boards  # a plain dict again
    undoable = not any(reveals(e) for e in ev) and awaiting(new) == [player]
    return Applied(state=new, events=ev, undoable=undoable)


# Events that reveal information, bring in randomness or are final by rule (a follow decision, §4.3):
# a step producing one cannot be taken back.
REVEALING = {"drew", "market_refilled", "deck_rebuilt", "awarded", "lead", "decided", "game_over", "token_taken",
             "discarded"}


def reveals(e: JSON) -> bool:
    """Whether an event ends the step's undo: private, random or final, or an Exec. Chef putting a secret hand card
    on a ticket."""
    if e["visible_to"] is not None or e["type"] in REVEALING:
        return True
    return e["type"] == "ingredient_placed" and e["action"] == "exec_chef"
