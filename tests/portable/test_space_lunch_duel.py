"""Space Lunch, two players: beverages, the forced return, coupons, both victories, tie-breaks;
saves and undo through the protocol (games.new("space_lunch", 4, first))."""

import _space_lunch
from _space_lunch import OPENING, refill

from _harness import raises
from shared_rules import games
from shared_rules.space_lunch.duel import Duel
from shared_rules.space_lunch.rules import (
    AUTOMA,
    CHILL_JAR,
    HOT_DRINK,
    JELLY_BUBBLES,
    RETURN,
    SHARED,
    cell,
    chill_jar,
    hot_drink,
    jelly_bubbles,
    take,
)


def opened(first=0):
    return _space_lunch.opened(Duel(first))


def snapshot(g):
    return (list(g.grid), g.deck, list(g.pending), list(g.bottom), [list(x) for x in g.taken],
            [list(x) for x in g.drinks], list(g.coupon_used), g.grant, g.pick, g.turn, g.acted,
            g.winner)


def test_setup_and_beverage_by_row():
    g = opened(first=1)
    assert g.turn == 1 and g.deck == 27 and [g.stack(d) for d in range(3)] == [5, 5, 5]
    g.apply(take(1, 3))  # bottom row: Chill Jar
    assert g.drinks[1] == [0, 0, 1] and g.stack(CHILL_JAR) == 4 and g.turn == 0
    refill(g)
    g.apply(take(2, 1))  # top row: Hot Drink
    assert g.drinks[0] == [1, 0, 0]
    refill(g)
    g.apply(take(3, 2))
    assert g.drinks[1] == [0, 1, 1] and g.pick == 0


def collect(g, plan):
    """Each entry: the row the player to move takes from the Pick column."""
    for row in plan:
        g.apply(take(g.pick + 1, row))
        refill(g)


def test_forced_return_at_five_with_its_action():
    g = opened()
    collect(g, [1, 3] * 5)  # seat 0: five Hot Drinks; seat 1: five Chill Jars
    assert g.drinks == [[5, 0, 0], [0, 0, 5]] and g.stack(HOT_DRINK) == 0
    assert g.turn == 0 and g.must_return()
    assert g.legal_actions() == [RETURN + HOT_DRINK]
    before = snapshot(g)
    for bad, words in ((take(g.pick + 1, 1), "first return"), (RETURN + JELLY_BUBBLES, "no Jelly"),
                       (hot_drink(1, 1), "first return")):
        with raises(ValueError, words):
            g.apply(bad)
        assert snapshot(g) == before
    g.apply(RETURN + HOT_DRINK)
    assert g.drinks[0] == [0, 0, 0] and g.stack(HOT_DRINK) == 5 and g.grant == HOT_DRINK
    assert hot_drink(1, 1, paid=True) in g.legal_actions()
    g.apply(hot_drink(1, 1, paid=True))  # paid by the return: no more cards, coupon unused
    refill(g)
    assert g.grant == -1 and not g.coupon_used[0] and g.acted
    with raises(ValueError, "one beverage action"):
        g.apply(jelly_bubbles((g.pick + 1) % 3 + 1, 1, (g.pick + 2) % 3 + 1, 1))
    g.apply(take(g.pick + 1, 2))
    refill(g)
    assert g.turn == 1 and g.legal_actions() == [RETURN + CHILL_JAR]
    with raises(ValueError, "hold five"):
        g.apply(take(g.pick + 1, 1))
    g.apply(RETURN + CHILL_JAR)
    off = (g.pick + 1) % 3 + 1
    g.apply(chill_jar(off, 1, paid=True))
    # Seat 1 took a row 1 food: it collects a Hot Drink (seat 0 returned all five).
    assert g.turn == 0 and g.drinks[1] == [1, 0, 0] and g.grant == -1 and not g.coupon_used[1]


def test_forced_return_of_fewer_than_three_gives_no_action():
    g = opened()
    collect(g, [1, 3, 1, 3, 1, 3, 2, 3, 2, 3])  # seat 0: 3 Hot Drink + 2 Jelly Bubbles
    assert g.drinks[0] == [3, 2, 0]
    g.apply(RETURN + JELLY_BUBBLES)
    assert g.grant == -1 and g.drinks[0] == [3, 0, 0]
    acts = g.legal_actions()
    assert hot_drink(1, 1, paid=True) in acts  # three Hot Drinks still in hand
    assert jelly_bubbles(2, 1, 3, 1, paid=True) not in acts
    with raises(ValueError, "three Jelly Bubbles"):
        g.apply(jelly_bubbles(2, 1, 3, 1, paid=True))
    g.apply(hot_drink(2, 2, paid=True))
    assert g.drinks[0] == [0, 0, 0] and g.stack(HOT_DRINK) == 5 and not g.coupon_used[0]


def test_coupon_once_per_game_and_one_action_per_turn():
    g = opened()
    g.apply(jelly_bubbles(2, 1, 3, 3))
    assert g.coupon_used[0] and g.grid[cell(2, 1)] == 9 and g.grid[cell(3, 3)] == 2
    with raises(ValueError, "one beverage action"):
        g.apply(chill_jar(2, 2))
    g.apply(take(1, 1))
    refill(g)
    g.apply(chill_jar(1, 2))  # seat 1 uses its coupon: food from column 1, Jelly Bubbles
    assert g.coupon_used[1] and g.drinks[1] == [0, 1, 0] and g.pick == 2 and g.turn == 0
    refill(g)
    with raises(ValueError, "coupon is already used"):
        g.apply(hot_drink(1, 1))
    with raises(ValueError, "three Hot Drink"):
        g.apply(hot_drink(1, 1, paid=True))
    with raises(ValueError, "no Automa"):
        g.apply(AUTOMA)
    with raises(ValueError, "Pick token"):
        g.apply(take(1, 1))
    with raises(ValueError, "first player"):
        Duel(2)


