"""Bot seats: the server plays them through the same `apply_action` path as people."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import TYPE_CHECKING, Any

from app.games import GAMES
from app.games.base import BotLevel, Game, IllegalAction
from app.games.rng import below
from app.services.errors import ServiceError
from app.services.play import apply_action
from app.services.records import TableRecord

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger("app.bots")
# Refusals after which the driver looks at the table again rather than try another move: it moved on, or it is
# over (the players abandoned it while a bot's move was on its way), which the next look ends the driver for.
RETRY_CODES = {"stale_version", "conflict", "not_your_turn", "not_playing"}


def bot_seed(table_seed: int, version: int, seat: str) -> int:
    """A per-decision seed, so a bot's choices replay the same way."""
    digest = hashlib.sha256(f"{table_seed}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(
    game: Game, state: dict[str, Any], seat: str, seed: int, level: BotLevel = BotLevel.NORMAL
) -> dict[str, Any]:
    """The game's own bot if it has one and it answers legally, else a uniformly random legal action.

    The bot is given the seat's view, never the state: it cannot use what the seat may not see."""
    legal = game.actions(state, seat)
    bot = getattr(game, "bot_action", None)
    if bot is not None:
        try:
            action = bot(game.view(state, seat), seat, seed, level)
            if isinstance(action, dict):
                return action
        except (IllegalAction, Exception):  # noqa: BLE001 - a faulty bot falls back to random play
            log.exception("bot failed", extra={"game": game.id})
    if not legal:
        raise ServiceError("no_legal_action", "The bot has no legal action.", 409)
    _, index = below(seed, len(legal))
    return legal[index]


class BotRunner:
    """One driver task per table while bot seats are awaited."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.running: dict[str, asyncio.Task[None]] = {}

    def poke(self, rec: TableRecord) -> None:
        """Start driving a table's bots if one of them is awaited."""
        if rec.status != "playing" or rec.id in self.running:
            return
        if not set(rec.awaiting) & rec.bot_seats():
            return
        self.running[rec.id] = asyncio.create_task(self._drive(rec.id))

    async def _drive(self, table_id: str) -> None:
        try:
            failures = 0
            while True:
                await asyncio.sleep(self.rt.settings.bot_delay)
                rec = self.rt.cache.get(table_id) or await self.rt.reload(table_id)
                seats = [s for s in rec.awaiting if s in rec.bot_seats()]
                if rec.status != "playing" or not seats or rec.state is None:
                    return
                seat = seats[0]
                game = GAMES[rec.game]
                seed = bot_seed(rec.seed, rec.version, seat)
                action = await asyncio.to_thread(choose, game, rec.state, seat, seed)
                if not await self._try(rec, seat, action):
                    # The game's bot suggested something illegal: play a random legal move instead.
                    log.warning("bot move refused", extra={"table_id": table_id, "seat": seat})
                    legal = game.actions(rec.state, seat)
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
        latest = self.rt.cache.get(table_id)
        if latest is not None:  # only reached after a failure: try again
            self.poke(latest)

    async def _try(self, rec: TableRecord, seat: str, action: dict[str, Any]) -> bool:
        """Apply a bot's action; True when applied or when the table moved on meanwhile."""
        try:
            await apply_action(self.rt, rec.id, seat, action, f"bot:{rec.version}:{seat}", rec.version)
        except ServiceError as exc:
            if exc.code in RETRY_CODES:
                await self.rt.reload(rec.id)
                return True
            return False
        return True

    async def resume_all(self) -> None:
        """After a start: drive every running table that waits on a bot."""
        for rec in await self.rt.tables_waiting_on_bots():
            self.poke(rec)

    async def stop(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        self.running.clear()
