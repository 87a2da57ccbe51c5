"""The host picks a bot's level in the browser; the bot's name says it, and the bot plays."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import click_a_legal_thing, create_table, seat_row

pytestmark = pytest.mark.e2e


def test_the_host_chooses_a_hard_bot_and_it_plays(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "foodies", seats=2)
    row = seat_row(ana.page, "1")
    row.get_by_role("combobox", name="Bot level").select_option("hard")
    row.get_by_role("button", name="Add bot").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bot 2 (hard)")
    seats = ana.page.request.get(f"{ana.base}/api/tables/{table_id}").json()["seats"]
    assert [s["bot_level"] for s in seats] == [None, "hard"]
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")
    # Ana plays her turns by clicking anything legal until the hard bot has made moves of its own.
    rng = random.Random(36)
    deadline = time.monotonic() + 90
    while not bot_moves(ana, table_id):
        assert time.monotonic() < deadline, "the hard bot never moved"
        if not click_a_legal_thing(ana.page, rng):
            ana.page.wait_for_timeout(200)


def bot_moves(who: Person, table_id: str) -> int:
    moves = who.page.request.get(f"{who.base}/api/tables/{table_id}/moves").json()["moves"]
    return sum(1 for m in moves if m["seat"] == "1")
