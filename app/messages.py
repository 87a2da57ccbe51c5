"""The table socket's messages in both directions, as pydantic models (docs/api/live-play.md).

Client messages are parsed into these models and dispatched by their `type` (`api/ws.py`). Server messages are
built by the hub as plain dicts, since each is encoded once and written to many sockets, and these models are their
reference: the test client validates every message the server sends in the tests against `ServerMessage`, and a
test checks that docs/api/live-play.md documents each model's type and fields.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, field_validator

MAX_CLIENT_ID = 64
CLIENT_ID_PATTERN = rf"^[A-Za-z0-9._:-]{{1,{MAX_CLIENT_ID}}}$"
ClientId = Annotated[StrictStr, Field(pattern=CLIENT_ID_PATTERN)]
BAD_CLIENT_ID = ("bad_client_id", f"client_id must be 1 to {MAX_CLIENT_ID} letters, digits or '.', '_', ':', '-'.")


class ClientMessage(BaseModel):
    """A message from a client. A field that fails validation is refused with the code in `field_errors` (the
    one the use case behind it gives for the same mistake), any other with `bad_message`."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    field_errors: ClassVar[dict[str, tuple[str, str]]] = {}


class Act(ClientMessage):
    """`act`: make a move. Without `expected_version` the move applies to whatever version it reaches."""

    type: Literal["act"]
    action: dict[str, Any]
    client_id: ClientId | None = None
    expected_version: StrictInt | None = None
    field_errors: ClassVar[dict[str, tuple[str, str]]] = {
        "action": ("bad_action", "An action must be an object with a 'type'."),
        "client_id": BAD_CLIENT_ID,
        "expected_version": ("bad_version", "expected_version must be a whole number."),
    }

    @field_validator("action")
    @classmethod
    def _typed(cls, action: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(action.get("type"), str):
            raise ValueError("an action needs a string 'type'")
        return action


class Undo(ClientMessage):
    """`undo`: take back my last step, named by the version the client shows."""

    type: Literal["undo"]
    client_id: ClientId | None = None
    expected_version: StrictInt
    field_errors: ClassVar[dict[str, tuple[str, str]]] = {
        "client_id": BAD_CLIENT_ID,
        "expected_version": ("bad_version", "An undo must name the version it takes back (expected_version)."),
    }


class Resync(ClientMessage):
    """`resync`: send me a fresh snapshot (the version the client shows is informative)."""

    type: Literal["resync"]
    version: int | None = None


class Ping(ClientMessage):
    """`ping`: answered by `pong` with the newest version the server knows."""

    type: Literal["ping"]


class Chat(ClientMessage):
    """`chat`: post a line at the table."""

    type: Literal["chat"]
    text: StrictStr
    client_id: ClientId | None = None
    field_errors: ClassVar[dict[str, tuple[str, str]]] = {
        "text": ("bad_message", "The chat text must be a string."),
        "client_id": BAD_CLIENT_ID,
    }


class Takeback(ClientMessage):
    """`takeback`: my say on taking back moves (docs/api/live-play.md, Takeback requests)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["takeback"]
    say: Literal["ask", "yes", "no"]
    proposal: StrictInt | None = None
    client_id: str = Field(min_length=1, max_length=MAX_CLIENT_ID)


class Preview(ClientMessage):
    """`preview`: whether this move of mine could be taken back at once."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["preview"]
    action: Any
    client_id: str = Field(min_length=1, max_length=MAX_CLIENT_ID)


# Each client message's model by its `type`.
CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    get_args(model.model_fields["type"].annotation)[0]: model
    for model in (Act, Undo, Resync, Ping, Chat, Takeback, Preview)
}
AnyClientMessage = Annotated[Act | Undo | Resync | Ping | Chat | Takeback | Preview, Field(discriminator="type")]


# Server to client. Omitted optional fields are absent from the message, not null.


class ServerMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Person(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str


class TableView(ServerMessage):
    """What a snapshot, update or draft has in common: the table as one viewer sees it."""

    version: int
    seat: str | None
    awaiting: list[str]
    actions: list[dict[str, Any]]
    draft: int | None = None  # the viewer's own drafts, which its view and actions include
    undo: bool | None = None  # this viewer may take back its last step
    clock: dict[str, Any] | None = None  # a started clocked table's clocks (docs/api/clocks.md)
    now: int | None = None  # the server's time of `clock`, epoch ms
    table: dict[str, Any] | None = None  # the Table (REST's shape); an update leaves it out when unchanged
    view: dict[str, Any] | None  # the game's view for this seat; null before the start
    events: list[dict[str, Any]] | None = None


class Snapshot(TableView):
    type: Literal["snapshot"]
    table: dict[str, Any]


class Update(TableView):
    type: Literal["update"]
    events: list[dict[str, Any]]


class Draft(TableView):
    type: Literal["draft"]
    draft: int
    events: list[dict[str, Any]]


class Ack(ServerMessage):
    """A client message done: a move (`version`, `draft` when it was kept as the seat's n-th draft) or a chat line
    (`message`, the stored ChatMessage)."""

    type: Literal["ack"]
    client_id: str | None
    version: int | None = None
    draft: int | None = None
    message: dict[str, Any] | None = None


class Error(ServerMessage):
    type: Literal["error"]
    code: str
    message: str
    client_id: str | None = None


class Pong(ServerMessage):
    type: Literal["pong"]
    version: int | None = None


class ChatLine(ServerMessage):
    type: Literal["chat"]
    message: dict[str, Any]


class ChatRemoved(ServerMessage):
    type: Literal["chat_removed"]
    id: int


class ChatMute(ServerMessage):
    type: Literal["chat_mute"]
    user: Person
    muted: bool


class Presence(ServerMessage):
    type: Literal["presence"]
    online: list[str]
    watching: int
    watchers: list[Person]


class PreviewAnswer(ServerMessage):
    """The answer to a preview: `undoable` false for a move that reveals, draws or ends a decision for good."""

    type: Literal["preview"] = "preview"
    client_id: str
    undoable: bool


AnyServerMessage = Annotated[
    Snapshot | Update | Draft | Ack | Error | Pong | ChatLine | ChatRemoved | ChatMute | Presence | PreviewAnswer,
    Field(discriminator="type"),
]
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(AnyServerMessage)
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(AnyClientMessage)


# Between server processes: the notices on the broker's side channel (realtime/broker.py), each naming its `kind`
# and the process that sent it (`origin`). Built from these models by their senders, parsed into them by the runtime
# and dispatched by kind.


class SideNotice(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    kind: str
    origin: str

    def payload(self) -> str:
        """The notice as the broker carries it: `kind` first, then the fields the sender gave. A field left at its
        default is left out, since the reader's model fills it in and a notice is kept small."""
        return orjson.dumps({"kind": self.kind, **self.model_dump(exclude_unset=True)}).decode()


class ChatNotice(SideNotice):
    """A chat line stored at a table: to this process's sockets of it."""

    kind: Literal["chat"] = "chat"
    table_id: str
    message: dict[str, Any]


class ChatRemovedNotice(SideNotice):
    kind: Literal["chat_removed"] = "chat_removed"
    table_id: str
    id: int


class ChatMuteNotice(SideNotice):
    kind: Literal["chat_mute"] = "chat_mute"
    table_id: str
    user: Person
    muted: bool
    host_id: str


class PresenceNotice(SideNotice):
    """A process's share of who is at its tables (`tables`: table id -> its part), a request that every process
    announce its own (`ask`), or its goodbye (`gone`). A malformed part counts as nothing (realtime/presence.py)."""

    kind: Literal["presence"] = "presence"
    tables: dict[str, Any] | None = None
    ask: bool = False
    gone: bool = False


class SessionEndedNotice(SideNotice):
    """A person's sessions with a token epoch below `epoch` ended (a password change, sign-out everywhere, a ban)."""

    kind: Literal["session_ended"] = "session_ended"
    user_id: str
    epoch: int


class SessionRevokedNotice(SideNotice):
    kind: Literal["session_revoked"] = "session_revoked"
    user_id: str
    sid: str


class RenamedNotice(SideNotice):
    kind: Literal["renamed"] = "renamed"
    user_id: str
    name: str


AnySideNotice = Annotated[
    ChatNotice | ChatRemovedNotice | ChatMuteNotice | PresenceNotice | SessionEndedNotice | SessionRevokedNotice
    | RenamedNotice,
    Field(discriminator="kind"),
]
SIDE_NOTICE: TypeAdapter[Any] = TypeAdapter(AnySideNotice)
