"""The broker's side notices from the other processes, each told to what it concerns here: a chat line, a line
removed or a person muted to this process's sockets of its table, another process's presence, a person's sessions
ended or one revoked (their sockets here close), a person's new name."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import ValidationError

from app import messages
from app.messages import SIDE_NOTICE
from app.realtime.presence import NAME_CHARS

log = logging.getLogger("app.side_notices")


def read_side_notice(payload: str) -> messages.SideNotice | None:
    """A side notice as its model; None for a kind this process does not know (a newer one's, during a rolling
    upgrade) and for a malformed one, which is logged."""
    try:
        notice: messages.SideNotice = SIDE_NOTICE.validate_json(payload)
    except ValidationError as exc:
        if not any(error["type"] == "union_tag_invalid" for error in exc.errors()):
            log.warning("side notice malformed: %s", exc.errors()[0])
        return None
    return notice


class Sockets(Protocol):
    """This process's sockets, as the notices concern them (the hub)."""

    def chat(self, table_id: str, line: dict[str, Any]) -> None: ...

    def chat_removed(self, table_id: str, message_id: int) -> None: ...

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None: ...

    def end_sessions(self, user_id: str, epoch: int) -> int: ...

    def revoke_session(self, user_id: str, sid: str) -> int: ...


class OthersPresence(Protocol):
    """Who is at the tables on the other processes (realtime/presence.Presence)."""

    def on_notice(self, notice: messages.PresenceNotice) -> None: ...


class SideNotices:
    """Acts on each side notice another process sent; this process's own come back from the broker and are not news."""

    def __init__(
        self,
        *,
        hub: Sockets,
        presence: OthersPresence,
        renamed: Callable[[str, str], None],
        origin: str,
    ) -> None:
        self.hub = hub
        self.presence = presence
        self.renamed = renamed  # a person's new name, shown to the watchers and the finished tables that name them
        self.origin = origin  # names this process in its own notices

    def __call__(self, payload: str) -> None:
        notice = read_side_notice(payload)
        if notice is None or notice.origin == self.origin:
            return
        try:
            match notice:
                case messages.ChatNotice():
                    self.hub.chat(notice.table_id, notice.message)
                case messages.ChatRemovedNotice():
                    self.hub.chat_removed(notice.table_id, notice.id)
                case messages.ChatMuteNotice():
                    self.hub.chat_mute(notice.table_id, notice.user.model_dump(), notice.muted, notice.host_id)
                case messages.PresenceNotice():
                    self.presence.on_notice(notice)
                case messages.SessionEndedNotice():
                    self.hub.end_sessions(notice.user_id, notice.epoch)
                case messages.SessionRevokedNotice():
                    self.hub.revoke_session(notice.user_id, notice.sid)
                case messages.RenamedNotice():
                    self.renamed(notice.user_id, notice.name[:NAME_CHARS])
        except Exception:  # noqa: BLE001 - a notice that fails must not stop the broker's listener
            log.exception("side notice failed")
