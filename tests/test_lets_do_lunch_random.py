"""Let's Do Lunch: 10,000 seeded random games (CPython only: too heavy for the MicroPython lane).

Every step keeps twelve cannibals per player between board and hand, never removes a River
cannibal, round-trips through to_bytes/from_bytes, and every game ends. Undo and record ->
replay are checked for every game in tests/portable/test_protocol.py."""

import pytest

from shared_rules.lets_do_lunch.match import Match
from shared_rules.lets_do_lunch.rules import ANNOUNCE, RIVER, roll_dice
from shared_rules.rng import Rng

GAMES = int(__import__("os").environ.get("LDL_GAMES", "10000"))
MAX_STEPS = 1000


def _river(m):
    return bytes(m.board.cells[RIVER - 3 :: 7])


def _check_round_trip(m):
    data = m.to_bytes()
    back = Match.from_bytes(data)
    assert back.to_bytes() == data
    assert back.hands == m.hands and back.phase == m.phase


def _play(seed, strict):
    m = Match(target=1, strict=strict)
    rng = Rng(seed)
    steps = 0
    while not m.is_over():
        river = _river(m)
        games = m.games
        if m.is_chance():
            m.roll(roll_dice(rng))
        else:
            actions = m.legal_actions()
            assert actions, "a decision with no choices"
            if m.phase == ANNOUNCE:
                assert strict
            m.apply(actions[rng.randbelow(len(actions))])
        steps += 1
        assert steps < MAX_STEPS, "game {} does not end".format(seed)
        cells = m.board.cells
        assert cells.count(1) + m.hands[0] == 12 and cells.count(2) + m.hands[1] == 12
        assert 0 <= m.hands[0] <= 12 and 0 <= m.hands[1] <= 12
        if m.games == games:
            now = _river(m)
            for r in range(7):
                if river[r]:
                    assert now[r] == river[r], "a River cannibal was removed"
        _check_round_trip(m)
    w = m.winner()
    assert m.hands[w] == 0 and m.hands[1 - w] > 0
    assert m.scores[w] == m.hands[1 - w] == -m.scores[1 - w]
    return steps


@pytest.mark.soak
def test_ten_thousand_random_games():
    total = 0
    for seed in range(GAMES):
        total += _play(seed, strict=seed % 10 == 0)
    assert total > GAMES * 20  # games are real games, not degenerate ones


@pytest.mark.soak
def test_random_matches_to_twenty():
    for seed in range(30):
        m = Match()
        rng = Rng(1000 + seed)
        steps = 0
        while not m.is_over():
            if m.is_chance():
                m.roll(roll_dice(rng))
            else:
                actions = m.legal_actions()
                m.apply(actions[rng.randbelow(len(actions))])
            steps += 1
            assert steps < 100000
        w = m.winner()
        assert m.scores[w] >= 20 and m.scores[1 - w] == -m.scores[w]
        assert m.games >= 2 or m.scores[w] >= 20
        assert Match.from_bytes(m.to_bytes()).winner() == w
