"""The finished-game record the device keeps for the host (portable): the game's record bytes
(shared_rules.games.record) inside a small envelope of what only the board knows.

Envelope format 1 (ring record kind 3, KIND_GAME)::

    byte 0    envelope version (1)
    4 bytes   when the game ended, seconds since 1970 UTC (0: the clock was not set)
    1 byte    n, the number of names, then n times: a length byte and the name (ASCII)
    rest      the game record (shared_rules.games.record)

The names are the Settings player names of the seats that played (``seats``), so the host
shows "ANNA" rather than "P1". Kind 1 records (the bare game record, written before the
envelope existed) are read as an envelope with no date and no names.
"""

from shared_rules._compat import const

from .store import KIND_CRASH, KIND_FINISHED, KIND_GAME  # noqa: F401 -- the one kind table

VERSION = const(1)
MAX_NAMES = const(7)

# Seats by game index (shared_rules.games.IDS order) when the record does not say: Space
# Lunch mode 4 is the two-player game, the others take the player count as first param.
_DEFAULT_SEATS = (1, 2, 3, 2, 2, 4, 2, 2)  # 5-7: the table scoreboards (issue 15)


# Typical finished-game record sizes in bytes (envelope included), by game index: measured
# over random games (docs/records.md); the "memory nearly full" warning uses them.
TYPICAL = (90, 170, 260, 200, 200)
NEARLY_FULL = const(3)  # warn when fewer games than this fit


def waiting(store):
    """How many finished games wait on the board for ``lunchbox pull``."""
    n = 0
    for r in store.records():
        if r[1] == KIND_FINISHED or r[1] == KIND_GAME:
            n += 1
    return n


def warning(store, game_index):
    """None, or what to tell the player before a game starts when the memory is nearly full
    of games not pulled (the oldest would be dropped to make room)."""
    size = TYPICAL[game_index] if 0 <= game_index < len(TYPICAL) else 256
    room = store.room(size)
    if room >= NEARLY_FULL:
        return None
    n = waiting(store)
    if room == 0:
        return ("Memory full: {} games not pulled. This game will push out the oldest. "
                "Pull them with lunchbox pull first.").format(n)
    return ("Memory nearly full: {} games not pulled, room for {} more. "
            "Pull them with lunchbox pull.").format(n, room)


def seats(record):
    """How many seats (people) played the game in ``record`` (from its header only)."""
    if len(record) < 3:
        return 0
    g = record[1]
    if g >= len(_DEFAULT_SEATS):
        return 0
    k = record[2]
    first = record[3] if k and len(record) > 3 else None
    if g == 0:
        return 2 if first == 4 else 1
    if g == 1:
        return 2
    return first if first else _DEFAULT_SEATS[g]


def envelope(record, unix=0, names=()):
    """The bytes to keep: ``record`` with its date and the names of its seats."""
    out = bytearray((VERSION, (unix >> 24) & 255, (unix >> 16) & 255, (unix >> 8) & 255,
                     unix & 255))
    names = list(names)[:MAX_NAMES]
    out.append(len(names))
    for name in names:
        raw = name.encode()[:16]
        out.append(len(raw))
        out.extend(raw)
    out.extend(record)
    return bytes(out)


def open_envelope(kind, payload):
    """``(unix, names, record)`` of a ring record of kind 1 or 3; ValueError otherwise."""
    if kind == KIND_FINISHED:
        return 0, [], bytes(payload)
    if kind != KIND_GAME:
        raise ValueError("record kind {} is not a game".format(kind))
    if len(payload) < 6 or payload[0] != VERSION:
        raise ValueError("game envelope: unknown version or too short")
    unix = (payload[1] << 24) | (payload[2] << 16) | (payload[3] << 8) | payload[4]
    n = payload[5]
    at = 6
    names = []
    for _ in range(n):
        if at >= len(payload) or at + 1 + payload[at] > len(payload):
            raise ValueError("game envelope: names cut short")
        try:
            names.append(bytes(payload[at + 1:at + 1 + payload[at]]).decode())
        except UnicodeError:
            raise ValueError("game envelope: a name is not text") from None
        at += 1 + payload[at]
    return unix, names, bytes(payload[at:])


def crash_payload(exc_name, message, where):
    """The payload of a crash record (kind 2): ``where|ExcName: message``, at most 96 bytes."""
    text = "{}|{}: {}".format(where, exc_name, message)
    raw = text.encode()
    return raw[:96]
