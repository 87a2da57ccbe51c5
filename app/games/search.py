"""Bots that see only their own seat: every level starts from a deal sampled to fit the seat's view.

A game's bot supplies a `Bot`: how to sample a full state that the seat cannot tell from the real one, a
greedy policy and a gentle one over full states, and how well a seat stands when a playout stops. `decide`
turns that into the three levels. Because the only input is the view (plus the seed), two states the seat
cannot tell apart always get the same decision: the fairness is in the signature, not in the care of the
policies, which may read anything in the sampled state because everything hidden there was made up.

The hard level is determinized playouts: for each sampled deal, every candidate action is applied and the
game is played on by the greedy policy for all seats, with the same generator for every candidate (common
random numbers, so the candidates are compared on the same luck); the candidate with the best mean standing
wins. Its budget is a number of playouts, never a clock, so a seed always gives the same decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.games.base import BotLevel, Game
from app.games.rng import Rng, seed_state
from app.games.toolkit import JSON

Policy = Callable[[JSON, str, Rng], JSON]


@dataclass(frozen=True)
class Bot:
    """What the levels need of one game."""

    engine: Game
    # A full state consistent with `view` as `seat` sees it: the unseen cards dealt at random.
    sample: Callable[[JSON, str, Rng], JSON]
    normal: Policy
    easy: Policy
    # How well `seat` stands in a state, 0 (lost) to 1 (won); used where a playout stops.
    standing: Callable[[JSON, str], float]
    # The hard level's default number of playouts per decision (at most about a second on one core).
    playouts: int
    # Steps a playout runs before it is judged by `standing` (a finished game is judged by its outcome).
    horizon: int
    # At most this many candidate actions are searched: the greedy choice, then the others in the order
    # `shortlist` gives (most promising first), or drawn at random from the legal ones when it is None.
    candidates: int = 6
    shortlist: Callable[[JSON, str, list[JSON]], list[JSON]] | None = None
    # The greedy choice keeps its place unless another candidate's mean standing beats it by this much: a few
    # sampled deals are noisy, and the greedy choice is a sound prior.
    margin: float = 0.0
    # Action types that only take back the seat's own last step (a card chosen in secret, say). The search never
    # tries them: a playout that begins by stepping back reaches less far before it is judged, so where what comes
    # next costs (a payday) stepping back looks better, and a bot could step back and forth without end.
    retreats: frozenset[str] = frozenset()


def decide(bot: Bot, view: JSON, seat: str, seed: int, level: BotLevel, playouts: int | None = None) -> JSON:
    """The action of `seat` at `level`, from its view and a seed alone."""
    rng = Rng(seed_state(seed))
    world = bot.sample(view, seat, rng)
    if level == BotLevel.EASY:
        return bot.easy(world, seat, rng)
    if level == BotLevel.NORMAL:
        return bot.normal(world, seat, rng)
    return search(bot, view, seat, world, rng, bot.playouts if playouts is None else playouts)


def search(bot: Bot, view: JSON, seat: str, world: JSON, rng: Rng, playouts: int) -> JSON:
    """Determinized playouts: the candidate with the best mean standing over sampled deals."""
    legal = bot.engine.actions(world, seat)
    greedy = bot.normal(world, seat, rng)
    others = [a for a in legal if a != greedy and a.get("type") not in bot.retreats]
    if bot.shortlist is not None:
        others = [a for a in bot.shortlist(world, seat, legal) if a != greedy and a.get("type") not in bot.retreats]
    else:
        rng.shuffle(others)
    candidates = [greedy] + others[: bot.candidates - 1]
    if len(candidates) == 1 or playouts < len(candidates):
        return greedy
    totals = [0.0] * len(candidates)
    for _ in range(playouts // len(candidates)):
        deal = bot.sample(view, seat, rng)
        luck = rng.below(1 << 62)
        for i, action in enumerate(candidates):
            totals[i] += playout(bot, bot.engine.apply_listed(deal, seat, action).state, seat, luck)
    worlds = playouts // len(candidates)
    totals[0] += bot.margin * worlds
    # Ties go to the earlier candidate, the greedy choice first.
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def playout(bot: Bot, state: JSON, seat: str, luck: int) -> float:
    """Play on with the greedy policy for every seat, then judge how `seat` stands."""
    engine = bot.engine
    rng = Rng(seed_state(luck))
    for _ in range(bot.horizon):
        if engine.outcome(state) is not None:
            break
        awaited = engine.awaiting(state)
        if not awaited:
            break
        mover = awaited[0]
        state = engine.apply_listed(state, mover, bot.normal(state, mover, rng)).state
    outcome = engine.outcome(state)
    if outcome is not None:
        if seat not in outcome["winners"]:
            return 0.0
        return 1.0 / len(outcome["winners"])
    return bot.standing(state, seat)


def gentle(engine: Game, policy: Policy, lapses_in_ten: int) -> Policy:
    """`policy`, except that `lapses_in_ten` times in ten it plays any legal action: a forgiving opponent."""

    def play(state: JSON, seat: str, rng: Rng) -> JSON:
        legal = engine.actions(state, seat)
        if len(legal) > 1 and rng.below(10) < lapses_in_ten:
            return legal[rng.below(len(legal))]
        return policy(state, seat, rng)

    return play
