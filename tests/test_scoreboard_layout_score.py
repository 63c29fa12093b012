"""Every scoreboard screen inside the screen on both displays, with the longest player names
(8 characters): the entry lists, the modes (a round's result, the scores, the aqua ticks), the
questions, the serve check's counters and pickers, "Can I play here?", the end dialog."""

import scorekeys

from shared_rules.aqua_brunch import rules as ab
from shared_rules.aqua_brunch.score import CHOICE, FOOD, AquaScore

NAMES = ["ANNABELL", "BARTHOLO", "CORNELIA", "DEMETRIU", "EVANGELI", "FLORENTI", "GWENDOLY"]


def with_names(nvm_store, nvm):
    """The nvm file, its Settings holding the seven longest names."""
    from companion.store.appsettings import AppSettings

    nvm_store(nvm).save_settings(AppSettings(names=NAMES).to_bytes())
    return nvm


def shots(tmp_path, n):
    return " shot:{}/s{}.png ".format(tmp_path, n)


def check(sim, want=None):
    assert sim.captures, "no screen captured"
    for c in sim.captures:
        assert c["problems"] == [], (c["texts"], c["problems"])
    if want is not None:
        titles = [c["texts"][0] for c in sim.captures]
        assert titles == want, titles


def test_aqua_scoreboard_screens(profile, tmp_path, simulate, nvm, nvm_store):
    with_names(nvm_store, nvm)
    g = AquaScore(7, CHOICE)
    words = []
    i = 0

    def shot():
        nonlocal i
        i += 1
        return "shot:{}/a{}.png".format(tmp_path, i)

    # seat 0: three cards, the food list, the aqua ticks (two ticked), then its food
    for k in (ab.CARDS.index("walrus"),) * 3:
        words += scorekeys.aqua_keys(g, k)
        g.apply(k)
    words += [shot(), "prev", "prev", "ok", shot(), "ok", "next", "ok", shot(), "back",
              "prev", "ok", shot(), "ok"]  # aqua mode, ticks, back; the scores mode, OK
    # the rest of the round, seeded, questions included
    from shared_rules.rng import Rng

    rng = Rng(3)
    words += scorekeys.aqua_keys(g, FOOD + 6)
    g.apply(FOOD + 6)
    while g.round == 0:
        legal = g.legal_actions()
        if g.current_player() >= 0 and g.step() == 3:
            legal = [a for a in legal if a >= FOOD]
        a = rng.choice(legal)
        words += scorekeys.aqua_keys(g, a)
        g.apply(a)
    words.append(shot())
    to_seven = "wait:3000 next next ok ok " + " ".join(scorekeys.move(1, 4, 5)) + " ok "
    sim = simulate(profile, to_seven + " ".join(words), nvm)
    check(sim)
    texts = [c["texts"][0] for c in sim.captures]
    assert texts[:4] == ["ANNABELL food", "ANNABELL aqua", "ANNABELL aqua", "Scores"]
    # the scores: every name whole; the tie-break's words beside them only where they fit
    scores = sim.captures[3]["texts"]
    shown = scores[2::2]  # the rows the screen has room for
    assert scores[1] == "round 1" and len(shown) >= 3 and shown == NAMES[:len(shown)], scores
    tied = "0, colour 0" if profile == "pico-ssd1306-5btn" else "0"  # all tied at 0
    assert scores[3::2] == [tied] * len(shown), scores
    assert texts[-1] == "Round 1" and sim.captures[-1]["texts"][2] == "ANNABELL 18"


def test_battle_screens(profile, tmp_path, simulate, nvm, nvm_store):
    from shared_rules.space_battle.race import BattleRace

    with_names(nvm_store, nvm)
    g = BattleRace(5)
    words = []
    for a in (21, 0, 0, 0):
        words += scorekeys.race_keys(g, a)
        g.apply(a)
        words.append(shots(tmp_path, len(words)))
    need = (2, 2, 1, 3, 1)
    to_check = scorekeys.race_keys_to(g, "check")
    back = ["prev" if w == "next" else "next" for w in to_check]  # to the list's start again
    words += to_check + ["ok", shots(tmp_path, 100)] + scorekeys.counter_keys(need) + [
        shots(tmp_path, 101)] + scorekeys.counter_keys(need, need) + [shots(tmp_path, 102),
                                                                      "back"] + back
    words += scorekeys.race_keys(g, 21) + [shots(tmp_path, 103)]  # two on 21: flavours asked
    g.apply(21)
    sim = simulate(profile, "wait:3000 next*3 ok ok next*3 ok " + " ".join(words), nvm)
    check(sim, ["BARTHOLO's last", "CORNELIA's last", "DEMETRIU's last", "EVANGELI's last",
                "Dish needs", "Served", "Gold points", "ANNABELL tie"])
    assert g.asking() == 0
    ok = "ok " + " ".join(scorekeys.number_keys(0, 9))
    sim = simulate(profile, "ok " + ok + " " + ok + " shot:{}/end.png".format(tmp_path), nvm)
    check(sim, ["Game over"])
    assert sim.captures[0]["texts"][1:3] == ["2 share the win", "21 points"]  # 9 flavours each


def test_days_screens(profile, tmp_path, simulate, nvm, nvm_store):
    from shared_rules.space_days.cards import card_id
    from shared_rules.space_days.score import DaysScore

    with_names(nvm_store, nvm)
    g = DaysScore(5)
    words = []
    for name in ("solar_probe", "space_elevator", "hospital_ship"):
        a = card_id(name) + 1
        words += scorekeys.days_keys(g, a)
        g.apply(a)
    words.append(shots(tmp_path, 1))
    legal = g.legal_actions()
    from companion.games.space_days.entry import likely

    start = legal.index(likely(g.entering()[1]) + 1)
    words += scorekeys.move(start, len(legal) + 1, len(legal) + 2) + ["ok", shots(tmp_path, 2),
                                                                      "back"]
    words += scorekeys.move(start, len(legal), len(legal) + 2) + [
        "ok", shots(tmp_path, 3), "next*4", "ok", shots(tmp_path, 4), "next*13", "ok",
        shots(tmp_path, 5), "ok", shots(tmp_path, 6), "next*3", "ok", shots(tmp_path, 7)]
    sim = simulate(profile, "wait:3000 next*4 ok next*3 ok " + " ".join(words), nvm)
    check(sim, ["ANNABELL Thu", "Scores", "Who plays?", "Card", "On whose board?", "Which day?",
                "No"])
    scores = sim.captures[1]["texts"]  # the days entered beside each whole name
    assert scores[1:5] == ["ANNABELL", "{}, 3 days".format(g.score(0)), "BARTHOLO", "0, 0 days"]

