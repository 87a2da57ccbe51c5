"""Each sweep runs its job every so often, and a round that fails is logged and followed by the next
(services/sweeps.Sweeps), with jobs and waits of the test's own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from app.services.sweeps import Sweeps


class Rounds:
    """The jobs and the waits between them, in the order they happened; the wait after `last` rounds stops it."""

    def __init__(self, last: int) -> None:
        self.last = last
        self.log: list[object] = []

    async def sleep(self, seconds: float) -> None:
        self.log.append(seconds)
        if sum(isinstance(entry, float) for entry in self.log) > self.last:
            raise asyncio.CancelledError

    def job(self, name: str, *, fails_first: bool = False) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            self.log.append(name)
            if fails_first and self.log.count(name) == 1:
                raise RuntimeError(f"{name} failed")

        return run

    def sweeps(self, *, fails_first: bool = False) -> Sweeps:
        async def rate_unrated(idle_for: float) -> None:
            await self.job(f"rate ended before {idle_for}s", fails_first=fails_first)()

        return Sweeps(
            rate_unrated=rate_unrated, time_out=self.job("time out", fails_first=fails_first),
            send_mail=self.job("send mail", fails_first=fails_first), sleep=self.sleep,
        )


async def test_the_ratings_sweep_runs_at_once_then_after_each_wait_leaving_the_newest_games() -> None:
    rounds = Rounds(last=2)
    with pytest.raises(asyncio.CancelledError):
        await rounds.sweeps().ratings(30.0)
    assert rounds.log == ["rate ended before 15.0s", 30.0, "rate ended before 15.0s", 30.0, "rate ended before 15.0s",
                          30.0]


@pytest.mark.parametrize(("sweep", "job", "every"), [("clocks", "time out", 1.0), ("mail", "send mail", 5.0)])
async def test_the_clock_and_mail_sweeps_wait_first(sweep: str, job: str, every: float) -> None:
    rounds = Rounds(last=2)
    with pytest.raises(asyncio.CancelledError):
        await getattr(rounds.sweeps(), sweep)(every)
    assert rounds.log == [every, job, every, job, every]


@pytest.mark.parametrize(
    ("sweep", "failure"),
    [("ratings", "rating sweep failed"), ("clocks", "clock sweep failed"), ("mail", "mail sending failed")],
)
async def test_a_failed_round_is_logged_and_the_next_one_runs(
    sweep: str, failure: str, caplog: pytest.LogCaptureFixture
) -> None:
    rounds = Rounds(last=2)
    with pytest.raises(asyncio.CancelledError):
        await getattr(rounds.sweeps(fails_first=True), sweep)(2.0)
    assert failure in caplog.text
    assert sum(isinstance(entry, str) for entry in rounds.log) >= 2
