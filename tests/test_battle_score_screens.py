"""Space Battle Lunchtime at the table on both displays, typed in with the buttons through the
simulator: the rulebook's serve examples in the serve check, the best serve, a seeded race to
21 checked against the rules at every turn (equal turns, flavour tie-break), undo, resume."""


import pytest
import scorekeys

from shared_rules import games
from shared_rules.rng import Rng
from shared_rules.space_battle.race import FLAVOUR, MORE, BattleRace
from shared_rules.space_battle.rules import serve_level

TO_BATTLE = "wait:3000 next*3 ok "  # main menu row 3: the Space Battle list


def race(n):
    return TO_BATTLE + "ok " + " ".join(scorekeys.move(0, n - 2, 4)) + " ok "


def check(need, served, points):
    """Serve check from the list: keys for the needs, what is served and the level's points."""
    return (TO_BATTLE + "next ok " + " ".join(scorekeys.counter_keys(need))
            + " " + " ".join(scorekeys.counter_keys(served, need))
            + " " + " ".join(scorekeys.number_keys(sum(need), points)))


# The rulebook's examples (FLAVORS order: bitter savory sour spicy sweet)
EXAMPLES = [
    ((2, 2, 0, 0, 1), (2, 2, 0, 0, 1), "gold", {"bitter": 2, "savory": 2, "sweet": 1}),
    ((1, 0, 0, 2, 2), (3, 0, 0, 3, 1), "silver", {"bitter": 1, "spicy": 2, "sweet": 2}),
    ((1, 1, 1, 0, 0), (0, 0, 0, 3, 0), "bronze", {"bitter": 1, "savory": 1, "sour": 1}),
]


@pytest.mark.parametrize("need,served,level,dish", EXAMPLES)
def test_rulebook_serve_examples(need, served, level, dish, profile, simulate):
    cards = [(f, q) for f, q in zip(("bitter", "savory", "sour", "spicy", "sweet"), served) if q]
    assert serve_level(dish, cards) == level
    sim = simulate(profile, check(need, served, 6))
    t = sim.texts()
    assert t[0] == "Serve check"
    assert "{} 6 points".format(level) in t
    assert ("Judge reward" in t) == (level == "gold") and ("No judge reward" in t) != (
        level == "gold")
    assert sim.layout_problems() == []


def test_served_list_starts_on_the_gold_serve(profile, simulate):
    need = (2, 2, 0, 0, 1)
    sim = simulate(profile, TO_BATTLE + "next ok " + " ".join(scorekeys.counter_keys(need)))
    t = sim.texts()
    assert t[:2] == ["Served", "gold"]  # nothing pressed yet: the dish's own needs


def test_not_servable(profile, simulate):
    sim = simulate(profile, TO_BATTLE + "next ok "
                   + " ".join(scorekeys.counter_keys((1, 1, 0, 0, 0))) + " "
                   + " ".join(scorekeys.counter_keys((3, 0, 0, 0, 0), (1, 1, 0, 0, 0))))
    assert sim.texts()[0] == "No serve"


def test_best_serve(profile, simulate):
    # hand: bitter 2, savory 1 twice, sweet 1, spicy 3; dish: 2 bitter 2 savory 1 sweet, 9/5/2
    hand = [0] * 15
    for code in (1, 3, 3, 12, 11):  # flavour * 3 + quantity - 1
        hand[code] += 1
    words = (TO_BATTLE + "next next ok " + " ".join(scorekeys.counter_keys(hand, rows=15))
             + " " + " ".join(scorekeys.counter_keys((2, 2, 0, 0, 1))) + " "
             + " ".join(scorekeys.number_keys(5, 9) + scorekeys.number_keys(7, 5)
                        + scorekeys.number_keys(3, 2)))
    sim = simulate(profile, words)
    t = sim.texts()
    assert t[0] == "Best serve"
    assert t[1:] == ["gold 9 points", "Bitter 2", "Savory 1", "Savory 1"]
    assert sim.layout_problems() == []
    t = simulate(profile, words + " next*5").texts()  # scrolled down: the rest of the list
    assert t[-2:] == ["Sweet 1", "Judge reward"]


