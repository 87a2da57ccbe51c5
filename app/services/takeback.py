"""Takeback requests: a player asks to take back their last move, the other players say yes or no.

The immediate undo (services/undo.py) serves a player's own last step while it revealed nothing and nobody has moved
since. A request reaches further: the asker's last move and every move made after it. In a rated game it is allowed
only when none of those moves revealed hidden information, drew at random or closed another player's window (the
engines' `undoable`); in an unrated game any moves may be taken back, since everyone agrees. Every other seat its own
person plays must say yes (a bot's seat, or one a bot stands in for, has no say); one no ends the request, and a move
made meanwhile ends it too. Taking back is the game replayed from its seed without those moves (engines are
deterministic), written as a lobby change: the table row locked, the moves deleted, a new version. The game's
generator goes back with the state, so what those moves revealed (a card drawn) stays known to whoever saw it and comes
again the same way: that is part of what the other players agree to.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Move, MoveDraft, User
from app.games import GAMES
from app.games.toolkit import is_listed
from app.services.errors import ServiceError
from app.services.events import TableEvent
from app.services.loading import initial_state
from app.services.lobby import Changed, Events, bumped
from app.services.record import TableRecord, TableStatus

States = tuple[dict[str, Any], dict[str, Any]]  # the states before the last kept move and after it


class Say(StrEnum):
    """What a player says about taking back: ask for it, agree, or refuse (the asker: withdraw)."""

    ASK = "ask"
    YES = "yes"
    NO = "no"


def parse_say(value: Any) -> Say:
    try:
        return Say(value)
    except ValueError:
        raise ServiceError("bad_say", 'A takeback say is "ask", "yes" or "no".', 422) from None


async def say(session: AsyncSession, rec: TableRecord, user: User, what: Any, proposal: Any = None) -> Changed:
    """`user`'s say on taking back moves at the running table `rec` (row locked by `Lobby.change`); the events."""
    word = parse_say(what)
    if proposal is not None and (not isinstance(proposal, int) or isinstance(proposal, bool)):
        raise ServiceError("bad_proposal", "proposal must be the id (a whole number) of the open request.", 422)
    if rec.status != TableStatus.PLAYING or rec.state is None:
        raise ServiceError("not_playing", "Moves can be taken back only while the game runs.", 409)
    seat = rec.seat_of(user.id)
    if seat is None:
        raise ServiceError("not_seated", "Only the players at the table can take back moves.", 403)
    if seat in rec.bot_seats():
        raise ServiceError("bot_playing", "A bot is playing your seat; take your seat back first.", 409)
    who = {"seat": seat, "name": user.name, "visible_to": None}
    current = rec.takeback_open()
    if word is Say.ASK:
        if current is not None:
            raise ServiceError("takeback_open", "A request to take back moves is already open.", 409)
        first = await _last_move_of(session, rec.id, seat)
        if first is None:
            raise ServiceError("nothing_to_take_back", "You have made no move to take back.", 409)
        before, revealed = await _before(session, rec, first)
        if revealed and rec.counts_for_ratings():
            raise ServiceError(
                "takeback_revealed",
                "Those moves revealed hidden information or drew at random: in a rated game they cannot be taken back.",
                409,
            )
        asked: dict[str, Any] = {"by": seat, "seq": first, "at": rec.move_count, "yes": [], "since": rec.version + 1}
        events: Events = [{"type": TableEvent.TAKEBACK_ASKED, **who, "moves": rec.move_count - first + 1}]
        if rec.evolve(takeback=asked).takeback_waiting():
            return bumped(rec, events, takeback=asked)
        return await _take_back(session, rec, asked, before, events)
    if current is None or (proposal is not None and current["since"] != proposal):
        raise ServiceError("no_takeback", "There is no such request to take back moves open.", 409)
    if word is Say.NO:
        declined = {"type": TableEvent.TAKEBACK_DECLINED, **who, "withdrawn": seat == current["by"]}
        return bumped(rec, [declined], takeback=None)
    if seat == current["by"]:
        raise ServiceError("own_takeback", "You asked for it: the other players say yes or no.", 409)
    if seat not in rec.takeback_waiting():
        raise ServiceError("already_voted", "You have already agreed to take these moves back.", 409)
    agreed = {**current, "yes": [*current["yes"], seat]}
    events = [{"type": TableEvent.TAKEBACK_AGREED, **who}]
    if rec.evolve(takeback=agreed).takeback_waiting():
        return bumped(rec, events, takeback=agreed)
    before, _ = await _before(session, rec, current["seq"])
    return await _take_back(session, rec, agreed, before, events)


