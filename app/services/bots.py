"""Bot seats: the server plays them through the same `apply_action` path as people."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from app.clock import Clock
from app.db.models import GameTable, Seat
from app.games import GAMES
from app.games.base import BotLevel, Game, IllegalAction
from app.games.rng import below
from app.services.database import Database
from app.services.errors import ServiceError
from app.services.loading import load_record
from app.services.play import Play
from app.services.record import TableRecord, TableStatus
from app.services.table_records import TableRecords

log = logging.getLogger("app.bots")
# Refusals after which the driver looks at the table again rather than try another move: it moved on, or it is
# over (the players abandoned it while a bot's move was on its way), which the next look ends the driver for.
RETRY_CODES = {"stale_version", "conflict", "not_your_turn", "not_playing"}
BOT_NICENESS = 10  # added to the bot workers' niceness (os.nice)


def bot_seed(table_seed: int, version: int, seat: str, drafts: int = 0) -> int:
    """A per-decision seed, so a bot's choices replay the same way (`drafts`: the seat's drafts so far, which make
    no version of their own)."""
    step = f"{version}.{drafts}" if drafts else str(version)
    digest = hashlib.sha256(f"{table_seed}:{step}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(
    game: Game, state: dict[str, Any], seat: str, seed: int, level: BotLevel = BotLevel.NORMAL,
    playouts: int | None = None,
) -> dict[str, Any]:
    """The game's own bot if it has one and it answers legally, else a uniformly random legal action.

    The bot is given the seat's view, never the state: it cannot use what the seat may not see."""
    legal = game.actions(state, seat)
    try:
        action = game.bot_action(game.view(state, seat), seat, seed, level, playouts)
        if isinstance(action, dict):
            return action
    except (IllegalAction, Exception):  # noqa: BLE001 - a faulty bot falls back to random play
        log.exception("bot failed", extra={"game": game.id})
    if not legal:
        raise ServiceError("no_legal_action", "The bot has no legal action.", 409)
    _, index = below(seed, len(legal))
    return legal[index]


def think(game_id: str, state: dict[str, Any], seat: str, seed: int, level: str, playouts: int | None) -> dict[str, Any]:
    """`choose` in a worker process, which knows the games by id."""
    return choose(GAMES[game_id], state, seat, seed, BotLevel(level), playouts)


def in_worker(game: Game) -> bool:
    """Whether a fresh worker process knows this engine: those of app.games register themselves on import."""
    return type(game).__module__.startswith("app.games.")


