"""Every game of the menu played through the simulated buttons on both displays, to its end,
"New game" and again, then the menu, Settings and back (tests/playthrough.py). Seeded: a
failure names the seed and the keys that reproduce it. The long runs: test_playthrough_soak.py.
"""

import pytest
from playthrough import PLAYS, Policy, Table, session
from profiles_under_test import PROFILES


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("kind", PLAYS)
def test_each_game_twice_then_settings(profile, kind):
    t = Table(profile, seed=3 + PLAYS.index(kind))
    try:
        t.run([(kind, 2), ("settings", 1)])
    finally:
        t.box.close()
    assert [k for k, _w, _s in t.log] == [kind, kind]
    assert t.stats[kind].games == 2 and t.stats[kind].entries > 0


@pytest.mark.parametrize("profile", PROFILES)
def test_a_whole_evening_with_undos_and_power_cuts(profile):
    t = session(profile, seed=11, policy=Policy(suggest=0.5, undo=0.08, cut=0.03), rounds=1)
    assert sorted({k for k, _w, _s in t.log}) == sorted(PLAYS)
    assert t.box.boots > 1  # the power did go


def test_every_registry_row_the_device_keeps_is_played():
    """The menu's games and scoreboards keep records of these rows; the registry's other
    rows (the full Aqua Brunch, Space Battle and Space Days engines) have no device screen."""
    from companion.app.catalog import about, menu_games
    from shared_rules import games

    rows = [r[0] for r in games.ROWS]
    boards = [r for r in rows if about(r).get("parent")]
    own = [g[0] for g in menu_games() if g[0] not in [about(b)["parent"] for b in boards]]
    assert sorted(PLAYS) == sorted(boards + own)
