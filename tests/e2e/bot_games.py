"""Games bots play out in the test process, on the browser tests' database: a finished game for the tests of what comes
after one, in the time the engine and the database take rather than at the server's bot pace (`BOT_DELAY`, slow
enough for a person to follow the bots in the page).

The table is made through the same use cases the server's routes call, by a runtime of the test's own whose bots
move at once; the server reads the table from the database, as it would a table another process made. People sit as
themselves: the signed-in guests of the browser contexts."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from app.config import Settings
from app.db.models import User
from app.runtime import OUTSIDE_CHECK_SECONDS, Runtime
from app.services import lobby
from app.services.record import TableStatus, Visibility
from tests.e2e.conftest import SECRET, Person
from tests.e2e.helpers import user_id

FINISH_TIMEOUT = 120  # seconds the bots have to play a whole game


def finished_by_bots(
    host: Person, *others: Person, game: str = "food-truck", seats: int = 3, name: str = "Lunch rush"
) -> str:
    """A game of `host` (seat 0), the `others` (the next seats) and bots (the rest), played to its end by bots: one
    stands in for each person. Its table's id, once the server shows it finished."""
    people = [user_id(who) for who in (host, *others)]
    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        tid = pool.submit(asyncio.run, _play_out(host.database_url, people, game, seats, name)).result(FINISH_TIMEOUT + 30)
    # A lobby page that listed the table while it was played had the server keep it as it was then: on SQLite the
    # server looks in the database for what another process changed every OUTSIDE_CHECK_SECONDS.
    deadline = time.monotonic() + OUTSIDE_CHECK_SECONDS + 20
    while host.page.request.get(f"{host.base}/api/tables/{tid}").json()["status"] != TableStatus.FINISHED:
        assert time.monotonic() < deadline, "the server did not see the game end"
        time.sleep(0.2)
    return tid


async def _play_out(database_url: str, people: list[str], game: str, seats: int, name: str) -> str:
    rt = Runtime(Settings(database_url=database_url, secret_key=SECRET, bot_delay=0, run_migrations=False))
    try:
        async with rt.sessions() as session:
            users = [await session.get_one(User, user) for user in people]
            host = users[0]
            rec = await rt.lobby.create_table(session, host, game, seats, {}, Visibility.PUBLIC, name)
        tid = rec.id
        for who in users[1:]:
            await rt.lobby.change(tid, who, None, lambda s, r, who=who: lobby.join(s, r, who, None, None))
        for seat in range(len(users), seats):
            await rt.lobby.change(tid, host, None, lambda s, r, seat=seat: lobby.add_bot(s, r, host, str(seat)))
        await rt.lobby.change(tid, host, None, lambda s, r: lobby.start(s, r, host, rt.now()))
        # Each asks for a bot in their seat, which any table allows; the runtime's bots move from then on.
        for seat, who in enumerate(users):
            await rt.lobby.change(
                tid, who, None, lambda s, r, seat=seat, who=who: lobby.stand_in(s, r, who, str(seat), 0, now=rt.now())
            )
        async with asyncio.timeout(FINISH_TIMEOUT):
            while (table := rt.cache.get(tid)) is None or table.status != TableStatus.FINISHED or rt.bots.running:
                await asyncio.sleep(0.02)
        return tid
    finally:
        await rt.stop()
