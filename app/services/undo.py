"""`take_back`: a player takes back their own last step, while it revealed nothing and closed no window.

The engines mark such a step `undoable`. Because they are deterministic, taking it back is the game
replayed without it: the move is deleted, the table row goes back to the state before it under a new
version (versions only grow, so every client hears of it as of any change), and the player is awaited
again as before. The state snapshot is always older than the last move (services/play.py), so the
state before it is the snapshot plus the moves between.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Move
from app.games import GAMES
from app.services import clocks, drafts
from app.services.drafts import Drafts
from app.services.errors import ServiceError
from app.services.events import TableEvent
from app.services.loading import Replayed, initial_state, load_record, replay, replay_stored
from app.services.play import Ack, check_client_id
from app.services.ports import Publisher
from app.services.record import TableRecord, TableStatus
from app.services.table_writes import TableWrites


class Undoer:
    """A player's own last step taken back at once: a draft deleted, or a move removed under a new version."""

    def __init__(self, *, tables: TableWrites, drafts: Drafts, publisher: Publisher) -> None:
        self.tables = tables
        self.drafts = drafts
        self.publisher = publisher

    async def take_back(
        self,
        table_id: str,
        seat: str | None,
        client_id: Any,
        expected_version: Any,
        on_durable: Callable[[Ack], None] | None = None,
    ) -> Ack:
        """Take back `seat`'s last move at the table, which must still be at `expected_version`."""
        check_client_id(client_id)
        # The version is required: a repeated request (a lost answer, a double click) must not take back a second step.
        if not isinstance(expected_version, int) or isinstance(expected_version, bool):
            raise ServiceError("bad_version", "An undo must name the version it takes back (expected_version).", 422)
        if seat is None:
            raise ServiceError("not_seated", "Spectators cannot undo; take a seat to play.", 403)
        async with self.tables.lock(table_id):
            known = self.tables.cache.get(table_id) or await self.tables.reload(table_id)
            if known.live_drafts(seat):  # the last step is a draft: only its author ever saw it
                if expected_version != known.version:
                    raise ServiceError(
                        "stale_version",
                        f"The table has moved on (version {known.version}, you sent {expected_version}); resync.",
                        409,
                    )
                kept = await self.drafts.drop_last(known, seat)
                ack = Ack(client_id, kept.version, draft=len(kept.live_drafts(seat)))
                if on_durable is not None:
                    on_durable(ack)
                self.publisher.draft_shown(kept, seat, [])
                return ack
            async with self.tables.database.sessions() as session:
                rec = await load_record(session, table_id, for_update=True)
                if rec.status != TableStatus.PLAYING or rec.state is None:
                    raise ServiceError("not_playing", "The game is not running.", 409)
                if expected_version != rec.version:
                    raise ServiceError(
                        "stale_version",
                        f"The table has moved on (version {rec.version}, you sent {expected_version}); resync.",
                        409,
                    )
                if rec.undo_seat != seat:
                    raise ServiceError(
                        "nothing_to_undo",
                        "Only your own last step can be taken back, and only while it revealed nothing and no one "
                        "else has moved since.",
                        409,
                    )
                new = await _without_last_move(session, rec)
                with self.tables.own_write(rec.id, new.version):
                    await self.tables.notify_in_tx(session, rec.id, new.version)
                    await session.commit()
                    cached = self.tables.cache.get(table_id)
                    if cached is not None and cached.version == rec.version:
                        new.recent_events = dict(cached.recent_events)  # for a room a few versions behind
                    undone = {"type": TableEvent.UNDONE, "seat": seat, "seq": rec.move_count, "visible_to": None}
                    new.remember_events(new.version, [undone])
                    new = self.tables.cache.put(new)
        ack = Ack(client_id, new.version)
        if on_durable is not None:
            on_durable(ack)
        await self.tables.after_change(new)
        return ack


async def _without_last_move(session: AsyncSession, rec: TableRecord) -> TableRecord:
    """Delete the last move and put the table row back to the state before it (in the caller's transaction)."""
    game = GAMES[rec.game]
    last = rec.move_count
    row = await session.get(GameTable, rec.id)
    assert row is not None and row.state is not None and row.state_seq < last
    values: dict[str, Any] = {}
    if row.state_seq < last - 1:
        before = await replay_stored(session, rec.game, rec.id, row.state, row.state_seq, last - 1)
    else:
        # The snapshot is the state we go back to; a step further back is in no snapshot, so the game is
        # replayed from its seed to keep a snapshot older than the (new) last move.
        before = await _replay_from_seed(session, rec, last - 1)
        if last >= 2:
            values.update(state=before.before_last, state_seq=last - 2)
    now = datetime.now(UTC)
    values.update(
        version=rec.version + 1, move_count=last - 1, awaiting=game.awaiting(before.state), updated_at=now
    )
    taken = (await session.execute(
        select(Move.seat, Move.steps).where(Move.table_id == rec.id, Move.seq == last))).one()
    clock, deadline = clocks.taken_back(rec)
    timing = {"clock": clock, "deadline": deadline} if clock is not None else {}
    values.update(timing)
    await session.execute(delete(Move).where(Move.table_id == rec.id, Move.seq == last))
    kept = dict(rec.drafts)
    if taken.steps:  # the drafts the move carried are its seat's drafts again
        kept[taken.seat] = await drafts.restore(
            session, rec.game, rec.id, taken.seat, before.state, taken.steps, last - 1)
    result = await session.execute(
        update(GameTable).where(GameTable.id == rec.id, GameTable.version == rec.version).values(**values)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]  # the row is locked: cannot happen
        raise ServiceError("conflict", "The table is busy; resync and try again.", 409)
    return rec.evolve(
        state=before.state,
        version=values["version"],
        move_count=last - 1,
        state_seq=values.get("state_seq", row.state_seq),
        awaiting=values["awaiting"],
        updated_at=now,
        undo_seat=before.undo_seat,
        drafts=kept,
        **timing,
    )


async def _replay_from_seed(session: AsyncSession, rec: TableRecord, upto_seq: int) -> Replayed:
    """The game from its seed with the stored moves up to `upto_seq` applied."""
    moves = await session.execute(
        select(Move.seat, Move.action, Move.steps).where(Move.table_id == rec.id, Move.seq <= upto_seq)
        .order_by(Move.seq)
    )
    return replay(rec.game, initial_state(rec), moves)
