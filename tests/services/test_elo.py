"""The rating maths (services/elo.py): two players, three with a tie, bots left out, and zero-sum always."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services import elo
from app.services.ratings import final_places
from app.services.records import SeatInfo, TableRecord


def test_expected_scores_of_a_pair_add_up_to_one_and_favour_the_higher_rating() -> None:
    assert elo.expected(1500, 1500) == 0.5
    assert elo.expected(1600, 1400) + elo.expected(1400, 1600) == pytest.approx(1.0)
    assert elo.expected(1900, 1500) == pytest.approx(1 / (1 + 10 ** -1))  # 400 points: 10 to 1


def test_two_equals_the_winner_takes_half_of_k_from_the_loser() -> None:
    assert elo.changes({"0": 1500, "1": 1500}, {"0": 1, "1": 2}) == {"0": 16, "1": -16}
    assert elo.changes({"0": 1500, "1": 1500}, {"0": 2, "1": 1}) == {"0": -16, "1": 16}
    assert elo.changes({"0": 1500, "1": 1500}, {"0": 1, "1": 1}) == {"0": 0, "1": 0}


def test_an_upset_moves_more_than_the_expected_result() -> None:
    # 1600 against 1400: the favourite is expected to score 0.76.
    favourite_wins = elo.changes({"a": 1600, "b": 1400}, {"a": 1, "b": 2})
    upset = elo.changes({"a": 1600, "b": 1400}, {"a": 2, "b": 1})
    assert favourite_wins == {"a": 8, "b": -8}  # 32 × 0.24 = 7.7
    assert upset == {"a": -24, "b": 24}  # 32 × 0.76 = 24.3
    # A draw between them costs the favourite what it was expected to win above ½.
    assert elo.changes({"a": 1600, "b": 1400}, {"a": 1, "b": 1}) == {"a": -8, "b": 8}


def test_three_players_with_a_tie_each_pair_weighs_k_over_two() -> None:
    # Equal ratings; a and b tie for first, c is last: a and b each beat c (½ above expected) and tie each other.
    ratings = {"a": 1500, "b": 1500, "c": 1500}
    assert elo.raw_changes(ratings, {"a": 1, "b": 1, "c": 3}) == {"a": 8.0, "b": 8.0, "c": -16.0}
    assert elo.changes(ratings, {"a": 1, "b": 1, "c": 3}) == {"a": 8, "b": 8, "c": -16}
    # One winner, two tied behind.
    assert elo.changes(ratings, {"a": 1, "b": 2, "c": 2}) == {"a": 16, "b": -8, "c": -8}
    # A clean order: the middle one wins one and loses one.
    assert elo.changes(ratings, {"a": 1, "b": 2, "c": 3}) == {"a": 16, "b": 0, "c": -16}


def test_the_rounding_keeps_the_sum_at_zero_where_plain_rounding_would_not() -> None:
    raw = {"a": 0.5, "b": 0.5, "c": -1.0}
    assert sum(round(x) for x in raw.values()) == -1  # Python rounds halves to even: 0 + 0 − 1
    rounded = elo.round_zero_sum(raw)
    assert sum(rounded.values()) == 0 and rounded == {"a": 1, "b": 0, "c": -1}  # the tie goes to the first listed
    assert elo.round_zero_sum({"a": 7.5, "b": -7.5}) == {"a": 8, "b": -8}
    assert elo.round_zero_sum({"a": 1e-16, "b": -1e-16}) == {"a": 0, "b": 0}  # float dust is no point


def test_fewer_than_two_people_change_nothing() -> None:
    assert elo.changes({"0": 1500}, {"0": 1}) == {}
    assert elo.changes({}, {}) == {}


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
    assert elo.changes({"1": 1500, "2": 1500}, final_places(rec)) == {"1": 16, "2": -16}
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
    st.sampled_from("abcdefgh"), st.integers(min_value=100, max_value=3000), min_size=2, max_size=8
)


@settings(max_examples=400, deadline=None)
@given(ratings=ratings_st, data=st.data())
def test_one_games_changes_add_up_to_zero_and_stay_within_k(ratings: dict[str, int], data: st.DataObject) -> None:
    """Among the rated people of one game, what one gains the others lose, to the point; nobody moves by K or
    more, and a better place never brings a smaller change between equally rated people."""
    places = {who: data.draw(st.integers(min_value=1, max_value=len(ratings)), label=who) for who in ratings}
    raw = elo.raw_changes(ratings, places)
    whole = elo.changes(ratings, places)
    assert sum(whole.values()) == 0
    assert abs(sum(raw.values())) < 1e-9
    for who in ratings:
        assert abs(whole[who] - raw[who]) < 1
        assert abs(whole[who]) <= elo.K
    # The first place never loses points against those behind it, the last never wins against those ahead.
    best, worst = min(places.values()), max(places.values())
    if best != worst:
        for who, place in places.items():
            if place == best and all(places[o] > best for o in places if o != who):
                assert raw[who] > 0
            if place == worst and all(places[o] < worst for o in places if o != who):
                assert raw[who] < 0


@settings(max_examples=200, deadline=None)
@given(a=st.integers(100, 3000), b=st.integers(100, 3000), result=st.sampled_from([(1, 2), (2, 1), (1, 1)]))
def test_two_players_mirror_each_other(a: int, b: int, result: tuple[int, int]) -> None:
    changes = elo.changes({"x": a, "y": b}, {"x": result[0], "y": result[1]})
    assert changes["x"] == -changes["y"]
