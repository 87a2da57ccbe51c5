"""The server's time: what time it is, a monotonic count of seconds, and a wait in seconds.

Every wait a person can see (the stand-in wait, a bot's delay, presence expiry, the chat's and a socket's rate
limits, a reset link's expiry, the game clocks) reads time from the `Clock` the runtime was built with, so a test
moves time forward with `FakeClock.advance` rather than sleeping through it."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The time of day (aware, UTC)."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back: for intervals."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait until `seconds` have passed on this clock."""
        ...


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeClock:
    """A clock a test moves with `advance`.

    Stopped (the default), it stands still between advances, so a test reads exact times. Running, it also follows
    the machine's clock: a server process that several tests share keeps time as usual, and a test that needs a wait
    to be over jumps past it."""

    def __init__(self, start: datetime | None = None, *, running: bool = False) -> None:
        self.running = running
        self._start = start or datetime.now(UTC)
        self._started = time.monotonic()
        self._offset = 0.0
        self._sleepers: set[asyncio.Future[None]] = set()

    def _elapsed(self) -> float:
        return self._offset + (time.monotonic() - self._started if self.running else 0.0)

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._elapsed())

    def monotonic(self) -> float:
        return self._elapsed()

    def advance(self, seconds: float) -> None:
        """Move the clock `seconds` forward: the sleeps this takes past their end return."""
        if seconds < 0:
            raise ValueError("a clock never goes back")
        self._offset += seconds
        self._wake()

    def _wake(self) -> None:
        """Every sleep looks at the clock again; those now past their end return."""
        for sleeper in self._sleepers:
            if not sleeper.done():
                sleeper.set_result(None)

    def set(self, when: datetime) -> None:
        """Put the clock at `when`, forward or back: a test's chosen moment of the day (its monotonic count moves
        with it, so a test that goes back must not rely on intervals across the jump)."""
        self._offset += (when - self.now()).total_seconds()
        self._wake()

    async def sleep(self, seconds: float) -> None:
        end = self.monotonic() + seconds
        await asyncio.sleep(0)  # like asyncio.sleep(0): a turn for the others, even for no wait at all
        while (left := end - self.monotonic()) > 0:
            woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._sleepers.add(woken)
            try:
                # Woken by an advance, or (running) by the machine's time: either way the loop looks again.
                await asyncio.wait({woken}, timeout=left if self.running else None)
            finally:
                self._sleepers.discard(woken)
