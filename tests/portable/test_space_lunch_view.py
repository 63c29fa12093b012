"""Space Lunch device helpers (companion.games.space_lunch.view): the food wheel's start, the
cursor's stops, the coupon cursors, the suggested move and the words. Runs on CPython and on
MicroPython (the lane)."""

import _space_lunch
from _space_lunch import OPENING

from companion.games.space_lunch import view as V
from shared_rules.rng import Rng
from shared_rules.space_lunch.duel import Duel
from shared_rules.space_lunch.rules import (
    AUTOMA,
    AUTOMA_SEAT,
    EASY,
    EXTREME,
    HUMAN,
    Solo,
    cell,
    chill_jar,
    hot_drink,
    take,
)


def opened(difficulty=EASY):
    return _space_lunch.opened(Solo(difficulty))


def test_steps_go_the_short_way_round():
    assert V.steps(12, 0, 0) == 0
    assert V.steps(12, 0, 11) == 1
    assert V.steps(12, 0, 6) == 6
    assert V.steps(12, 10, 1) == 3
    assert V.steps(1, 0, 0) == 0


def test_wheel_starts_where_fewest_presses_are_expected():
    # all alike: the first of the equally good starts
    assert V.picker_start([1, 2, 3, 4, 5], [1, 1, 1, 1, 1]) == 0
    # weight piled on one food: start on it
    assert V.picker_start([1, 2, 3, 4, 5, 6], [1, 1, 1, 9, 1, 1]) == 3
    # a cluster: its middle
    assert V.picker_start([1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 3, 3, 3, 0, 0, 0]) == 3
    # checked against every start
    w = [3, 1, 2, 0, 3, 3, 1, 2, 2]
    n = len(w)
    cost = [sum([w[j] * V.steps(n, s, j) for j in range(n)]) for s in range(n)]
    assert cost[V.picker_start(list(range(n)), w)] == min(cost)


def test_wheel_skips_foods_that_are_all_out_and_weighs_unseen_copies():
    g = Solo(EASY)
    for t in (1, 1, 1, 2, 2, 3, 4, 5, 6):
        g.apply(t)
    g.apply(take(1, 1))  # a 1 is taken: still all three known
    choices = V.card_choices(g)
    assert 1 not in choices and 2 in choices and len(choices) == 11
    w = V.weights(g, choices)
    assert w[choices.index(2)] == 1 and w[choices.index(12)] == 3
    assert w[choices.index(3)] == 2


def test_wheel_offers_only_the_card_that_comes_back_from_under_the_deck():
    g = opened()
    g.deck = 1  # one card left, then the Hot Drink card under it
    g.apply(hot_drink(2, 1))
    assert len(V.card_choices(g)) > 1  # the last unknown card
    g.apply(10)
    g.apply(take(1, 1))
    assert V.card_choices(g) == [2]  # then the food 2 comes back up
    assert V.weights(g, [2]) == [1]


def test_opening_and_prompts():
    g = Solo(EASY)
    # phrasings, longest first: the title bar shows the first that fits (screen.text.fit)
    assert V.opening(g) and V.card_prompt(g) == ("Card 1 of 9: top left", "Card 1 of 9")
    for t in OPENING[:4]:
        g.apply(t)
    assert V.card_prompt(g)[0] == "Card 5 of 9: centre"
    for t in OPENING[4:]:
        g.apply(t)
    assert not V.opening(g)
    g.apply(hot_drink(2, 2))  # deck back to 28, but this is a refill
    assert not V.opening(g)
    assert V.card_prompt(g) == ("New card at centre", "New card")


def test_cursor_stops_are_the_pick_column_then_the_coupon():
    g = opened()
    assert V.stops(g) == [cell(1, 1), cell(1, 2), cell(1, 3), V.COUPON]
    g.apply(take(1, 2))
    g.apply(10)
    g.apply(AUTOMA)  # the Automa takes column 2, row 3
    g.apply(11)
    assert V.stops(g) == [cell(3, 1), cell(3, 2), cell(3, 3), V.COUPON]
    g2 = opened(EXTREME)
    g2.apply(hot_drink(3, 3))
    g2.apply(12)
    assert V.stops(g2) == [0, 3, 6]  # one coupon a turn: used


