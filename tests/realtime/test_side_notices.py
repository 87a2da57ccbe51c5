"""The broker's side notices as their senders build them (app/messages.py): the wire format
realtime/side_notices.py parses."""

from __future__ import annotations

from app.messages import (
    SIDE_NOTICE,
    ChatMuteNotice,
    ChatNotice,
    ChatRemovedNotice,
    Person,
    PresenceNotice,
    RenamedNotice,
    SessionEndedNotice,
    SessionRevokedNotice,
    SideNotice,
)


def test_each_notice_reads_back_as_itself_with_its_kind_first_and_no_defaults() -> None:
    built: list[SideNotice] = [
        ChatNotice(origin="a", table_id="t", message={"id": 1, "text": "¡hola!"}),
        ChatRemovedNotice(origin="a", table_id="t", id=1),
        ChatMuteNotice(origin="a", table_id="t", user=Person(id="u", name="Ana"), muted=False, host_id="h"),
        PresenceNotice(origin="a", ask=True),
        SessionEndedNotice(origin="a", user_id="u", epoch=2),
        SessionRevokedNotice(origin="a", user_id="u", sid="s"),
        RenamedNotice(origin="a", user_id="u", name="Zoë"),
    ]
    for notice in built:
        payload = notice.payload()
        assert payload.startswith(f'{{"kind":"{notice.kind}","origin":"a",'), payload
        assert SIDE_NOTICE.validate_json(payload) == notice
    assert PresenceNotice(origin="a", gone=True).payload() == '{"kind":"presence","origin":"a","gone":true}'
