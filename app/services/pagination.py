"""One cursor pagination for every list the API serves (docs/api/pagination.md).

A page is asked for by `limit` and `cursor`; its answer carries `next`, the cursor of the page after it (null on the
last). A cursor is opaque to clients: base64url of the list's name and the sort key of the last item given (keyset
pagination on the list's order, which always ends in a unique column). The next page starts strictly after that
key, so an item inserted or removed meanwhile shifts nothing: no item is given twice, and none that stays in place is
skipped, as an offset would. A cursor that does not decode, or was made by another list, is refused as 422
`bad_cursor`.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import orjson
from sqlalchemy import ColumnElement, and_, or_, true

from app.services.errors import ServiceError

MAX_CURSOR = 500  # characters: a cursor the server made is far shorter
Kind = Literal["time", "str", "int", "float"]
T = TypeVar("T")


@dataclass(frozen=True)
class PageRequest:
    """The page asked for: at most `limit` items after the item whose sort key is `after` (None: the first page)."""

    limit: int
    after: tuple[Any, ...] | None = None


def bad_cursor() -> ServiceError:
    return ServiceError("bad_cursor", "This cursor is not one this list gave: start again from the first page.", 422)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    return value


def encode(name: str, key: Sequence[Any]) -> str:
    """The cursor of the page after the item with sort key `key`, in list `name`."""
    raw = orjson.dumps([name, [_plain(v) for v in key]])
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _typed(value: Any, kind: Kind) -> Any:
    if value is None:
        return None
    if kind == "time" and isinstance(value, str):
        at = datetime.fromisoformat(value)
        return at if at.tzinfo else at.replace(tzinfo=UTC)
    if kind == "str" and isinstance(value, str):
        return value
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63:
        return value
    if kind == "float" and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ValueError(kind)


def decode(name: str, cursor: str | None, kinds: Sequence[Kind]) -> tuple[Any, ...] | None:
    """The sort key a cursor of list `name` holds (None for no cursor); `bad_cursor` for anything else."""
    if cursor is None:
        return None
    try:
        if len(cursor) > MAX_CURSOR:
            raise ValueError("long")
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        made_by, key = orjson.loads(raw)
        if made_by != name or not isinstance(key, list) or len(key) != len(kinds):
            raise ValueError("another list's")
        return tuple(_typed(v, k) for v, k in zip(key, kinds, strict=True))
    except (ValueError, TypeError, binascii.Error, orjson.JSONDecodeError) as exc:
        raise bad_cursor() from exc


def after(order: Sequence[tuple[Any, bool]], key: tuple[Any, ...] | None) -> ColumnElement[bool]:
    """The rows strictly after `key` in the order `order` ((column, descending) pairs; the last column unique):
    the row comparison written out, as SQLite and Postgres both compile it and mixed directions need it."""
    if key is None:
        return true()
    clause: ColumnElement[bool] | None = None
    for (column, descending), value in reversed(list(zip(order, key, strict=True))):
        beyond = column < value if descending else column > value
        clause = beyond if clause is None else or_(beyond, and_(column == value, clause))
    assert clause is not None
    return clause


def split(
    rows: Sequence[T], page: PageRequest, name: str, key_of: Callable[[T], Sequence[Any]]
) -> tuple[list[T], str | None]:
    """A page from `rows`, fetched with `page.limit + 1` as their LIMIT: the page, and the cursor after its last item
    when there is more (None on the last page)."""
    items = list(rows[: page.limit])
    more = len(rows) > page.limit
    return items, (encode(name, key_of(items[-1])) if more and items else None)
