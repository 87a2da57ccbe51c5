"""Names people can trust: no zalgo, no invisible names, no look-alike of another player at the table."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import Server
from tests.hardening.helpers import close_all
from tests.platform.client import Player

REFUSED = [
    "Z\u0335\u0321\u0322a\u0334l\u0336go",  # zalgo: a pile of marks on one letter
    "\u3164",  # Hangul filler: looks empty
    "\u3164\u3164Ana",
    "\u2800",  # braille blank
    "An\u200ba",  # zero-width space inside
    "\u202eanA",  # right-to-left override
    "Ana\u200d",  # zero-width joiner
    "nul\x00byte",
]


@pytest.mark.parametrize("name", REFUSED)
async def test_invisible_control_and_zalgo_names_are_refused(server: Server, name: str) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.post("/api/auth/guest", json={"name": name})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text


async def test_names_are_nfkc_normalised_and_accents_kept(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        fancy = (await c.post("/api/auth/guest", json={"name": "\U0001d54f\uff21\uff4e\uff41  \ufb01"})).json()
        accented = (await c.post("/api/auth/guest", json={"name": "Zoë Nguyễn e\u0301\u0301"})).json()
        tabbed = (await c.post("/api/auth/guest", json={"name": "tab\there"})).json()
    assert fancy["user"]["name"] == "XAna fi"
    assert accented["user"]["name"] == "Zoë Nguyễn é\u0301"
    assert tabbed["user"]["name"] == "tab here"


async def test_a_look_alike_of_a_player_at_the_table_may_not_sit_there(server: Server) -> None:
    ana = await Player.guest(server.url, "Ana")
    t = await ana.table(seats=3)
    fake = await Player.guest(server.url, "\u0410na")  # Cyrillic А
    lower = await Player.guest(server.url, "ana")
    real_other = await Player.guest(server.url, "Ben")
    for impostor in (fake, lower):
        r = await impostor.post(f"/api/tables/{t['id']}/join", {}, ok=False)
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_confusable", r.text
    await real_other.post(f"/api/tables/{t['id']}/join", {})
    # Nor may someone seated rename themselves into a look-alike of another player there.
    r = await real_other.http.patch("/api/me", json={"name": "Anа"})  # Cyrillic а at the end
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_confusable"
    assert (await real_other.http.patch("/api/me", json={"name": "Benito"})).status_code == 200
    table = (await ana.http.get(f"/api/tables/{t['id']}")).json()
    assert [s["user"]["name"] if s["user"] else None for s in table["seats"]] == ["Ana", "Benito", None]
    await close_all(ana, fake, lower, real_other)
