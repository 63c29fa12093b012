"""Let's Do Lunch: HARD's flat search (ai._hard, the one a Pico runs) values every placement
exactly as the general expectimax it replaced (ai.py at commit 00ecaae): so it chooses the
same move in every state, ties and the seeded tie-break included, and its strength
(tests/test_lets_do_lunch_strength.py) is the same player's. What the old search gave is
kept in tests/data/ldl_ai_before.json: sha256s of its scores and choices over seeded random
boards (50 boards a digest), and every choice of 40 seeded games. A digest that differs names
its 50 boards; `git show 00ecaae:shared_rules/lets_do_lunch/ai.py` is the old search to
compare them with."""

import hashlib
import json
import random
from pathlib import Path

import pytest

from shared_rules.lets_do_lunch import ai
from shared_rules.lets_do_lunch.match import Match
from shared_rules.lets_do_lunch.rules import PLACE, roll_dice
from shared_rules.rng import Rng


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


BEFORE = json.loads((Path(__file__).parent / "data" / "ldl_ai_before.json").read_text())
CHUNK = BEFORE["chunk"]


def _digests(rows):
    """The digest of each CHUNK rows, as tests/data/ldl_ai_before.json keeps them."""
    out = []
    for i in range(0, len(rows), CHUNK):
        text = json.dumps(rows[i:i + CHUNK], separators=(",", ":"))
        out.append(hashlib.sha256(text.encode()).hexdigest()[:16])
    return out


def _boards(seed, n):
    r = random.Random(seed)
    while n:
        m = _random_state(r)
        if m is None:
            continue
        n -= 1
        yield r, m


def _same(got, kept, what):
    bad = [i * CHUNK for i, (a, b) in enumerate(zip(got, kept)) if a != b]
    assert len(got) == len(kept) and not bad, "{}: boards {} on differ from before".format(
        what, bad[:5])


@pytest.mark.parametrize("seed", range(4))
def test_hard_values_every_placement_as_before_on_random_boards(seed):
    rows = []
    for r, m in _boards(seed, 2000):
        s = r.randrange(1 << 30)
        rows.append([ai.scores(m, ai.HARD), ai.choose(m, ai.HARD, Rng(s))])
    _same(_digests(rows), BEFORE["boards"][str(seed)], "seed {}".format(seed))


def test_hard_plays_the_same_seeded_games_as_before():
    # whole games, HARD against MEDIUM: every decision, from the opening to the last man
    for seed in range(40):
        m = Match(target=1)
        dice = Rng(seed)
        rng = Rng(seed + 100)
        kept = BEFORE["games"][str(seed)]
        k = 0
        while not m.is_over():
            if m.is_chance():
                m.roll(roll_dice(dice))
                continue
            level = ai.HARD if m.player == seed % 2 else ai.MEDIUM
            a = ai.choose(m, level, rng)
            assert k < len(kept) and a == kept[k], (seed, k, m.board.to_text())
            k += 1
            m.apply(a)
        assert k == len(kept), (seed, k)


def test_other_depths_and_levels_still_take_the_general_search():
    rows = [[ai.scores(m, level, depth) for level, depth in
             ((ai.MEDIUM, 2), (ai.EASY, 2), (ai.HARD, 1))] for _r, m in _boards(9, 200)]
    _same(_digests(rows), BEFORE["depths"], "other depths")


def test_a_changed_choice_is_seen():
    # the digests can fail: the first 50 boards of seed 0 match, and with one choice changed
    # their digest no longer does
    rows = []
    for r, m in _boards(0, CHUNK):
        s = r.randrange(1 << 30)
        rows.append([ai.scores(m, ai.HARD), ai.choose(m, ai.HARD, Rng(s))])
    assert _digests(rows)[0] == BEFORE["boards"]["0"][0]
    rows[7][1] = -1
    assert _digests(rows)[0] != BEFORE["boards"]["0"][0]
