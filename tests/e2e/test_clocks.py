"""Clocks in the browser: the host picks a short real-time clock in the new-table dialog, the lobby and the table name
it, the seat's clock ticks down, My tables shows the time left, and when it runs out the server ends the game: the
player who ran out loses, the log and the seat say so."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import assert_quiet, seat_row

pytestmark = pytest.mark.e2e

BASE_SECONDS = 15


def seconds_shown(text: str) -> int:
    minutes, seconds = (int(part) for part in re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups())  # type: ignore[union-attr]
    return minutes * 60 + seconds


def test_a_seat_clock_ticks_and_running_out_loses_the_game(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    page = ana.page
    card = page.locator(".game-card[data-game='foodies']")
    card.get_by_role("button", name=re.compile("New table")).click()
    form = card.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option("2")
    form.get_by_test_id("clock-kind").select_option("realtime")
    form.locator("input[name=clock_base]").fill(str(BASE_SECONDS / 60))
    form.locator("input[name=clock_increment]").fill("0")
    form.get_by_test_id("clock-timeout").select_option("loss")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("time-control")).to_contain_text("15 s + 0 s a turn · out of time: the player loses")
    row = seat_row(page, "1")
    row.get_by_role("button", name="Add bot").click()
    expect(row).to_contain_text("Bot 2")
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("table-status")).to_have_text("In progress")

    # Ana's clock runs: it shows the server's figure and counts down in the browser.
    mine = seat_row(page, "0").get_by_test_id("seat-clock")
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    # Under the real-time warning's 20 s from the start: marked low, and said once.
    expect(mine).to_have_class(re.compile(r"\blow\b"))
    expect(page.get_by_text("Your time is running low.")).to_have_count(1)
    first = seconds_shown(mine.inner_text())
    assert BASE_SECONDS - 4 <= first <= BASE_SECONDS
    later = first
    for _ in range(25):  # until the browser's next tick, 5 s at most
        page.wait_for_timeout(200)
        later = seconds_shown(mine.inner_text())
        if later < first:
            break
    assert 1 <= first - later <= 3, (first, later)
    expect(seat_row(page, "1").get_by_test_id("seat-clock")).to_be_hidden()  # a bot's own seat has no clock

    # The lobby in another tab: the table is listed with its clock, Ana's time left counting down.
    lobby = ana.context.new_page()
    lobby.goto(ana.base + "/")
    listed = lobby.get_by_test_id("my-tables-turn").locator(f"li[data-table-id='{table_id}']")
    expect(listed.get_by_test_id("table-clock")).to_have_text("⏱ 15 s + 0 s a turn")
    expect(listed.get_by_test_id("time-left")).to_contain_text(re.compile(r"Your time: 0:\d\d"))
    lobby.close()

    # Nobody moves: the server's sweep finds the clock run out and ends the game, the bot winning (the server's clock
    # jumps to then rather than the test waiting for it).
    ana.server.jump(BASE_SECONDS)
    expect(page.locator("main")).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id("log")).to_contain_text("Ana ran out of time and loses.")
    expect(mine).to_have_text("Out of time")
    ranking = page.get_by_test_id("ranking")
    expect(ranking.locator("tr.winner")).to_contain_text("Bot 2")
    table = page.request.get(f"{ana.base}/api/tables/{table_id}").json()
    assert table["outcome"]["timeout"] == ["0"] and table["outcome"]["winners"] == ["1"]
    assert table["clock"]["timed_out"] == ["0"] and table["clock"]["seats"]["0"]["left"] == 0
    assert_quiet(ana)
