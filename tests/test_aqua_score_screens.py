"""The Aqua Brunch scoreboard and pass advisor on both displays, typed in with the buttons through
the simulator and checked against the rules functions (shared_rules.aqua_brunch.rules) at every
round: the rulebook's worked example, a seeded six-round game, undo, resume after a power cut,
the record written at the end."""




import scorekeys

from shared_rules import games
from shared_rules.aqua_brunch import rules as ab
from shared_rules.aqua_brunch.score import AQUA, CHOICE, FOOD, AquaScore
from shared_rules.rng import Rng

TO_AQUA = "wait:3000 next next ok "  # main menu row 2: the Aqua Brunch list
C = {name: i for i, name in enumerate(ab.CARDS)}


def players(n):
    """Scoreboard, then the player count (the picker starts on 4)."""
    return "ok " + " ".join(scorekeys.move(1, n - 3, 5)) + " ok "


def seat(cards, aqua, value):
    m = 0
    for v in aqua:
        m |= 1 << ab.AQUA_VALUES.index(v)
    return [C[c] for c in cards] + ([AQUA + m] if m else []) + [FOOD + ab.FOOD_VALUES.index(value)]


def test_rulebook_round_typed_in(profile, tmp_path, simulate):
    # Andrey (seat 0): walrus + shark 5/3/5 + baby orca, aqua -2 and 0: 9 - 2 = 7
    g = AquaScore(3, CHOICE)
    entries = (seat(("walrus", "shark535", "baby"), (-2, 0), 7)
               + seat(("orca8", "orca8", "baby"), (), 2) + seat(("walrus",) * 3, (-1,), 5))
    words = scorekeys.aqua_round(g, entries)
    shot = " shot:{}/r.png".format(tmp_path)
    sim = simulate(profile, TO_AQUA + players(3) + " ".join(words) + shot)
    c = sim.captures[0]
    assert c["problems"] == []
    t = c["texts"]
    assert t[:2] == ["Round 1", "strength"]
    # strengths 7, 24, 17; the catch: 24 takes the perch, 17 the pufferfish, 7 the lobster
    assert t[2:] == ["P1 7", "+2 =2", "P2 24", "+7 =7", "P3 17", "+5 =5"]
    assert g.history[0][2] == ab.divide_catch([7, 24, 17], [7, 2, 5], 0)


def seeded_game(n, seed):
    """A seeded six-round game: (entries per round, the shadow game)."""
    rng = Rng(seed)
    g = AquaScore(n, CHOICE)
    rounds = []
    cur = []
    while not g.is_terminal():
        legal = g.legal_actions()
        if g.current_player() >= 0 and g.step() == 3 and rng.randbelow(4):
            legal = [a for a in legal if a >= FOOD]  # now and then some aqua cards
        before = g.round
        a = rng.choice(legal)
        cur.append(a)
        g.apply(a)
        if g.round != before:
            rounds.append(cur)
            cur = []
    return rounds


def test_seeded_game_through_the_buttons(profile, tmp_path, simulate, nvm):
    n = 4
    rounds = seeded_game(n, 11)
    g = AquaScore(n, CHOICE)
    words = []
    for r, entries in enumerate(rounds):
        words += scorekeys.aqua_round(g, entries)
        words.append("shot:{}/round{}.png".format(tmp_path, r))
        if r < 5:
            words.append("ok")  # close the round's result
    sim = simulate(profile, TO_AQUA + players(n) + " ".join(words), nvm)
    assert len(sim.captures) == 6
    for r, c in enumerate(sim.captures):
        assert c["problems"] == [], c["problems"]
        st, foods, got, lunch = g.history[r]
        assert got == ab.divide_catch(st, foods, lunch if lunch >= 0 else 0)
        if r < 5:
            assert c["texts"][0] == "Round {}".format(r + 1)
            for s in range(n):
                assert "P{} {}".format(s + 1, st[s]) in c["texts"]
    final = sim.captures[-1]["texts"]
    assert final[:2] == ["Game over", scorekeys.game_over_head(g)], final
    assert final[2].startswith("{} point".format(g.scores()[g.winners()[0]]))
    # the record on nvm is the game typed in
    from companion.store.store import Store

    kept = scorekeys.finished_games(sim.nvm)
    assert len(kept) == 1, "want one finished-game record"
    _unix, names, data = kept[0]
    assert names == ["P1", "P2", "P3", "P4"]
    assert games.game_id_of(data) == "aqua_score"
    h = games.from_bytes(data)
    assert h.actions() == g.actions() and h.scores() == g.scores()
    # the end stays saved while it is shown (a power cut shows it again), nothing more
    assert Store(sim.nvm).load_game() == ("aqua_score", g.to_bytes())


def test_undo_and_resume_mid_entry(profile, simulate, nvm):
    g = AquaScore(4, CHOICE)
    first = seat(("walrus", "walrus", "orca8"), (), 7)
    words = scorekeys.aqua_round(g, first + [C["shark717"]])
    sim = simulate(profile, TO_AQUA + players(4) + " ".join(words) + " long:back", nvm)
    t = sim.texts()
    assert t[0] == "P2 card 1" and "Undone" in " ".join(t)
    g.undo()
    # a power cut with P2's first card entered, then "Resume game?"
    more = scorekeys.aqua_keys(g, C["octopus"])
    g.apply(C["octopus"])
    sim = simulate(profile, "ok " + " ".join(more) + " reset", nvm)  # resume, enter, cut
    t = sim.texts()
    assert t[0] == "Resume game?"
    sim = simulate(profile, "ok", nvm)
    t = sim.texts()
    assert t[:2] == ["P2 card 2", "round 1"]
    assert sim.layout_problems() == []
    from companion.store.store import Store

    saved = Store(sim.nvm).load_game()
    assert saved[0] == "aqua_score" and games.from_bytes(saved[1]).actions() == g.actions()