class BotRunner:
    """One driver task per table while bot seats are awaited; a hard bot's search happens in a small process pool.

    A search bot holds a core for up to a second; in the server's process (even in a thread, which holds the
    interpreter lock) that would delay every other table's moves. The pool is bounded (`bot_workers`), so many
    searching bots queue for a worker rather than crowd the machine; the greedy levels decide in place."""

    def __init__(
        self,
        *,
        play: Play,
        records: TableRecords,
        database: Database,
        clock: Clock,
        workers: int,
        playouts: int,
        delay: float,
    ) -> None:
        self.play = play  # the move path people's moves take
        self.records = records
        self.database = database
        self.clock = clock
        self.workers = workers  # processes of the pool that searches for the hard level
        self.playouts = playouts  # a search's playouts; 0 for each game's own default
        self.delay = delay  # seconds a bot waits before it moves
        self.running: dict[str, asyncio.Task[None]] = {}
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of one that holds an event loop, sockets and threads
            # A lower scheduling priority: on a busy machine a person's move is served before a bot's search.
            self._pool = ProcessPoolExecutor(max(1, self.workers),
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=os.nice, initargs=(BOT_NICENESS,))
        return self._pool

    async def think(self, game: Game, state: dict[str, Any], seat: str, seed: int, level: BotLevel) -> dict[str, Any]:
        """The bot's action, decided off the event loop."""
        playouts = self.playouts or None
        if level is not BotLevel.HARD:
            # A greedy decision takes under a millisecond on average (under 10 ms at worst): made here, it never queues
            # behind a search holding the pool's worker for up to a second, as every table's stand-ins would.
            return choose(game, state, seat, seed, level, playouts)
        if not in_worker(game):
            return await asyncio.to_thread(choose, game, state, seat, seed, level, playouts)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), think, game.id, state, seat, seed, level.value, playouts)

    def poke(self, rec: TableRecord) -> None:
        """Start driving a table's bots if one of them is awaited."""
        if rec.status != TableStatus.PLAYING or rec.id in self.running:
            return
        if not set(rec.awaiting) & rec.bot_seats():
            return
        self.running[rec.id] = asyncio.create_task(self._drive(rec.id))

    async def _drive(self, table_id: str) -> None:
        try:
            failures = 0
            while True:
                await self.clock.sleep(self.delay)
                rec = self.records.cache.get(table_id) or await self.records.reload(table_id)
                seats = [s for s in rec.awaiting if s in rec.bot_seats()]
                if rec.status != TableStatus.PLAYING or not seats or rec.state is None:
                    return
                seat = seats[0]
                game = GAMES[rec.game]
                seed = bot_seed(rec.seed, rec.version, seat, len(rec.live_drafts(seat)))
                info = next(s for s in rec.seats if s.seat == seat)
                # A bot standing in for an away player plays at the normal level; the host's bot at its own.
                level = BotLevel(info.bot_level or BotLevel.NORMAL)
                state = rec.state_for(seat)  # the seat's own picture, its drafts included
                action = await self.think(game, state, seat, seed, level)
                if not await self._try(rec, seat, action):
                    # The game's bot suggested something illegal: play a random legal move instead.
                    log.warning("bot move refused", extra={"table_id": table_id, "seat": seat})
                    legal = game.actions(state, seat)
                    if not legal or not await self._try(rec, seat, legal[below(seed, len(legal))[1]]):
                        failures += 1
                        if failures >= 5:
                            log.error("bot gave up", extra={"table_id": table_id, "seat": seat})
                            return
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a database outage must not kill the server; retry later
            log.exception("bot driver stopped", extra={"table_id": table_id})
            await asyncio.sleep(1)
        finally:
            self.running.pop(table_id, None)
        latest = self.records.cache.get(table_id)
        if latest is not None:  # only reached after a failure: try again
            self.poke(latest)

    async def _try(self, rec: TableRecord, seat: str, action: dict[str, Any]) -> bool:
        """Apply a bot's action; True when applied or when the table moved on meanwhile."""
        try:
            step = f"{rec.version}.{len(rec.live_drafts(seat))}"  # drafts share their table's version
            await self.play.apply_action(rec.id, seat, action, f"bot:{step}:{seat}", rec.version)
        except ServiceError as exc:
            if exc.code in RETRY_CODES:
                await self.records.reload(rec.id)
                return True
            return False
        return True

    async def resume_all(self) -> None:
        """After a start: drive every running table that waits on a bot."""
        for rec in await self.tables_waiting():
            self.poke(rec)

    async def tables_waiting(self, idle_for: float = 0.0) -> list[TableRecord]:
        """Running tables with a bot seat, unchanged for `idle_for` seconds, whose bot is awaited."""
        query = (
            select(GameTable.id, GameTable.awaiting, Seat.seat)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(GameTable.status == TableStatus.PLAYING, Seat.bot.is_(True))
        )
        if idle_for:
            query = query.where(GameTable.updated_at < datetime.now(UTC) - timedelta(seconds=idle_for))
        async with self.database.reads() as session:
            rows = (await session.execute(query)).all()
            ids = {tid for tid, awaiting, seat in rows if seat in (awaiting or []) and tid not in self.running}
            recs = [self.records.cache.put(await load_record(session, tid)) for tid in sorted(ids)]
        return [r for r in recs if set(r.awaiting) & r.bot_seats()]

    async def sweep(self, every: float = 20.0) -> None:
        """Take over bots left waiting (their driving process died): the bot client_id makes two drivers safe."""
        while True:
            await asyncio.sleep(every)
            try:
                for rec in await self.tables_waiting(idle_for=max(2.0, every / 2)):
                    self.poke(rec)
            except Exception:  # noqa: BLE001 - try again next round
                log.exception("bot sweep failed")

    async def stop(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        self.running.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
