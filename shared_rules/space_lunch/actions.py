"""Space Lunch action codes and constants (shared by the solo and two-player games).

Coordinates: columns 1-3 left to right, rows 1-3 top to bottom; a cell is
``3 * (row - 1) + (col - 1)``. Every action is one small int (a byte in a saved game).
"""

from shared_rules._compat import const

# Difficulty rows of the solo table: (name, coupons, pairs the Automa needs).
EASY = const(0)
MEDIUM = const(1)
HARD = const(2)
EXTREME = const(3)
DIFFICULTIES = (("Easy", 2, 4), ("Medium", 1, 4), ("Hard", 2, 3), ("Extreme", 1, 3))

HUMAN = const(0)
AUTOMA_SEAT = const(1)
SHARED = const(2)  # winner of a two-player game that ends in a shared victory

# Beverage types; in the two-player game row 1 holds Hot Drink, row 2 Jelly Bubbles, row 3
# Chill Jar (rules-decisions.md).
HOT_DRINK = const(0)
JELLY_BUBBLES = const(1)
CHILL_JAR = const(2)
BEVERAGES = ("Hot Drink", "Jelly Bubbles", "Chill Jar")

# Action codes. 1-12 enter a card of that food type.
AUTOMA = const(13)  # the Automa takes its card
RETURN = const(14)  # + beverage type: the forced return at five beverages (two-player)
TAKE = const(20)  # + cell: the food phase
HOT = const(30)  # + cell, paid with the coupon
HOT_PAID = const(40)  # + cell, paid with beverage cards (two-player)
CHILL = const(50)
CHILL_PAID = const(60)
JELLY = const(70)  # + pair index of the two cells swapped (36 pairs)
JELLY_PAID = const(110)

VERSION = const(1)
MODE_SOLO = const(0)
MODE_DUEL = const(1)


def cell(col, row):
    """The cell index of (column, row), both 1-3."""
    if not (isinstance(col, int) and 1 <= col <= 3):
        raise ValueError("column must be 1-3, got {!r}".format(col))
    if not (isinstance(row, int) and 1 <= row <= 3):
        raise ValueError("row must be 1-3, got {!r}".format(row))
    return 3 * (row - 1) + col - 1


_PLACES = ("top left", "top middle", "top right", "middle left", "centre", "middle right",
           "bottom left", "bottom middle", "bottom right")


def where(c):
    """'bottom middle': a cell of the grid in the words a player uses; at most 13
    characters."""
    return _PLACES[c]


def _pair(a, b):
    if a > b:
        a, b = b, a
    return a * (17 - a) // 2 + b - a - 1


def _unpair(i):
    a = 0
    while i >= 8 - a:
        i -= 8 - a
        a += 1
    return a, a + 1 + i


def take(col, row):
    return TAKE + cell(col, row)


def hot_drink(col, row, paid=False):
    return (HOT_PAID if paid else HOT) + cell(col, row)


def chill_jar(col, row, paid=False):
    return (CHILL_PAID if paid else CHILL) + cell(col, row)


def jelly_bubbles(col1, row1, col2, row2, paid=False):
    a, b = cell(col1, row1), cell(col2, row2)
    if a == b:
        raise ValueError("Jelly Bubbles swaps two different cards")
    return (JELLY_PAID if paid else JELLY) + _pair(a, b)


def decode(action):
    """(kind, a, b, paid) for an action int. kind is one of "card", "automa", "return",
    "take", "hot", "chill", "jelly"; a/b are the food type, beverage type or cells."""
    if isinstance(action, int):
        if 1 <= action <= 12:
            return ("card", action, -1, False)
        if action == AUTOMA:
            return ("automa", -1, -1, False)
        if RETURN <= action < RETURN + 3:
            return ("return", action - RETURN, -1, True)
        for kind, base, paid in (("take", TAKE, False), ("hot", HOT, False),
                                 ("hot", HOT_PAID, True), ("chill", CHILL, False),
                                 ("chill", CHILL_PAID, True)):
            if base <= action < base + 9:
                return (kind, action - base, -1, paid)
        for base, paid in ((JELLY, False), (JELLY_PAID, True)):
            if base <= action < base + 36:
                a, b = _unpair(action - base)
                return ("jelly", a, b, paid)
    raise ValueError("unknown action {!r}".format(action))


def describe(action):
    """A short text for an action, e.g. 'take middle left', 'Jelly top middle and bottom
    right', 'card 7'."""
    kind, a, b, paid = decode(action)
    if kind == "card":
        return "card {}".format(a)
    if kind == "automa":
        return "Automa takes"
    if kind == "return":
        return "return {}".format(BEVERAGES[a])
    if kind == "take":
        return "take " + where(a)
    pay = " (drinks)" if paid and kind != "return" else ""
    if kind == "hot":
        return "Hot Drink " + where(a) + pay
    if kind == "chill":
        return "Chill Jar " + where(a) + pay
    return "Jelly " + where(a) + " and " + where(b) + pay


def count_sets(counts, size):
    """How many food types appear exactly ``size`` times in a 13-slot count list."""
    n = 0
    for t in range(1, 13):
        if counts[t] == size:
            n += 1
    return n
