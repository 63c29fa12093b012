"""Space Lunch on the device, the parts that need no display (portable): the food picker's
start, the cursor's stops, the move a hint-following player makes, and the words on screen.

``e`` is always the rules engine (``game.engine``: a ``Solo`` or a ``Duel``). Cells are
``3 * row + col`` (0-based); the engine names them "c2 r3".
"""

from shared_rules._compat import const
from shared_rules.space_lunch.actions import (
    AUTOMA_SEAT,
    BEVERAGES,
    CHILL,
    CHILL_PAID,
    DIFFICULTIES,
    HOT,
    HOT_PAID,
    HUMAN,
    JELLY,
    JELLY_PAID,
    TAKE,
    _pair,
    decode,
    where,
)

COUPON = const(-1)  # the cursor stop after the takes: "use a coupon"
KINDS = ("hot", "jelly", "chill")
KIND_NAMES = BEVERAGES  # the coupon actions, named by their beverage (KINDS order)
LED_OFF = const(0)
LED_WIN = const(1)
LED_THREAT = const(2)


# --- entering a card ------------------------------------------------------------------------

def unseen(e, food):
    """Copies of ``food`` that may still come off the deck (not on the grid, taken or known to
    sit under the deck)."""
    return 3 - e.known(food)


def weights(e, choices):
    """How likely each food in ``choices`` is to be the card being entered: its unseen copies
    (every unseen card is equally likely to come up next)."""
    if len(choices) == 1:
        return [1]
    return [max(1, unseen(e, t)) for t in choices]


_M32 = 0xFFFFFFFF


def deal(e, seed, n):
    """The card the device deals in state ``e``, ``n`` actions into the game: a weighted
    draw over the unseen copies (as a shuffled deck) from the game's seed and ``n``, so a
    state always gets the same card (after an undo, after a power cut)."""
    from shared_rules.rng import Rng

    h = (seed ^ (n * 0x9E3779B1)) & _M32  # then murmur3's finaliser: n and n + 1 far apart
    h = ((h ^ (h >> 16)) * 0x85EBCA6B) & _M32
    h = ((h ^ (h >> 13)) * 0xC2B2AE35) & _M32
    choices = card_choices(e)
    w = weights(e, choices)
    return Rng(h ^ (h >> 16)).weighted([(choices[i], w[i]) for i in range(len(w))])


def steps(n, i, j):
    """Presses from index i to j in a picker of n items that wraps (prev or next)."""
    d = (j - i) % n
    return d if d <= n - d else n - d


def picker_start(choices, w):
    """The index where the picker starts: the one with the fewest presses expected to reach
    the card (weighted by ``w``); ties go to the lowest food."""
    n = len(choices)
    best, best_cost = 0, -1
    for s in range(n):
        cost = 0
        for j in range(n):
            cost += w[j] * steps(n, s, j)
        if best_cost < 0 or cost < best_cost:
            best, best_cost = s, cost
    return best


def card_choices(e):
    """The foods that may be entered now (foods with all three copies out are skipped)."""
    return e.refills()


# --- the player's turn --------------------------------------------------------------------

def can_coupon(e):
    """May the player to move do a coupon (or, two players, a paid beverage) action now?"""
    if e.acted or e.pending or e.is_over():
        return False
    if e.mode == 0:
        return e.coupons > 0
    return len([a for a in e.legal_actions() if a >= HOT]) > 0


def stops(e):
    """The cursor's stops on the player's turn: the cells that may be taken (Pick column, top
    to bottom), then COUPON when a coupon action is possible."""
    out = [c for c in range(e.pick, 9, 3) if e.grid[c]]
    if can_coupon(e):
        out.append(COUPON)
    return out


def kind_actions(e, kind):
    """The legal actions of one coupon kind ("hot", "jelly", "chill") for the player to move."""
    return [a for a in e.legal_actions() if a >= HOT and decode(a)[0] == kind]


