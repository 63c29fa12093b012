"""What the Space Lunch tests share: the opening grid, refills, and seeded solo games (the
cards dealt from the 36 shuffled, the Automa taking its own, the human's move chosen by the
caller; bench/space_lunch_study.py plays them too). Portable: runs on MicroPython too."""

from shared_rules.space_lunch.actions import AUTOMA, AUTOMA_SEAT, HOT, HOT_PAID
from shared_rules.space_lunch.rules import Solo

OPENING = [1, 2, 3, 4, 5, 6, 7, 8, 9]  # row 1: 1 2 3 / row 2: 4 5 6 / row 3: 7 8 9


def opened(g, cards=OPENING):
    """``g`` (a Solo or a Duel) after its nine setup cards."""
    for t in cards:
        g.apply(t)
    return g


def refill(g):
    """Enter the first allowed food for each waiting space."""
    while g.pending:
        g.apply(g.refills()[0])


def deck(rng):
    """The 36 food cards (three of each of the twelve foods), shuffled by ``rng``."""
    cards = [t for t in range(1, 13) for _ in range(3)]
    rng.shuffle(cards)
    return cards


def play_solo(difficulty, rng, choose, cards=None):
    """A whole solo game at ``difficulty``; ``choose(game)`` gives the human's action at each
    of its turns. The cards are dealt from ``cards`` (what is left of it as the game goes:
    a chooser may look ahead), a fresh ``deck(rng)`` by default; a card sent under the deck by
    Hot Drink is dealt again when the deck is down to it (docs/space-lunch.md). Returns the
    finished game."""
    if cards is None:
        cards = deck(rng)
    g = Solo(difficulty)
    while not g.is_over():
        if g.pending:
            g.apply(cards.pop(0))
        elif g.turn == AUTOMA_SEAT:
            g.apply(AUTOMA)
        else:
            a = choose(g)
            if HOT <= a < HOT_PAID:
                cards.append(g.grid[a - HOT])
            g.apply(a)
    return g
