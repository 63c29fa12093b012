"""The function contracts in ARCHITECTURE.md that other parts (and checks) rely on, exactly as
written there: names, argument shapes, return shapes and the errors. Runs on MicroPython too."""

from _harness import raises
from shared_rules.aqua_brunch import rules as aqua_brunch
from shared_rules.lets_do_lunch import rules as lets_do_lunch
from shared_rules.space_battle import rules as space_battle_lunchtime


def test_aqua_strength_contract():
    s = aqua_brunch.strength
    assert s(["walrus", "shark717", "octopus"]) == 11
    assert s(("walrus", "shark717", "octopus"), aqua=(-2,)) == 9
    assert s(["walrus", "shark626", "baby"], (-2, 0)) == 8
    with raises(ValueError, "dolphin"):
        s(["walrus", "dolphin", "baby"])
    with raises(ValueError):
        s(["walrus", "baby"])
    with raises(ValueError, "-3"):
        s(["walrus", "baby", "orca5"], (-3,))


def test_aqua_divide_catch_contract():
    # Seats clockwise; stronger first; equal strength: the one who placed the more valuable
    # food first; then nearer clockwise to the Lunch caller, the caller counting as nearest.
    foods = [2, 7, 0]
    assert aqua_brunch.divide_catch([10, 12, 5], foods, 0) == [2, 7, 0]
    # foods[i] is the card seat i placed: seat 1 placed the 7, so it takes first of the ties.
    assert aqua_brunch.divide_catch([9, 9, 12], [0, 7, 2], 0) == [0, 2, 7]
    # Identical strengths and cards: the caller (seat 2) counts as nearest, so it takes the 5.
    assert aqua_brunch.divide_catch([9, 9, 9, 1], [3, 3, 3, 5], 2) == [3, 3, 5, 3]
    assert aqua_brunch.divide_catch([9, 9, 9, 1], [3, 3, 3, 5], 0) == [5, 3, 3, 3]
    assert aqua_brunch.divide_catch([9, 9, 9, 1], [3, 3, 3, 5], 3) == [5, 3, 3, 3]
    assert aqua_brunch.divide_catch([9, 9, 9, 1], [3, 3, 3, 5], 1) == [3, 5, 3, 3]
    out = aqua_brunch.divide_catch([4, 4, 4], [2, 2, 5], 1)
    assert out == [2, 2, 5] and isinstance(out, list)


def test_lets_do_lunch_roll_contract():
    assert lets_do_lunch.roll_outcome((1, 2, 3)) == (None, False)
    assert lets_do_lunch.roll_outcome((3, 2, 1)) == (None, False)
    assert lets_do_lunch.roll_outcome((2, 2, 2)) == (6, True)
    assert lets_do_lunch.roll_outcome((1, 1, 2)) == (4, False)
    assert lets_do_lunch.roll_outcome((3, 3, 3)) == (9, True)
    for bad in ((0, 1, 2), (1, 2, 4), (1, 2), (1, 1, 1, 1)):
        with raises(ValueError):
            lets_do_lunch.roll_outcome(bad)


def test_lets_do_lunch_board_contract():
    b = lets_do_lunch.Board()
    assert b.to_text() == "\n".join(["......."] * 7)
    text = "\n".join(["A......", "......B", ".......", ".......", ".......", ".......", "......."])
    b = lets_do_lunch.Board.from_text(text)
    assert b.get(3, 1) == 0 and b.get(9, 2) == 1 and b.get(6, 4) is None
    assert b.to_text() == text
    # A run of enemies closed by the mover's cannibal is eaten and removed.
    b = lets_do_lunch.Board.from_text("\n".join(["AB.....", "......."] + ["......."] * 5))
    assert b.place(0, 5, 1) == [(4, 1)]
    assert b.get(4, 1) is None and b.get(5, 1) == 0
    before = b.to_text()
    with raises(ValueError):
        b.place(1, 5, 1)  # occupied
    with raises(ValueError):
        b.place(1, 10, 1)  # off the board
    with raises(ValueError):
        b.place(1, 3, 8)
    assert b.to_text() == before


def test_space_battle_serve_level_contract():
    dish = {"sweet": 3, "sour": 2}
    lvl = space_battle_lunchtime.serve_level
    assert lvl(dish, [("sweet", 3), ("sour", 2)]) == "gold"
    assert lvl(dish, [("sweet", 1), ("sweet", 1), ("sour", 1)]) == "silver"
    assert lvl(dish, [("bitter", 3), ("spicy", 2)]) == "bronze"
    assert lvl(dish, [("bitter", 1)]) is None
    with raises(ValueError, "umami"):
        lvl(dish, [("umami", 1)])
    with raises(ValueError):
        lvl(dish, [("sweet", 4)])
