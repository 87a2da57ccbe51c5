"""The kinds of the table's own events: what the server itself tells a table's log, beside each game's events.

Each is a dict with this `type` and `visible_to` (None: everyone), in an update's `events` and, but `undone`, in
the table's stored log (`GET …/moves`: a move's, or a lobby change's). docs/api/live-play.md lists them with
their fields; a test keeps the two in step. A `StrEnum`, so an event is encoded as its value.
"""

from __future__ import annotations

from enum import StrEnum


class TableEvent(StrEnum):
    SEAT_JOINED = "seat_joined"
    SEAT_LEFT = "seat_left"
    HOST_CHANGED = "host_changed"  # a host who left an open table handed it to the first person still seated
    GAME_STARTED = "game_started"
    INVITE_CHANGED = "invite_changed"  # the host withdrew the invite link for a new one
    CHAT_MODE = "chat_mode"  # the host chose who may chat
    STAND_IN = "stand_in"  # a bot plays an away player's seat for them
    RECLAIMED = "reclaimed"  # the player took their seat back from its stand-in
    ABANDON_PROPOSED = "abandon_proposed"
    ABANDON_AGREED = "abandon_agreed"
    ABANDON_DECLINED = "abandon_declined"
    ABANDONED = "abandoned"
    UNDONE = "undone"  # the seat's last step taken back; never stored, the move is simply gone
    TAKEBACK_ASKED = "takeback_asked"
    TAKEBACK_AGREED = "takeback_agreed"
    TAKEBACK_DECLINED = "takeback_declined"
    TAKEN_BACK = "taken_back"  # the moves from `seq` on are gone, everyone having agreed
    TIMEOUT = "timeout"  # a player's clock ran out
    RATED = "rated"
    NOT_RATED = "not_rated"  # too few established accounts for the game to count
    REMATCH = "rematch"  # a player of the finished game opened its rematch
    RENAMED = "renamed"  # a person at the table took a new name
    REGISTERED = "registered"  # a guest at the table made an account
