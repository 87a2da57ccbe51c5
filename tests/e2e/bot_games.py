"""Games bots play out on the browser tests' server at once: a finished game for the tests of what comes after one, in
the time the engine and the database take rather than at the server's bot pace (`BOT_DELAY`, slow enough for a person
to follow the bots in the page).

The table is made on the server's own loop through the same use cases its routes call; people sit as themselves (the
signed-in guests of the browser contexts), and each asks for a bot in their seat, as any table allows."""

from __future__ import annotations

import asyncio

from app.db.models import User
from app.runtime import Runtime
from app.services import lobby
from app.services.record import TableStatus, Visibility
from tests.e2e.conftest import Person
from tests.e2e.helpers import user_id

FINISH_TIMEOUT = 120  # seconds the bots have to play a whole game


def finished_by_bots(
    host: Person, *others: Person, game: str = "food-truck", seats: int = 3, name: str = "Lunch rush"
) -> str:
    """A game of `host` (seat 0), the `others` (the next seats) and bots (the rest), played to its end by bots: one
    stands in for each person. Its table's id."""
    server = host.server
    people = [user_id(who) for who in (host, *others)]
    with server.quick_bots():
        return server.call(_play_out(server.runtime, people, game, seats, name), FINISH_TIMEOUT + 30)


async def _play_out(rt: Runtime, people: list[str], game: str, seats: int, name: str) -> str:
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
    for seat, who in enumerate(users):
        await rt.lobby.change(
            tid, who, None, lambda s, r, seat=seat, who=who: lobby.stand_in(s, r, who, str(seat), 0, now=rt.now())
        )
    async with asyncio.timeout(FINISH_TIMEOUT):
        while (table := rt.cache.get(tid)) is None or table.status != TableStatus.FINISHED or tid in rt.bots.running:
            await asyncio.sleep(0.02)
    return tid
