"""A chat line's cleaning and the per-person, per-table rate limit, in isolation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.services import chat
from app.services.chat import MAX_CHARS, ChatLimiter, clean_text
from app.services.errors import ServiceError


def code_of(raw: object) -> str:
    with pytest.raises(ServiceError) as refused:
        clean_text(raw)
    return refused.value.code


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  hello  ", "hello"),
        ("a\tb", "a b"),  # a tab keeps the words apart
        ("line one\r\nline two\rthree\u2028four", "line one\nline two\nthree\nfour"),
        ("a\n\n\n\n\nb", "a\n\nb"),
        ("a  \n \n \n \nb", "a\n\nb"),
        ("nul\x00 bell\x07 esc\x1b[31m del\x7f", "nul bell esc[31m del"),
        ("\u202eevil\u202c \u2066x\u2069", "evil x"),
        ("e\u0301", "é"),  # NFC
        ("🍔 👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🍔 👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿"),  # joiners and tag characters stay: emoji stay whole
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),  # stored as typed; shown as text
        ("x" * MAX_CHARS, "x" * MAX_CHARS),
        ("\n\n" + "y" * MAX_CHARS + " \n ", "y" * MAX_CHARS),
    ],
)
def test_a_line_is_cleaned(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


def test_refusals() -> None:
    assert code_of("") == code_of("  \n\t ") == code_of("\x00\u202e\x1b") == "chat_empty"
    assert code_of("x" * (MAX_CHARS + 1)) == code_of("x" * 10**6) == "chat_too_long"
    assert code_of(None) == code_of(5) == code_of(["hi"]) == "bad_message"
    assert code_of("\ud800") == "chat_empty"  # half a surrogate pair alone is dropped


@given(st.text(max_size=400))
def test_any_text_is_refused_or_clean(raw: str) -> None:
    try:
        text = clean_text(raw)
    except ServiceError as exc:
        assert exc.code in ("chat_empty", "chat_too_long")
        return
    assert 1 <= len(text) <= MAX_CHARS and text == text.strip()
    assert not any(ord(ch) < 32 and ch != "\n" or 0xD800 <= ord(ch) < 0xE000 for ch in text)
    assert clean_text(text) == text  # cleaning twice changes nothing


def test_the_limit_allows_a_burst_then_a_steady_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(chat.time, "monotonic", lambda: now[0])
    limits = ChatLimiter(rate=0.5, burst=5)
    assert [limits.wait("ana", "t1") for _ in range(5)] == [0.0] * 5
    assert limits.wait("ana", "t1") == pytest.approx(2.0)
    assert limits.wait("ben", "t1") == 0.0 and limits.wait("ana", "t2") == 0.0  # per person and table
    now[0] += 1.0
    assert limits.wait("ana", "t1") == pytest.approx(1.0)
    now[0] += 1.0
    assert limits.wait("ana", "t1") == 0.0
    assert limits.wait("ana", "t1") > 0


def test_idle_buckets_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(chat.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(chat, "LIMITER_SIZE", 10)
    limits = ChatLimiter(rate=0.5, burst=5)
    for i in range(10):
        limits.wait(f"u{i}", "t")
    now[0] += 10.0  # everyone's bucket is full again
    limits.wait("busy", "t")
    limits.wait("busy", "t")
    assert set(limits.buckets) == {("busy", "t")}
