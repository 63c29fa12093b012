"""The finished-game record the device keeps for the host (portable): the game's record bytes
(shared_rules.games.record) inside a small envelope of what only the board knows.

Envelope format 1 (ring record kind 3, KIND_GAME)::

    byte 0    envelope version (1)
    4 bytes   when the game ended, seconds since 1970 UTC (0: the clock was not set)
    1 byte    n, the number of names, then n times: a length byte and the name (ASCII,
              at most MAX_NAME bytes)
    rest      the game record (shared_rules.games.record)

The names are the Settings player names of the seats that played (``seats``), so the host
shows "ANNA" rather than "P1", and the seats the device itself plays named as the players call
them (``seat_names``): Space Lunch's "Automa" after the player, Let's Do Lunch's computer as
"Computer (Hard)" in its seat. Envelopes written before the device named its own seats hold the
Settings name there (or no Automa); ``seat_names`` over the record's header reads them the same.
Kind 1 records (the bare game record, written before the envelope existed) are read as an
envelope with no date and no names.
"""

# A game played with the turn clock is kept in envelope format 2, each seat's time between the
# names and the game record: turn_clock/state.py writes it (``timed``) and reads it (``untimed``:
# the format 1 envelope and the times), so this module, in memory at the menu, is unchanged.

from shared_rules._compat import const

from .store import KIND_CRASH, KIND_FINISHED, KIND_GAME  # noqa: F401 -- the one kind table

VERSION = const(1)
MAX_NAMES = const(7)
MAX_NAME = const(20)  # bytes of one name: room for "Computer (Medium)"

COMPUTER_LEVELS = ("Easy", "Medium", "Hard")  # Let's Do Lunch's computer, levels 1-3


# the "memory nearly full" warning sizes a game's record by its descriptor's record_bytes
# (measured over random games, docs/records.md)
NEARLY_FULL = const(3)  # warn when fewer games than this fit


def warning(store, game_index):
    """None, or what to tell the player before a game starts when the memory is nearly full
    of games not pulled (the oldest would be dropped to make room)."""
    row = _about(game_index)
    size = row.get("record_bytes", 256) if row else 256
    room = store.room(size)
    if room >= NEARLY_FULL:
        return None
    n = store.waiting()
    if room == 0:
        if not getattr(store, "drops_oldest", True):  # the file store keeps what it has
            return ("Memory full: {} games not pulled. This game will not be kept. "
                    "Pull them with lunchbox pull first.").format(n)
        return ("Memory full: {} games not pulled. This game will push out the oldest. "
                "Pull them with lunchbox pull first.").format(n)
    return ("Memory nearly full: {} games not pulled, room for {} more. "
            "Pull them with lunchbox pull.").format(n, room)


def _header(record):
    """(game index, params) from a record's header, or (-1, ()) when it is too short."""
    if len(record) < 3 or len(record) < 3 + record[2]:
        return -1, ()
    return record[1], tuple(record[3:3 + record[2]])


def _about(game_index):
    from ..app.catalog import ROWS, about

    return about(ROWS[game_index][0]) if 0 <= game_index < len(ROWS) else None


def people(game_index, params):
    """How many seats people play in a game of ``game_index`` with ``params`` (its
    descriptor's ``people``)."""
    row = _about(game_index)
    if row is None:
        return 0
    from ..app.catalog import people as count

    return count(row, params)


def seats(record):
    """How many seats (people) played the game in ``record`` (from its header only)."""
    g, params = _header(record)
    return people(g, params)


def seat_names(game_index, params, names=()):
    """One name per seat, as the players call them: the seats the device plays named by it
    (Space Lunch's Automa, Let's Do Lunch's computer "Computer (Hard)" in its seat: params[2]
    is its level + 4 * its seat), the people's seats ``names`` (the Settings names, which a host
    may have pushed) and P1..Pn where ``names`` ends."""
    row = _about(game_index)
    if row is None:
        return list(names)
    from ..app.catalog import people as count

    n = count(row, params)
    out = list(names[:n])
    for i in range(len(out), n):
        out.append("P{}".format(i + 1))
    seat = row.get("device_seat")
    if isinstance(seat, str):
        if n == 1:
            out.append(seat)  # the solo game's opponent, after the player
    elif seat is not None and len(params) > seat["computer"]:
        code = params[seat["computer"]]  # its level + 4 * its seat
        if code and 1 <= code % 4 <= 3 and code // 4 < n:
            out[code // 4] = "Computer ({})".format(COMPUTER_LEVELS[code % 4 - 1])
    return out


def envelope(record, unix=0, names=()):
    """The bytes to keep: ``record`` with its date and the names of its seats (``names``, the
    people's, completed by ``seat_names``; none at all when ``names`` is empty)."""
    out = bytearray((VERSION, (unix >> 24) & 255, (unix >> 16) & 255, (unix >> 8) & 255,
                     unix & 255))
    if names:
        g, params = _header(record)
        names = seat_names(g, params, names)
    names = list(names)[:MAX_NAMES]
    out.append(len(names))
    for name in names:
        raw = name.encode()[:MAX_NAME]
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
