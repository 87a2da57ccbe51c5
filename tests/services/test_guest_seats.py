"""A seat is a guest's (not rated) only if its person is still a guest when the seat is written: a guest who
registers while a request of theirs is on its way to taking a seat, opening a table or starting one ends with every
one of those seats an account's, whichever commits first (services/auth.mark_guest_seats and register)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from app.db.models import Seat, User
from app.runtime import Runtime
from app.services import lobby
from app.services.auth import create_guest, register
from app.services.errors import ServiceError
from app.services.loading import load_record
from app.services.record import TableRecord, invite_code
from tests.conftest import SECRET

PASSWORD = "correct horse"



async def _guest(rt: Runtime, name: str) -> User:
    """A guest as a request finds them: a row read in a session that is gone by the time it is used."""
    async with rt.sessions() as session:
        return await create_guest(session, name)


async def _register(rt: Runtime, guest: User, username: str) -> User:
    async with rt.sessions() as session:
        return await register(session, username, PASSWORD, None, guest)


async def _open_table(rt: Runtime, host: User, seats: int = 2) -> str:
    async with rt.sessions() as session:
        return (await rt.lobby.create_table(session, host, "food-truck", seats, {}, "public", None)).id


async def _guest_flags(rt: Runtime, table_id: str) -> dict[str, bool]:
    """Each taken seat's person -> whether the seat is a guest's."""
    async with rt.reads() as session:
        rows = await session.execute(select(Seat.user_id, Seat.guest).where(Seat.table_id == table_id))
        return {user: bool(guest) for user, guest in rows if user is not None}


async def _join(rt: Runtime, table_id: str, user: User) -> None:
    async with rt.sessions() as session:
        rec = await load_record(session, table_id, for_update=True)
        await lobby.join(session, rec, user, None, None)
        await session.commit()


async def test_a_seat_taken_by_a_guest_who_has_just_registered_is_an_accounts(rt: Runtime) -> None:
    ana = await _register(rt, await _guest(rt, "Ana"), "ana")
    table_id = await _open_table(rt, ana)
    gus = await _guest(rt, "Gus")  # the join request has read him as a guest ...
    await _register(rt, gus, "gus")  # ... and his registration commits before the seat is written
    await _join(rt, table_id, gus)
    assert await _guest_flags(rt, table_id) == {ana.id: False, gus.id: False}
    # A guest who stays one still sits as a guest.
    other = await _open_table(rt, ana)
    cy = await _guest(rt, "Cy")
    await _join(rt, other, cy)
    assert await _guest_flags(rt, other) == {ana.id: False, cy.id: True}


async def test_a_table_opened_or_started_by_a_guest_who_has_just_registered_is_an_accounts(rt: Runtime) -> None:
    gus = await _guest(rt, "Gus")
    await _register(rt, gus, "gus")
    table_id = await _open_table(rt, gus)  # with the request's stale guest row as its host
    assert await _guest_flags(rt, table_id) == {gus.id: False}

    ana = await _guest(rt, "Ana")
    started = await _open_table(rt, ana)
    bo = await _register(rt, await _guest(rt, "Bo"), "bo")
    await _join(rt, started, bo)
    assert await _guest_flags(rt, started) == {ana.id: True, bo.id: False}
    await _register(rt, ana, "ana")
    async with rt.sessions() as session:
        rec = await load_record(session, started, for_update=True)
        await lobby.start(session, rec, ana)  # the record read before, the seats rewritten from it
        await session.commit()
        assert [s.guest for s in (await load_record(session, started)).seats] == [False, False]
    assert await _guest_flags(rt, started) == {ana.id: False, bo.id: False}


async def test_a_registration_that_races_a_seat_being_taken_waits_for_it_and_turns_it(rt: Runtime) -> None:
    ana = await _register(rt, await _guest(rt, "Ana"), "ana")
    table_id = await _open_table(rt, ana)
    gus = await _guest(rt, "Gus")
    async with rt.sessions() as session:
        rec = await load_record(session, table_id, for_update=True)
        await lobby.join(session, rec, gus, None, None)  # the seat is his, as a guest's, not committed yet
        registering = asyncio.create_task(_register(rt, gus, "gus"))
        await asyncio.sleep(0.5)
        assert not registering.done()  # it waits for the seat's transaction (a row lock, or SQLite's one writer)
        await session.commit()
    await asyncio.wait_for(registering, 30)
    assert await _guest_flags(rt, table_id) == {ana.id: False, gus.id: False}


async def test_the_same_guest_registering_twice_at_once_keeps_the_first_account(rt: Runtime) -> None:
    gus = await _guest(rt, "Gus")
    first = await _register(rt, gus, "gus")
    with pytest.raises(ServiceError) as refused:
        await _register(rt, gus, "gus2")  # the second tab's request still holds him as a guest
    assert refused.value.code == "already_registered" and refused.value.status == 409
    async with rt.reads() as session:
        row = await session.get(User, gus.id)
        assert row is not None and row.username == first.username == "gus"



async def test_the_records_a_create_and_a_join_make_are_what_a_fresh_read_finds(rt: Runtime) -> None:
    """They are built from what their statements return, not read back: the names and guest marks included."""

    async def fresh(table_id: str) -> TableRecord:
        async with rt.reads() as session:
            return await load_record(session, table_id)

    gus = await _guest(rt, "Gus")
    ana = await _register(rt, await _guest(rt, "Ana"), "ana")
    for host, joiner in ((gus, ana), (ana, gus)):
        async with rt.sessions() as session:
            created = await rt.lobby.create_table(session, host, "food-truck", 3, {}, "private", "Lunch")
        assert created == await fresh(created.id)
        assert [(s.user_name, s.guest) for s in created.seats] == [(host.name, host is gus), (None, False), (None, False)]
        code = invite_code(SECRET, created.id)
        joined = await rt.lobby.change(created.id, joiner, code, lambda s, r, j=joiner, c=code: lobby.join(s, r, j, 2, c))
        assert joined == await fresh(created.id)
        assert (joined.seats[2].user_name, joined.seats[2].guest) == (joiner.name, joiner is gus)
