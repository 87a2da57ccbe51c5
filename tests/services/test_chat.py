"""A chat line's cleaning and the per-person, per-table rate limit's arithmetic, in isolation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.services.chat import MAX_CHARS, allowance_now, clean_text
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


def _walk(times: list[float], rate: float = 0.5, burst: int = 5) -> list[bool]:
    """Which of these posting times the limit lets through, each decided from the last stored line alone."""
    base = datetime(2025, 1, 1, tzinfo=UTC)
    last: tuple[float | None, datetime] | None = None
    allowed = []
    for at in times:
        now = base + timedelta(seconds=at)
        tokens = float(burst) if last is None else allowance_now(last[0], last[1], now, rate, burst)
        allowed.append(tokens >= 1)
        if tokens >= 1:
            last = (tokens - 1, now)
    return allowed


def test_the_limit_allows_a_burst_then_a_steady_rate() -> None:
    assert _walk([0, 0, 0, 0, 0, 0]) == [True] * 5 + [False]
    # After the burst, one line every two seconds, and never a second burst while the lines keep coming.
    assert _walk([0] * 5 + [1.0, 2.0, 2.1, 4.0, 4.5, 6.0, 6.0]) == [True] * 5 + [False, True, False, True, False,
                                                                                   True, False]
    # Quiet for burst / rate seconds, the whole burst is back, and no more than that.
    assert _walk([0] * 5 + [100.0] * 6) == [True] * 10 + [False]


def test_the_allowance_is_capped_and_ignores_a_clock_behind() -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    assert allowance_now(0.0, at, at + timedelta(hours=1), 0.5, 5) == 5.0
    assert allowance_now(2.0, at, at - timedelta(seconds=30), 0.5, 5) == 2.0  # another process's clock ahead
    assert allowance_now(None, at, at, 0.5, 5) == 4.0  # a line stored before the allowance was
    assert allowance_now(0.0, at.replace(tzinfo=None), at + timedelta(seconds=1), 0.5, 5) == 0.5  # SQLite's naive UTC