def test_aqua_cards_of_another_player_are_not_offered(profile, simulate):
    # the aqua -4 card is P1's: P2's tick list has no -4 row at all
    g = AquaScore(3, CHOICE)
    words = scorekeys.aqua_round(g, seat(("walrus",) * 3, (-4,), 7) + [C["walrus"]] * 3)
    sim = simulate(profile, TO_AQUA + players(3) + " ".join(words) + " prev prev ok")
    t = sim.texts()
    assert t[:2] == ["P2 aqua", "18"] and "Aqua -4" not in t and "Aqua -2" in t
    t = simulate(profile, TO_AQUA + players(3) + " ".join(words) + " prev prev ok ok").texts()
    assert t[:2] == ["P2 aqua", "18"] and "[x]" in t  # Aqua 0 ticked
    t = simulate(profile, TO_AQUA + players(3) + " ".join(words)
                 + " prev prev ok next ok prev prev ok").texts()
    assert t[:2] == ["P2 food", "17"]  # Aqua -1 entered: 18 - 1


def test_pass_advisor(profile, simulate):
    # three walruses (18): passing one leaves two walruses (8) plus the card received
    hand = "ok ok ok prev*5 ok "  # OK on Walrus three times, up to Done
    sim = simulate(profile, TO_AQUA + "next*2 ok " + hand + "prev*5 ok")
    t = sim.texts()
    num, den = ab.pass_advice(["walrus"] * 3)[0][1:]
    from companion.screen.counters import tenths

    assert t[:4] == ["Pass advisor", "expect", "Pass Walrus", tenths(num, den)]
    assert sim.layout_problems() == []


def test_pass_advisor_wants_three_cards(profile, simulate):
    sim = simulate(profile, TO_AQUA + "next*2 ok ok ok prev*5 ok")
    t = sim.texts()
    assert t[0] == "My 3 cards" and "exactly 3" in " ".join(t)


def test_saved_scoreboard_resumes_or_starts_anew_from_the_list(profile, simulate, nvm):
    g = AquaScore(4, CHOICE)
    words = scorekeys.aqua_round(g, [C["orca8"], C["walrus"]])
    simulate(profile, TO_AQUA + players(4) + " ".join(words), nvm)
    sim = simulate(profile, "back " + TO_AQUA, nvm)  # Back on the resume prompt, then the list
    t = sim.texts()
    assert t[:4] == ["Aqua Brunch", "Resume scores", "Strength", "Pass advisor"]
    assert "New scoreboard" in t
    assert simulate(profile, "back " + TO_AQUA + "ok", nvm).texts()[0] == "P1 card 3"
    sim = simulate(profile, "back " + TO_AQUA + "prev ok ok", nvm)  # New scoreboard, 4 players
    assert sim.texts()[:2] == ["P1 card 1", "round 1"]


def test_undo_from_a_round_result_takes_back_the_last_entry(profile, simulate):
    g = AquaScore(3, CHOICE)
    entries = (seat(("walrus", "shark535", "baby"), (), 7)
               + seat(("orca8", "orca8", "baby"), (), 2) + seat(("walrus",) * 3, (), 5))
    words = scorekeys.aqua_round(g, entries)
    sim = simulate(profile, TO_AQUA + players(3) + " ".join(words) + " long:back")
    t = sim.texts()
    assert t[:2] == ["P3 food", "18"] and "Undone" in " ".join(t)


def test_pass_advisor_refuses_more_copies_than_the_deck(profile, simulate):
    # three orca 8s in hand and two seen: the deck has four
    hand = "prev*4 ok ok ok next*4 prev*5 ok"  # Orca 8 (four up from Walrus) three times, Done
    seen = "prev*4 ok ok next*4 prev*5 ok"
    t = simulate(profile, TO_AQUA + "next*2 ok " + hand + " " + seen).texts()
    assert t[0] == "Seen cards" and "More of a card than the deck has" in " ".join(t)
    assert "2" in t  # the seen cards entered are kept


def test_player_count_is_asked_in_the_scoreboards_own_list(profile, simulate, nvm):
    sim = simulate(profile, TO_AQUA + "ok")  # Scoreboard: the player count, on 4
    assert sim.texts()[:3] == ["Aqua Brunch", "3 players", "4 players"]
    assert sim.layout_problems() == []
    # undo has nothing to take back; Back leaves without starting (or saving) a scoreboard
    t = simulate(profile, TO_AQUA + "ok long:back").texts()
    assert t[0] == "Aqua Brunch" and "Nothing to undo" in " ".join(t)
    assert simulate(profile, TO_AQUA + "ok wait:3000 back", nvm).texts()[0] == "Lunchbox"
    assert simulate(profile, "", nvm).texts()[0] == "Lunchbox"  # no "Resume game?"
    # 5 players: four seats entered, the fifth is asked
    g = AquaScore(5, CHOICE)
    words = []
    for a in seat(("walrus",) * 3, (), 7) * 4:
        words += scorekeys.aqua_keys(g, a)
        g.apply(a)
    assert simulate(profile, TO_AQUA + players(5) + " ".join(words)).texts()[0] == "P5 card 1"
