"""The lobby over real HTTP: games, tables, seats, private tables, errors."""

from __future__ import annotations

import re

import httpx

from tests.conftest import METRICS_HEADERS, Server
from tests.platform.client import Player


async def test_games_list_has_counts_and_options(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        games = (await c.get("/api/games")).json()
    tiny = next(g for g in games if g["id"] == "tiny")
    assert tiny["min_players"] == 1 and tiny["max_players"] == 4
    assert tiny["options"][0]["id"] == "target"


async def test_create_table_validation_has_one_error_shape(server: Server) -> None:
    ana = await Player.guest(server.url)
    cases = [
        ({"game": "chess", "seats": 2}, 404, "unknown_game"),
        ({"game": "tiny", "seats": 9}, 422, "bad_seats"),
        ({"game": "tiny", "seats": 2, "options": {"nope": 1}}, 422, "bad_options"),
        ({"game": "tiny", "seats": 2, "options": {"target": "high"}}, 422, "bad_options"),
        ({"game": "tiny", "seats": 2, "visibility": "secret"}, 422, "invalid_request"),
        ({"seats": 2}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        r = await ana.post("/api/tables", body, ok=False)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]["code"] == code
        assert set(r.json()["error"]) == {"code", "message"}
    r = await ana.post("/api/tables", None, ok=False)
    assert r.status_code == 422
    anon = await httpx.AsyncClient(base_url=server.url).post("/api/tables", json={"game": "tiny", "seats": 2})
    assert anon.status_code == 401
    await ana.close()


async def test_join_leave_kick_bots_start(server: Server) -> None:
    host, ben, cy = [await Player.guest(server.url, n) for n in ("Host", "Ben", "Cy")]
    t = await host.table(seats=3)
    assert t["status"] == "open" and t["seats"][0]["user"]["id"] == host.user["id"]
    tid = t["id"]
    # not host, not enough players
    r = await ben.post(f"/api/tables/{tid}/start", ok=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    t = (await ben.post(f"/api/tables/{tid}/join", {"seat": "2"})).json()
    assert t["my_seat"] == "2"
    r = await ben.post(f"/api/tables/{tid}/join", {}, ok=False)
    assert r.json()["error"]["code"] == "already_seated"
    r = await cy.post(f"/api/tables/{tid}/join", {"seat": 2}, ok=False)
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    r = await cy.post(f"/api/tables/{tid}/join", {"seat": "7"}, ok=False)
    assert r.json()["error"]["code"] == "no_such_seat"
    await ben.post(f"/api/tables/{tid}/leave")
    r = await ben.post(f"/api/tables/{tid}/leave", ok=False)
    assert r.json()["error"]["code"] == "not_seated"
    await ben.post(f"/api/tables/{tid}/join", {})
    r = await ben.post(f"/api/tables/{tid}/kick", {"seat": "0"}, ok=False)
    assert r.json()["error"]["code"] == "not_host"
    t = (await host.post(f"/api/tables/{tid}/kick", {"seat": "1"})).json()
    assert t["seats"][1]["user"] is None
    t = (await host.post(f"/api/tables/{tid}/bots", {"seat": "2"})).json()
    assert t["seats"][2]["bot"] is True
    r = await host.post(f"/api/tables/{tid}/bots", {"seat": "2"}, ok=False)
    assert r.json()["error"]["code"] == "seat_taken"
    # Two of three seats taken: within 1..4, so the host may start; the empty seat is dropped.
    t = (await host.post(f"/api/tables/{tid}/start")).json()
    assert t["status"] == "playing" and t["seat_count"] == 2
    assert [s["seat"] for s in t["seats"]] == ["0", "1"] and t["seats"][1]["bot"]
    r = await cy.post(f"/api/tables/{tid}/join", {}, ok=False)
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_started"
    r = await host.post(f"/api/tables/{tid}/start", ok=False)
    assert r.json()["error"]["code"] == "already_started"
    mine = (await ben.http.get("/api/me/tables")).json()["tables"]
    assert tid not in [x["id"] for x in mine]
    mine = (await host.http.get("/api/me/tables")).json()["tables"]
    assert tid in [x["id"] for x in mine]
    for p in (host, ben, cy):
        await p.close()


async def test_a_bot_plays_at_the_level_the_host_chose(server: Server) -> None:
    host = await Player.guest(server.url, "Host")
    tid = (await host.table(seats=4))["id"]
    t = (await host.post(f"/api/tables/{tid}/bots", {"seat": "1", "level": "hard"})).json()
    assert t["seats"][1]["bot_level"] == "hard"
    t = (await host.post(f"/api/tables/{tid}/bots", {"seat": "3"})).json()
    assert t["seats"][3]["bot_level"] == "normal"  # unless the host says otherwise
    assert t["seats"][0]["bot_level"] is None and t["seats"][2]["bot_level"] is None
    r = await host.post(f"/api/tables/{tid}/bots", {"seat": "2", "level": "grandmaster"}, ok=False)
    assert r.status_code == 422
    t = (await host.post(f"/api/tables/{tid}/start")).json()
    assert [(s["bot"], s["bot_level"]) for s in t["seats"]] == [(False, None), (True, "hard"), (True, "normal")]
    await host.close()


async def test_a_host_who_leaves_hands_the_table_on(server: Server) -> None:
    """Only a host can start, so a table left to its players gets a new one; an empty one leaves the lobby."""
    host, ben, cy = [await Player.guest(server.url, n) for n in ("Host", "Ben", "Cy")]
    tid = (await host.table(seats=3))["id"]
    await ben.post(f"/api/tables/{tid}/join", {"seat": "2"})
    await cy.post(f"/api/tables/{tid}/join", {"seat": "1"})
    t = (await host.post(f"/api/tables/{tid}/leave")).json()
    assert t["host"] == {"id": cy.user["id"], "name": "Cy"} and not t["is_host"]
    r = await host.post(f"/api/tables/{tid}/start", ok=False)
    assert r.json()["error"]["code"] == "not_host"
    assert (await cy.http.get(f"/api/tables/{tid}")).json()["is_host"]

    async def listed() -> bool:
        async with httpx.AsyncClient(base_url=server.url) as c:
            return tid in [x["id"] for x in (await c.get("/api/tables", params={"status": "open"})).json()["tables"]]

    # A player who is not the host leaves: the host stays; the last person out keeps the table, unlisted.
    await ben.post(f"/api/tables/{tid}/leave")
    assert (await cy.http.get(f"/api/tables/{tid}")).json()["is_host"]
    assert await listed()
    t = (await cy.post(f"/api/tables/{tid}/leave")).json()
    assert t["host"]["id"] == cy.user["id"] and all(s["user"] is None for s in t["seats"])
    assert not await listed()
    assert tid in [x["id"] for x in (await cy.http.get("/api/me/tables")).json()["tables"]]
    await host.post(f"/api/tables/{tid}/join", {})
    assert await listed()
    await cy.post(f"/api/tables/{tid}/join", {})
    t = (await cy.post(f"/api/tables/{tid}/start")).json()
    assert t["status"] == "playing"
    for p in (host, ben, cy):
        await p.close()


async def test_start_needs_enough_players(server: Server) -> None:
    host = await Player.guest(server.url)
    t = await host.table(seats=2)
    await host.post(f"/api/tables/{t['id']}/kick", {"seat": "0"})
    r = await host.post(f"/api/tables/{t['id']}/start", ok=False)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_enough_players"
    await host.close()


async def test_public_list_filters(server: Server) -> None:
    host = await Player.guest(server.url)
    t = await host.table(seats=2)
    async with httpx.AsyncClient(base_url=server.url) as c:
        open_ids = [x["id"] for x in (await c.get("/api/tables", params={"status": "open"})).json()["tables"]]
        playing_ids = [x["id"] for x in (await c.get("/api/tables", params={"status": "playing"})).json()["tables"]]
        other = (await c.get("/api/tables", params={"game": "food-truck"})).json()["tables"]
        bad = await c.get("/api/tables", params={"status": "sleeping"})
    assert t["id"] in open_ids and t["id"] not in playing_ids
    assert t["id"] not in [x["id"] for x in other]
    assert bad.status_code == 422
    await host.close()


async def test_private_table_needs_the_invite(limited_server: Server) -> None:
    server = limited_server
    host, guest, snoop = [await Player.guest(server.url, n) for n in ("Host", "Guest", "Snoop")]
    t = await host.table(seats=2, visibility="private")
    tid, code = t["id"], t["invite_code"]
    assert len(code) >= 20
    async with httpx.AsyncClient(base_url=server.url) as c:
        listed = [x["id"] for x in (await c.get("/api/tables")).json()["tables"]]
        assert tid not in listed
        assert (await c.get(f"/api/tables/{tid}")).status_code == 404
        seen = await c.get(f"/api/tables/{tid}", params={"invite": code})
        assert seen.status_code == 200 and seen.json()["invite_code"] is None
    r = await guest.post(f"/api/tables/{tid}/join", {"invite_code": "wrong"}, ok=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_invite"
    t2 = (await guest.post(f"/api/tables/{tid}/join", {"invite_code": code})).json()
    assert t2["my_seat"] == "1" and t2.get("invite_code") is None
    # Guessing is rate-limited.
    statuses = []
    for i in range(15):
        r = await snoop.http.get(f"/api/tables/{tid}", params={"invite": f"guess{i}"})
        statuses.append(r.status_code)
    assert statuses[0] == 404 and 429 in statuses
    r = await snoop.http.get(f"/api/tables/{tid}", params={"invite": code})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    for p in (host, guest, snoop):
        await p.close()


async def test_unknown_route_and_method_errors(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get("/api/nothing-here")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = await c.get("/api/tables/doesnotexist")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = await c.delete("/api/games")
        assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


async def test_openapi_lists_the_api(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        spec = (await c.get("/openapi.json")).json()
    for path in ["/api/health", "/api/auth/guest", "/api/games", "/api/tables", "/api/tables/{table_id}/join",
                 "/api/tables/{table_id}/moves", "/api/tables/{table_id}/verify", "/api/me/tables",
                 "/api/players/{user_id}"]:
        assert path in spec["paths"], path


async def test_metrics_are_exposed(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        text = (await c.get("/metrics", headers=METRICS_HEADERS)).text
    for name in ["foodgames_commands_applied_total", "foodgames_command_latency_seconds",
                 "foodgames_sockets_open", 'foodgames_tables{status="open"}', "foodgames_group_commit_seconds",
                 "foodgames_group_commit_moves"]:
        assert name in text


async def test_pages_are_revalidated_and_the_files_they_load_kept_under_their_version(server: Server) -> None:
    """A repeat visit asks only for the page (a 304); the page names its files at this version's addresses, which
    browsers keep. No browser pairs a new script with a stylesheet it kept from before a deploy: the pages of a new
    version name other addresses, and an address of another version is revalidated."""
    async with httpx.AsyncClient(base_url=server.url) as c:
        named: set[str] = set()
        for path in ("/", "/t/some-table", "/p/some-player", "/leaders", "/leaders/foodies", "/reset.html",
                     "/rules/foodies.html"):
            r = await c.get(path)
            assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", path
            assert (await c.get(path, headers={"If-None-Match": r.headers["etag"]})).status_code == 304, path
            head = await c.head(path)
            assert head.status_code == 200 and head.content == b"" and head.headers["etag"] == r.headers["etag"], path
            files = re.findall(r'(?:src|href)="(/[^"]+\.(?:js|css|svg))"', r.text)
            assert files and all(f.startswith("/v/") for f in files), (path, files)
            named.update(files)
        assert len({f.split("/")[2] for f in named}) == 1, named  # one version
        version = next(iter(named)).split("/")[2]
        for path in ("/style.css", "/app/table.js", "/lib/dom.js", "/games/foodies.js", "/games/foodies.css",
                     "/favicon.svg"):
            kept = await c.get(f"/v/{version}{path}")
            assert kept.status_code == 200, path
            assert kept.headers["cache-control"] == "public, max-age=31536000, immutable", path
            plain = await c.get(path)
            assert plain.headers["cache-control"] == "no-cache" and plain.content == kept.content, path
            other = await c.get(f"/v/0123456789abcdef{path}")
            assert other.headers["cache-control"] == "no-cache" and other.content == kept.content, path
        assert (await c.get(f"/v/{version}/app/no-such-file.js")).status_code == 404
        assert (await c.get(f"/v/{version}/../app/main.py")).status_code == 404
        etag = (await c.get("/style.css")).headers["etag"]
        assert (await c.get("/style.css", headers={"If-None-Match": etag})).status_code == 304


async def test_a_first_player_named_by_seat_stays_that_person_when_empty_seats_close_up(server: Server) -> None:
    """Food Truck's "First player: Seat N" is the person in the lobby's seat N, wherever the start puts them."""
    ana, bo = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Bo")
    too_far = await ana.post("/api/tables", {"game": "food-truck", "seats": 3, "options": {"first_player": "4"}}, ok=False)
    assert too_far.status_code == 422 and too_far.json()["error"]["code"] == "bad_options"
    assert "3 seats" in too_far.json()["error"]["message"]

    t = await ana.table("food-truck", seats=4, options={"first_player": "3"})
    await bo.post(f"/api/tables/{t['id']}/join", {"seat": "2"})  # the third seat; the second stays empty
    started = (await ana.post(f"/api/tables/{t['id']}/start")).json()
    assert [s["user"]["name"] for s in started["seats"]] == ["Ana", "Bo"]
    assert started["options"]["first_player"] == "2" and started["awaiting"] == ["1"]  # Bo, now second, begins

    # A first player in a seat left empty: refused, and the table stays as it was.
    t = await ana.table("food-truck", seats=4, options={"first_player": "2"})
    await bo.post(f"/api/tables/{t['id']}/join", {"seat": "2"})
    before = (await ana.http.get(f"/api/tables/{t['id']}")).json()
    empty = await ana.post(f"/api/tables/{t['id']}/start", ok=False)
    assert empty.status_code == 409 and empty.json()["error"]["code"] == "option_seat_empty"
    assert "seat 2, which is empty" in empty.json()["error"]["message"]
    after = (await ana.http.get(f"/api/tables/{t['id']}")).json()
    assert after == before
    await ana.post(f"/api/tables/{t['id']}/bots", {"seat": "1"})
    assert (await ana.post(f"/api/tables/{t['id']}/start")).json()["awaiting"] == ["1"]
    for who in (ana, bo):
        await who.close()
