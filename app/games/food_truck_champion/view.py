"""What one viewer may see: other hands, deck order, face-down Completed tickets and token values are hidden."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.food_truck_champion.data import CARDS, TICKETS, TRUCKS
from app.games.food_truck_champion.scoring import final_outcome
from app.games.food_truck_champion.zones import capacities, need
from app.games.toolkit import JSON

# The printed faces of the cards, so a renderer can draw ids without its own copy of the data. It is
# static, so it is served once (the engine's `catalog`, GET /api/games/{id}/catalog), not in every view.
CATALOG: JSON = {
    "cards": {cid: {"action": c.get("action"), "ingredient": c.get("ingredient"), "icons": TICKETS[cid]["icons"],
                    "logo": TICKETS[cid]["logo"], "dish": TICKETS[cid]["dish"]}
              for cid, c in ({**CARDS, **{t: {} for t in TICKETS if t not in CARDS}}).items()},
    "trucks": {tid: {"name": t["name"], "logo": t["logo"], "profile": t["flavor_profile"],
                     "owner_card": t["owner_card"]} for tid, t in TRUCKS.items()},
}


def public_board(board: JSON, revealed: bool) -> JSON:
    """One truck board as everyone sees it, with public sizes and derived capacities."""
    out = dict(board)
    out["hand_count"] = len(board["hand"])
    out["completed_count"] = len(board["completed"])
    out["token_count"] = len(board["tokens"])
    out["capacity"] = capacities(board)
    out["plating"] = [{**slot, "need": need(slot)} for slot in board["plating"]]
    if revealed:
        out["hand"] = list(board["hand"])
    else:
        out["hand"] = out["completed"] = out["tokens"] = None
    return out


def own_board(public: JSON, board: JSON) -> JSON:
    """The viewer's own board: the public one with its hand, Completed tickets and tokens."""
    return {**public, "hand": list(board["hand"]), "completed": board["completed"], "tokens": board["tokens"]}


def redact(state: JSON, viewer: str | None, awaiting: list[str]) -> JSON:
    """The state redacted for `viewer` (None = spectator), `awaiting` being the seats awaited now."""
    return redact_all(state, [viewer], awaiting)[0]


def redact_all(state: JSON, viewers: Sequence[str | None], awaiting: list[str]) -> list[JSON]:
    """The state redacted for each viewer (None = spectator); everything is revealed once the game is over.

    The public parts are built once and shared by all the views."""
    over = state["phase"] == "over"
    common: JSON = dict(state)
    for hidden_or_per_viewer in ("rng", "deck", "boards", "round"):
        del common[hidden_or_per_viewer]
    common["deck_count"] = len(state["deck"])
    common["awaiting"] = awaiting
    common["final"] = final_outcome(state) if over else None
    boards = {seat: public_board(board, over) for seat, board in state["boards"].items()}
    rnd = state["round"]
    out = []
    for viewer in viewers:
        view: JSON = {**common, "viewer": viewer}
        if viewer in boards and not over:
            view["boards"] = {**boards, viewer: own_board(boards[viewer], state["boards"][viewer])}
        else:
            view["boards"] = boards
        if rnd is not None and rnd["critique"] is not None:
            # Critique picks are secret until everyone has picked: others only see who is done.
            critique = {seat: (card if seat == viewer else card is not None) for seat, card in rnd["critique"].items()}
            view["round"] = {**rnd, "critique": critique}
        else:
            view["round"] = dict(rnd) if rnd is not None else None
        out.append(view)
    return out
