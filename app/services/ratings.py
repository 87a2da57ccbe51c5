"""Ratings: a finished game changes its people's ratings, once, right after its end (the maths, Glicko-2:
services/glicko2.py).

Which games are rated (`TableRecord.counts_for_ratings`): public tables that finished normally with two registered
people or more. Bots' own seats and guests' seats are left out of the comparison (a guest costs one click: games
against guests would let anyone farm a rating); a seat a bot finished for its person (a stand-in) is still that
person's and counts at the place the bot reached. Places come from the outcome's `ranking`, as on the profile.

Whose games count: an account's once it is established, that is older than `RATED_MIN_AGE_DAYS` or with
`RATED_MIN_GAMES` finished games played (rated or not); a newer one's seat is left out like a guest's, so a crowd of
fresh accounts cannot feed one of them points. And a pair's repeated games count less: the same two people's game
counts fully, then ½, then ⅓ of a game of two, and not at all from their fourth rated game together in
`RATED_REPEAT_HOURS` (`glicko2.repeat_weight`). Glicko-2 itself makes a game against an unproven account (a
high deviation) count for little.

When: not on the move path. The process that wrote the final move settles the table's rating once the move is
published (`ChangeFanOut.after_change` spawns `settle`); one whose process died meanwhile is found by every process's
sweep (`sweep`, through the partial index of finished tables not yet settled).

Exactly once: settling is one transaction that claims the table (`game_tables.rated` from null to true, at the
version it read, with the row locked on Postgres), locks the people's rating rows in id order (so two tables
sharing people wait for each other instead of deadlocking), stores a `rating_changes` row per person (its key,
(table_id, user_id), refuses a second rating of the table whatever happened before), updates the ratings and
bumps the table's version with a `rated` event, like a lobby change: every process's sockets get the new table
with the changes, and the log tells them. A table that is not rated is only marked so (no new version).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import GameTable, PlayerRating, RatingChange, Seat, User
from app.services import glicko2
from app.services.database import Database
from app.services.events import TableEvent
from app.services.loading import load_record
from app.services.lobby import keep_events
from app.services.profiles import places
from app.services.record import TableRecord, TableStatus
from app.services.table_writes import TableWrites

log = logging.getLogger("app.ratings")
ATTEMPTS = 3  # a claim lost to a change made meanwhile (a rematch) is tried again from a fresh read


def final_places(rec: TableRecord) -> dict[str, int]:
    """Each rated seat's place in the outcome's ranking (1, 1, 3 …); a seat the ranking forgot, or whose person ran
    out of time (services/timeouts.py), comes last."""
    ranked = places((rec.outcome or {}).get("ranking") or [])
    last = len(rec.seats) + 1
    out = {seat: ranked.get(seat, last) for seat in rec.rated_people()}
    for seat in rec.timed_out():  # ran out of time: lost, whatever place the bot that played on reached
        if seat in out:
            out[seat] = last
    return out


class Ratings:
    """Finished tables settled: rated (or marked not rated) once, by this process's fan-out or by its sweep."""

    def __init__(
        self, *, tables: TableWrites, database: Database, min_age_days: float, min_games: int, repeat_hours: float
    ) -> None:
        self.tables = tables
        self.database = database
        # An account counts once this old, or with this many finished games played; a pair's games within
        # `repeat_hours` count less and less (the module's docstring).
        self.min_age_days = min_age_days
        self.min_games = min_games
        self.repeat_hours = repeat_hours

    async def settle(self, table_id: str) -> TableRecord | None:
        """Rate a finished table, or mark it not rated; the new record when this call settled it with a new version
        (rated, or said rated while it ran but with fewer than two established accounts), else None (not finished,
        settled already, by this process or another, or never rated)."""
        for _attempt in range(ATTEMPTS):
            async with self.tables.write(table_id) as session:
                rec = await load_record(session, table_id, for_update=True)
                if rec.status != TableStatus.FINISHED or rec.rated is not None:
                    return None
                if not rec.counts_for_ratings():
                    await session.execute(
                        update(GameTable).where(GameTable.id == rec.id, GameTable.rated.is_(None)).values(rated=False)
                    )
                    await session.commit()
                    return None
                established = await _established(session, rec, self.min_age_days, self.min_games)
                rated = len(established) >= 2
                version = rec.version + 1
                claimed = await session.execute(
                    update(GameTable)
                    .where(GameTable.id == rec.id, GameTable.version == rec.version, GameTable.rated.is_(None))
                    .values(rated=rated, version=version, updated_at=datetime.now(UTC))
                )
                if claimed.rowcount != 1:  # type: ignore[attr-defined]
                    await session.rollback()
                    continue  # changed since it was read (one process on SQLite cannot hold the row): read again
                with self.tables.own_write(rec.id, version):
                    try:
                        # Said rated while it ran, but too few of its accounts are established: a new version tells
                        # its sockets it is not, with why.
                        events = (await _rate(session, rec, established, self.repeat_hours) if rated
                                  else [{"type": TableEvent.NOT_RATED, "reason": "new_accounts",
                                         "visible_to": None}])
                        await keep_events(session, rec.id, version, events)
                        await self.tables.notify_in_tx(session, rec.id, version)
                        await session.commit()
                    except IntegrityError:
                        # Its rating_changes are stored already: rated before, whatever the flag said.
                        log.warning("table rated already", extra={"table_id": table_id})
                        return None
                    fresh = self.tables.cache.put(await load_record(session, table_id))
                    fresh.remember_events(version, events)
            await self.tables.after_change(fresh)
            return fresh
        return None  # left for the sweep

    async def unsettled(self, idle_for: float, limit: int = 100) -> list[str]:
        """Finished tables whose rating is not settled, unchanged for `idle_for` seconds (oldest first)."""
        since = datetime.now(UTC) - timedelta(seconds=idle_for)
        async with self.database.reads() as session:
            ids = await session.scalars(
                select(GameTable.id)
                .where(GameTable.status == TableStatus.FINISHED, GameTable.rated.is_(None), GameTable.updated_at < since)
                .order_by(GameTable.updated_at)
                .limit(limit)
            )
            return list(ids)

    async def sweep(self, idle_for: float = 0.0) -> int:
        """Settle the tables left unsettled (their process died before it could, or failed); how many were rated.

        `idle_for` leaves the newest ones to the process that finished them, which is about to."""
        rated = 0
        for table_id in await self.unsettled(idle_for):
            try:
                rated += await self.settle(table_id) is not None
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one table's failure must not hold up the others; tried next round
                log.exception("rating failed", extra={"table_id": table_id})
        return rated