def test_coupon_cells():
    g = opened()
    assert V.kind_cells(g, "hot") == list(range(9))
    off = [1, 2, 4, 5, 7, 8]  # columns 2 and 3 (the Pick token is on column 1)
    assert V.kind_cells(g, "chill") == off
    assert V.kind_cells(g, "jelly") == off
    assert V.kind_cells(g, "jelly", first=4) == [1, 2, 5, 7, 8]
    assert V.jelly(4, 8) in g.legal_actions()
    g.deck = 0
    assert V.kind_cells(g, "hot") == []


def test_suggest_wins_when_a_take_wins():
    g = opened()
    g.taken[HUMAN][1] = 2  # top left completes a triplet
    g.taken[HUMAN][11] = 3
    g.taken[HUMAN][12] = 3
    assert V.suggest(g) == take(1, 1)
    assert V.leds(g) == V.LED_WIN


def test_suggest_uses_a_chill_jar_to_win():
    g = opened()
    g.taken[HUMAN][5] = 2  # 5 sits at centre: only Chill Jar reaches it this turn
    g.taken[HUMAN][11] = 3
    g.taken[HUMAN][12] = 3
    assert V.suggest(g) == chill_jar(2, 2)


def test_threat_lights_red():
    g = opened()
    assert V.leds(g) == V.LED_OFF
    # the Automa's next card (column 2, row 3: food 8) makes its fourth pair
    for food in (8, 10, 11, 12):
        g.taken[AUTOMA_SEAT][food] = 1
    for food in (10, 11, 12):
        g.taken[AUTOMA_SEAT][food] = 2
    assert V.leds(g) == V.LED_THREAT
    s = V.suggest(g)
    assert s is not None and s not in (take(1, 1), take(1, 2), take(1, 3))  # only a coupon helps


def test_suggest_is_legal_along_seeded_games():
    rng = Rng(7)

    def suggested(g):
        a = V.suggest(g)
        assert a in g.legal_actions()
        return a

    for d in range(4):
        g = _space_lunch.play_solo(d, rng, suggested)
        assert V.suggest(g) is None


def test_two_player_coupon_stops():
    g = _space_lunch.opened(Duel(0))
    assert V.stops(g)[-1] == V.COUPON
    g.apply(hot_drink(1, 1))
    g.apply(12)
    assert V.COUPON not in V.stops(g)  # one beverage action a turn


def test_words():
    assert V.setup_short(0) == "Automa needs 4 pairs" and len(V.setup_short(3)) <= 21
    assert V.setup_line(1) == "Medium: 1 coupon, Automa needs 4 pairs"
    g = opened()
    g.winner, g.reason = HUMAN, "triplets"
    assert V.result(g) == ("You win!", "three triplets")
    g.winner, g.reason = AUTOMA_SEAT, "pairs"
    assert V.result(g) == ("Automa wins", "4 pairs")
    g.winner, g.reason = AUTOMA_SEAT, "persistence"
    assert V.result(g) == ("Automa wins", "by persistence")


def test_evaluate_shares_the_ratings_and_agrees():
    from shared_rules.space_lunch import hints as H

    rate = H.hints
    rng = Rng(21)
    checked = [0]
    coupon_turns = [0]

    def evaluated(g):
        short = checked[0] % 2 == 1
        got = V.evaluate(g, short=short)
        assert got == (V.suggest(g), H.advice(g, short), V.leds(g))
        # the solo screen's two steps: the takes' ratings first, the coupons' after the board;
        # rates_coupons() says whether the second step plays the coupons forward at all
        rated = V.rate_takes(g)
        slow = []

        def counting(game, coupons=True):
            slow.append(coupons)
            return rate(game, coupons)

        H.hints = counting
        try:
            assert V.evaluate(g, short, rated) == got
        finally:
            H.hints = rate
        assert slow == ([True] if V.rates_coupons(g, rated) else [])
        coupon_turns[0] += bool(slow)
        assert H.hints is rate  # put back
        checked[0] += 1
        return got[0]

    for d in (0, 3):
        _space_lunch.play_solo(d, rng, evaluated)
    assert checked[0] > 10
    assert 0 < coupon_turns[0] < checked[0]  # both kinds of turn were seen


