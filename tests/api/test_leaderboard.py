"""A game's leaderboard through the real server (services/leaderboard.py): the people rated in real games, best
first, ties in a fixed order, the minimum of rated games, guests left out whatever their stored rating, paging, the
viewer's own rank, and the refusals."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.services.leaderboard import MIN_GAMES
from tests.api.test_profiles import _profile, _tiny
from tests.api.test_ratings import rated_table, tiny_rating
from tests.conftest import Database, Server
from tests.hardening.helpers import close_all, guests
from tests.platform.client import Player


@pytest.fixture(scope="module")
def board_server(ws_impl: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: no other test's ratings in its lists."""
    db = Database(tmp_path_factory.mktemp("board-db"))
    srv = Server(db, tmp_path_factory.mktemp("board-server"), WS_IMPL=ws_impl).start()
    yield srv
    srv.stop()
    db.drop()


async def account(server: Server, name: str) -> Player:
    """A new account (not a guest) signed in, named `name`."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as c:
        r = await c.post("/api/auth/register", json={
            "username": f"{name.lower()}{secrets.token_hex(4)}", "password": "correct horse", "name": name})
        assert r.status_code == 200, r.text
        data = r.json()
    return Player(server.url, data["token"], data["user"])


async def board(server: Server, game: str, who: Player | None = None, status: int = 200, **params: Any) -> Any:
    headers = {"Authorization": f"Bearer {who.token}"} if who else {}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30) as c:
        r = await c.get(f"/api/games/{game}/leaderboard", params=params)
    assert r.status_code == status, r.text
    return r.json()


def listed(answer: dict[str, Any]) -> list[tuple[int, str, int, int]]:
    """(rank, user id, rating, games) of each row."""
    return [(r["rank"], r["user"]["id"], r["rating"], r["games"]) for r in answer["rows"]]


async def store_ratings(server: Server, game: str, rows: list[tuple[str, int, int]]) -> None:
    """Rating rows (user id, rating, rated games) written straight into the database."""
    url = server.db.url.replace("postgresql://", "postgresql+asyncpg://", 1)
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text("INSERT INTO player_ratings (user_id, game, rating, games, updated_at)"
                     " VALUES (:user, :game, :rating, :games, CURRENT_TIMESTAMP)"),
                [{"user": u, "game": game, "rating": r, "games": n} for u, r, n in rows],
            )
    finally:
        await engine.dispose()


async def test_people_rated_in_real_games_are_listed_best_first_once_they_have_the_minimum(
    board_server: Server,
) -> None:
    server = board_server
    ana, ben, cy, dee = [await account(server, n) for n in ("Ana", "Ben", "Cy", "Dee")]
    assert MIN_GAMES == 3  # the games below are counted for it
    empty = await board(server, "tiny", ana)
    assert (empty["rows"], empty["me"], empty["next"], empty["min_games"]) == ([], None, None, MIN_GAMES)

    for _ in range(3):
        await rated_table(server, (await _tiny(ana, ben, (3, 0), server))["id"])
    for _ in range(2):
        await rated_table(server, (await _tiny(cy, dee, (3, 0), server))["id"])
    rating = {p.user["id"]: tiny_rating(await _profile(server, p.user["id"])) for p in (ana, ben, cy, dee)}
    a, b, c, d = (p.user["id"] for p in (ana, ben, cy, dee))
    assert rating[a][0] > rating[b][0] and rating[c][0] > rating[d][0] and rating[c][1] == 2

    # Cy and Dee have two rated games: not listed yet, and each is told where they stand.
    answer = await board(server, "tiny", cy)
    assert answer["title"] == "Tiny"
    assert listed(answer) == [(1, a, rating[a][0], 3), (2, b, rating[b][0], 3)]
    assert [r["user"]["name"] for r in answer["rows"]] == ["Ana", "Ben"]
    assert answer["me"] == {"rank": None, "user": {"id": c, "name": "Cy"}, "rating": rating[c][0], "games": 2,
                            "provisional": True, "guest": False, "page": None}
    assert (await board(server, "tiny", ana))["me"] == {**answer["rows"][0], "guest": False, "page": None}
    assert (await board(server, "tiny"))["me"] is None  # nobody signed in

    # Their third game lists them: Cy's three wins over Dee are Ana's over Ben, so each pair is tied on rating and
    # games, and the user id orders them.
    await rated_table(server, (await _tiny(cy, dee, (3, 0), server))["id"])
    rating = {p.user["id"]: tiny_rating(await _profile(server, p.user["id"])) for p in (ana, ben, cy, dee)}
    assert rating[a] == rating[c] and rating[b] == rating[d]
    order = sorted((a, c)) + sorted((b, d))
    assert listed(await board(server, "tiny")) == [
        (rank, who, rating[who][0], 3) for rank, who in enumerate(order, 1)]
    await close_all(ana, ben, cy, dee)


async def test_ties_minimum_paging_and_my_rank_off_the_page(board_server: Server) -> None:
    server = board_server
    people = {n: await account(server, n) for n in ("A", "B", "C", "D", "E", "F")}
    ids = {n: p.user["id"] for n, p in people.items()}
    await store_ratings(server, "food-truck", [
        (ids["A"], 1600, 5), (ids["B"], 1600, 7), (ids["C"], 1600, 5), (ids["D"], 1550, MIN_GAMES),
        (ids["E"], 1700, MIN_GAMES - 1), (ids["F"], 1400, MIN_GAMES),
    ])
    # Equal ratings: more rated games first, then the user id; E's one game short of the minimum leaves them out.
    order = [ids["B"], *sorted((ids["A"], ids["C"])), ids["D"], ids["F"]]
    whole = await board(server, "food-truck", limit=100)
    assert [r[1] for r in listed(whole)] == order
    assert [r[0] for r in listed(whole)] == [1, 2, 3, 4, 5]
    assert whole["next"] is None

    # Pages of two: the same rows and ranks, each once, and the cursor of the next page until the last.
    pages, cursors, cursor = [], [None], None
    while True:
        page = await board(server, "food-truck", limit=2, **({"cursor": cursor} if cursor else {}))
        assert page["limit"] == 2
        pages.append(listed(page))
        cursor = page["next"]
        if cursor is None:
            break
        cursors.append(cursor)
    assert [len(p) for p in pages] == [2, 2, 1]
    assert [row for p in pages for row in p] == listed(whole)
    refused = await board(server, "tiny", status=422, cursor=cursors[1])  # another game's list's cursor
    assert refused["error"]["code"] == "bad_cursor"

    # My own rank comes with every page, the one that shows me or not: counted the way the list is ordered.
    for name, who in people.items():
        for cursor in (None, cursors[2]):
            mine = (await board(server, "food-truck", who, limit=1, **({"cursor": cursor} if cursor else {})))["me"]
            rank = order.index(ids[name]) + 1 if ids[name] in order else None
            assert mine["rank"] == rank, (name, cursor)
            assert (mine["user"]["id"], mine["guest"]) == (ids[name], False)
            # The cursor of the page of one row that shows me: my own row is its first.
            if rank is not None:
                shown = await board(server, "food-truck", who, limit=1, **({"cursor": mine["page"]} if mine["page"] else {}))
                assert listed(shown)[0][:2] == (rank, ids[name]) and (mine["page"] is None) == (rank == 1), name
    assert (await board(server, "food-truck", people["E"]))["me"]["games"] == MIN_GAMES - 1
    await close_all(*people.values())


async def test_a_guest_is_left_out_whatever_their_rating_until_they_make_an_account(board_server: Server) -> None:
    server = board_server
    (gus,) = await guests(server, "Gus")
    eve = await account(server, "Eve")
    # Stored as they would be from before guests were unrated (no game rates a guest now): the best of the game.
    await store_ratings(server, "foodies", [(gus.user["id"], 2000, 10), (eve.user["id"], 1600, MIN_GAMES)])
    answer = await board(server, "foodies", gus)
    assert listed(answer) == [(1, eve.user["id"], 1600, MIN_GAMES)]
    assert answer["me"] == {"rank": None, "user": {"id": gus.user["id"], "name": "Gus"}, "rating": 2000, "games": 10,
                            "provisional": True, "guest": True, "page": None}

    # An account keeps the guest's id, and so their rating: listed from then on.
    await gus.post("/api/auth/register", {"username": f"gus{secrets.token_hex(4)}", "password": "correct horse"})
    answer = await board(server, "foodies", gus)
    assert listed(answer) == [(1, gus.user["id"], 2000, 10), (2, eve.user["id"], 1600, MIN_GAMES)]
    assert answer["me"]["rank"] == 1 and answer["me"]["guest"] is False
    await close_all(gus, eve)


@pytest.mark.parametrize(("params", "where"), [
    ({"limit": 0}, "limit"), ({"limit": 101}, "limit"), ({"limit": "ten"}, "limit"), ({"limit": ""}, "limit"),
    ({"cursor": "x" * 501}, "cursor"),
    ({"cursor": "x"}, None), ({"cursor": "W10"}, None), ({"cursor": "WyJ0YWJsZXMiLFtdXQ"}, None),
])
async def test_bad_paging_is_refused(board_server: Server, params: dict[str, Any], where: str | None) -> None:
    error = (await board(board_server, "food-truck", status=422, **params))["error"]
    if where is None:  # well formed, but not a cursor of this list
        assert error["code"] == "bad_cursor", error
    else:
        assert error["code"] == "invalid_request" and error["message"].startswith(f"query.{where}:"), error


async def test_an_unknown_game_is_not_found(board_server: Server) -> None:
    for game in ("chess", "FOODIES", "%20", "food-truck%00"):
        error = (await board(board_server, game, status=404))["error"]
        assert error["code"] == "unknown_game" and "no game called" in error["message"], error
