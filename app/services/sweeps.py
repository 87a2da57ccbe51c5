"""The periodic work every process shares with the others: rating the games left unrated, applying the clocks that
ran out, sending the outbox's mails. Each round's failure is logged and the next round tries again."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("app.sweeps")

Job = Callable[[], Awaitable[object]]


class Sweeps:
    """Runs each sweep's job every so often, until cancelled."""

    def __init__(
        self,
        *,
        rate_unrated: Callable[[float], Awaitable[object]],
        time_out: Job,
        send_mail: Job,
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        # Rate the finished games not rated yet, but those that ended within the given seconds (ratings.sweep).
        self.rate_unrated = rate_unrated
        self.time_out = time_out  # apply the timeouts due now, each claimed by one process (timeouts.sweep)
        self.send_mail = send_mail  # send the waiting mails, each by one process (notify.Notifications.send_due)
        self.sleep = sleep

    async def ratings(self, every: float = 30.0) -> None:
        """Rate the finished games whose process died (or failed) before it rated them; at the start too."""
        while True:
            await self._once(lambda: self.rate_unrated(every / 2), "rating sweep failed")
            await self.sleep(every)

    async def clocks(self, every: float = 1.0) -> None:
        """Apply the timeouts of the clocks that ran out."""
        await self._every(every, self.time_out, "clock sweep failed")

    async def mail(self, every: float = 5.0) -> None:
        """Send the mails waiting in the outbox."""
        await self._every(every, self.send_mail, "mail sending failed")

    async def _every(self, every: float, job: Job, failure: str) -> None:
        while True:
            await self.sleep(every)
            await self._once(job, failure)

    @staticmethod
    async def _once(job: Job, failure: str) -> None:
        try:
            await job()
        except Exception:  # noqa: BLE001 - try again next round
            log.exception(failure)
