"""What one viewer may see: other hands, deck order, face-down Completed tickets and token values are hidden."""

from __future__ import annotations

from app.games.food_truck_champion.data import CARDS, SECTIONS, TICKETS, TRUCKS
from app.games.food_truck_champion.scoring import final_outcome
from app.games.food_truck_champion.zones import JSON, capacity, need

# The printed faces of the cards, so a renderer can draw ids without its own copy of the data. It is
# static, so it is served once (the engine's `catalog`, GET /api/games/{id}/catalog), not in every view.
CATALOG: JSON = {
    "cards": {cid: {"action": c.get("action"), "ingredient": c.get("ingredient"), "icons": TICKETS[cid]["icons"],
                    "logo": TICKETS[cid]["logo"], "dish": TICKETS[cid]["dish"]}
              for cid, c in ({**CARDS, **{t: {} for t in TICKETS if t not in CARDS}}).items()},
    "trucks": {tid: {"name": t["name"], "logo": t["logo"], "profile": t["flavor_profile"],
                     "owner_card": t["owner_card"]} for tid, t in TRUCKS.items()},
}


def board_view(board: JSON, mine: bool, revealed: bool) -> JSON:
    """One truck board as the viewer sees it, with public sizes and derived capacities."""
    out = {key: value for key, value in board.items()}
    out["hand_count"] = len(board["hand"])
    out["completed_count"] = len(board["completed"])
    out["token_count"] = len(board["tokens"])
    out["capacity"] = {s: capacity(board, s) for s in SECTIONS}
    out["plating"] = [{**slot, "need": sorted(need(slot).elements())} for slot in board["plating"]]
    if not (mine or revealed):
        out["hand"] = None
        out["completed"] = None
        out["tokens"] = None
    else:
        out["hand"] = list(board["hand"])
    return out


def view(state: JSON, viewer: str | None, awaiting: list[str]) -> JSON:
    """The state redacted for `viewer` (None = spectator); everything is revealed once the game is over."""
    over = state["phase"] == "over"
    out: JSON = {k: v for k, v in state.items() if k not in ("rng", "deck", "boards", "round")}
    out["deck_count"] = len(state["deck"])
    out["viewer"] = viewer
    out["awaiting"] = awaiting
    out["boards"] = {
        seat: board_view(board, seat == viewer, over) for seat, board in state["boards"].items()
    }
    rnd = state["round"]
    if rnd is not None:
        rnd = dict(rnd)
        if rnd["critique"] is not None:
            # Critique picks are secret until everyone has picked: others only see who is done.
            rnd["critique"] = {seat: (card if seat == viewer else card is not None)
                               for seat, card in rnd["critique"].items()}
    out["round"] = rnd
    out["final"] = final_outcome(state) if over else None
    return out
