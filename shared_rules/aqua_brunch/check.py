"""An Aqua Brunch engine state read back from its bytes (``from_bytes``, the reverse of
``AquaBrunch.to_bytes``) and its consistency check (``check_state``, run on every load).

Kept apart from the engine so the device, which restores games by replaying their records,
never compiles it; it imports the engine, and the engine does not import it.
"""

from shared_rules._codec import loaded, open_state
from shared_rules.aqua_brunch.engine import (
    ASK,
    DEAL,
    DRAW,
    FOOD,
    LUNCH,
    OVER,
    PASS,
    ROUNDS,
    TAKE,
    VERSION,
    AquaBrunch,
)
from shared_rules.aqua_brunch.rules import DECK_COUNTS, MAX_PLAYERS, MIN_PLAYERS

_NONE = 255
_KINDS = 8
_NPHASES = 8
_ALL_AQUA = 15
_ALL_FOOD = 127


def _bits(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


def from_bytes(data):
    """An engine from ``AquaBrunch.to_bytes()`` output; ValueError on anything corrupt,
    inconsistent or of another version."""
    open_state(data, "Aqua Brunch", VERSION, 4)
    n = data[1]
    if n < MIN_PLAYERS or n > MAX_PLAYERS:
        raise ValueError("bad player count {} in Aqua Brunch state".format(n))
    if len(data) != 27 + 14 * n:
        raise ValueError("Aqua Brunch state has {} bytes, expected {}".format(
            len(data), 27 + 14 * n))
    g = AquaBrunch(n)
    _load(g, data[:-2])
    return loaded(g, data, "Aqua Brunch")


def _load(g, data):
    n = g.n
    g.round, g.phase, g.dealt, g.lunch, g.ask = data[2:7]
    g.aqua_left, g.take_pos = data[7], data[8]
    g.deck = list(data[9:17])
    g.discard = list(data[17:25])
    pos = 25
    for s in range(n):
        r = data[pos:pos + 14]
        g.hands[s] = [k for k in r[0:3] if k != _NONE]
        g.passing[s], g.aqua[s], g.food[s], g.played[s] = r[3], r[4], r[5], r[6]
        nt = r[7]
        if nt > ROUNDS or any(t == _NONE for t in r[8:8 + nt]):
            raise ValueError("bad collected cards for seat {}".format(s))
        g.taken[s] = list(r[8:8 + nt])
        if any(t != _NONE for t in r[8 + nt:14]):
            raise ValueError("bad padding for seat {}".format(s))
        pos += 14
    check_state(g)


def check_state(g):
    """Raise ValueError unless the state ``g`` is consistent."""
    n = g.n
    p = g.phase
    if p >= _NPHASES or g.round >= ROUNDS:
        raise ValueError("bad phase {} or round {}".format(p, g.round))
    # Every predator card is somewhere exactly once.
    total = [g.deck[k] + g.discard[k] for k in range(_KINDS)]
    for s in range(n):
        for k in g.hands[s]:
            if k >= _KINDS:
                raise ValueError("bad card {} in seat {}'s hand".format(k, s))
            total[k] += 1
        if g.passing[s] != _NONE:
            if g.passing[s] >= _KINDS:
                raise ValueError("bad passed card {}".format(g.passing[s]))
            total[g.passing[s]] += 1
        if g.hands[s] != sorted(g.hands[s]):
            raise ValueError("hand of seat {} not in order".format(s))
    if total != list(DECK_COUNTS):
        raise ValueError("predator cards do not add up to the deck: {}".format(total))
    in_round = p != OVER
    if p == DEAL and (g.dealt >= 3 * n or sum(g.deck) == 0):
        raise ValueError("bad deal position {}".format(g.dealt))
    if p != DEAL and g.dealt != (3 * n if in_round else 0):
        raise ValueError("bad deal count {}".format(g.dealt))
    for s in range(n):
        want = 3
        if p == DEAL:
            want = g.dealt // n + (1 if s < g.dealt % n else 0)
        elif p == OVER:
            want = 0
        elif p == PASS and g.passing[s] != _NONE:
            want = 2
        if len(g.hands[s]) != want:
            raise ValueError("seat {} holds {} predators".format(s, len(g.hands[s])))
        if p != PASS and g.passing[s] != _NONE:
            raise ValueError("a pass is pending outside the pass phase")
    if p == PASS and _NONE not in g.passing:
        raise ValueError("every seat has passed but the pass is not done")
    if p == PASS:  # seats choose in order
        first = g.passing.index(_NONE)
        if any(x != _NONE for x in g.passing[first:]):
            raise ValueError("passes out of seat order")
    # Aqua cards: each in the stack or with one player.
    if g.aqua_left > _ALL_AQUA:
        raise ValueError("bad aqua stack {}".format(g.aqua_left))
    m = g.aqua_left
    for s in range(n):
        if g.aqua[s] > _ALL_AQUA or g.aqua[s] & m:
            raise ValueError("aqua cards of seat {} are inconsistent".format(s))
        m |= g.aqua[s]
    if m != _ALL_AQUA:
        raise ValueError("aqua cards missing")
    if p in (DEAL, OVER) and g.aqua_left != _ALL_AQUA:
        raise ValueError("aqua cards out between rounds")
    # The Lunch caller and the asked seat.
    if p in (ASK, DRAW, FOOD, TAKE):
        if g.lunch >= n:
            raise ValueError("no Lunch caller in phase {}".format(p))
    elif g.lunch != _NONE and not (p in (PASS, LUNCH) and g.lunch < n):
        raise ValueError("bad Lunch caller {}".format(g.lunch))
    if p == ASK or p == DRAW:
        if g.ask >= n or g.ask == g.lunch:
            raise ValueError("bad asked seat {}".format(g.ask))
        if not g.aqua_left:
            raise ValueError("asking for Aqua with an empty stack")
    elif g.ask != _NONE:
        raise ValueError("bad asked seat {}".format(g.ask))
    # Food: every card of every colour is in hand, on the table or collected once.
    rounds_done = g.round + (1 if p == OVER else 0)
    seen = []
    for s in range(n):
        if g.food[s] > _ALL_FOOD:
            raise ValueError("bad food hand {}".format(g.food[s]))
        pl = g.played[s]
        if p in (TAKE,) or (p == FOOD and pl != _NONE):
            if pl >= 7 or g.food[s] >> pl & 1:
                raise ValueError("bad food placed by seat {}".format(s))
        elif pl != _NONE:
            raise ValueError("food placed outside phase 2")
        for t in g.taken[s]:
            if t >= 7 * n or t in seen:
                raise ValueError("bad collected food {}".format(t))
            seen.append(t)
    if p == FOOD:
        first = g.played.index(_NONE) if _NONE in g.played else n
        if any(x != _NONE for x in g.played[first:]) or first == n:
            raise ValueError("food placed out of seat order")
    if p == TAKE:
        if g.take_pos >= n:
            raise ValueError("bad take position {}".format(g.take_pos))
        order = g._order()
    for s in range(n):
        ntaken = rounds_done
        if p == TAKE and s in order[:g.take_pos]:
            ntaken += 1
        if len(g.taken[s]) != ntaken:
            raise ValueError("seat {} collected {} cards".format(s, len(g.taken[s])))
        hand = _bits(g.food[s])
        placed = 1 if g.played[s] != _NONE else 0
        mine = [t for t in seen if t // 7 == s]
        if p == TAKE and g.played[s] != _NONE and s * 7 + g.played[s] in mine:
            placed = 0  # already taken by someone this round
        for t in mine:
            if g.food[s] >> (t % 7) & 1:
                raise ValueError("food {} both in hand and collected".format(t))
        if hand + placed + len(mine) != (6 if p == OVER else 7):
            raise ValueError("food cards of colour {} do not add up".format(s))
    if p != TAKE and g.take_pos:
        raise ValueError("bad take position {}".format(g.take_pos))
    if p == TAKE:
        # Everyone before take_pos took the best card left at their turn, and the one to
        # take now really has a choice.
        if len(g._choices()) < 2:
            raise ValueError("a take is pending without a choice")
