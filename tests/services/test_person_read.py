"""The person behind a request's token, read as a plain row (`auth.token_user`): the same person as the ORM loads,
detached, with nothing recorded as changed."""

from __future__ import annotations

from sqlalchemy import inspect

from app.db.models import USERS, User
from app.runtime import Runtime
from app.services.auth import Claims, register, token_user


async def test_the_person_of_a_token_is_the_stored_person_detached_and_unchanged(rt: Runtime) -> None:
    async with rt.sessions() as session:
        made = await register(session, "ana", "correct horse", "Ana", None)
    async with rt.reads() as session:
        person, signed_out = await token_user(rt.database, Claims(made.id, 0, None))
        loaded = await session.get(User, made.id)
        assert loaded is not None
        stored = {column.key: getattr(loaded, column.key) for column in USERS.c}
    assert person is not None and not signed_out
    assert {column.key: getattr(person, column.key) for column in USERS.c} == stored
    state = inspect(person)
    assert state.detached and state.identity == (made.id,) and not state.modified
    async with rt.reads() as session:  # and it may join a session as any detached object does, changing nothing
        merged = await session.merge(person, load=False)
        assert merged.name == "Ana" and not session.dirty
