"""Space Days end-of-game scoring and "Can I play here?" on both displays, typed in with the
buttons through the simulator and checked against the engine (shared_rules.space_days.rules):
scores with a Gaseous Cloud on top, the most-cards tie-break, the reasons in words, undo and
resume."""


import pytest
import scorekeys

from shared_rules import games
from shared_rules.space_days.cards import card_id
from shared_rules.space_days.rules import SpaceDays
from shared_rules.space_days.score import COUNT, DaysScore

TO_DAYS = "wait:3000 next*4 ok "  # main menu row 4


def scoring(n):
    return TO_DAYS + " ".join(scorekeys.move(0, n - 2, 4)) + " ok "


def keys(g, entries):
    words = []
    for a in entries:
        words += scorekeys.days_keys(g, a)
        g.apply(a)
    return words


def tops(*names):
    return [0 if x is None else card_id(x) + 1 for x in names]


A = tops("solar_probe", "space_elevator", "hospital_ship", "space_junk_3", "evil_cube",
         "rocket_ship", "gaseous_cloud")
B = tops(None, "flying_saucer", None, "reusable_ship", "space_station", "hospital_ship",
         "planet_killer")


def test_scoring_against_the_engine(profile, simulate, nvm):
    g = DaysScore(2)
    words = keys(g, A + B)
    sim = simulate(profile, scoring(2) + " ".join(words), nvm)
    t = sim.texts()
    e = SpaceDays(2)
    a = [[k - 1] for k in A]
    a[6] = [card_id("hospital_ship"), card_id("gaseous_cloud")]  # the cloud hides a 2
    e.arrange(boards=[a, [[] if k == 0 else [k - 1] for k in B]])
    assert e.scores() == [21, 15] == g.scores()
    assert t[:3] == ["Game over", "P1 wins", "21 points"]
    assert sim.layout_problems() == []


def test_tie_asks_the_cards_on_the_boards(profile, tmp_path, simulate):
    g = DaysScore(2)
    same = tops("solar_probe", "hospital_ship", None, None, None, None, None)
    other = tops("solar_probe", None, None, None, None, "rocket_ship", None)
    words = keys(g, same + other)
    shot = "shot:{}/tie.png".format(tmp_path)
    words += [shot] + keys(g, [COUNT + 3, COUNT + 2])
    sim = simulate(profile, scoring(2) + " ".join(words))
    assert sim.captures[0]["texts"][:3] == ["P1 tie", "6", "Cards on board"]
    assert g.winners() == [0]
    t = sim.texts()
    assert t[:3] == ["Game over", "P1 wins", "6 points on cards"]


def test_picker_lists_only_cards_for_the_day(profile, simulate):
    sim = simulate(profile, scoring(2))
    t = sim.texts()
    assert t[:2] == ["P1 Mon", "0"]
    assert "Rocket Ship" not in t
    sim = simulate(profile, scoring(2) + "prev*4")  # up past Scores, Can I play: Solar Probe
    assert "Solar Probe" in sim.texts()


CAN = [  # (card, board seat, day, yes, words in the answer)
    ("space_scavenger", 0, 1, True, "yes"),
    ("space_scavenger", 0, 4, False, "next to space junk"),
    ("space_station", 0, 3, False, "both days beside"),
    ("hospital_ship", 1, 1, False, "planet killer blocks"),
    ("flying_saucer", 1, 3, False, "own board only"),
]


@pytest.mark.parametrize("card,board,day,yes,words", CAN)
def test_can_i_play_here(card, board, day, yes, words, profile, simulate):
    g = DaysScore(2)
    entries = tops("space_junk", None, "hospital_ship", None, None, None, None)
    entries += tops(None, "planet_killer")
    w = keys(g, entries)
    e = g.entering()
    # the list: Empty, the cards for the day, Can I play here?, Scores; it starts on `likely`
    from companion.games.space_days.entry import likely

    legal = g.legal_actions()
    start = legal.index(likely(e[1]) + 1)
    w += scorekeys.move(start, len(legal), len(legal) + 2) + ["ok", "ok"]  # P1 plays
    w += scorekeys.move(0, card_id(card), 18) + ["ok"]
    w += scorekeys.move(0, board, 2) + ["ok"] + scorekeys.move(0, day, 7) + ["ok"]
    sim = simulate(profile, scoring(2) + " ".join(w))
    t = sim.texts()
    assert t[0] == ("Yes" if yes else "No"), t
    assert words in " ".join(t[1:]).lower()
    assert (g.can_play(0, card_id(card), board, day) is None) == yes
    assert sim.layout_problems() == []


def test_undo_and_resume(profile, simulate, nvm):
    g = DaysScore(3)
    words = keys(g, A[:3])
    sim = simulate(profile, scoring(3) + " ".join(words) + " long:back", nvm)
    assert sim.texts()[0] == "P1 Wed"
    g.undo()
    sim = simulate(profile, "reset", nvm)
    assert sim.texts()[0] == "Resume game?"
    sim = simulate(profile, "ok", nvm)
    assert sim.texts()[:2] == ["P1 Wed", "7"]
    from companion.store.store import Store

    saved = Store(sim.nvm).load_game()
    assert saved[0] == "days_score" and games.from_bytes(saved[1]).actions() == g.actions()
    sim = simulate(profile, "back " + TO_DAYS, nvm)
    assert sim.texts()[:3] == ["Space Days", "Resume scoring", "New scoring"]


def test_can_i_play_here_asks_in_the_list_and_back_returns_to_the_entry(profile, simulate):
    # the list on Monday: Empty, the cards, Can I play here?, Scores; it starts on `likely`
    from companion.games.space_days.entry import likely

    legal = DaysScore(2).legal_actions()
    start = legal.index(likely(0) + 1)
    to_can = scoring(2) + " ".join(scorekeys.move(start, len(legal), len(legal) + 2)) + " ok"
    sim = simulate(profile, to_can)
    t = sim.texts()
    assert t[:3] == ["Who plays?", "P1", "P2"] and sim.layout_problems() == []
    t = simulate(profile, to_can + " next ok").texts()  # P2 plays: which card
    assert t[:2] == ["Card", "Wormhole"]
    t = simulate(profile, to_can + " next ok ok").texts()  # the board list starts on P2's own
    assert t[0] == "On whose board?" and "P2's board" in t
    for keys in (" back", " next ok back", " next ok ok back", " ok ok ok back"):
        assert simulate(profile, to_can + keys).texts()[:2] == ["P1 Mon", "0"], keys
    # an answer: OK on it goes back to the entry too
    t = simulate(profile, to_can + " ok ok ok ok").texts()
    assert t[0] == "Yes" and "wormhole on p1's monday: yes." in " ".join(t[1:]).lower()
    assert simulate(profile, to_can + " ok ok ok ok ok").texts()[:2] == ["P1 Mon", "0"]
