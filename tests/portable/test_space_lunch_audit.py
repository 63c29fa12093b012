"""Space Lunch rules audit: rulebook points the other tests leave implicit, each pinned by a
concrete sequence of actions (the audit found no engine discrepancy)."""

from _space_lunch import opened, refill

from _harness import raises
from shared_rules.rng import Rng
from shared_rules.space_lunch.duel import Duel
from shared_rules.space_lunch.rules import (
    AUTOMA_SEAT,
    HOT_DRINK,
    RETURN,
    Solo,
    cell,
    chill_jar,
    hot_drink,
    jelly_bubbles,
    take,
)


def five_hot_drinks_returned():
    """A two-player game in which the first player has just returned five Hot Drinks."""
    g = opened(Duel(0))
    for row in [1, 3] * 5:
        g.apply(take(g.pick + 1, row))
        refill(g)
    g.apply(RETURN + HOT_DRINK)
    return g


def test_hot_drink_may_remove_a_card_in_the_pick_column():
    # Only Jelly Bubbles and Chill Jar exclude the Pick column; Hot Drink takes any card.
    g = opened(Solo())
    g.apply(hot_drink(1, 2))
    assert g.grid[cell(1, 2)] == 0 and g.bottom == [4] and g.deck == 28 and g.coupons == 1
    g.apply(10)
    assert g.deck == 27 and g.pick == 0 and g.turn == 0  # not a take: the food phase follows
    with raises(ValueError, "one coupon"):
        g.apply(hot_drink(2, 2))
    g.apply(take(1, 2))  # the refill in the Pick column can be taken
    assert g.taken[0][10] == 1 and g.turn == AUTOMA_SEAT


def test_duel_coupon_instead_of_the_action_of_a_forced_return():
    # Five Hot Drinks returned: the Hot Drink action may follow, or the coupon instead, but
    # only one beverage action in the turn.
    g = five_hot_drinks_returned()
    assert g.grant == HOT_DRINK
    off = (g.pick + 1) % 3 + 1
    assert chill_jar(off, 2) in g.legal_actions()
    g.apply(chill_jar(off, 2))  # the coupon's Chill Jar ends the turn
    assert g.coupon_used[0] and g.turn == 1 and g.grant == -1


def test_duel_with_the_grant_used_no_second_action():
    g = five_hot_drinks_returned()
    a, b = (g.pick + 1) % 3 + 1, (g.pick + 2) % 3 + 1
    g.apply(jelly_bubbles(a, 1, b, 1))  # the coupon: the grant is no longer usable
    with raises(ValueError, "one beverage action"):
        g.apply(hot_drink(a, 2, paid=True))
    assert g.legal_actions() == [take(g.pick + 1, r) for r in (1, 2, 3)]


def test_seeded_games_keep_the_rulebook_limits():
    # Nobody ever holds more than five beverages (the forced return comes first), the Automa's
    # card is never an empty space, and both games end with exactly six cards or a triplets win.
    rng = Rng(2024)
    for i in range(4):
        g = Solo(i)
        while not g.is_over():
            if g.turn == AUTOMA_SEAT and not g.pending:
                assert g.grid[g.automa_cell()]
            g.apply(rng.choice(g.legal_actions()))
        assert g.grid_cards() == 6 or g.reason != "persistence"
        d = Duel(i % 2)
        while not d.is_over():
            d.apply(rng.choice(d.legal_actions()))
            assert sum(d.drinks[0]) <= 5 and sum(d.drinks[1]) <= 5
            assert d.stack(0) >= 0 and d.stack(1) >= 0 and d.stack(2) >= 0
        assert d.reason == "triplets" or d.grid_cards() == 6


def test_advice_sees_a_hot_drink_win_when_the_refill_is_known():
    # Two triplets and two of food 5; the deck is down to the 5 sent under it by Hot Drink.
    # A Hot Drink in the Pick column brings the 5 up and the take wins: advice must say so
    # even though a safe take exists.
    from shared_rules.space_lunch.hints import WIN, advice, hints

    g = Solo()
    for a in (5, 4, 6, 1, 4, 6, 6, 2, 8, 20, 7, 13, 4, 22, 1, 13, 2, 21, 3, 13, 1, 26, 5, 13,
              2, 25, 8, 13, 10, 24, 8, 13, 10, 26, 11, 13, 12, 28, 5, 13, 7, 24, 11, 13, 10,
              20, 7, 13, 12, 25, 12, 13, 11, 38, 3, 21, 9, 13, 9, 20, 9, 13, 3):
        g.apply(a)
    assert g.deck == 1 and g.bottom == [5] and g.taken[0][5] == 2 and g.triplets(0) == 2
    assert (hot_drink(3, 1), WIN, ()) in hints(g)
    assert advice(g) == "Hot Drink top right: you win!"
    assert advice(g, short=True) == "Hot Drink wins"  # its place does not fit the OLED's line
    g.apply(hot_drink(3, 1))
    g.apply(5)
    g.apply(take(3, 1))
    assert g.winner == 0 and g.reason == "triplets"
