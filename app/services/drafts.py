"""Secret steps as author-only drafts: no one else can count them.

During a simultaneous secret choice (Food Chain Magnate's restructuring, Food Truck's prep) a player builds their
choice over several steps. Each step as its own version would let a spectator or a rival count them, and time them,
before the reveal. So a step that reveals nothing to anyone but its author is a **draft**:

- It is stored durably for its seat (`move_drafts`), acknowledged, and shown to the author's sockets alone (a `draft`
  message): the table's version, move count, update time and every other viewer's frames stay as they were.
- The author's picture of the game is the table's state with their drafts applied (`TableRecord.state_for`); the
  author's legal actions, bots playing the seat and views of the seat read it.
- The author's next move that is not a draft carries the drafts: one move, one version, its `steps` the drafts'
  actions and its events theirs followed by its own. Replays apply a move's steps before its action.
- Taking back a draft deletes it; taking back a move that carried drafts gives them back as drafts.

Which step is a draft is decided here, the same way for every game, from what the engine returns: the step is
undoable (it drew nothing and closed no window), it has events and every one of them is visible to its author only,
it leaves who is awaited as it was, and every other seat's view and the spectators' view are unchanged by it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Move, MoveDraft
from app.games import GAMES
from app.games.base import Applied, Game
from app.services.database import Database
from app.services.record import Draft, TableRecord
from app.services.table_cache import TableCache
from app.services.writer import WriteConflict

log = logging.getLogger("app.drafts")


def reveals_nothing(game: Game, seats: Sequence[str], awaiting: Sequence[str], seat: str, before: dict[str, Any],
                    applied: Applied) -> bool:
    """Whether this step by `seat` (from its state `before`, while `awaiting` are awaited) shows nobody else
    anything: the rule that makes a step a draft."""
    events = applied.events
    if not applied.undoable or not events or any(e.get("visible_to") != [seat] for e in events):
        return False
    after = applied.state
    if game.outcome(after) is not None or game.awaiting(after) != list(awaiting):
        return False
    others: list[str | None] = [s for s in seats if s != seat]
    return all(game.view(before, viewer) == game.view(after, viewer) for viewer in [*others, None])


def is_draft(rec: TableRecord, seat: str, before: dict[str, Any], applied: Applied) -> bool:
    """Whether this step by `seat` at the table is kept as a draft."""
    return reveals_nothing(GAMES[rec.game], [s.seat for s in rec.seats], rec.awaiting, seat, before, applied)


class Drafts:
    """A seat's drafts stored, taken back and, once a move carried them, deleted; the cache holds the records that
    show them."""

    def __init__(self, *, database: Database, cache: TableCache) -> None:
        self.database = database
        self.cache = cache

    async def keep(
        self, rec: TableRecord, seat: str, action: dict[str, Any], client_id: str | None, applied: Applied
    ) -> TableRecord:
        """Store one more draft of `seat` and return the record that holds it (the same version). The caller holds
        the table's lock (on SQLite, the one writer's)."""
        drafts = rec.live_drafts(seat)
        row = MoveDraft(
            table_id=rec.id, seat=seat, n=len(drafts) + 1, after_seq=rec.move_count, client_id=client_id,
            action=action, events=applied.events, created_at=datetime.now(UTC),
        )
        async with self.database.sessions() as session:
            # A row left by a draft taken back, or by drafts already carried, must not stand in this one's way.
            await session.execute(delete(MoveDraft).where(
                MoveDraft.table_id == rec.id, MoveDraft.seat == seat, MoveDraft.n >= row.n))
            session.add(row)
            try:
                await session.commit()
            except IntegrityError as exc:  # the table is gone, or another process wrote this seat's draft first
                raise WriteConflict(rec.id) from exc
        new = rec.evolve(drafts={**rec.drafts, seat: (*drafts, Draft(action, client_id, applied.events))},
                         undo_seat=rec.undo_seat)
        return self.cache.put(new)

    async def drop_last(self, rec: TableRecord, seat: str) -> TableRecord:
        """Take back `seat`'s last draft (it has one); the caller holds the table's lock."""
        drafts = rec.live_drafts(seat)
        async with self.database.sessions() as session:
            await session.execute(delete(MoveDraft).where(
                MoveDraft.table_id == rec.id, MoveDraft.seat == seat, MoveDraft.n >= len(drafts)))
            await session.commit()
        new = rec.evolve(drafts={**rec.drafts, seat: drafts[:-1]}, undo_seat=rec.undo_seat)
        return self.cache.put(new)

    async def forget_carried(self, table_id: str, seat: str, seq: int) -> None:
        """Delete the drafts of `seat` that its move `seq` carried. A crash before this leaves them spent anyway: a
        draft is live only while no later move of its seat exists (`loading.load_drafts`)."""
        try:
            async with self.database.write() as session:
                await session.execute(delete(MoveDraft).where(
                    MoveDraft.table_id == table_id, MoveDraft.seat == seat, MoveDraft.after_seq < seq))
                await session.commit()
        except Exception:  # noqa: BLE001 - spent drafts are ignored on load; the next carried move deletes them
            log.warning("spent drafts not deleted", exc_info=True, extra={"table_id": table_id})


async def restore(session: AsyncSession, game_id: str, table_id: str, seat: str, state: dict[str, Any],
                  steps: list[dict[str, Any]], after_seq: int) -> tuple[Draft, ...]:
    """Give a taken-back move's steps back to its seat as drafts (in the caller's transaction), applied from `state`,
    the state before that move."""
    game = GAMES[game_id]
    await session.execute(delete(MoveDraft).where(MoveDraft.table_id == table_id, MoveDraft.seat == seat))
    drafts: list[Draft] = []
    now = datetime.now(UTC)
    for n, step in enumerate(steps, start=1):
        applied = game.apply(state, seat, step)
        state = applied.state
        drafts.append(Draft(step, None, applied.events))
        session.add(MoveDraft(table_id=table_id, seat=seat, n=n, after_seq=after_seq, client_id=None, action=step,
                              events=applied.events, created_at=now))
    return tuple(drafts)


async def stored_ack(session: AsyncSession, table_id: str, seat: str, client_id: str) -> int | None:
    """The position of the live draft this seat made under `client_id` (a retry after a lost ack), if any."""
    carried = exists().where(Move.table_id == MoveDraft.table_id, Move.seat == MoveDraft.seat,
                             Move.seq > MoveDraft.after_seq)
    found: int | None = await session.scalar(select(MoveDraft.n).where(
        MoveDraft.table_id == table_id, MoveDraft.seat == seat, MoveDraft.client_id == client_id, ~carried))
    return found
