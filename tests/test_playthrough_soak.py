"""The long play-throughs (make soak): hundreds of games of each menu game on each display,
with undos and power cuts, Hard among the Let's Do Lunch opponents (tests/playthrough.py)."""

import pytest
from playthrough import PLAYS, Policy, Table
from profiles_under_test import PROFILES

CHUNKS = 4
GAMES = 50  # per chunk: 200 games of each game on each display


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("kind", PLAYS)
def test_hundreds_of_games(kind, profile, chunk):
    played = 0
    seed = 1000 + chunk * 1000
    while played < GAMES:
        t = Table(profile, seed, Policy(suggest=0.5, undo=0.05, cut=0.02), ldl_levels=(1, 2, 3))
        try:
            t.run([(kind, 5), ("settings", 1)])
        finally:
            t.box.close()
        played += t.stats[kind].games
        seed += 1
    assert played >= GAMES
