"""Rules audit: rare cases of the spec checked against the engine (end trigger, empty market, ties, A26)."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from tests.games.foodies.helpers import G, blank_state, roll, set_player, step


def test_rival_reaching_threshold_on_the_last_seats_roll_ends_the_game_after_that_turn() -> None:
    # spec §6: "It can happen to any player at any moment: during another player's roll" and
    # "If the trigger happens during the last seat's own turn, that turn is completed (buy and hire
    # phases included) and the game ends right after it. Seat 1 never starts a new round"
    state = blank_state(3)
    state["active"] = "2"  # the last seat
    set_player(state, "0", popularity=19, popularity_tokens={5: 1})
    set_player(state, "2", coins=4)
    state = roll(state, 5).state
    assert state["end_triggered"] and state["phase"] == "buy" and G.outcome(state) is None
    state = step(state, "2", {"type": "skip_buy"})
    state = step(state, "2", {"type": "hire_chef"})
    state = step(state, "2", {"type": "end_turn"})
    assert state["phase"] == "over" and G.awaiting(state) == []
    out = G.outcome(state)
    assert out is not None and out["winners"] == ["0"]


def test_empty_deck_and_empty_market_offer_only_skip_buy() -> None:
    # A20: "Empty deck. Slot 1 stays empty; an empty slot cannot be bought ... No reshuffle."
    # §5.2: "The game does not end because the deck or market runs out."
    state = blank_state(2)
    state["deck"], state["market"], state["phase"] = [], [None] * 5, "buy"
    set_player(state, "0", coins=50)
    assert G.actions(state, "0") == [{"type": "skip_buy"}]
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, "0", {"type": "buy", "slot": 5, "space": 1})
    assert exc.value.code == "empty_slot"
    state = step(state, "0", {"type": "skip_buy"})
    state = step(state, "0", {"type": "end_turn"})
    assert state["phase"] == "roll" and state["active"] == "1"


def test_hire_phase_open_without_buying() -> None:
    # A26: "Buying is optional and capped at one; the Hire phase is open even if nothing was bought."
    state = blank_state(2)
    state["special_chefs"] = [{"id": "crossroads", "claimed_by": None}, {"id": "trio", "claimed_by": None}]
    set_player(state, "0", coins=4, court={2: "AME01", 4: "AME02", 5: "AME03", 6: "AME04", 8: "AME05"})
    state["phase"] = "buy"
    state = step(state, "0", {"type": "skip_buy"})
    assert G.actions(state, "0") == [{"type": "hire_chef"}, {"type": "claim_chef", "chef": "crossroads"},
                                     {"type": "end_turn"}]


def test_five_players_tied_on_popularity_and_coins_all_share_the_win() -> None:
    # §6: "Still tied: all those players share the victory." "players equal on both share a rank."
    state = blank_state(5)
    state["phase"] = "over"
    for seat in state["seats"]:
        set_player(state, seat, popularity=30, coins=2)
    set_player(state, "4", coins=1)
    out = G.outcome(state)
    assert out is not None
    assert out["winners"] == ["0", "1", "2", "3"] and out["ranking"] == [["0", "1", "2", "3"], ["4"]]
    assert out["details"]["4"]["place"] == 5
