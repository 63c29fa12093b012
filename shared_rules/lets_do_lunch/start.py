"""Let's Do Lunch: the base state of a record in game record format 2, the match as a new game
of it starts (version 2; the 60-byte save.py state is version 1 and still reads; either is
``Match.from_bytes``). A game starts from an empty board, player A to roll for who starts, so
only the match's settings and what the earlier games left are written::

    byte 0   2, or 130 (2 + 128) for a strict table
    byte 1   the target
    then, each in 7-bit groups (low first, high bit: more follows):
             A's score, zigzagged (0, -1, 1, -2 ... as 0, 1, 2, 3 ...: B's is its negative)
             the games played (1 or more: the first game's record has no base)
             the rolls of each sum 3..9 so far (the match's fair-dice figures)
    rest     the last sums rolled (at most SHOWN, oldest first), a nibble each (sum - 2),
             a 0 nibble after an odd number

The last roll and the last game's result are not kept: the host replays them from the earlier
records, and the device shows neither once a new game starts.
"""

from shared_rules._compat import const

VERSION = const(2)
SHOWN = const(6)  # the last sums the match page shows (firmware games/lets_do_lunch/stats.py)
_MAX_COUNT = const(65535)


def _put(out, v):
    while v > 127:
        out.append(0x80 | (v & 127))
        v >>= 7
    out.append(v)


def encode(m):
    """The base bytes of ``m``, a match at a new game's starting roll."""
    out = bytearray((VERSION | (128 if m.strict else 0), m.target))
    s = m.scores[0]
    _put(out, 2 * s if s >= 0 else -2 * s - 1)
    _put(out, m.games)
    for c in m.counts:
        _put(out, min(c, _MAX_COUNT))
    h = m.history[-SHOWN:]
    for k in range(0, len(h), 2):
        out.append(((h[k] - 2) << 4) | (h[k + 1] - 2 if k + 1 < len(h) else 0))
    return bytes(out)


def _get(data, pos):
    v = 0
    shift = 0
    while True:
        if pos >= len(data) or shift > 14:
            raise ValueError("match start cut short")
        b = data[pos]
        pos += 1
        v |= (b & 127) << shift
        shift += 7
        if not b & 128:
            return v, pos


def decode(data, cls):
    """The match (of class ``cls``, match.Match: passed in, so the two modules do not import
    each other) a version 2 match start holds; ValueError naming what is wrong when the bytes are
    not one ``encode`` writes."""
    data = bytes(data)
    if len(data) < 2 or data[0] & 127 != VERSION:
        raise ValueError("not a match start (version {})".format(data[0] if data else None))
    target = data[1]
    if target < 1:
        raise ValueError("a match start to 0 points")
    z, pos = _get(data, 2)
    score = z // 2 if z % 2 == 0 else -(z + 1) // 2
    games, pos = _get(data, pos)
    counts = []
    for _ in range(7):
        c, pos = _get(data, pos)
        counts.append(c)
    history = []
    for k in range(pos, len(data)):
        for v in (data[k] >> 4, data[k] & 15):
            if v:
                history.append(v + 2)
    if games < 1:
        raise ValueError("a match start before any game is played")
    if score >= target or -score >= target or score > 12 * games or -score > 12 * games:
        raise ValueError("bad score {} in match start".format(score))
    if max(counts) > _MAX_COUNT or max(history + [0]) > 9:
        raise ValueError("bad roll counts in match start")
    if len(history) != min(SHOWN, sum(counts)):
        raise ValueError("match start: the last sums do not match the rolls")
    m = cls(target, data[0] > 127)
    m.scores = [score, -score]
    m.games = games
    m.counts = counts
    m.history = history
    if encode(m) != data:  # a group of zero bits, a nibble out of place: not written so
        raise ValueError("match start is not in its one written form")
    return m
