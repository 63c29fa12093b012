"""The Aqua Brunch scoreboard offers the rulebook's choice among equal-valued food cards on the
device (both displays, through the buttons): the question starts on the taker's own colour
(one OK), another card can be entered and the scores' own-colour count follows it, alike cards
ask nothing; a scoreboard saved before the rules setting resumes under its own rules."""




import scorekeys

from shared_rules import games
from shared_rules.aqua_brunch import rules as ab
from shared_rules.aqua_brunch.score import CHOICE, FOOD, TAKE, AquaScore

TO_SCORES3 = "wait:3000 next next ok ok prev ok "  # Aqua Brunch, Scoreboard, 3 players
C = {name: i for i, name in enumerate(ab.CARDS)}
HANDS = {"strong": ("orca8", "orca8", "baby"), "mid": ("walrus", "walrus", "walrus"),
         "weak": ("octopus", "octopus", "octopus")}


def entries(plan):
    out = []
    for hand, value in plan:
        out += [C[c] for c in HANDS[hand]] + [FOOD + ab.FOOD_VALUES.index(value)]
    return out


def to_scores(g):
    """From the next card list (it starts on the likely card) to its last row, Scores."""
    legal = g.legal_actions()
    return " ".join(scorekeys.move(legal.index(g.likely_card()), len(legal), len(legal) + 1))


# P1 and P2 placed a perch; P1 takes first, P2 next
ROUND = entries((("strong", 7), ("mid", 7), ("weak", 2)))


def test_the_question_starts_on_the_own_colour(profile, tmp_path, simulate, nvm):
    g = AquaScore(3, CHOICE)
    words = scorekeys.aqua_round(g, ROUND)
    sim = simulate(profile, TO_SCORES3 + " ".join(words) + " shot:{}/q.png".format(tmp_path))
    c = sim.captures[0]
    assert c["problems"] == []
    t = c["texts"]
    assert t[:2] == ["P1 takes", "7"]
    assert t[2:4] == ["Own colour", "P2's"] and "P1's" not in t  # the taker's, in words
    # one OK: the own colour; the scores count it
    g.apply(TAKE + 0)
    sim = simulate(profile, TO_SCORES3 + " ".join(words) + " ok ok " + to_scores(g) + " ok", nvm)
    t = sim.texts()
    assert t[:2] == ["Scores", "round 2"] and "7, colour 1" in t, t  # tied on points
    from companion.store.store import Store

    saved = games.from_bytes(Store(sim.nvm).load_game()[1])
    assert saved.params == (3, CHOICE) and saved.actions() == ROUND + [TAKE + 0]


def test_another_card_taken(profile, simulate):
    g = AquaScore(3, CHOICE)
    words = scorekeys.aqua_round(g, ROUND)
    words += scorekeys.aqua_keys(g, TAKE + 1)
    g.apply(TAKE + 1)
    assert g.own == [0, 0, 1]
    sim = simulate(profile, TO_SCORES3 + " ".join(words))
    t = sim.texts()
    assert t[:2] == ["Round 1", "strength"]  # the round's result after the question
    t = simulate(profile, TO_SCORES3 + " ".join(words) + " ok " + to_scores(g) + " ok").texts()
    # the own-colour count (the tie-break) beside tied points only
    assert t == ["Scores", "round 2", "P1", "7, colour 0", "P2", "7, colour 0", "P3", "2"], t


def test_alike_cards_ask_nothing(profile, simulate):
    # P2 and P3 placed a perch; P1 takes one, P4 the other: which one is alike
    g = AquaScore(4, CHOICE)
    plan = entries((("strong", 2),)) + [C["walrus"], C["shark535"], C["baby"], FOOD + 6]
    plan += entries((("weak", 7), ("mid", 3)))
    words = scorekeys.aqua_round(g, plan)
    assert g.round == 1
    t = simulate(profile, "wait:3000 next next ok ok ok " + " ".join(words)).texts()
    assert t[:2] == ["Round 1", "strength"], t


def test_a_save_from_before_the_setting_resumes_under_its_rules(profile, simulate, nvm,
                                                               nvm_store):
    from shared_rules.protocol import encode

    # the save of a 3-player scoreboard as the device wrote it before: one setting
    nvm_store(nvm).save_game("aqua_score", encode(5, (3,), b"", ROUND[:-1]))
    old = AquaScore(3)
    for a in ROUND[:-1]:
        old.apply(a)
    t = simulate(profile, "ok " + " ".join(scorekeys.aqua_keys(old, ROUND[-1])), nvm).texts()
    assert t[:2] == ["Round 1", "strength"], t  # its rules: the own colours, no question