async def _established(
    session: AsyncSession, rec: TableRecord, min_age_days: float, min_games: int
) -> dict[str, str]:
    """The rated seats (seat -> user id) whose accounts are established: old enough, or with games enough played."""
    people = rec.rated_people()
    if not people:
        return {}
    old_enough = datetime.now(UTC) - timedelta(days=min_age_days)
    finished = (
        select(Seat.user_id, func.count().label("played"))
        .join(GameTable, GameTable.id == Seat.table_id)
        .where(Seat.user_id.in_(people.values()), GameTable.status == TableStatus.FINISHED, GameTable.id != rec.id)
        .group_by(Seat.user_id).subquery()
    )
    rows = (await session.execute(
        select(User.id, User.created_at, finished.c.played)
        .outerjoin(finished, finished.c.user_id == User.id).where(User.id.in_(people.values()))
    )).all()
    ok = {
        user_id for user_id, created, played in rows
        if (played or 0) >= min_games or (created is not None and _aware(created) <= old_enough)
    }
    return {seat: user for seat, user in people.items() if user in ok}


async def _pair_weights(
    session: AsyncSession, people: dict[str, str], hours: float
) -> dict[frozenset[str], float]:
    """Each pair of seats' weight, from the rated games their two people had together in the last `hours`."""
    since = datetime.now(UTC) - timedelta(hours=hours)
    mine, theirs = aliased(RatingChange), aliased(RatingChange)
    users = list(people.values())
    rows = (await session.execute(
        select(mine.user_id, theirs.user_id, func.count())
        .join(theirs, (theirs.table_id == mine.table_id) & (theirs.user_id != mine.user_id))
        .where(mine.user_id.in_(users), theirs.user_id.in_(users), mine.created_at >= since)
        .group_by(mine.user_id, theirs.user_id)
    )).all()
    together = {frozenset((a, b)): n for a, b, n in rows}
    seats = list(people)
    return {
        frozenset((x, y)): glicko2.repeat_weight(together.get(frozenset((people[x], people[y])), 0))
        for i, x in enumerate(seats) for y in seats[i + 1:]
    }


def _glicko(row: PlayerRating, now: datetime) -> glicko2.Rating:
    """A stored rating as it stands now: each whole day since its last game makes it less sure."""
    stored = glicko2.Rating(row.rating, row.deviation, row.volatility)
    return glicko2.idle(stored, (now - _aware(row.updated_at)).days) if row.games else stored


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite gives back UTC without its zone


async def _rate(
    session: AsyncSession, rec: TableRecord, people: dict[str, str], repeat_hours: float
) -> list[dict[str, Any]]:
    """Store what the game does to each established person's rating (in the claiming transaction); the `rated`
    event."""
    users = sorted(people.values())
    now = datetime.now(UTC)
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    # A person's first rated game of this kind makes their row; in id order, as the locks below are taken.
    await session.execute(
        insert(PlayerRating)
        .values([{"user_id": u, "game": rec.game, "rating": round(glicko2.START), "deviation": glicko2.START_DEVIATION,
                  "volatility": glicko2.START_VOLATILITY, "games": 0, "updated_at": now} for u in users])
        .on_conflict_do_nothing(index_elements=["user_id", "game"])
    )
    rows = (
        await session.scalars(
            select(PlayerRating)
            .where(PlayerRating.user_id.in_(users), PlayerRating.game == rec.game)
            .order_by(PlayerRating.user_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).all()
    by_user = {row.user_id: row for row in rows}
    now = datetime.now(UTC)  # taken under the locks: one person's changes are stored in the order they were made
    before = {seat: _glicko(by_user[user], now) for seat, user in people.items()}
    places = final_places(rec)
    weights = await _pair_weights(session, people, repeat_hours)
    after = glicko2.game(before, {seat: places[seat] for seat in people}, weights=weights)
    names = {s.seat: s.user_name for s in rec.seats}
    changes = []
    for seat, user in people.items():
        row, new = by_user[user], after[seat]
        rating = round(new.rating)
        change = rating - row.rating
        session.add(RatingChange(table_id=rec.id, user_id=user, game=rec.game, seat=seat, before=row.rating,
                                 after=rating, change=change, created_at=now))
        changes.append({"seat": seat, "name": names.get(seat), "before": row.rating, "after": rating,
                        "change": change, "provisional": new.provisional})
        row.rating, row.deviation, row.volatility = rating, new.deviation, new.volatility
        row.games += 1
        row.last_change = change
        row.last_table_id = rec.id
        row.updated_at = now
    await session.flush()
    return [{"type": TableEvent.RATED, "changes": changes, "visible_to": None}]