async def _last_move_of(session: AsyncSession, table_id: str, seat: str) -> int | None:
    found = await session.scalar(
        select(Move.seq).where(Move.table_id == table_id, Move.seat == seat).order_by(Move.seq.desc()).limit(1)
    )
    return int(found) if found is not None else None


async def _before(session: AsyncSession, rec: TableRecord, first: int) -> tuple[States, bool]:
    """The states before moves `first - 1` and `first` (the game replayed from its seed), and whether any move from
    `first` on revealed something (the engine marked it not undoable)."""
    game = GAMES[rec.game]
    rows = await session.execute(
        select(Move.seq, Move.seat, Move.action, Move.steps).where(Move.table_id == rec.id).order_by(Move.seq)
    )
    state = initial_state(rec)
    previous = kept = state
    revealed = False
    for seq, seat, action, steps in rows:
        for step in steps or ():  # the drafts the move carried (services/drafts.py)
            state = game.apply(state, seat, step).state
        applied = game.apply(state, seat, action)
        if seq < first:
            previous, kept = state, applied.state
        else:
            revealed = revealed or not applied.undoable
        state = applied.state
    return (previous, kept), revealed


async def _take_back(
    session: AsyncSession, rec: TableRecord, request: dict[str, Any], states: States, events: Events
) -> Changed:
    """Delete the moves from the request's first on and put the table back to the state before it (`events`: the
    say's own, which come first)."""
    previous, kept = states
    first = request["seq"]
    count = first - 1
    await session.execute(delete(Move).where(Move.table_id == rec.id, Move.seq >= first))
    # Everyone's drafts were made on a state that is no more.
    await session.execute(delete(MoveDraft).where(MoveDraft.table_id == rec.id))
    # While a game runs the snapshot is older than its last move, which a load replays (services/loading.py): that
    # tells whether the last move may be undone.
    snapshot, snapshot_seq = (previous, count - 1) if count >= 1 else (kept, 0)
    taken = {"type": TableEvent.TAKEN_BACK, "seat": request["by"], "moves": rec.move_count - count,
             "seq": first, "visible_to": None}
    return bumped(rec, [*events, taken], state=snapshot, state_seq=snapshot_seq, move_count=count,
                  awaiting=GAMES[rec.game].awaiting(kept), takeback=None)


def preview(rec: TableRecord, seat: str | None, action: Any) -> bool:
    """Whether `seat`'s move `action` could be taken back at once after it is made (the engine's `undoable`, and not
    a move that ends the game): what a player who asked to confirm irreversible moves is asked about. Nothing is
    written; a move that is not legal now is refused as it would be if made."""
    if seat is None:
        raise ServiceError("not_seated", "Spectators cannot move; take a seat to play.", 403)
    if rec.status != TableStatus.PLAYING or rec.state is None:
        raise ServiceError("not_playing", "The game is not running.", 409)
    if seat not in rec.awaiting:
        raise ServiceError("not_your_turn", "It is not your turn.", 409)
    if not is_listed(action, rec.actions_for(seat)):
        raise ServiceError("illegal_action", "That is not one of your legal moves.", 422)
    game = GAMES[rec.game]
    applied = game.apply_listed(rec.state_for(seat), seat, action)
    return applied.undoable and game.outcome(applied.state) is None