def kind_cells(e, kind, first=-1, paid=False):
    """Cells the cursor may stop on for a coupon action: for Jelly Bubbles the first card, or
    with ``first`` the second one."""
    out = []
    for a in kind_actions(e, kind):
        k, x, y, p = decode(a)
        if p != paid:
            continue
        if kind != "jelly":
            out.append(x)
        elif first < 0:
            if x not in out:
                out.append(x)
            if y not in out:
                out.append(y)
        elif first in (x, y):
            out.append(y if x == first else x)
    out.sort()
    return out


def jelly(a, b):
    return JELLY + _pair(a, b)


def action(kind, a, b=-1, paid=False):
    """The action code of a coupon (or, ``paid``, beverage-card) action on cell a (and b)."""
    if kind == "jelly":
        return (JELLY_PAID if paid else JELLY) + _pair(a, b)
    if kind == "hot":
        return (HOT_PAID if paid else HOT) + a
    return (CHILL_PAID if paid else CHILL) + a


# --- what a hint-following player does (the device's suggestion) -------------------------

def _value(e, c):
    """How much the human wants the card at c (bench/space_lunch_study.py's policy)."""
    food = e.grid[c]
    mine, theirs = e.taken[HUMAN][food], e.taken[AUTOMA_SEAT][food]
    v = (2, 6, 100)[mine] if theirs == 0 else 0
    if theirs == 1:
        v += 1
    if theirs == 2:
        v -= 1
    return v


def _score(e, h):
    kind, c = decode(h[0])[:2]
    value = _value(e, c) if kind in ("take", "chill") else 0
    if kind != "take":
        value -= 3  # a coupon is kept for an emergency
    return (-h[1], -len(h[2]), value)


def _wants_coupons(e, takes):
    """Does suggest() rate the coupon actions too (no take wins, and no take is safe or a
    triplet is near)?"""
    best = min([h[1] for h in takes])
    if best == 0 or not e.coupons or e.acted:  # 0: WIN
        return False
    if best > 1 or e.triplets(HUMAN) >= 2:  # 1: SAFE
        return True
    for c in range(9):
        food = e.grid[c]
        if (food and c % 3 != e.pick and e.taken[HUMAN][food] == 2
                and not e.taken[AUTOMA_SEAT][food]):
            return True
    return False


def suggest(e, takes=None, every=None):
    """The action the hints advise for the human's solo turn (the study's policy): an action
    that wins; else the best-rated take, a coupon only when no take is safe or to grab the
    last card of a triplet with a safe Chill Jar. None when it is not the human's move.
    ``takes`` and ``every``: this position's hints(e, False) and hints(e), if known."""
    from shared_rules.space_lunch.hints import SAFE, WIN, hints

    if takes is None:
        takes = hints(e, coupons=False)
    if not takes:
        return None
    best = min([h[1] for h in takes])
    if best == WIN:
        return [h for h in takes if h[1] == WIN][0][0]
    pool = takes
    if e.coupons and not e.acted:
        if _wants_coupons(e, takes):
            pool = every if every is not None else hints(e)
            chill = []
            for h in pool:
                kind, c = decode(h[0])[:2]
                if h[1] == WIN:
                    return h[0]
                if kind == "chill" and h[1] == SAFE and _value(e, c) >= 100:
                    chill.append(h)
            top = max([_value(e, h[0] - TAKE) for h in takes])
            if chill and best <= SAFE and top < 100:
                return chill[0][0]
            if best <= SAFE:
                pool = takes
    best_h = pool[0]
    for h in pool[1:]:
        if _score(e, h) > _score(e, best_h):
            best_h = h
    return best_h[0]


def leds(e, takes=None):
    """LED_WIN when a take wins for the human now, LED_THREAT when the Automa's next card wins
    it the game or a take hands it the win, else LED_OFF (solo, the human's turn)."""
    from shared_rules.space_lunch.hints import DANGER, RISK, WIN, hints, threat

    if e.is_over() or e.pending:
        return LED_OFF
    if e.turn == AUTOMA_SEAT:
        t = threat(e)
        return LED_THREAT if t is not None and t[2] else LED_OFF
    if takes is None:
        takes = hints(e, coupons=False)
    for h in takes:
        if h[1] == WIN:
            return LED_WIN
    t = threat(e)
    if t is not None and t[2]:
        return LED_THREAT
    for h in takes:
        if h[1] == DANGER or h[1] == RISK:
            return LED_THREAT
    return LED_OFF


