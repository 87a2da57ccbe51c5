"""Each game's lobby texts: every choice named in words, and everything the lobby shows in Spanish too."""

from __future__ import annotations

import pytest

from app.games import GAMES
from app.services.options import game_json


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_lobby_can_say_everything_in_spanish(game_id: str) -> None:
    j = game_json(GAMES[game_id])
    shown = [j["description"]]
    for option in j["options"]:
        shown.append(option["label"])
        if option["type"] == "choice":
            labels = option["choice_labels"]
            assert set(labels) == set(option["choices"]), option["id"]
            assert len(set(labels.values())) == len(labels), f"{option['id']}: two choices read the same"
            shown += labels.values()
    es = j["i18n"]["es"]
    assert [text for text in shown if text not in es] == []
    assert all(es[text] and es[text] != text for text in shown)
