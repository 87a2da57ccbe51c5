"""Pydantic request and response models (they also make the OpenAPI page)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from app.games.base import BotLevel
from app.services.events import TableEvent
from app.services.record import TableStatus, Visibility

# One of the table's own events: described, not validated, since its other fields depend on its type (docs/api/live-play.md) and a stored log is sent as it was written.
TableEventOut = Annotated[dict[str, Any], WithJsonSchema({
    "type": "object",
    "properties": {
        "type": {"type": "string", "enum": [kind.value for kind in TableEvent]},
        "visible_to": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
    },
    "required": ["type"],
    "additionalProperties": True,
})]


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody


class UserOut(BaseModel):
    id: str
    name: str
    username: str | None = None


class MeOut(UserOut):
    # The id of the session the request came with (not a credential: a token is signed). A page compares it to tell
    # a newer session of this browser (a password changed in another tab) from the one that ended.
    session: str | None = None


class RefusalOut(BaseModel):
    code: str
    message: str


class SessionOut(BaseModel):
    # Who a page is signed in as, always answered 200: a signed-out visitor is an answer, not an error.
    user: UserOut | None = None
    session: str | None = None
    # Why the token the request came with was not taken (its session ended, a bad or expired token); its cookie is
    # cleared with the answer.
    refused: RefusalOut | None = None


class AuthOut(BaseModel):
    # For API clients (`Authorization: Bearer`); a browser uses the HttpOnly cookie set with it and keeps no token.
    token: str
    session: str
    user: UserOut


class GuestIn(BaseModel):
    name: str = Field(max_length=200)


class RegisterIn(BaseModel):
    username: str = Field(max_length=200)
    password: str = Field(max_length=1000)
    name: str | None = Field(default=None, max_length=200)


class RenameIn(BaseModel):
    name: str = Field(max_length=200)


class PasswordIn(BaseModel):
    current: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class ForgotIn(BaseModel):
    who: str = Field(max_length=300)  # a username, or the account's confirmed email address


class ResetIn(BaseModel):
    token: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class LoginIn(BaseModel):
    username: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class OptionOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    type: str
    default: Any = None
    label: str = ""


class GameOut(BaseModel):
    id: str
    title: str
    description: str
    min_players: int
    max_players: int
    options: list[OptionOut]
    # The description, option labels and choice labels in other languages, by their English wording.
    i18n: dict[str, dict[str, str]] = Field(default_factory=dict)


class CreateTableIn(BaseModel):
    game: str = Field(max_length=100)
    seats: int
    options: dict[str, Any] = Field(default_factory=dict)
    visibility: Visibility = Visibility.PUBLIC
    name: str | None = Field(default=None, max_length=200)
    # Any JSON here: the service refuses a wrong one with its own code (bad_time_control).
    time_control: Any = None


class JoinIn(BaseModel):
    seat: str | int | None = None
    invite_code: str | None = Field(default=None, max_length=200)


class SeatIn(BaseModel):
    seat: str | int


class ChatModeIn(BaseModel):
    # Any JSON here: the service refuses a wrong one with its own code (bad_chat_mode).
    mode: Any = None


class BotIn(SeatIn):
    level: BotLevel = BotLevel.NORMAL  # how strongly the bot plays


class AbandonIn(BaseModel):
    # Any JSON here: the service refuses a wrong one with its own code (bad_vote, bad_proposal).
    vote: Any = None
    proposal: Any = None  # the id of the open proposal this vote answers; none to propose (or agree to any)


class TakebackIn(BaseModel):
    # Any JSON here: the service refuses a wrong one with its own code (bad_say, bad_proposal).
    say: Any = None  # "ask", "yes" or "no"
    proposal: Any = None  # the id of the open request this say answers


class TakebackOut(BaseModel):
    id: int  # the table version that opened it
    by: str  # the seat that asked
    seq: int  # the first move it takes back (the asker's last): that move and every one after it
    moves: int  # how many moves that is
    yes: list[str]  # the seats that agreed
    waiting: list[str]  # the seats whose yes it still needs


# ---- table socket messages (app/api/ws.py) beyond act, undo, resync, ping and chat ----


class AbandonOut(BaseModel):
    id: int  # the table version that opened it
    by: str  # the seat that proposed it
    yes: list[str]  # the seats that agreed (the proposer first)
    waiting: list[str]  # the seats whose say it still needs


class SeatUser(BaseModel):
    id: str
    name: str


class SeatOut(BaseModel):
    seat: str
    user: SeatUser | None
    bot: bool
    bot_level: BotLevel | None = None  # how strongly a bot plays the seat (a stand-in plays at normal)
    guest: bool = False  # its person plays (played) it as a guest: the seat is not rated


class RatingChangeOut(BaseModel):
    before: int
    after: int
    change: int  # after - before


class TimeControlOut(BaseModel):
    kind: Literal["realtime", "turn"]
    timeout: Literal["bot_move", "loss"]  # what a player's running out of time does
    base: int | None = None  # real time: seconds per player for the game
    increment: int | None = None  # real time: seconds added at the end of each of the player's turns
    per_move: int | None = None  # turn based: seconds each turn may take before drawing on the bank
    bank: int | None = None  # turn based: extra seconds per player for the game


class SeatClockOut(BaseModel):
    left: int  # milliseconds until the seat's time runs out, as of `now`
    running: bool  # its turn is running: `left` counts down
    bank: int | None = None  # turn based: what is left of its bank, as of `now`


class ClockOut(BaseModel):
    seats: dict[str, SeatClockOut]  # the seats with a clock (a bot's own seat has none)
    timed_out: list[str]  # seats whose person ran out of time and lost (a bot plays them on)
    low: int  # milliseconds left under which a clock is shown as low


class TableOut(BaseModel):
    id: str
    game: str
    name: str
    visibility: Visibility
    status: TableStatus
    host: SeatUser
    seat_count: int
    seats: list[SeatOut]
    options: dict[str, Any]
    version: int
    move_count: int
    awaiting: list[str]
    my_seat: str | None
    is_host: bool
    outcome: dict[str, Any] | None
    seed_commitment: str
    seed: int | None
    invite_code: str | None = None
    rematch_id: str | None = None  # once the game is over: the table its players opened to play again
    abandoned: bool = False  # finished because its players agreed to abandon it (no outcome)
    chat_mode: Literal["everyone", "accounts", "players"] = "everyone"  # who may chat, as the host chose
    abandon: AbandonOut | None = None  # a running game: the open proposal to abandon it
    takeback: TakebackOut | None = None  # a running game: the open request to take back moves
    rated: bool = False  # the game changes (a finished one: changed) its people's ratings
    ratings: dict[str, RatingChangeOut] | None = None  # by seat, once the finished game is rated
    created_at: str
    updated_at: str
    waited: float | None = None  # a running game: seconds since the table last changed
    stand_in_after: float | None = None  # ... after which any player may hand an awaited seat to a bot
    stand_in_after_online: float | None = None  # ... the same for a seat whose player is connected
    time_control: TimeControlOut | None = None  # the host's choice at creation; none: no clock
    clock: ClockOut | None = None  # a clocked game's clocks, as of `now`
    now: int | None = None  # the server's time (epoch ms) when `clock` was read



class TablesOut(BaseModel):
    tables: list[TableOut]
    next: str | None  # the cursor of the next page (docs/api/pagination.md); null on the last one

class MoveOut(BaseModel):
    seq: int
    version: int  # the table version the move made, for interleaving with the lobby log
    seat: str
    action: dict[str, Any] | None
    steps: list[dict[str, Any]] | None = None  # the mover's secret steps the move carried (hidden as `action` is)
    events: list[dict[str, Any]]
    created_at: str


class LobbyLogOut(BaseModel):
    version: int  # the table version the lobby change made
    events: list[TableEventOut]
    created_at: str


class MovesOut(BaseModel):
    moves: list[MoveOut]
    lobby: list[LobbyLogOut] = []  # seat changes, bots, votes, renames: not moves, told in the log all the same


class ChatIn(BaseModel):
    # No length limits here: the service refuses a long text as chat_too_long, a bad client_id as bad_client_id.
    text: str
    client_id: str | None = None


class ChatMessageOut(BaseModel):
    id: int
    user: SeatUser
    seat: str | None  # null for a spectator
    text: str
    created_at: str


class ChatOut(BaseModel):
    messages: list[ChatMessageOut]  # oldest first
    muted: bool  # the reader is muted in this chat
    next: str | None  # the cursor of the page of older lines (docs/api/pagination.md); null on the last one


class ChatMuteOut(BaseModel):
    user: SeatUser
    created_at: str


class ChatMutesOut(BaseModel):
    mutes: list[ChatMuteOut]


class ChatUnmuteOut(BaseModel):
    user_id: str
    muted: bool


class ChatRemovedOut(BaseModel):
    id: int
    removed: bool


class ReplayOut(BaseModel):
    step: int
    total: int
    seat: str | None = None  # whose view: null for the spectator's
    view: dict[str, Any] | None
    events: list[dict[str, Any]]


class VerifyOut(BaseModel):
    ok: bool
    abandoned: bool = False
    seed: int | None
    commitment: str
    commitment_ok: bool
    moves: int
    detail: str


class HealthOut(BaseModel):
    status: str
    database: Literal["sqlite", "postgresql"]
    broker: str = "ok"


class LiveOut(BaseModel):
    status: str


class OkOut(BaseModel):
    ok: bool


class NotificationsIn(BaseModel):
    # Any JSON here: the service refuses a wrong one with its own code (bad_email, bad_notify).
    email: Any = None  # an address (a confirmation link is mailed to a new one); "" or null removes it
    turn: Any = None
    finished: Any = None
    invite: Any = None


class PushKeysIn(BaseModel):
    # Any JSON here: the service refuses a wrong one with its own code (bad_subscription).
    p256dh: Any = None
    auth: Any = None


class PushSubscriptionIn(BaseModel):
    """A browser's PushSubscription as its toJSON() gives it."""

    endpoint: Any = None
    keys: PushKeysIn = PushKeysIn()


