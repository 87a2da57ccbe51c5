"""`apply_listed`, the server's way to apply a move it found in the list, must be `apply` without the check."""

from __future__ import annotations

import random

import pytest

from app.games import GAMES
from tests.games.contract import assert_listed_applies_alike, seats


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_listed_action_applies_alike_either_way(game_id: str) -> None:
    game = GAMES[game_id]
    players = seats(min(4, game.max_players))
    state = game.new_game(players, 11)
    rnd = random.Random(11)
    for _step in range(300):
        if game.outcome(state) is not None:
            break
        player = rnd.choice(game.awaiting(state))
        action = rnd.choice(game.actions(state, player))
        applied = game.apply(state, player, action)
        assert_listed_applies_alike(game, state, player, action, applied)
        state = applied.state
