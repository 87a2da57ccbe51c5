"""Moving the game along: automatic phases run until some seat's input is awaited."""

from __future__ import annotations

from app.games.food_chain_magnate.bank import game_ending
from app.games.food_chain_magnate.phases import cleanup, order_of_business, payday, restructuring
from app.games.food_chain_magnate.phases.dinnertime import dinnertime
from app.games.food_chain_magnate.phases.marketing_campaigns import marketing_campaigns
from app.games.food_chain_magnate.phases.working import turn
from app.games.food_chain_magnate.players import active_seats
from app.games.toolkit import JSON


def advance(state: JSON, events: list[JSON]) -> None:
    """Run phase transitions and automatic phases until a decision is awaited or the game is over."""
    while True:
        phase = state["phase"]
        if phase == "start_round":
            if not active_seats(state):
                _game_over(state, events)
                return
            restructuring.start_round(state, events)
        elif phase == "restructuring":
            if not restructuring.all_submitted(state):
                return
            restructuring.reveal_structures(state, events)
            order_of_business.start_order_of_business(state, events)
        elif phase == "order_of_business":
            if len(state["queue"]) == 1:
                order_of_business.apply_order(state, state["queue"][0],
                                              {"type": "position",
                                               "position": order_of_business.free_positions(state)[0]}, events)
            if state["queue"]:
                return
            order_of_business.finish_order_of_business(state)
            turn.start_working(state, events)
            turn.settle(state, events)
        elif phase == "working":
            if not turn.working_done(state):
                return
            dinnertime(state, events)
            if game_ending(state):
                _game_over(state, events)
                return
            if state["options"]["intro"]:
                state["phase"] = "marketing"
            else:
                payday.start_payday(state, events)
        elif phase == "payday_firing":
            if not payday.all_fired(state):
                return
            payday.resolve_firing(state, events)
        elif phase == "payday_forced":
            if state["queue"]:
                return
            payday.pay_salaries(state, events)
            state["phase"] = "marketing"
        elif phase == "marketing":
            marketing_campaigns(state, events)
            cleanup.start_cleanup(state, events)
        elif phase == "cleanup":
            if state["queue"]:
                return
            cleanup.finish_cleanup(state, events)
            state["phase"] = "start_round"
        else:
            return


def _game_over(state: JSON, events: list[JSON]) -> None:
    state["phase"] = "over"
    events.append({"type": "game_over", "cash": {s: state["p"][s]["cash"] for s in state["players"]},
                   "visible_to": None})