class PushEndpointIn(BaseModel):
    endpoint: Any = None


class PushKeyOut(BaseModel):
    public_key: str  # the VAPID public key (applicationServerKey), base64url


class PushStatusOut(BaseModel):
    subscriptions: int  # the browsers I get pushes on


class NotificationsOut(BaseModel):
    enabled: bool  # the server sends mail (SMTP is set up)
    push: bool  # the server sends Web Push (it runs with the `push` extra)
    email: str | None
    email_verified: bool  # confirmed by the link mailed to it: mails go only to a confirmed address
    turn: bool  # your turn in a turn-based game
    finished: bool  # a game of yours finished
    invite: bool  # a host invites you to their table


class InviteEmailIn(BaseModel):
    username: Any = None


class ProfileUserOut(BaseModel):
    id: str
    name: str
    registered: bool  # an account with a username and password; false for a guest
    member_since: str


class ProfileGameOut(BaseModel):
    game: str
    title: str
    played: int
    won: int  # shared wins included
    shared: int  # wins shared with other winners (a tie for first)


class ProfileRatingOut(BaseModel):
    game: str
    title: str
    rating: int  # 1500 until the first rated game
    deviation: int  # how unsure the rating is (Glicko-2; 350 until the first rated game)
    provisional: bool  # the deviation is over 110: too few games, or too long ago, to trust the rating yet
    games: int  # rated games played
    last_change: int | None  # what the last of them did to the rating


