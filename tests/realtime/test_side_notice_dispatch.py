"""Each side notice from another process reaches what it concerns here (realtime/side_notices.SideNotices); this
process's own, an unknown kind and one that fails are dropped without stopping the listener."""

from __future__ import annotations

from typing import Any

import pytest

from app import messages
from app.realtime.side_notices import SideNotices


class Sockets:
    """The hub's side of the notices, as calls noted down."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def chat(self, table_id: str, line: dict[str, Any]) -> None:
        self.calls.append(("chat", table_id, line))

    def chat_removed(self, table_id: str, message_id: int) -> None:
        self.calls.append(("chat_removed", table_id, message_id))

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None:
        self.calls.append(("chat_mute", table_id, user, muted, host_id))

    def end_sessions(self, user_id: str, epoch: int) -> int:
        self.calls.append(("end_sessions", user_id, epoch))
        return 0

    def revoke_session(self, user_id: str, sid: str) -> int:
        if sid == "boom":
            raise RuntimeError("a socket that will not close")
        self.calls.append(("revoke_session", user_id, sid))
        return 0


class Presence:
    def __init__(self) -> None:
        self.notices: list[messages.PresenceNotice] = []

    def on_notice(self, notice: messages.PresenceNotice) -> None:
        self.notices.append(notice)


@pytest.fixture
def parts() -> tuple[SideNotices, Sockets, Presence, list[tuple[str, str]]]:
    hub, presence, renamed = Sockets(), Presence(), []
    notices = SideNotices(hub=hub, presence=presence, renamed=lambda u, n: renamed.append((u, n)), origin="here")
    return notices, hub, presence, renamed


def test_each_kind_reaches_what_it_concerns(parts: tuple[SideNotices, Sockets, Presence, list[tuple[str, str]]]) -> None:
    notices, hub, presence, renamed = parts
    notices('{"kind": "chat", "origin": "there", "table_id": "t1", "message": {"id": 4, "text": "hi"}}')
    notices('{"kind": "chat_removed", "origin": "there", "table_id": "t1", "id": 4}')
    notices(messages.ChatMuteNotice(
        origin="there", table_id="t1", user=messages.Person(id="v", name="Vi"), muted=True, host_id="h"
    ).payload())
    notices('{"kind": "session_ended", "origin": "there", "user_id": "u", "epoch": 3}')
    notices('{"kind": "session_revoked", "origin": "there", "user_id": "u", "sid": "s1"}')
    notices('{"kind": "presence", "origin": "there", "gone": true}')
    notices('{"kind": "renamed", "origin": "there", "user_id": "u", "name": "' + "N" * 100 + '"}')
    assert hub.calls == [
        ("chat", "t1", {"id": 4, "text": "hi"}),
        ("chat_removed", "t1", 4),
        ("chat_mute", "t1", {"id": "v", "name": "Vi"}, True, "h"),
        ("end_sessions", "u", 3),
        ("revoke_session", "u", "s1"),
    ]
    assert [(n.origin, n.gone) for n in presence.notices] == [("there", True)]
    [(user_id, name)] = renamed
    assert user_id == "u" and 0 < len(name) < 100  # cut to the length a name may have


def test_this_processs_own_notices_and_unknown_kinds_are_not_news(
    parts: tuple[SideNotices, Sockets, Presence, list[tuple[str, str]]],
) -> None:
    notices, hub, presence, renamed = parts
    notices('{"kind": "chat_removed", "origin": "here", "table_id": "t1", "id": 4}')
    notices('{"kind": "from_the_future", "origin": "there"}')
    notices("not json")
    assert hub.calls == [] and presence.notices == [] and renamed == []


def test_a_notice_that_fails_is_logged_and_the_next_one_still_acted_on(
    parts: tuple[SideNotices, Sockets, Presence, list[tuple[str, str]]], caplog: pytest.LogCaptureFixture
) -> None:
    notices, hub, _, _ = parts
    notices('{"kind": "session_revoked", "origin": "there", "user_id": "u", "sid": "boom"}')
    notices('{"kind": "session_ended", "origin": "there", "user_id": "u", "epoch": 1}')
    assert "side notice failed" in caplog.text
    assert hub.calls == [("end_sessions", "u", 1)]
