"""Aqua Brunch: predator strength, the catch division and the pass advisor.

The calculators the table (and the device's strength screen) use. The full game engine is in
``aqua_brunch_engine`` so that the calculator screen does not pay for it in memory.

Cards are named ``orca8 orca5 baby octopus walrus shark535 shark626 shark717``; aqua cards are
their values ``0 -1 -2 -4``; food cards are their victory-point values.
"""

from shared_rules._codec import index_of
from shared_rules._compat import const

# Card kinds in a fixed order: the engine stores kinds as these indices.
CARDS = ("orca8", "orca5", "baby", "octopus", "walrus", "shark535", "shark626", "shark717")
# What the screens call them, in CARDS order (the one copy: firmware and records use it).
LABELS = ("Orca 8", "Orca 5", "Baby orca", "Octopus", "Walrus", "Shark 535", "Shark 626",
          "Shark 717")
# How many of each kind the 55-card predator deck holds (same order as CARDS).
DECK_COUNTS = (4, 6, 5, 6, 14, 8, 7, 5)
AQUA_VALUES = (0, -1, -2, -4)
# Food values in a fixed order (one card of each per colour):
# jellyfish, fishbone, lobster, crab, clownfish, pufferfish, perch.
FOOD_VALUES = (-1, 0, 2, 3, 4, 5, 7)
FOOD_NAMES = ("Jellyfish", "Fishbone", "Lobster", "Crab", "Clownfish", "Pufferfish", "Perch")
MIN_PLAYERS = const(3)
MAX_PLAYERS = const(7)

# A shark's strength with 1, 2 or 3 sharks in hand.
_SHARK = {"shark535": (5, 3, 5), "shark626": (6, 2, 6), "shark717": (7, 1, 7)}


def card_index(name):
    """The kind index of a predator card name; ValueError names an unknown card."""
    return index_of(CARDS, name, "predator card")


def _hand(cards):
    if not isinstance(cards, (list, tuple)):
        raise ValueError("predator cards must be a list of 3 names, got {!r}".format(cards))
    if len(cards) != 3:
        raise ValueError("need exactly 3 predator cards, got {}: {!r}".format(len(cards), cards))
    for c in cards:
        if c not in CARDS:
            raise ValueError("unknown predator card {!r}".format(c))


def card_strengths(cards):
    """The strength of each of the 3 cards, in the order given (aqua cards not included)."""
    _hand(cards)
    adults = []
    sharks = 0
    walruses = 0
    for c in cards:
        if c == "orca8":
            adults.append(8)
        elif c == "orca5":
            adults.append(5)
        elif c == "walrus":
            walruses += 1
        elif c in _SHARK:
            sharks += 1
    # A baby copies the lesser adult orca; alone it is 2.
    baby = min(adults) if adults else 2
    walrus = 2 * walruses
    out = []  # the orcas, babies and walruses; None for the octopus and sharks (below)
    low = None
    for c in cards:
        v = None
        if c == "orca8" or c == "orca5":
            v = 8 if c == "orca8" else 5
        elif c == "baby":
            v = baby
        elif c == "walrus":
            v = walrus
        out.append(v)
        if v is not None and (low is None or v < low):
            low = v
    # The octopus copies the weakest of the orcas, babies and walruses; never a shark.
    octopus = 0 if low is None else low
    for i in range(3):
        c = cards[i]
        if c == "octopus":
            out[i] = octopus
        elif out[i] is None:  # adult orcas do not like sharks
            out[i] = 0 if adults else _SHARK[c][sharks - 1]
    return out


def aqua_total(aqua):
    """The sum of the aqua cards a player drew; each of the 4 cards at most once."""
    if not isinstance(aqua, (list, tuple)):
        raise ValueError("aqua must be a list of aqua card values, got {!r}".format(aqua))
    total = 0
    seen = []
    for v in aqua:
        if type(v) is not int or v not in AQUA_VALUES:
            raise ValueError("unknown aqua card {!r} (they are 0, -1, -2, -4)".format(v))
        if v in seen:
            raise ValueError("aqua card {} given twice (there is one of each)".format(v))
        seen.append(v)
        total += v
    return total


