"""The rating maths (services/glicko2.py): the paper's worked example, what a game of two or more does, how an
unproven account counts for little, weights, time away; and which seats and tables are rated."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services import glicko2
from app.services.glicko2 import Rating as R
from app.services.glicko2 import Result
from app.services.ratings import final_places
from app.services.record import SeatInfo, TableRecord


def test_the_papers_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500 ± 200 beats 1400 ± 30, loses to 1550 ± 100 and to 1700 ± 300."""
    after = glicko2.update(R(1500, 200, 0.06), [Result(R(1400, 30), 1), Result(R(1550, 100), 0), Result(R(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_two_newcomers_move_far_and_mirror_each_other_and_become_surer() -> None:
    after = glicko2.game({"0": R(), "1": R()}, {"0": 1, "1": 2})
    assert after["0"].rating == pytest.approx(1662.31, abs=0.01) and after["1"].rating == pytest.approx(1337.69, abs=0.01)
    assert after["0"].deviation == after["1"].deviation == pytest.approx(290.32, abs=0.01)
    assert after["0"].provisional and after["1"].provisional
    tie = glicko2.game({"0": R(), "1": R()}, {"0": 1, "1": 1})
    assert tie["0"].rating == tie["1"].rating == pytest.approx(1500)


def test_a_game_against_an_unproven_account_counts_for_little_for_the_proven_one() -> None:
    # A settled 1500 ± 60 loses to a fresh 1500 ± 350: it gives up a few points, the newcomer gains a lot.
    after = glicko2.game({"old": R(1500, 60), "new": R()}, {"old": 2, "new": 1})
    assert -10 < after["old"].rating - 1500 < 0
    assert after["new"].rating - 1500 > 150
    # The same loss to a settled equal costs the settled one more.
    settled = glicko2.game({"old": R(1500, 60), "other": R(1500, 60)}, {"old": 2, "other": 1})
    assert settled["old"].rating < after["old"].rating
    assert not R(1500, 110).provisional and R(1500, 110.5).provisional


def test_a_game_of_several_counts_as_one_game_of_two_for_the_winner_over_everyone() -> None:
    # Beating three equals at once moves a rating as one win over an equal does.
    four = glicko2.game({x: R() for x in "abcd"}, {"a": 1, "b": 2, "c": 2, "d": 2})
    two = glicko2.game({"a": R(), "b": R()}, {"a": 1, "b": 2})
    assert four["a"].rating == pytest.approx(two["a"].rating, abs=0.01)
    # The middle of a clean order wins one and loses one: no change.
    three = glicko2.game({x: R() for x in "abc"}, {"a": 1, "b": 2, "c": 3})
    assert three["b"].rating == pytest.approx(1500)
    assert three["a"].rating - 1500 == pytest.approx(1500 - three["c"].rating)


def test_weights_scale_a_pair_and_a_zero_weight_changes_nothing() -> None:
    full = glicko2.game({"a": R(), "b": R()}, {"a": 1, "b": 2})
    half = glicko2.game({"a": R(), "b": R()}, {"a": 1, "b": 2}, weights={frozenset("ab"): 0.5})
    none = glicko2.game({"a": R(), "b": R()}, {"a": 1, "b": 2}, weights={frozenset("ab"): 0.0})
    assert 1500 < half["a"].rating < full["a"].rating
    assert none == {"a": R(), "b": R()}
    assert [glicko2.repeat_weight(n) for n in range(5)] == [1.0, 0.5, pytest.approx(1 / 3), 0.0, 0.0]


def test_time_away_makes_a_rating_less_sure_up_to_the_start() -> None:
    settled = R(1700, 50)
    assert glicko2.idle(settled, 0) == settled
    year = glicko2.idle(settled, 365)
    assert year.rating == 1700 and 50 < year.deviation < 350 and year.provisional
    assert glicko2.idle(settled, 100_000).deviation == 350


def test_fewer_than_two_people_change_nothing() -> None:
    assert glicko2.game({"0": R()}, {"0": 1}) == {}
    assert glicko2.game({}, {}) == {}


def _record(seats: list[tuple[str | None, bool]], ranking: list[list[str]], guests: frozenset[str] = frozenset(),
            ) -> TableRecord:
    """A finished public table with these seats (user id or None, bot), the `guests` among them playing as guests,
    and this ranking."""
    now = datetime.now(UTC)
    return TableRecord(
        id="t" * 16, game="food-truck", name="t", host_id="h", host_name="H", visibility="public", invite_hash=None,
        status="finished", seat_count=len(seats), options={}, seed=1, seed_commitment="c", state={}, version=9,
        state_seq=0, move_count=0, awaiting=[], created_at=now, updated_at=now,
        outcome={"scores": {}, "ranking": ranking, "winners": ranking[0], "details": {}},
        seats=[SeatInfo(str(i), user, user and user.upper(), bot, user in guests)
               for i, (user, bot) in enumerate(seats)],
    )


def test_bots_own_seats_are_left_out_and_a_stand_in_seat_stays_its_persons() -> None:
    # Seat 0: a bot of its own, first; seat 1: Ana, whose seat a bot finished (a stand-in), second; seat 2: Bo, last.
    rec = _record([(None, True), ("ana", True), ("bo", False)], [["0"], ["1"], ["2"]])
    assert rec.rated_people() == {"1": "ana", "2": "bo"}
    assert final_places(rec) == {"1": 2, "2": 3}
    # Between the two people, Ana is ahead: the bot that beat them both costs neither anything.
    after = glicko2.game({"1": R(), "2": R()}, final_places(rec))
    assert after["1"].rating - 1500 == pytest.approx(1500 - after["2"].rating) and after["1"].rating > 1500
    assert rec.counts_for_ratings()


def test_which_tables_count() -> None:
    people = [("ana", False), ("bo", False)]
    assert _record(people, [["0"], ["1"]]).counts_for_ratings()
    assert not _record([("ana", False), (None, True)], [["0"], ["1"]]).counts_for_ratings()  # one person
    private = _record(people, [["0"], ["1"]])
    private.visibility = "private"
    assert not private.counts_for_ratings()
    abandoned = _record(people, [["0"], ["1"]])
    abandoned.abandoned = True
    assert not abandoned.counts_for_ratings()
    before_ratings = _record(people, [["0"], ["1"]])
    before_ratings.rated = False
    assert not before_ratings.counts_for_ratings()


def test_guests_seats_are_left_out_like_bots_own_and_a_game_needs_two_registered_people() -> None:
    # Ana first, Gus (a guest) second, Bo last: Ana and Bo are rated, as if Gus had not been there.
    rec = _record([("ana", False), ("gus", False), ("bo", False)], [["0"], ["1"], ["2"]], frozenset({"gus"}))
    assert rec.rated_people() == {"0": "ana", "2": "bo"}
    assert final_places(rec) == {"0": 1, "2": 3}
    assert rec.counts_for_ratings()
    # One registered person and a guest, or two guests: nobody's rating moves.
    assert not _record([("ana", False), ("gus", False)], [["0"], ["1"]], frozenset({"gus"})).counts_for_ratings()
    both = _record([("gus", False), ("guy", False)], [["0"], ["1"]], frozenset({"gus", "guy"}))
    assert both.rated_people() == {} and not both.counts_for_ratings()
    # A guest's seat a bot finished for them is still a guest's; a registered person's stays theirs.
    stood_in = _record([("ana", True), ("gus", True), ("bo", False)], [["0"], ["1"], ["2"]], frozenset({"gus"}))
    assert stood_in.rated_people() == {"0": "ana", "2": "bo"}


def test_a_settled_table_says_what_was_settled_whatever_the_rule_says_now() -> None:
    # Rated before guests were left out: it did change ratings, and says so beside its changes.
    rated_then = _record([("ana", False), ("gus", False)], [["0"], ["1"]], frozenset({"gus"}))
    rated_then.rated = True
    assert rated_then.counts_for_ratings()
    # Not rated when it was settled, though both have registered since.
    unrated_then = _record([("ana", False), ("gus", False)], [["0"], ["1"]])
    unrated_then.rated = False
    assert not unrated_then.counts_for_ratings()


ratings_st = st.dictionaries(
    st.sampled_from("abcdefgh"),
    st.builds(R, st.floats(100, 3000), st.floats(45, 350), st.floats(0.03, 0.1)),
    min_size=2,
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(ratings=ratings_st, data=st.data())
def test_a_better_place_never_costs_and_everyone_ends_surer(ratings: dict[str, R], data: st.DataObject) -> None:
    """Whoever beats everyone gains, whoever loses to everyone loses; a game never makes a rating less sure than a
    period's volatility alone would (steps 6 and 7), and nothing leaves the bounds."""
    places = {who: data.draw(st.integers(min_value=1, max_value=len(ratings)), label=who) for who in ratings}
    after = glicko2.game(ratings, places)
    best, worst = min(places.values()), max(places.values())
    for who, place in places.items():
        new = after[who]
        assert glicko2.MIN_DEVIATION <= new.deviation <= glicko2.START_DEVIATION
        phi_star = math.hypot(ratings[who].deviation / glicko2.SCALE, new.volatility) * glicko2.SCALE
        assert new.deviation <= max(phi_star, glicko2.MIN_DEVIATION) + 1e-6
        if best != worst and place == best and all(places[o] > best for o in places if o != who):
            assert new.rating > ratings[who].rating
        if best != worst and place == worst and all(places[o] < worst for o in places if o != who):
            assert new.rating < ratings[who].rating


@settings(max_examples=200, deadline=None)
@given(result=st.sampled_from([(1, 2), (2, 1), (1, 1)]), dev=st.floats(45, 350))
def test_two_equals_mirror_each_other(result: tuple[int, int], dev: float) -> None:
    after = glicko2.game({"x": R(1500, dev), "y": R(1500, dev)}, {"x": result[0], "y": result[1]})
    assert after["x"].rating - 1500 == pytest.approx(1500 - after["y"].rating)
