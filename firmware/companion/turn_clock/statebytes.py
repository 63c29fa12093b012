# The turn clock's state read back, and its times at a game's end (portable): state.py's
# TurnClock.from_bytes, .record and timed, kept apart so that a running game's VM holds none
# of them (loaded at a resume, or once a game is over; the bytes: state.py).

from shared_rules._compat import const

from .saves import put_num

# as state.py (not imported from it: it imports this)
COUNT_UP = const(1)
CHESS = const(2)
NONE = const(255)
MAX_SEATS = const(7)
_VERSION = const(1)
_PAUSED = const(0x80)


def get_num(data, pos):
    # (value, next position); ValueError when the number is cut short
    v = 0
    shift = 0
    while True:
        if pos >= len(data) or shift > 35:
            raise ValueError("turn clock: a number is cut short")
        b = data[pos]
        pos += 1
        v |= (b & 127) << shift
        shift += 7
        if not b & 128:
            return v, pos


def load(cls, data, now):
    # TurnClock.from_bytes
    if len(data) < 6 or data[0] != _VERSION:
        raise ValueError("turn clock: unknown version or too short")
    n = data[2]
    mode = data[1] & 127
    if mode != COUNT_UP and mode != CHESS:
        raise ValueError("turn clock: unknown mode {}".format(mode))
    if not 1 <= n <= MAX_SEATS:
        raise ValueError("turn clock: {} seats".format(n))
    limit, pos = get_num(data, 4)
    bonus, pos = get_num(data, pos)
    c = cls(mode, limit, bonus, n)
    c.paused = bool(data[1] & _PAUSED)
    seat = data[3]
    if seat != NONE and seat >= n:
        raise ValueError("turn clock: running seat {} of {}".format(seat, n))
    c.seat = seat
    for s in range(n):
        b, pos = get_num(data, pos)
        c.bank[s] = b >> 1 if not b & 1 else -((b + 1) >> 1)
        c.used[s], pos = get_num(data, pos)
        c.turns[s], pos = get_num(data, pos)
    if pos != len(data):
        raise ValueError("turn clock: {} bytes too many".format(len(data) - pos))
    c.since = now
    return c


def record(c, now, diff):
    # TurnClock.record: [(seconds, turns)] a seat since the last record; the next counts
    # from here
    c.settle(now, diff)
    out = []
    for s in range(len(c.used)):
        out.append(((c.used[s] + 500) // 1000, c.turns[s]))
        c.bank[s] = c.shown(s, now, diff)
        c.used[s] = 0
        c.turns[s] = 0
    return out


def timed(env, times):
    # the format 2 envelope: env (format 1, store/records.py) with times, a (seconds, turns)
    # a seat, after its names
    at = 6
    for _ in range(env[5]):
        at += 1 + env[at]
    out = bytearray((2,))
    out.extend(env[1:at])
    out.append(len(times))
    for t in times:
        put_num(out, t[0])
        put_num(out, t[1])
    out.extend(env[at:])
    return bytes(out)
