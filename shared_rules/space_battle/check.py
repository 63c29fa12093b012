"""A Space Battle Lunchtime engine state read back from its bytes (``from_bytes``, the reverse
of ``SpaceBattle.to_bytes``) and its consistency check (``check_state``, run on every load).

Kept apart from the engine so the device, which restores games by replaying their records,
never compiles it; it imports the engine, and the engine does not import it."""

from shared_rules._codec import loaded, open_state
from shared_rules.space_battle.engine import (
    JSERVE,
    JUDGE,
    MAX_HELD,
    MAX_PILE,
    OVER,
    SETUP,
    TAKE,
    TARGET,
    UPGRADE,
    VERSION,
    SpaceBattle,
)

_NPHASES = 7
_NONE = 255


def _byte(data, pos, top, what):
    if pos >= len(data):
        raise ValueError("Space Battle Lunchtime state ends early (at {})".format(what))
    v = data[pos]
    if v > top and not (what == "favorite" and v == _NONE):
        raise ValueError("bad {} {} in Space Battle Lunchtime state".format(what, v))
    return v


def from_bytes(data):
    """An engine from ``SpaceBattle.to_bytes()`` output; ValueError on anything corrupt,
    inconsistent or of another version."""
    open_state(data, "Space Battle Lunchtime", VERSION, 9)
    n = data[1]
    if n < 2 or n > 5:
        raise ValueError("bad player count {} in Space Battle Lunchtime state".format(n))
    g = SpaceBattle(n, None)
    load_state(g, data[:-2])
    return loaded(g, data, "Space Battle Lunchtime")


def load_state(g, data):
    """Fill engine ``g`` from ``data`` (to_bytes output); ValueError if malformed."""
    n = g.n
    g.phase = _byte(data, 2, _NPHASES - 1, "phase")
    g.cur = _byte(data, 3, n - 1, "current seat")
    g.dealt = _byte(data, 4, 2 * n, "deal count")
    flags = _byte(data, 5, 7, "flags")
    g.acted = bool(flags & 1)
    g.flipped = bool(flags & 2)
    g.may_flip = bool(flags & 4)
    g.pending = _byte(data, 6, 3, "cards to take")
    pos = 7
    for s in range(n):
        g.turns[s] = _byte(data, pos, 255, "turns") * 256 + _byte(data, pos + 1, 255, "turns")
        g.favorite[s] = _byte(data, pos + 2, 4, "favorite")
        g.spatula[s] = _byte(data, pos + 3, 1, "spatula")
        nh = _byte(data, pos + 4, MAX_HELD, "hand size")
        pos += 5
        g.hands[s] = [_byte(data, pos + i, 14, "card") for i in range(nh)]
        pos += nh
        npile = _byte(data, pos, MAX_PILE, "score pile size")
        pos += 1
        pile = []
        for _ in range(npile):
            d = (_byte(data, pos, 99, "points"), _byte(data, pos + 1, 99, "points"),
                 _byte(data, pos + 2, 99, "points"), _byte(data, pos + 3, 2, "level"))
            pile.append(d)
            pos += 4
        g.piles[s] = pile
    if pos != len(data):
        raise ValueError("Space Battle Lunchtime state has {} extra bytes".format(len(data) - pos))
    check_state(g)


def check_state(g):
    """Raise ValueError unless engine state ``g`` is consistent."""
    n = g.n
    p = g.phase
    for s in range(n):
        if g.hands[s] != sorted(g.hands[s]):
            raise ValueError("hand of seat {} not in order".format(s))
    if g.served() > MAX_PILE:
        raise ValueError("more dishes served than the 40 in the game")
    if p == SETUP:
        if g.dealt >= 2 * n or g.cur or g.acted or g.flipped or g.may_flip or g.pending:
            raise ValueError("bad setup state")
        for s in range(n):
            want = g.dealt // n + (1 if s < g.dealt % n else 0)
            if len(g.hands[s]) != want or g.piles[s] or g.turns[s] or g.spatula[s]:
                raise ValueError("seat {} is not as dealt".format(s))
        return
    if g.dealt != 2 * n:
        raise ValueError("bad deal count {}".format(g.dealt))
    t = g.turns[g.cur]
    for s in range(n):
        if g.turns[s] != (t + 1 if s < g.cur else t):
            raise ValueError("turn counts {} do not match seat {} to play".format(g.turns, g.cur))
    if (p == TAKE) != (g.pending > 0):
        raise ValueError("cards to take {} in phase {}".format(g.pending, p))
    if p == OVER:
        ended = max(g.scores()) >= TARGET or g.served() >= MAX_PILE
        if g.cur or g.acted or g.flipped or g.may_flip or not ended:
            raise ValueError("bad finished state")
    if p == UPGRADE and not any(d[3] > 0 for d in g.piles[g.cur]):
        raise ValueError("nothing to upgrade")
    # Taking, judging and upgrading follow a main action or the spatula's flip.
    if p in (TAKE, JUDGE, JSERVE, UPGRADE) and not (g.acted or g.flipped):
        raise ValueError("phase {} outside a turn's action".format(p))
    for s in range(n):
        if s != g.cur and len(g.hands[s]) > 7:
            raise ValueError("seat {} holds more than 7 cards between turns".format(s))
