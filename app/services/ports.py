"""What the use cases need from the live side of the process they run in, as a protocol the services own.

The use cases never import the hub, the broker or presence (`app/realtime`) nor the wiring (`app/runtime.py`): each
is given its collaborators (`Database`, `TableWrites`, a `Publisher`, the clock …) when the runtime builds it, and
tells the `Publisher` what happened. Realtime implements `Publisher` (`app/realtime/publisher.py`); `lint-imports`
keeps it so (the contracts in pyproject.toml).
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.record import TableRecord


class Publisher(Protocol):
    """The live side of the site, told what a use case changed: this process's sockets and, through the broker, the
    other processes'.

    A side notice (a chat line, a session ended …) is a JSON text the other processes act on: sent inside the
    transaction that makes the change (`notice_in_tx`, on Postgres one NOTIFY with the commit) and after it
    (`notice_after_commit`, for a broker outside the database); its effect on this process's sockets is told
    directly, after the commit."""

    async def notice_in_tx(self, session: AsyncSession, notice: str) -> None: ...

    async def notice_after_commit(self, notice: str) -> None: ...

    def chat_line(self, table_id: str, line: dict[str, Any]) -> None: ...

    def chat_removed(self, table_id: str, message_id: int) -> None: ...

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None: ...

    def sessions_ended(self, user_id: str, epoch: int) -> None:
        """The person's sockets opened with a token older than `epoch` close."""

    def session_revoked(self, user_id: str, sid: str) -> None:
        """The sockets opened with the session `sid` close."""

    def renamed(self, user_id: str, name: str) -> None:
        """The person took a new name: the watchers' list and the finished tables that name them show it."""

    def draft_shown(self, rec: TableRecord, seat: str, events: list[dict[str, Any]]) -> None:
        """The seat's own sockets see its new draft (nobody else hears of it)."""

    def table_changed(self, table_id: str, version: int) -> None:
        """The table's sockets here are brought up to `version` (at least) in the background."""

    def connected(self, table_id: str, user_id: str) -> bool:
        """Whether the person has a socket open at the table on any process (as presence knows it)."""
