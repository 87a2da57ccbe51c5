"""Views made together share their public parts; each must still equal the view made alone."""

from __future__ import annotations

import random

import pytest

from app.games import GAMES
from tests.games.contract import canonical, seats


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_views_together_equal_views_alone(game_id: str) -> None:
    game = GAMES[game_id]
    players = seats(min(4, game.max_players))
    viewers: list[str | None] = [None, *players]
    state = game.new_game(players, 5)
    rnd = random.Random(5)
    for step in range(400):
        if game.outcome(state) is not None:
            break
        if step % 7 == 0:
            together = [canonical(v) for v in game.views(state, viewers)]
            assert together == [canonical(game.view(state, v)) for v in viewers], f"step {step}"
            # The order of the viewers changes nothing either.
            assert [canonical(v) for v in game.views(state, viewers[::-1])] == together[::-1]
        player = rnd.choice(game.awaiting(state))
        state = game.apply(state, player, rnd.choice(game.actions(state, player))).state
    together = [canonical(v) for v in game.views(state, viewers)]
    assert together == [canonical(game.view(state, v)) for v in viewers]
