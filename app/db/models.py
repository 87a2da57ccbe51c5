"""SQLAlchemy models: users and their renames, game tables, seats, moves, the tables' lobby log, table chat and
ratings."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

JSONType = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    username: Mapped[str | None] = mapped_column(String(40), unique=True, nullable=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Bumped by a password change: a session token carries the epoch it was issued under, and one of an older
    # epoch is refused, which signs out every other session (migration 0008; services/auth.py).
    token_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Where the person gets email notifications, once they confirmed it by the link sent there, and which ones they
    # want: {"turn", "finished", "invite"} -> bool, null: all (services/notify.py; migration 0023).
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    notify: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # Operators' marks (services/admin.py; migration 0027): an admin, and since when the person is banned (their
    # tokens are refused and they cannot sign in; null: not banned).
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    banned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RevokedSession(Base):
    """A signed-out session (services/auth.py; migration 0015): its token is refused until it would have expired anyway,
    when the row may go."""

    __tablename__ = "revoked_sessions"

    sid: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RateCounter(Base):
    """One rate limit's count for one client in its current window (services/ratelimits.py; migration 0016)."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float, index=True)  # seconds since the epoch


class RenameLog(Base):
    """One change of a person's display name (services/account.py; migration 0010): the rename limit is counted from
    these rows, so it holds across every server process."""

    __tablename__ = "rename_log"
    __table_args__ = (Index("ix_rename_log_user", "user_id", "created_at"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameTable(Base):
    """A table and its game. On Postgres (migration 0003) it is stored with fillfactor 90 and
    toast_tuple_target 128, and `state` is lz4-compressed: the snapshot lives out of line, so the update
    of every move rewrites a small row in place (a HOT update, which adds no index entries)."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    name: Mapped[str] = mapped_column(String(80))
    host_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    visibility: Mapped[str] = mapped_column(String(10))
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Bumped when the host withdraws the invite link: the code is derived from it (migration 0019).
    invite_round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Who may chat at the table: everyone, accounts (and the players), or the players only (services/chat; 0020).
    chat_mode: Mapped[str] = mapped_column(String(16), default="everyone", server_default="everyone")
    status: Mapped[str] = mapped_column(String(10), index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_commitment: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # `state` is the state after this many moves; the moves after it are replayed on load, so a
    # move need not rewrite the whole state document (see services/writer.py).
    state_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    awaiting: Mapped[list[str]] = mapped_column(JSONType, default=list)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # The table the players of this finished game opened to play again (migration 0004).
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The open proposal to abandon the running game, `{"by": seat, "yes": [seat], "since": version}`
    # (services/lobby.vote_abandon; migration 0006_abandon_vote). Read only while the game runs: a move that
    # ends the game leaves it as it was rather than touch the group commit, and the game's end ends it.
    abandon_vote: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # The open request to take back moves, `{"by", "seq", "at", "yes", "since"}` (services/takeback.py; migration
    # 0024_takeback). It counts only while `move_count` is still its `at`: a move made meanwhile ends it, and the
    # move path never writes it.
    takeback: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # A finished game that its players agreed to abandon: no outcome, no winner.
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The events of the last lobby change (a seat taken, a vote …), `{"version": v, "events": [...]}`: they are not
    # moves, and a process that did not make the change reads them here to tell its sockets (migration 0006).
    lobby_events: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # Whether the finished game changed its people's ratings (services/ratings.py; migration 0011): null until that
    # is settled (right after the end, by the process that finished it, or by any process's sweep), then true
    # (its `rating_changes` are stored) or false (not rated: abandoned, private, fewer than two registered people,
    # or finished before ratings existed). Setting it is how a table is claimed for rating, so it is rated once.
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The host's time control, as services/clocks.check_time_control keeps it; null: no clock (migration 0022).
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # The running game's clocks (services/clocks.py: each seat's time left and when its turn began) and the earliest
    # moment one of them runs out, which the sweep of every process looks for (services/timeouts.py). Both are
    # written with each move, in its transaction; null without a time control or once the game is over.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


# The finished tables whose rating is not settled yet: the sweep's list, which stays about empty. On `id`, which no
# move changes: an index on `updated_at` would stop every move's update from being HOT (migration 0014).
Index(
    "ix_game_tables_unrated",
    GameTable.id,
    postgresql_where=text("status = 'finished' AND rated IS NULL"),
    sqlite_where=text("status = 'finished' AND rated IS NULL"),
)


# The running clocks by when they run out: the timeout sweep's list. Partial, so the moves of a table without a clock
# (deadline always null, unchanged) still rewrite their row in place (HOT); a clocked table's moves change it anyway.
Index(
    "ix_game_tables_deadline",
    GameTable.deadline,
    postgresql_where=text("deadline IS NOT NULL"),
    sqlite_where=text("deadline IS NOT NULL"),
)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(4))
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    # The seat's person played it as a guest (no account), so it is left out of ratings like a bot's own seat
    # (migration 0012). Kept on the seat, not read from `users`: a finished game stays as it was played, and a guest
    # who registers turns only the seats of games not settled yet into an account's (services/account.Accounts.register).
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # While a bot stands in for the seat's person: since when they have been away. They keep their say on abandoning
    # the game until away for the stand-in wait (services/lobby.vote_abandon; migration 0018).
    away_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # How strongly the bot the host put here plays (app.games.base.BotLevel); null plays at the normal level, as
    # a bot standing in for an away player does (migration 0021).
    bot_level: Mapped[str | None] = mapped_column(String(8), nullable=True)


class Move(Base):
    """One applied move. Its key is (table_id, seq); written by services/writer.py.

    No surrogate id and no foreign key to game_tables: a move is only inserted by the transaction that
    has just updated its table row (the optimistic version check), so that row exists and stays locked
    until the move commits; the foreign-key check would add a lookup and a row lock per move. On Postgres the
    JSON columns are lz4-compressed when large (migration 0003).
    """

    __tablename__ = "moves"
    # A client id is its sender's: two seats may use the same one (migration 0017).
    __table_args__ = (Index("ix_moves_client", "table_id", "seat", "client_id", unique=True),)

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(4))
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # The mover's secret steps before `action`, kept as drafts until it (services/drafts.py; migration 0026): applied
    # in order before it on every replay. Null for a move without any.
    steps: Mapped[list[Any] | None] = mapped_column(JSONType, nullable=True)
    events: Mapped[list[Any]] = mapped_column(JSONType, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MoveDraft(Base):
    """A secret step that revealed nothing to anyone but its author, kept out of the table's versions until the
    author's next other move, which carries it in `moves.steps` (services/drafts.py; migration 0026).

    `after_seq` is the table's move count when it was made: a draft is live only while its seat has no move of a
    later seq (the move that carried it), so one left behind by a crash between that move and its deletion is
    recognised as spent."""

    __tablename__ = "move_drafts"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)  # 1, 2 … in the author's order
    after_seq: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSONType)
    events: Mapped[list[Any]] = mapped_column(JSONType, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableLogEntry(Base):
    """The events of one lobby change (a seat taken, a bot called, a vote, a rename …) with the version it made
    (services/lobby.Lobby.change; migration 0009). They are no move, so without them a log rebuilt from the moves
    would read differently from the live one. No foreign key to game_tables, as for the chat."""

    __tablename__ = "table_log"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    events: Mapped[list[Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One line of a table's chat (services/chat.py; migration 0005).

    The author's name and seat are kept as they were when the line was posted, so the history reads as it
    did live. No foreign key to game_tables: its check would share-lock the table row that every move
    updates, and the chat service only inserts lines for a table it has just read.
    """

    __tablename__ = "chat_messages"
    __table_args__ = (
        Index("ix_chat_messages_table", "table_id", "id"),
        # A line re-sent after a lost acknowledgement is answered, not stored twice.
        Index("ix_chat_messages_client", "table_id", "user_id", "client_id", unique=True),
        # The author's last line at the table, whose `allowance` the rate limit starts from (migration 0007).
        Index("ix_chat_messages_author", "table_id", "user_id", "id"),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    table_id: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[str | None] = mapped_column(String(4), nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The author's rate-limit tokens left right after this line (services/chat.py): stored with the line so that
    # every server process decides the next one from the same numbers. Null on lines older than migration 0007.
    allowance: Mapped[float | None] = mapped_column(Float, nullable=True)
    # A line the host removed stays as a tombstone with its text emptied (services/chat.Chat.remove says why).
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChatMute(Base):
    """A person the table's host muted in its chat (services/chat.py; migration 0007): their lines are refused."""

    __tablename__ = "chat_mutes"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    muted_by: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerRating(Base):
    """A person's rating in one game (services/ratings.py; migration 0011). No row: 1500, never rated."""

    __tablename__ = "player_ratings"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[int] = mapped_column(Integer)  # Glicko-2's value, rounded (services/glicko2.py)
    deviation: Mapped[float] = mapped_column(Float, default=350.0, server_default="350")  # how unsure it is (migration 0025)
    volatility: Mapped[float] = mapped_column(Float, default=0.06, server_default="0.06")
    games: Mapped[int] = mapped_column(Integer, default=0)  # rated games played
    last_change: Mapped[int | None] = mapped_column(Integer, nullable=True)  # what the last of them did
    last_table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# A game's leaderboard in its order (services/leaderboard.py; migration 0012_leaderboard): a page is read off it in
# order, stopping at the page's end, instead of sorting every rating of the game.
Index(
    "ix_player_ratings_board",
    PlayerRating.game,
    PlayerRating.rating.desc(),
    PlayerRating.games.desc(),
    PlayerRating.user_id,
)


class RatingChange(Base):
    """What one rated game did to one person's rating (services/ratings.py; migration 0011).

    Its key, (table_id, user_id), is the guarantee that a table is rated once: a second attempt to rate it, from
    another process or a retry, fails on it and changes nothing."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    seat: Mapped[str] = mapped_column(String(4))
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    change: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EmailOut(Base):
    """One email to send (services/notify.py; migration 0023): written once by its `key` (a turn, a game's end, an
    invitation, a confirmation), so a notice made twice is stored once, and sent by whichever process claims it."""

    __tablename__ = "email_outbox"
    __table_args__ = (
        # The sender's list: the mails not sent yet (few), by id.
        Index("ix_email_outbox_unsent", "id", postgresql_where=text("sent_at IS NULL"),
              sqlite_where=text("sent_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    key: Mapped[str] = mapped_column(String(200), unique=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    unsubscribe: Mapped[str | None] = mapped_column(Text, nullable=True)  # the one-click link (List-Unsubscribe)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class PasswordReset(Base):
    """A password reset link mailed to a confirmed address (services/recovery.py; migration 0028): only the SHA-256 of
    its token is kept, so the table read by someone else resets nothing. The row goes when the link is used (single
    use) or another reset of the account succeeds; an expired one is refused and cleared with the next request."""

    __tablename__ = "password_resets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSubscription(Base):
    """A browser a person gets Web Push notifications on (services/push.py; migration 0028): the push service's
    endpoint and the browser's P-256 key and auth secret (base64url), which encrypt what is sent (RFC 8291)."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(1000), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushNotice(Base):
    """A Web Push notice made (services/push.py; migration 0028), by the key naming what it is about (as the email
    outbox's: `turn:{table}:{seat}:{turn start}`): whoever inserts it sends it, so it goes once. Rows older than a
    week go as new ones come."""

    __tablename__ = "push_notices"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


# The Core tables behind the models, typed as such (a model's `__table__` is typed as any FromClause), for the
# statements that need no ORM objects: those built once for the requests every page makes.
USERS = cast(Table, User.__table__)
REVOKED_SESSIONS = cast(Table, RevokedSession.__table__)
GAME_TABLES = cast(Table, GameTable.__table__)
SEATS = cast(Table, Seat.__table__)
TABLE_LOG = cast(Table, TableLogEntry.__table__)