def strength(cards, aqua=()):
    """The strength of a 3-predator combination plus the aqua cards drawn (0, -1, -2, -4)."""
    s = card_strengths(cards)
    return s[0] + s[1] + s[2] + aqua_total(aqua)


def _int(v, what):
    if type(v) is not int:
        raise ValueError("{} must be an integer, got {!r}".format(what, v))
    return v


def take_order(strengths, foods, lunch_seat):
    """Seats in the order they take from the catch (see divide_catch)."""
    if not isinstance(strengths, (list, tuple)) or not isinstance(foods, (list, tuple)):
        raise ValueError("strengths and foods must be lists, one entry per seat")
    n = len(strengths)
    if n < MIN_PLAYERS or n > MAX_PLAYERS:
        raise ValueError("Aqua Brunch is for 3 to 7 players, got {} seats".format(n))
    if len(foods) != n:
        raise ValueError("{} strengths but {} foods".format(n, len(foods)))
    for s in strengths:
        _int(s, "a strength")
    for f in foods:
        if type(f) is not int or f not in FOOD_VALUES:
            raise ValueError("unknown food value {!r} (they are -1 0 2 3 4 5 7)".format(f))
    if type(lunch_seat) is not int or lunch_seat < 0 or lunch_seat >= n:
        raise ValueError("lunch seat {!r} is not a seat 0..{}".format(lunch_seat, n - 1))
    # Stronger first; then the more valuable food placed; then nearest clockwise to the caller
    # (the caller itself nearest). The last key is unique, so the order never depends on sort
    # stability.
    return sorted(range(n), key=lambda s: (-strengths[s], -foods[s], (s - lunch_seat) % n))


def divide_catch(strengths, foods, lunch_seat):
    """The food value each seat (clockwise indices) takes from the catch."""
    order = take_order(strengths, foods, lunch_seat)
    values = sorted(foods, reverse=True)
    out = [0] * len(order)
    for i in range(len(order)):
        out[order[i]] = values[i]
    return out


def _gcd(a, b):
    a = -a if a < 0 else a
    while b:
        a, b = b, a % b
    return a


def unseen_counts(hand, seen=()):
    """How many of each kind (CARDS order) may still be received: the deck minus hand and seen."""
    _hand(hand)
    if not isinstance(seen, (list, tuple)):
        raise ValueError("seen must be a list of predator card names, got {!r}".format(seen))
    counts = list(DECK_COUNTS)
    for group in (hand, seen):
        for c in group:
            i = card_index(c)
            counts[i] -= 1
            if counts[i] < 0:
                raise ValueError(
                    "more {} cards than the deck's {}".format(c, DECK_COUNTS[i])
                )
    return counts


def pass_advice(hand, seen=()):
    """For each distinct card of a 3-card hand (in hand order): ``(card, num, den)``, the exact
    expected strength after passing it and receiving one unknown card from the rest of the
    55-card deck (minus the hand and the cards already seen), as a reduced fraction."""
    counts = unseen_counts(hand, seen)
    total = 0
    for c in counts:
        total += c
    if total == 0:
        raise ValueError("no unseen predator card left to receive")
    out = []
    done = []
    for i in range(3):
        card = hand[i]
        if card in done:
            continue
        done.append(card)
        keep = [hand[j] for j in range(3) if j != i]
        num = 0
        for k in range(len(CARDS)):
            if counts[k]:
                keep.append(CARDS[k])
                num += counts[k] * strength(keep)
                keep.pop()
        g = _gcd(num, total)
        out.append((card, num // g, total // g))
    return out


def best_pass(hand, seen=()):
    """``(card, num, den)``: the card to pass for the highest expected strength. On equal
    expectations the card that comes first in the hand."""
    best = None
    for opt in pass_advice(hand, seen):
        # a/b > c/d  <=>  a*d > c*b (denominators are positive)
        if best is None or opt[1] * best[2] > best[1] * opt[2]:
            best = opt
    return best
