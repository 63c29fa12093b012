"""Space Lunch solo hints: the Automa's next card, and every human action rated."""

import _space_lunch

from shared_rules.space_lunch.hints import (
    DANGER,
    LATER,
    RISK,
    SAFE,
    WIN,
    advice,
    hints,
    threat,
)
from shared_rules.space_lunch.rules import (
    AUTOMA,
    AUTOMA_SEAT,
    EASY,
    HUMAN,
    Solo,
    cell,
    chill_jar,
    hot_drink,
    jelly_bubbles,
    take,
)


def position(human=(), automa=()):
    """The opening grid, with the given (food, count) already taken by each side."""
    g = _space_lunch.opened(Solo(EASY))
    for food, n in human:
        g.taken[HUMAN][food] = n
    for food, n in automa:
        g.taken[AUTOMA_SEAT][food] = n
    for food in range(1, 13):
        assert g.known(food) <= 3
    return g


def rated(g, coupons=True):
    return {a: (v, foods) for a, v, foods in hints(g, coupons)}


def test_threat_at_the_start():
    g = position()
    assert threat(g) == (cell(2, 3), 8, False)  # column 2 (after the human), bottom row
    r = rated(g, coupons=False)
    assert sorted(r) == [take(1, 1), take(1, 2), take(1, 3)]
    assert all(v == (SAFE, ()) for v in r.values())
    assert advice(g) == "Automa next: bottom middle, food 8"


def test_automa_wins_next_unless_a_coupon_changes_its_card():
    # Three pairs (Easy needs four) and a single 8: the 8 at (2, 3) wins it the game.
    g = position(automa=((10, 2), (11, 2), (12, 2), (8, 1)))
    assert threat(g) == (cell(2, 3), 8, True)
    r = rated(g)
    for row in (1, 2, 3):
        assert r[take(1, row)] == (DANGER, ())
    # Chill Jar takes the 8, but the refill the Automa takes may be the last 8.
    assert r[chill_jar(2, 3)] == (RISK, (8,))
    assert r[hot_drink(2, 3)] == (RISK, (8,))
    assert r[hot_drink(3, 3)][0] == DANGER
    # Swapping the 8 away makes it safe; swapping two other cards does not.
    assert r[jelly_bubbles(2, 2, 2, 3)] == (SAFE, ())
    assert r[jelly_bubbles(2, 1, 3, 1)][0] == DANGER
    text = advice(g)
    assert text == "use Jelly to save"  # its two places do not fit: the menu starts on them
    assert advice(g, short=True).endswith(" saves")


def test_take_the_card_the_automa_wants_after_next():
    # A single 4; the 4 at (1, 2) is the Automa's card on its turn after next.
    g = position(automa=((10, 2), (11, 2), (12, 2), (4, 1)))
    r = rated(g, coupons=False)
    assert r[take(1, 2)] == (SAFE, ())
    assert r[take(1, 1)] == (LATER, ()) and r[take(1, 3)] == (LATER, ())
    assert advice(g) == "take row 2 or the Automa wins"
    assert advice(g, short=True) == "row 2 or Automa wins"
    # And it is right: leave the 4, and the Automa wins on its second turn.
    g.apply(take(1, 1))
    g.apply(12 if g.known(12) < 3 else 9)
    g.apply(AUTOMA)
    assert not g.is_over()
    g.apply(g.refills()[0])
    g.apply(g.legal_actions()[0])
    g.apply(g.refills()[0])
    g.apply(AUTOMA)
    assert g.winner == AUTOMA_SEAT and g.reason == "pairs"


def test_winning_take_and_winning_chill_jar():
    g = position(human=((10, 3), (11, 3), (4, 2)))
    r = rated(g)
    assert r[take(1, 2)] == (WIN, ())
    assert advice(g) == "take row 2: you win!"
    g = position(human=((10, 3), (11, 3), (5, 2)))
    r = rated(g)
    assert r[chill_jar(2, 2)] == (WIN, ())
    assert advice(g) == "Chill Jar centre: you win!"
    assert advice(g, short=True) == "Chill Jar centre wins"


def test_no_hints_when_it_is_not_the_human_move():
    g = position()
    g.apply(take(1, 1))
    assert hints(g) == [] and advice(g) == ""  # a refill is awaited
    g.apply(10)
    assert hints(g) == [] and g.turn == AUTOMA_SEAT
    assert threat(g) == (cell(2, 3), 8, False)


def test_advice_fits_small_screens_in_a_seeded_game():
    from shared_rules.rng import Rng

    rng = Rng(11)
    seen = [0]

    def checked(g):
        if seen[0] < 3:  # the full rating is slow on MicroPython: a few turns suffice here
            assert len(advice(g)) <= 38 and len(advice(g, short=True)) <= 21
        seen[0] += 1
        return g.legal_actions()[rng.randbelow(3) if g.grid[g.pick] else 0]

    _space_lunch.play_solo(EASY, rng, checked)
    assert seen[0] >= 3
