"""Session tokens: a token checked once is kept with its issue time, and still refused once its age runs out."""

from __future__ import annotations

import time

import pytest

from app.services.auth import Claims, TokenSigner
from app.services.errors import ServiceError

SECRET = "tokens-test-" + "k" * 32


def code_of(signer: TokenSigner, token: str) -> str:
    with pytest.raises(ServiceError) as refused:
        signer.claims(token)
    return refused.value.code


def test_a_kept_token_is_refused_once_its_age_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    signer = TokenSigner(SECRET, max_age=60)
    token = signer.issue("ana", epoch=2, sid="a" * 32)
    assert signer.claims(token) == Claims("ana", 2, "a" * 32)
    assert signer.claims(token) == Claims("ana", 2, "a" * 32)  # the second time from what was kept

    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 61)
    assert code_of(signer, token) == "token_expired"
    assert code_of(signer, token) == "token_expired"


def test_a_token_dated_ahead_of_the_clock_is_refused_even_when_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    signer = TokenSigner(SECRET, max_age=60)
    token = signer.issue("ana")
    signer.claims(token)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now - 5)  # the clock stepped back past the token's issue time
    assert code_of(signer, token) == "token_expired"


def test_forged_tokens_are_not_kept_and_the_kept_ones_are_bounded() -> None:
    signer = TokenSigner(SECRET, max_age=60)
    other = TokenSigner("another-" + "k" * 32, max_age=60)
    forged = other.issue("ana")
    for _ in range(3):
        assert code_of(signer, forged) == "bad_token"
    assert code_of(signer, signer.issue("ana")[:-4] + "abcd") == "bad_token"

    tokens = [signer.issue(f"person-{n}") for n in range(TokenSigner.VERIFIED_KEPT + 10)]
    for n, token in enumerate(tokens):
        assert signer.claims(token).user_id == f"person-{n}"
    assert len(signer._verified) == TokenSigner.VERIFIED_KEPT
    assert signer.claims(tokens[0]).user_id == "person-0"  # let go of, then checked afresh
