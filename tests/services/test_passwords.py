"""Passwords are stored as argon2id hashes at the deployment's cost (the suite's own servers hash cheaply: see
tests/conftest.py), and only the password a hash was made from signs its account in."""

from __future__ import annotations

import pytest
from argon2 import extract_parameters, profiles
from sqlalchemy import update

from app.db.models import User
from app.services import auth
from app.services.errors import ServiceError
from tests.conftest import REAL_HASHER
from tests.services.conftest import World


async def test_a_password_is_hashed_with_argon2id_at_rfc_9106s_low_memory_setting(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auth, "_hasher", REAL_HASHER)
    stored = await auth.hash_password("correct horse battery")
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert extract_parameters(stored) == profiles.RFC_9106_LOW_MEMORY == auth.PASSWORD_PARAMETERS
    async with world.sessions() as session:
        await session.execute(update(User).where(User.id == "ana").values(password_hash=stored))
        await session.commit()

    assert (await auth.login(world.reads, "ana", "correct horse battery")).id == "ana"
    with pytest.raises(ServiceError) as refused:
        await auth.login(world.reads, "ana", "correct horse battery!")
    assert refused.value.code == "bad_credentials"