class ProfileTotalsOut(BaseModel):
    played: int
    won: int
    shared: int


class ProfileSeatOut(SeatOut):
    place: int | None
    score: int | float | None
    won: bool
    rating: RatingChangeOut | None = None  # what the game did to this person's rating (null: not rated)


class ProfileEntryOut(BaseModel):
    table_id: str
    game: str
    title: str
    name: str
    visibility: Visibility
    finished_at: str
    abandoned: bool = False  # ended by agreement: no place, score or winners
    seat: str  # the player's seat there
    place: int | None
    score: int | float | None
    won: bool
    shared: bool
    winners: list[str]
    rating: RatingChangeOut | None = None  # what the game did to the player's rating (null: not rated)
    seats: list[ProfileSeatOut]


class ProfileOut(BaseModel):
    user: ProfileUserOut
    games: list[ProfileGameOut]
    totals: ProfileTotalsOut
    ratings: list[ProfileRatingOut]  # one per game, in the order of GET /api/games
    recent: list[ProfileEntryOut]
    next: str | None  # the cursor of the next page of `recent` (docs/api/pagination.md); null on the last one


class LeaderboardRowOut(BaseModel):
    rank: int  # the place in the list's order (equal ratings get consecutive ranks)
    user: SeatUser
    rating: int
    provisional: bool  # the rating's deviation is over 110 (see ProfileRatingOut)
    games: int  # rated games played in this game


class LeaderboardMeOut(BaseModel):
    rank: int | None  # null: not listed (too few rated games, or a guest)
    user: SeatUser
    rating: int
    provisional: bool
    games: int
    guest: bool  # a guest is never listed, whatever their rating
    page: str | None  # the cursor of the page (of this `limit`) that shows the viewer; null: the first page


class LeaderboardOut(BaseModel):
    game: str
    title: str
    min_games: int  # rated games a person needs to be listed
    limit: int
    rows: list[LeaderboardRowOut]
    next: str | None  # the cursor of the next page (docs/api/pagination.md); null on the last one
    me: LeaderboardMeOut | None  # the viewer's own row (null: not signed in, or never rated in this game)
