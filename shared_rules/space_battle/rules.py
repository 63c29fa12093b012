"""Space Battle Lunchtime: serving levels and the best serve from a hand.

A flavour card is ``(flavor, quantity)`` with flavor one of FLAVORS and quantity 1..3. A dish's
requirement is ``{flavor: amount}``; a dish on the display is ``(requirement, (gold, silver,
bronze))`` or None for an empty slot. The score-race engine is in ``space_battle_engine``.
"""

from shared_rules._codec import index_of
from shared_rules._compat import const

FLAVORS = ("bitter", "savory", "sour", "spicy", "sweet")
LEVELS = ("gold", "silver", "bronze")
MAX_HAND = const(7)  # the hand limit at the end of a turn
MAX_SERVE_HAND = const(10)  # best_serve looks at up to this many cards (2**10 subsets)
MAX_AMOUNT = const(9)  # per flavour in a dish requirement
MAX_POINTS = const(99)
JUDGES = const(3)
DISPLAY = const(4)


def flavor_index(name):
    return index_of(FLAVORS, name, "flavor")


def card_code(card):
    """``(flavor, quantity)`` -> 0..14 (flavour index * 3 + quantity - 1); ValueError if bad."""
    if not isinstance(card, (tuple, list)) or len(card) != 2:
        raise ValueError("a flavor card is (flavor, quantity), got {!r}".format(card))
    f = flavor_index(card[0])
    q = card[1]
    if type(q) is not int or q < 1 or q > 3:
        raise ValueError("bad quantity {!r} for {} (1 to 3)".format(q, card[0]))
    return f * 3 + q - 1