def rate_takes(e):
    """The ratings of the human's takes (the quick part of the hints: ~40 ms on a Pico)."""
    from shared_rules.space_lunch.hints import hints

    return hints(e, coupons=False)


def rates_coupons(e, rated):
    """Do the hints rate the coupon actions too in this position (``rated``: rate_takes(e))? That
    plays the game forward hundreds of times: half a second on a Pico."""
    from shared_rules.space_lunch.hints import _playing, coupons_matter

    return bool(e.coupons and not e.acted and _playing(e) and (
        not rated or _wants_coupons(e, rated) or coupons_matter(e, rated)))


def evaluate(e, short=False, rated=None):
    """(suggested action, advice words, LED state) for the human's solo turn, rating each
    action once: suggest(), advice() and leds() each ask for the same ratings, and rating the
    coupon actions plays the game forward hundreds of times (tenths of a second on a Pico).
    ``rated``: rate_takes(e), when the caller has it. The ratings are made here, one call below,
    because the hint search's frames on CircuitPython's small Python stack come on top of the
    app's (ARCHITECTURE.md)."""
    from shared_rules.space_lunch import hints as H

    if rated is None:
        rated = H.hints(e, False)  # not rate_takes(): one frame more under the search
    every = H.hints(e) if rates_coupons(e, rated) else None
    return suggest(e, rated, every), H.advice(e, short, rated, every), leds(e, rated)


# --- words ----------------------------------------------------------------------------------

def setup_short(difficulty):
    """The opening's bottom line on the mono display (21 characters): what the Automa needs;
    the coupons are in the panel beside the grid."""
    return "Automa needs {} pairs".format(DIFFICULTIES[difficulty][2])


def setup_line(difficulty):
    row = DIFFICULTIES[difficulty]
    return "{}: {} coupon{}, Automa needs {} pairs".format(
        row[0], row[1], "s" if row[1] > 1 else "", row[2])


def opening(e):
    """True while the nine opening cards are being entered (a Hot Drink card under the deck
    tells a refill apart from them)."""
    if not e.pending or e.bottom or e.deck <= 27:
        return False
    return sum(e.taken[0]) + sum(e.taken[1]) == 0


def card_prompt(e):
    """The top line while a card is entered: the opening cards count up, refills say where.
    Phrasings, longest first (the title bar shows the first that fits; the grid marks the
    place)."""
    c = e.pending[0]
    if opening(e):
        n = "Card {} of 9".format(37 - e.deck)
        return "{}: {}".format(n, where(c)), n
    return "New card at " + where(c), "New card"


def stats(e):
    """Numbers for the side panel: (your triplets, your pairs, Automa pairs, Automa
    triplets, pairs the Automa needs, deck, coupons left)."""
    return (e.triplets(HUMAN), e.pairs(HUMAN), e.pairs(AUTOMA_SEAT), e.triplets(AUTOMA_SEAT),
            e.pairs_needed(), e.deck, e.coupons)


def result(e, names=("You", "Automa")):
    """(headline, reason) for the end of a solo game: two lines of at most 19 characters (the
    end screen's on the colour display)."""
    if e.winner == HUMAN:
        return "You win!", "three triplets"
    if e.reason == "pairs":
        return "Automa wins", "{} pairs".format(e.pairs_needed())
    return "Automa wins", "by persistence"


def seed_of(params):
    """The device's deal seed kept in a game's parameters (the four bytes after the mode and
    the first seat, big-endian); 0 when its cards are typed."""
    if len(params) < 6:
        return 0
    return (params[2] << 24) | (params[3] << 16) | (params[4] << 8) | params[5]


def seed_params(seed):
    """The four parameter bytes of a deal seed (1..2**32-1)."""
    return ((seed >> 24) & 255, (seed >> 16) & 255, (seed >> 8) & 255, seed & 255)