# --- the device's deal ----------------------------------------------------------------------

def test_the_deal_seed_is_kept_in_the_game_parameters():
    from shared_rules import games

    g = games.new("space_lunch", 2, 0, 0xDE, 0xAD, 0xBE, 0xEF)  # seed 0xDEADBEEF
    assert g.params == (2, 0, 0xDE, 0xAD, 0xBE, 0xEF)
    for food in (4, 9, 1):
        g.apply(food)
    back = games.from_bytes(g.to_bytes())
    assert back.params == g.params and back.actions() == [4, 9, 1]
    typed = games.new("space_lunch", 4, 1)
    assert typed.params == (4, 1, 0, 0, 0, 0)  # seed 0: typed


def test_a_record_from_before_the_seed_still_replays():
    from shared_rules import games
    from shared_rules.protocol import encode

    old = encode(0, (1, 0), b"", [4, 9, 1, 12])  # two parameters, as records were written
    g = games.replay(old)
    assert g.params == (1, 0, 0, 0, 0, 0) and g.actions() == [4, 9, 1, 12]  # seed 0: typed
    assert games.replay(g.to_bytes()).actions() == g.actions()  # saved again: six parameters


def test_the_deal_gives_a_state_the_same_card_every_time():
    from shared_rules import games

    seed = 123456789
    g = games.new("space_lunch", 0, 0, 7, 91, 205, 21)  # the seed's four bytes
    shown = []
    while not g.is_terminal():
        e = g.engine
        n = len(g.actions())
        if e.pending:
            food = V.deal(e, seed, n)
            assert food in V.card_choices(e)
            assert V.deal(games.from_bytes(g.to_bytes()).engine, seed, n) == food  # power cut
            shown.append(food)
            g.apply(food)
        elif e.turn == AUTOMA_SEAT:
            g.apply(AUTOMA)
        else:
            g.apply(g.legal_actions()[0])
    assert len(shown) >= 9
    # the same seed deals the same card; another seed mostly another one
    e = eight()
    assert [V.deal(e, seed, n) for n in range(8, 40)] == [V.deal(e, seed, n) for n in range(8, 40)]
    assert [V.deal(e, seed, n) for n in range(8, 40)] != [
        V.deal(e, seed + 1, n) for n in range(8, 40)]


def eight():
    """A game waiting for its ninth opening card."""
    g = Solo(EASY)
    for t in OPENING[:8]:
        g.apply(t)
    return g


def test_the_deal_is_even_over_seeds_and_over_steps():
    # the first card of a game (twelve foods alike) over 600 seeds, and the card of one state
    # over 600 steps of one seed: each food about 50 times
    e = Solo(EASY)
    for counts in ([V.deal(e, s, 0) for s in range(1, 601)],
                   [V.deal(e, 99, n) for n in range(600)]):
        per = [counts.count(f) for f in range(1, 13)]
        assert min(per) >= 25 and max(per) <= 80, per
    # a food with one unseen copy left comes about a third as often as one with three
    g = eight()
    g.taken[HUMAN][1] = 2  # food 1: on the grid and two taken: none unseen
    g.taken[HUMAN][9] = 2  # food 9: two taken, one unseen
    drawn = [V.deal(g, 7, n) for n in range(1100)]  # weights 24 in all: 9 ~46, 10 ~137
    assert drawn.count(1) == 0 and 20 <= drawn.count(9) <= 75 and drawn.count(10) >= 95
