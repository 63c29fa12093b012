"""Let's Do Lunch: HARD's flat search (ai._hard, the one a Pico runs) values every placement
exactly as the general expectimax it replaced, kept as tests/ldl_ai_before.py (ai.py at
commit 00ecaae): so it chooses the same move in every state, ties and the seeded tie-break
included, and its strength (tests/test_lets_do_lunch_strength.py) is the same player's.
CPython only (the old search is the slow part)."""

import random

import ldl_ai_before as before
import pytest

from shared_rules._compat import Rng
from shared_rules.lets_do_lunch import ai
from shared_rules.lets_do_lunch.match import Match
from shared_rules.lets_do_lunch.rules import PLACE, roll_dice


def _random_state(r):
    """A placement decision on a random board: any density, the River too, full columns,
    a triple's roll again, and hands down to the last cannibal (and the odd empty hand)."""
    m = Match()
    density = r.random()
    cells = m.board.cells
    for k in range(49):
        cells[k] = 0 if r.random() > density else r.choice((1, 2))
    cols = [c for c in range(3, 10) if m.board.empty_rows(c)]
    if not cols:
        return None
    m.phase = PLACE
    m.player = r.randrange(2)
    m.column = r.choice(cols)
    m.again = r.random() < 0.3
    m.hands = [r.choice((1, 1, 2, 3, r.randrange(13))) for _ in range(2)]
    m.hands[m.player] = m.hands[m.player] or 1  # the player to place has one
    return m


@pytest.mark.parametrize("seed", range(4))
def test_hard_values_every_placement_as_before_on_random_boards(seed):
    r = random.Random(seed)
    n = 0
    while n < 2000:
        m = _random_state(r)
        if m is None:
            continue
        n += 1
        assert ai.scores(m, ai.HARD) == before.scores(m, before.HARD), (
            m.board.to_text(), m.hands, m.player, m.column, m.again)
        s = r.randrange(1 << 30)
        assert ai.choose(m, ai.HARD, Rng(s)) == before.choose(m, before.HARD, Rng(s))


def test_hard_plays_the_same_seeded_games_as_before():
    # whole games, HARD against MEDIUM: every decision, from the opening to the last man
    for seed in range(40):
        m = Match(target=1)
        dice = Rng(seed)
        rng = Rng(seed + 100)
        old = Rng(seed + 100)
        while not m.is_over():
            if m.is_chance():
                m.roll(roll_dice(dice))
                continue
            level = ai.HARD if m.player == seed % 2 else ai.MEDIUM
            a = ai.choose(m, level, rng)
            assert a == before.choose(m, level, old), (seed, m.board.to_text())
            m.apply(a)


def test_other_depths_and_levels_still_take_the_general_search():
    r = random.Random(9)
    n = 0
    while n < 200:
        m = _random_state(r)
        if m is None:
            continue
        n += 1
        for level, depth in ((ai.MEDIUM, 2), (ai.EASY, 2), (ai.HARD, 1)):
            assert ai.scores(m, level, depth) == before.scores(m, level, depth)
