"""The request side of the one cursor pagination (services/pagination.py): `limit` and `cursor`, the same on every
list operation."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import Query

from app.services.pagination import MAX_CURSOR


@dataclass(frozen=True)
class PageIn:
    limit: int
    cursor: str | None


def paged(default: int, maximum: int) -> Callable[..., Awaitable[PageIn]]:
    """A dependency reading a list operation's `limit` (1 to `maximum`, `default` when absent) and `cursor` (the
    `next` of the page before; none for the first page)."""

    # A coroutine though it never waits: FastAPI runs a plain function in a worker thread.
    async def page_in(
        limit: int = Query(default=default, ge=1, le=maximum, description="items per page"),
        cursor: str | None = Query(
            default=None, max_length=MAX_CURSOR, description="the `next` of the page before; none for the first"
        ),
    ) -> PageIn:
        return PageIn(limit, cursor)

    return page_in
