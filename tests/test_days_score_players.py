"""Space Days scoring with the most players it takes (space_days_cards.MAX_PLAYERS, the engine's
limit too): the player count offered, the entry, the scores, "Can I play here?" and the end,
inside the screen on both displays with the longest names, through the simulator's buttons."""

import scorekeys
from test_scoreboard_layout_score import NAMES, check, with_names

from shared_rules.rng import Rng
from shared_rules.space_days.cards import MAX_PLAYERS, MIN_PLAYERS
from shared_rules.space_days.score import DaysScore


def test_the_most_players_fit_both_displays(profile, tmp_path, simulate, nvm, nvm_store):
    assert len(NAMES) >= MAX_PLAYERS  # a name for every seat
    last = MAX_PLAYERS - 1
    shot = iter(range(1, 20))

    def snap():
        return "shot:{}/d{}.png".format(tmp_path, next(shot))

    words = [snap(), "next*{}".format(MAX_PLAYERS - MIN_PLAYERS), "ok"]  # the most players
    g = DaysScore(MAX_PLAYERS)
    rng = Rng(5)
    while g.entering() != (last, 6):  # every board but the last player's Sunday, seeded
        a = rng.choice(g.legal_actions())
        words += scorekeys.days_keys(g, a)
        g.apply(a)
    words.append(snap())
    from companion.games.space_days.entry import likely

    legal = g.legal_actions()
    start = legal.index(likely(6) + 1)
    n = len(legal) + 2  # the cards, then "Can I play here?" and "Scores"
    words += scorekeys.move(start, len(legal) + 1, n) + ["ok", snap(), "back"]  # the scores
    # "Can I play here?": the last player, a Space Station, on their own board, on Sunday
    words += scorekeys.move(start, len(legal), n) + [
        "ok", snap(), "next*{}".format(last), "ok", snap(), "next*13", "ok", snap(), "ok",
        snap(), "prev", "ok", snap(), "ok"]
    while not g.is_terminal():  # the last top (and the tie-break, if the top score is tied)
        a = rng.choice(g.legal_actions())
        words += scorekeys.days_keys(g, a)
        g.apply(a)
    words.append(snap())
    sim = simulate(profile, "wait:3000 next*4 ok " + " ".join(words), with_names(nvm_store, nvm))
    check(sim)
    titles = [c["texts"][0] for c in sim.captures]
    assert titles[:8] == ["Space Days", NAMES[last] + " Sun", "Scores", "Who plays?", "Card",
                          "On whose board?", "Which day?", "No"], titles
    offered = sim.captures[0]["texts"]
    assert "{} players".format(MIN_PLAYERS) in offered
    w = g.winners()
    head = NAMES[w[0]] + " wins" if len(w) == 1 else "{} share the win".format(len(w))
    assert head in sim.captures[-1]["texts"], sim.captures[-1]["texts"]  # the end dialog
