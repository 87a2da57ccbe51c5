"""The Postgres NOTIFY channels: the move writer announces committed versions on `CHANNEL` in its own statement,
and the broker listens there and carries everything else (chat, presence, sessions ended) on `SIDE_CHANNEL`."""

CHANNEL = "foodgames_tables"
SIDE_CHANNEL = "foodgames_side"
