"""The Space Battle race list's points rows, through the simulator's buttons: a serve's points
are rows around "No serve" (docs/scoring.md), "Scored, go on" keeps the turn, "More points"
types the rest, Back leaves the go-on rows without an entry, undo takes a scored row back; and
over seeded races a serve's points take under 5 presses on average (bench/race_presses.py)."""

import sys
from pathlib import Path

import scorekeys

from shared_rules.space_battle.race import MORE, BattleRace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import race_presses  # the bench's seeded races and counts

RACE2 = "wait:3000 next*3 ok ok ok "  # Space Battle, Race to 21, 2 players


def test_the_rows_around_no_serve(profile, simulate):
    t = simulate(profile, RACE2).texts()
    assert t[:4] == ["P1's turn", "0", "No serve", "Scored 5"]
    assert t[4] == "=5"  # the seat's total after it
    t = simulate(profile, RACE2 + "prev").texts()  # the list wraps: 4 is one press up
    assert "Scored 4" in t and "Scored 1" in t
    sim = simulate(profile, RACE2 + "next next ok")
    assert sim.texts()[:2] == ["P2's turn", "0"]
    assert sim.layout_problems() == []
    t = simulate(profile, RACE2 + "next next ok "
                 + " ".join(scorekeys.race_keys_to(None, "scores")) + " ok").texts()
    assert t[0] == "Scores" and t[2:4] == ["P1", "6, 1 turn"], t


def test_go_on_more_points_back_and_undo(profile, simulate, nvm):
    g = BattleRace(2)
    words = []
    for a in (MORE + 7, 3, 15, MORE + 20, 0):
        words += scorekeys.race_keys(g, a)
        g.apply(a)
    sim = simulate(profile, RACE2 + " ".join(words), nvm)
    assert sim.texts()[:2] == ["P2's last", "15"]  # P1 has 30: the round is played out
    from companion.store.store import Store
    from shared_rules import games

    assert games.from_bytes(Store(sim.nvm).load_game()[1]).actions() == g.actions()
    # the go-on rows: the title says so; Back leaves them with nothing entered
    go_on = " ".join(scorekeys.race_keys_to(None, "go on")) + " ok"
    t = simulate(profile, RACE2 + go_on).texts()
    assert t[:3] == ["P1 goes on", "0", "Scored 5"]
    t = simulate(profile, RACE2 + go_on + " back").texts()
    assert t[:3] == ["P1's turn", "0", "No serve"]
    # undo takes a scored row back
    t = simulate(profile, RACE2 + "next ok long:back").texts()
    assert t[:2] == ["P1's turn", "0"] and "Undone" in " ".join(t)


def test_the_mid_turn_list_ends_the_turn_with_points(profile, simulate):
    g = BattleRace(2)
    words = scorekeys.race_keys(g, MORE + 5)
    g.apply(MORE + 5)
    t = simulate(profile, RACE2 + " ".join(words)).texts()
    assert t[:4] == ["P1's turn", "5", "End turn", "Scored 5"] and t[4] == "=10"
    t = simulate(profile, RACE2 + " ".join(words) + " next ok").texts()
    assert t[:2] == ["P2's turn", "0"]


def test_seeded_races_take_under_5_presses_a_serve():
    """The bench's counts on the keys the simulator accepts: every race entered as meant,
    the mean of a serve's points under 5 (it was 8.8 on the list with a picker from 0)."""
    serves = []
    old = []
    for seed in range(1, 9):
        n, actions = race_presses.race_entries(seed)
        g = BattleRace(n)
        for a in actions:
            g.apply(a)
        assert g.is_terminal()  # a race to its end
        s, _, words = race_presses.count(scorekeys.race_keys, n, actions)
        assert race_presses.played(n, words) == actions
        serves += s
        old += race_presses.count(race_presses.keys_before, n, actions)[0]
    assert len(serves) > 50
    assert sum(serves) < 5 * len(serves), sum(serves) / len(serves)
    assert sum(old) > 8 * len(old)