def code_card(code):
    return (FLAVORS[code // 3], code % 3 + 1)


def need_vector(dish):
    """A requirement ``{flavor: amount}`` (or a 5-tuple in FLAVORS order) -> a 5-tuple."""
    if isinstance(dish, dict):
        v = [0] * 5
        try:
            names = sorted(dish)  # sorted: the first bad entry reported never varies
        except TypeError:
            raise ValueError("dish flavors must be names, got {!r}".format(dish)) from None
        for name in names:
            amount = dish[name]
            i = flavor_index(name)
            if type(amount) is not int or amount < 1 or amount > MAX_AMOUNT:
                raise ValueError("bad amount {!r} of {} in a dish".format(amount, name))
            v[i] = amount
    elif isinstance(dish, (tuple, list)) and len(dish) == 5:
        v = list(dish)
        for a in v:
            if type(a) is not int or a < 0 or a > MAX_AMOUNT:
                raise ValueError("bad amount {!r} in a dish".format(a))
    else:
        raise ValueError("a dish requirement is {{flavor: amount}}, got {!r}".format(dish))
    if sum(v) == 0:
        raise ValueError("a dish needs at least one flavor, got {!r}".format(dish))
    return tuple(v)


def _level(need, have):
    """Level index 0 gold, 1 silver, 2 bronze, or None, for flavour totals ``have``."""
    same_flavors = True
    exact = True
    tn = 0
    th = 0
    for i in range(5):
        n = need[i]
        h = have[i]
        tn += n
        th += h
        if n != h:
            exact = False
        if (n == 0) != (h == 0):
            same_flavors = False
    if exact:
        return 0
    if same_flavors:
        return 1
    if tn == th:
        return 2
    return None


def serve_level(dish, cards):
    """``"gold" | "silver" | "bronze" | None`` for serving exactly ``cards`` to ``dish``."""
    need = need_vector(dish)
    if not isinstance(cards, (list, tuple)):
        raise ValueError("cards must be a list of (flavor, quantity), got {!r}".format(cards))
    have = [0] * 5
    for c in cards:
        code = card_code(c)
        have[code // 3] += code % 3 + 1
    lv = _level(need, have)
    return None if lv is None else LEVELS[lv]


def presiding_judges(position):
    """Judge i presides over display positions i and i + 1."""
    return tuple(j for j in (position - 1, position) if 0 <= j < JUDGES)


def _points(points):
    if not isinstance(points, (tuple, list)) or len(points) != 3:
        raise ValueError("dish points are (gold, silver, bronze), got {!r}".format(points))
    for p in points:
        if type(p) is not int or p < 0 or p > MAX_POINTS:
            raise ValueError("bad dish points {!r}".format(p))
    return tuple(points)


def dish_entry(dish):
    """A display entry ``(requirement, (gold, silver, bronze))`` -> (need 5-tuple, points)."""
    if not isinstance(dish, (tuple, list)) or len(dish) != 2:
        raise ValueError("a dish is (requirement, (gold, silver, bronze)), got {!r}".format(dish))
    return need_vector(dish[0]), _points(dish[1])


class ServeOption:
    """One way to serve: display position, hand indices, level, points and what it unlocks."""

    __slots__ = ("dish", "cards", "level", "points", "judges", "spatula", "quantity")

    def __init__(self, dish, cards, level, points, judges, spatula, quantity):
        self.dish = dish
        self.cards = cards
        self.level = level
        self.points = points
        self.judges = judges
        self.spatula = spatula
        self.quantity = quantity

    def _key(self):
        # Best first: most points, fewest cards, the higher level (gold brings a judge reward),
        # the least flavour spent (it breaks the final tie), then display and hand order.
        return (-self.points, len(self.cards), LEVELS.index(self.level), self.quantity,
                self.dish, self.cards)

    def __repr__(self):
        return "ServeOption(dish={}, cards={}, {}, {} points, judges={}, spatula={})".format(
            self.dish, self.cards, self.level, self.points, self.judges, self.spatula)


def best_serve(hand, dishes, favorite=None, best_only=False):
    """Every servable ``ServeOption`` (best first) and the best one (None if nothing serves).

    ``hand``: up to 10 flavour cards; ``dishes``: the display (up to 4 entries, None for an empty
    slot); ``favorite``: the chef's favourite flavour, for spatula eligibility. Subsets holding
    the same cards (duplicates in hand) are listed once, by the first such subset (lowest
    bit mask over hand indices). ``best_only``: list nothing, find only the best (the same
    one), in a few hundred bytes of heap instead of one object per option (a Pico's heap).
    """
    if not isinstance(hand, (list, tuple)) or len(hand) > MAX_SERVE_HAND:
        raise ValueError("a hand is a list of at most 10 flavor cards, got {!r}".format(hand))
    if not isinstance(dishes, (list, tuple)) or len(dishes) > DISPLAY:
        raise ValueError("the display is a list of at most 4 dishes, got {!r}".format(dishes))
    fav = None if favorite is None else flavor_index(favorite)
    codes = [card_code(c) for c in hand]
    entries = [None if d is None else dish_entry(d) for d in dishes]
    n = len(codes)
    out = []
    best = None
    for mask in range(1, 1 << n):
        if not _first_of_its_cards(mask, codes, n):
            continue
        idx = []
        have = [0] * 5
        for i in range(n):
            if mask >> i & 1:
                idx.append(i)
                have[codes[i] // 3] += codes[i] % 3 + 1
        qty = sum(have)
        for p in range(len(entries)):
            e = entries[p]
            if e is None:
                continue
            lv = _level(e[0], have)
            if lv is None:
                continue
            spat = fav is not None and e[0][fav] > 0 and have[fav] > 0
            option = ServeOption(p, tuple(idx), LEVELS[lv], e[1][lv],
                                 presiding_judges(p) if lv == 0 else (), spat, qty)
            if not best_only:
                out.append(option)
            elif best is None or option._key() < best._key():
                best = option
    if best_only:
        return [], best
    out.sort(key=lambda o: o._key())
    return out, (out[0] if out else None)


def _first_of_its_cards(mask, codes, n):
    """True when ``mask`` is the lowest of the masks holding the same cards: no card it
    holds has an equal card at a lower index that it leaves out (moving to that one would
    lower the mask). So equal subsets are listed once, without a set of all seen."""
    for i in range(n):
        if mask >> i & 1:
            for j in range(i):
                if codes[j] == codes[i] and not mask >> j & 1:
                    return False
    return True