def seeded_race(n, seed):
    rng = Rng(seed)
    g = BattleRace(n)
    out = []
    while not g.is_terminal():
        if g.asking() is not None:
            a = FLAVOUR + rng.randbelow(8)
        else:
            r = rng.randbelow(10)
            a = 0 if r < 5 else (MORE + rng.randbelow(4) if r == 9 else rng.randbelow(8))
        out.append(a)
        g.apply(a)
    return out


@pytest.mark.parametrize("n,seed", [(2, 3), (5, 1)])
def test_seeded_race_through_the_buttons(n, seed, profile, tmp_path, simulate, nvm):
    actions = seeded_race(n, seed)
    g = BattleRace(n)
    words = []
    for a in actions:
        words += scorekeys.race_keys(g, a)
        g.apply(a)
        if not g.is_terminal():
            words.append("shot:{}/t{}.png".format(tmp_path, len(words)))
    sim = simulate(profile, race(n) + " ".join(words), nvm)
    # every turn on screen: whose turn it is (or the tie) and that seat's points
    h = BattleRace(n)
    caps = iter(sim.captures)
    for a in actions:
        h.apply(a)
        if h.is_terminal():
            break
        c = next(caps)
        assert c["problems"] == []
        s = h.asking()
        if s is not None:
            assert c["texts"][0] == "P{} tie".format(s + 1)
        else:
            last = h.leader_reached()
            assert c["texts"][0] == "P{}'s {}".format(h.turn + 1, "last" if last else "turn")
            assert c["texts"][1] == str(h.points[h.turn])
    t = sim.texts()
    assert t[:2] == ["Game over", scorekeys.game_over_head(g)], t
    assert t[2].startswith("{} point".format(g.scores()[g.winners()[0]]))
    data = scorekeys.finished_games(sim.nvm)[-1][2]
    assert games.from_bytes(data).actions() == actions


def test_undo_and_resume(profile, simulate, nvm):
    g = BattleRace(3)
    words = []
    for a in (5, 0, MORE + 2):
        words += scorekeys.race_keys(g, a)
        g.apply(a)
    sim = simulate(profile, race(3) + " ".join(words) + " long:back", nvm)
    t = sim.texts()
    assert t[0] == "P3's turn" and "Undone" in " ".join(t)
    sim = simulate(profile, "reset", nvm)
    assert sim.texts()[0] == "Resume game?"
    sim = simulate(profile, "ok", nvm)
    assert sim.texts()[:2] == ["P3's turn", "0"]
    # opening Space Battle from the menu offers the saved race first
    sim = simulate(profile, "back " + TO_BATTLE, nvm)
    assert sim.texts()[:2] == ["Space Battle", "Resume race"] and "New race" in sim.texts()


def test_a_serve_check_in_the_race_is_scored_from_the_race_list(profile, simulate):
    need = [1, 0, 0, 0, 0]
    serve = " ".join(scorekeys.race_keys_to(None, "check") + ["ok"]
                     + scorekeys.counter_keys(need) + scorekeys.counter_keys(need, need)
                     + scorekeys.number_keys(1, 4))
    sim = simulate(profile, race(2) + serve)
    t = sim.texts()
    assert t[:3] == ["Serve check", "Score, end turn", "Score, go on"]
    assert "gold 4 points" in t and sim.layout_problems() == []
    # OK on a line of the result (or Back) scores nothing: still P1's turn, 0 points
    for leave in ("next next ok", "back"):
        t = simulate(profile, race(2) + serve + " " + leave).texts()
        assert t[:2] == ["P1's turn", "0"], t
    # "Score, end turn": P2's turn, and P1 has the 4 points in one turn (the scores)
    t = simulate(profile, race(2) + serve + " ok").texts()
    assert t[:2] == ["P2's turn", "0"]
    scores = " ".join(scorekeys.race_keys_to(None, "scores"))
    t = simulate(profile, race(2) + serve + " ok " + scores + " ok").texts()
    assert t[0] == "Scores" and t[2:4] == ["P1", "4, 1 turn"], t  # points, turns played