def test_empty_beverage_stack_gives_nothing():
    g = opened()
    collect(g, [1, 1, 1, 1, 1])  # five Hot Drinks handed out: 3 to seat 0, 2 to seat 1
    assert g.stack(HOT_DRINK) == 0
    g.apply(take(g.pick + 1, 1))
    assert g.drinks == [[3, 0, 0], [2, 0, 0]]


# Near the end: 29 cards taken, 7 on the grid (cells 0-6), deck empty, Pick on column 1.
# Per food: (seat 0, seat 1) taken; the grid holds the rest.
BASE = [(2, 1), (2, 1), (1, 2), (1, 2), (3, 0), (0, 3), (1, 1), (1, 1), (1, 1), (0, 1), (1, 1),
        (1, 1)]
BASE_GRID = [7, 8, 9, 10, 10, 11, 12, 0, 0]  # column 1: 7 (row 1), 10 (row 2), 12 (row 3)


def near_end(spec, grid, first=0, used=(False, False), drinks=((0, 0, 0), (0, 0, 0))):
    g = Duel(first)
    g.pending = []
    g.deck = 0
    g.grid = list(grid)
    for food in range(1, 13):
        g.taken[0][food], g.taken[1][food] = spec[food - 1]
        assert g.known(food) == 3, food
    g.coupon_used = list(used)
    g.drinks = [list(drinks[0]), list(drinks[1])]
    return g


def test_doubles_most_pairs_wins():
    g = near_end(BASE, BASE_GRID)
    assert g.pairs(0) == 2 and g.pairs(1) == 2
    g.apply(take(1, 1))  # seat 0 takes its second 7: three pairs to two
    assert g.grid_cards() == 6 and g.winner == 0 and g.reason == "doubles"
    g = near_end(BASE, BASE_GRID, first=1)
    g.apply(take(1, 1))
    assert g.winner == 1 and g.reason == "doubles"


def test_triplets_do_not_count_as_doubles():
    spec = list(BASE)
    spec[6] = (2, 0)  # seat 0 holds two 7s, the third is on the grid
    spec[7] = (0, 2)
    spec[9] = (0, 1)
    g = near_end(spec, BASE_GRID)
    assert g.pairs(0) == 3 and g.pairs(1) == 3
    g.apply(take(1, 1))  # the third 7 turns a pair into a triplet: 2 pairs against 3
    assert g.taken[0][7] == 3 and g.winner == 1 and g.reason == "doubles"


def test_tie_break_coupon_then_beverages_then_shared():
    # Seat 0 takes a 10 (row 2: it gets a Jelly Bubbles): pairs stay 2 against 2.
    g = near_end(BASE, BASE_GRID, used=(True, False))
    g.apply(take(1, 2))
    assert g.winner == 1 and g.reason == "coupon"
    g = near_end(BASE, BASE_GRID, used=(False, True))
    g.apply(take(1, 2))
    assert g.winner == 0 and g.reason == "coupon"
    g = near_end(BASE, BASE_GRID, used=(True, True), drinks=((1, 0, 0), (1, 1, 1)))
    g.apply(take(1, 2))
    assert g.drinks[0] == [1, 1, 0]
    assert g.winner == 1 and g.reason == "beverages"
    g = near_end(BASE, BASE_GRID, drinks=((1, 0, 1), (0, 1, 1)))
    g.apply(take(1, 2))
    assert g.winner == 0 and g.reason == "beverages"
    g = near_end(BASE, BASE_GRID, drinks=((0, 0, 1), (0, 1, 1)))
    g.apply(take(1, 2))
    assert g.winner == SHARED and g.reason == "shared" and g.is_over()


def test_victory_with_triplets_beats_the_six_card_end():
    spec = [(3, 0), (3, 0), (2, 0), (0, 3), (0, 3), (1, 2), (1, 1), (1, 1), (1, 1), (0, 2),
            (1, 1), (1, 1)]
    g = near_end(spec, [3, 7, 8, 9, 10, 11, 12, 0, 0])
    g.apply(take(1, 1))
    assert g.winner == 0 and g.reason == "triplets" and g.triplets(0) == 3


def test_duel_saved_game_round_trip_and_undo():
    game = games.new("space_lunch", 4, 1)  # two players, seat 1 starts
    g = game.engine
    for t in OPENING:
        game.apply(t)
    for row in (1, 2, 3, 1):
        game.apply(take(g.pick + 1, row))
        while g.pending:
            game.apply(g.refills()[0])
    game.apply(jelly_bubbles((g.pick + 1) % 3 + 1, 1, (g.pick + 2) % 3 + 1, 2))
    h = games.from_bytes(game.to_bytes())
    assert isinstance(h.engine, Duel) and snapshot(h.engine) == snapshot(g)
    for _ in range(3):
        game.undo()
        h.undo()
    assert snapshot(h.engine) == snapshot(game.engine)  # undo replays: a new engine object
    with raises(ValueError, "first player"):
        games.new("space_lunch", 4, 2)
