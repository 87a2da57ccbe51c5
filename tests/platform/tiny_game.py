"""A tiny game for the platform's tests: secret simultaneous picks, then turns.

Each round every seat secretly picks 0-3 (all at once; nothing shown until all
are in), the picks are revealed and added to the scores, then each seat in turn
`bump`s its own score by one. With the `leans` option a seat may first `lean`
towards a number, as often as it likes: a secret step that shows nobody else
anything (a draft, services/drafts.py). The first round that ends with someone at or past
`target` ends the game. The seeded generator decides who bumps first.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import Applied, BotLevel, Game, IllegalAction, Outcome, rank_by
from app.games.rng import Rng


class TinyGame(Game):
    id = "tiny"
    title = "Tiny"
    description = "A test game."
    min_players = 1
    max_players = 4
    options = [{"id": "target", "type": "int", "default": 6, "label": "Target"},
               {"id": "leans", "type": "bool", "default": False, "label": "Leans"}]

    def new_game(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> dict:
        rng = Rng(seed)
        first = rng.below(len(players))
        return {
            "players": list(players),
            "target": int((options or {}).get("target", 6)),
            "phase": "pick",
            "picks": {p: None for p in players},
            "scores": {p: 0 for p in players},
            "turn": first,
            "bumped": 0,
            "round": 1,
            "leans": bool((options or {}).get("leans", False)),
            "leaning": {p: None for p in players},
            "rng": rng.state,
            "over": False,
        }

    def awaiting(self, state: dict) -> list[str]:
        if state["over"]:
            return []
        if state["phase"] == "pick":
            return [p for p in state["players"] if state["picks"][p] is None]
        return [state["players"][state["turn"]]]

    def actions(self, state: dict, player: str) -> list[dict]:
        if player not in self.awaiting(state):
            return []
        if state["phase"] == "pick":
            leans = [{"type": "lean", "n": n} for n in range(4)] if state.get("leans") else []
            return [{"type": "pick", "n": n} for n in range(4)] + leans
        return [{"type": "bump"}]

    def apply(self, state: dict, player: str, action: dict) -> Applied:
        if action.get("type") == "boom":
            raise RuntimeError("the tiny game exploded")
        if player not in self.awaiting(state):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if action not in self.actions(state, player):
            raise IllegalAction("illegal", "That is not a legal move now.")
        s = copy.deepcopy(state)
        events: list[dict] = []
        if action["type"] == "lean":
            s["leaning"][player] = action["n"]
            events.append({"type": "leaned", "seat": player, "n": action["n"], "visible_to": [player]})
            return Applied(state=s, events=events, undoable=True)
        if s["phase"] == "pick":
            s["picks"][player] = action["n"]
            events.append({"type": "picked", "seat": player, "n": action["n"], "visible_to": [player]})
            events.append({"type": "chose", "seat": player, "visible_to": None})
            if all(v is not None for v in s["picks"].values()):
                for p, n in s["picks"].items():
                    s["scores"][p] += n
                events.append({"type": "revealed", "picks": dict(s["picks"]), "visible_to": None})
                s["phase"] = "bump"
                s["bumped"] = 0
        else:
            s["scores"][player] += 1
            events.append({"type": "bumped", "seat": player, "visible_to": None})
            s["bumped"] += 1
            s["turn"] = (s["turn"] + 1) % len(s["players"])
            if s["bumped"] == len(s["players"]):
                if max(s["scores"].values()) >= s["target"]:
                    s["over"] = True
                else:
                    s["phase"] = "pick"
                    s["picks"] = {p: None for p in s["players"]}
                    s["round"] += 1
        # A pick stays secret until all are in, so it may be taken back until then.
        return Applied(state=s, events=events, undoable=action["type"] == "pick" and s["phase"] == "pick")

    def view(self, state: dict, viewer: str | None) -> dict:
        v = {k: val for k, val in state.items() if k != "rng"}
        if state["phase"] == "pick" and not state["over"]:
            v["picks"] = {p: (n if p == viewer else (None if n is None else "hidden")) for p, n in state["picks"].items()}
        if "leaning" in state:
            v["leaning"] = {p: n for p, n in state["leaning"].items() if p == viewer}
        return v

    def outcome(self, state: dict) -> Outcome | None:
        if not state["over"]:
            return None
        scores = state["scores"]
        ranking = rank_by({p: [scores[p]] for p in state["players"]}, state["players"])
        return {"scores": dict(scores), "ranking": ranking, "winners": ranking[0], "details": {}}

    def bot_action(
        self, view: dict, player: str, seed: int, level: BotLevel = BotLevel.NORMAL, playouts: int | None = None
    ) -> dict:
        return {"type": "pick", "n": 3} if view["phase"] == "pick" else {"type": "bump"}


def install() -> None:
    """Offer the tiny game in this process's registry."""
    from app.games import GAMES

    GAMES["tiny"] = TinyGame()


def withdraw() -> None:
    """No tiny game in this process's registry (the browser tests' server lists every registered game)."""
    from app.games import GAMES

    GAMES.pop("tiny", None)
