#!/usr/bin/env bash
# What Postgres itself allows for our command's transaction shape, with pgbench, so the server's
# commands/s can be given as a ratio of it. One command; it creates and drops its own database.
#
# Usage: bench/pg_limit.sh [--clients "4 10 16"] [--duration 15] [--tables 200] [--pad 0]
#   PGHOST/PGPORT/PGUSER (default 127.0.0.1/5432/postgres) name the server.
#
# The transaction is one command as app/services/play.py made it before the group commit and the state
# snapshots (services/writer.py), one transaction per move with the whole state rewritten:
#   BEGIN; SELECT version ... FOR UPDATE; UPDATE game_tables SET state=<whole JSONB state>, version, ...;
#   INSERT INTO moves (...); SELECT pg_notify('foodgames_tables', '<id>:<version>'); COMMIT;
# It runs against the real schema (the app's own migrations, so since 0003: moves keyed by (table_id, seq)
# with no id or foreign key; game_tables with fillfactor 90 and toast_tuple_target 128, so the state is
# stored out of line, lz4-compressed where the server has lz4).
# The state is a real Food Truck Champion 4-seat mid-game state (its size is printed), varied on every
# write so nothing is reused; --pad N adds N bytes to it (--pad 5500 gives the ~8 KB of the peers' README).
# A LISTEN connection consumes the notifications during each run, as the server's broker does.
# pgbench -M prepared, -j 2 (2 cores); the server's pool holds at most 10 connections (5 + 5 overflow).
set -euo pipefail
cd "$(dirname "$0")/.."

CLIENTS="4 10 16"
DURATION=15
TABLES=200
PAD=0
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) CLIENTS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --tables) TABLES="$2"; shift 2 ;;
    --pad) PAD="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
PY=.venv/bin/python
DB="bench_pg_$(date +%s)_$$"
WORK="$(mktemp -d)"
LISTENER=""
cleanup() {
  if [ -n "$LISTENER" ]; then kill "$LISTENER" 2>/dev/null || true; fi
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

psql -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
URL="postgresql://$PGUSER@$PGHOST:$PGPORT/$DB"
DATABASE_URL="$URL" $PY -c "from app.main import run_migrations; run_migrations('$URL'.replace('postgresql://', 'postgresql+asyncpg://'))" 2>/dev/null

# A realistic state document and move: the middle of a random 4-seat Food Truck Champion game.
$PY - "$WORK" "$PAD" >/dev/null <<'EOF'
import json, random, sys
from app.games import GAMES
work, pad = sys.argv[1], int(sys.argv[2])
g = GAMES["food-truck-champion"]
rnd = random.Random(7)
s = g.new_game(["0", "1", "2", "3"], 7, None)
trail = []
while g.outcome(s) is None:
    seat = rnd.choice(g.awaiting(s))
    action = rnd.choice(g.actions(s, seat))
    applied = g.apply(s, seat, action)
    trail.append((applied.state, action, applied.events))
    s = applied.state
state, action, events = trail[len(trail) // 2]
state = dict(state, bench_marker="MARK")
if pad:
    state["bench_pad"] = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(pad))
def lit(obj):
    # ": " keeps pgbench from reading ":word" inside the literal as a variable; jsonb drops the space.
    return "'" + json.dumps(obj, separators=(",", ": ")).replace("'", "''") + "'"
open(f"{work}/state.sql", "w").write(lit(state))
open(f"{work}/action.sql", "w").write(lit(action))
open(f"{work}/events.sql", "w").write(lit(events))
print(len(json.dumps(state, separators=(",", ":"))), len(json.dumps(events)))
EOF
read -r STATE_BYTES EVENT_BYTES < <($PY -c "
import json, sys
w = sys.argv[1]
size = lambda f: len(json.dumps(json.loads(open(w + f).read()[1:-1].replace(\"''\", \"'\")), separators=(',', ':')))
print(size('/state.sql'), size('/events.sql'))" "$WORK")
STATE="$(cat "$WORK/state.sql")"

psql -q -d "$DB" -v ON_ERROR_STOP=1 >/dev/null <<EOF
INSERT INTO users (id, name, created_at) VALUES ('bench', 'bench', now());
INSERT INTO game_tables (id, game, name, host_id, visibility, status, seat_count, options, seed, seed_commitment,
                         state, version, move_count, awaiting, outcome, created_at, updated_at)
SELECT 'bench-' || i, 'food-truck-champion', 'bench', 'bench', 'public', 'playing', 4, '{}', i, 'x',
       $STATE::jsonb, 0, 0, '["0"]', NULL, now(), now()
FROM generate_series(1, $TABLES) AS i;
VACUUM ANALYZE;
EOF

# One command = one transaction, as in apply_action (the version read under the row lock is the CAS value).
# Its client_id carries the new version: a random one alone would repeat within a table about once in
# twenty runs (a few hundred moves per table over 10^9 values), and the unique index would abort pgbench.
cat > "$WORK/command.sql" <<EOF
\set tid random(1, $TABLES)
\set r random(1, 1000000000)
BEGIN;
SELECT version FROM game_tables WHERE id = 'bench-' || :tid FOR UPDATE \gset
UPDATE game_tables SET state = replace($STATE, 'MARK', :r::text)::jsonb, version = :version + 1,
  move_count = :version + 1, awaiting = '["1"]', outcome = NULL, status = 'playing', updated_at = now()
  WHERE id = 'bench-' || :tid AND version = :version;
INSERT INTO moves (table_id, seq, version, seat, client_id, action, events, created_at)
  VALUES ('bench-' || :tid, :version + 1, :version + 1, '0', 'c' || :r || '-' || (:version + 1), $(cat "$WORK/action.sql"),
          $(cat "$WORK/events.sql"), now());
SELECT pg_notify('foodgames_tables', 'bench-' || :tid || ':' || (:version + 1));
COMMIT;
EOF

echo "pgbench: one command's transaction; state $STATE_BYTES B JSON, events $EVENT_BYTES B, $TABLES table rows," \
  "${DURATION}s per level; $(date -u +%FT%TZ), $(nproc) cores, $(psql -Atq -d postgres -c 'show server_version')"
printf '%8s %10s %12s %12s %12s\n' clients "tps" "lat avg ms" "failed" "notified"
for C in $CLIENTS; do
  # The listener counts notifications, as a server process's broker would receive them.
  $PY - "$URL" "$((DURATION + 5))" > "$WORK/notified" <<'EOF' &
import asyncio, sys, asyncpg
async def main():
    conn = await asyncpg.connect(sys.argv[1])
    n = 0
    def on(*_a):
        nonlocal n
        n += 1
    await conn.add_listener("foodgames_tables", on)
    await asyncio.sleep(float(sys.argv[2]))
    print(n)
asyncio.run(main())
EOF
  LISTENER=$!
  sleep 1
  pgbench -n -M prepared -c "$C" -j 2 -T "$DURATION" -f "$WORK/command.sql" "$DB" > "$WORK/out" 2>&1 || {
    cat "$WORK/out" >&2; exit 1; }
  wait "$LISTENER" || true
  LISTENER=""
  TPS=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$WORK/out")
  LAT=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' "$WORK/out")
  FAILED=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$WORK/out")
  printf '%8s %10.0f %12s %12s %12s\n' "$C" "$TPS" "$LAT" "${FAILED:-0}" "$(cat "$WORK/notified")"
done
