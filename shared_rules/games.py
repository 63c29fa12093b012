"""The game registry: one row per game, its protocol class imported only when that game is
asked for (the Pico's heap holds one game's rules at a time). See shared_rules/protocol.py for
what every game object offers and docs/design.md for the record format.

    g = games.new("space_lunch", 2)      # a solo game at Hard
    g.apply(g.legal_actions()[0])
    data = games.record(g)               # what the device keeps and the host pulls
    games.replay(data).to_bytes() == data
"""

from shared_rules._codec import checksum
from shared_rules.protocol import (
    CHANCE,
    FORMAT,
    FORMAT_1,
    MAX_PARAMS,
    PAD,
    TABLE,
    TERMINAL,
    encode,
    encode2,
    put_action,
)

__all__ = ("IDS", "CHANCE", "TERMINAL", "TABLE", "new", "record", "replay", "from_bytes",
           "parse", "header", "game_id_of", "module_of")

from shared_rules.registry import ROWS

# the games themselves (a game's folder is named by its id; a scoreboard lives in its game's)
IDS = tuple([r[0] for r in ROWS if r[1].split(".")[1] == r[0]])


def _row(game_id):
    for i in range(len(ROWS)):
        if ROWS[i][0] == game_id:
            return i
    raise ValueError("no game called {!r}".format(game_id))


def module_of(game_id):
    """The module name holding ``game_id``'s protocol class (for unloading on the device)."""
    return ROWS[_row(game_id)][1]


def _cls(index):
    _, mod, name = ROWS[index]
    module = __import__(mod, None, None, [name])
    return getattr(module, name)


def new(game_id, *params):
    """A new game; ``params`` are small ints with defaults. ValueError for an unknown game or
    a bad setting."""
    return _cls(_row(game_id))(*params)


def record(game):
    """The game's record: game, settings and every action, versioned and checksummed."""
    return game.to_bytes()


def read_actions(data, pos, end):
    """The numbers in 7-bit groups in ``data[pos:end]``."""
    out = []
    while pos < end:
        a = 0
        shift = 0
        while True:
            if pos >= end or shift > 14:
                raise ValueError("record: an action is cut short")
            b = data[pos]
            pos += 1
            a |= (b & 127) << shift
            shift += 7
            if not b & 128:
                break
        out.append(a)
    return out


def read_packed(data, pos, end):
    """The symbols packed two a byte in ``data[pos:end]``; PAD only as the last nibble."""
    out = []
    while pos < end:
        b = data[pos]
        pos += 1
        if b >> 4 == PAD or (b & 15 == PAD and pos < end):
            raise ValueError("game record: padding inside the actions")
        out.append(b >> 4)
        if b & 15 != PAD:
            out.append(b & 15)
    return out


def _frame(data):
    """``(format, index, params, base, start, end)`` of a record whose frame is sound
    (checksum, format, game, settings, base state): its actions are ``data[start:end]``."""
    if not isinstance(data, (bytes, bytearray)) or len(data) < 6:
        raise ValueError("not a game record")
    data = bytes(data)
    if checksum(data[:-2]) != data[-2:]:
        raise ValueError("game record fails its checksum")
    fmt = data[0]
    if fmt != FORMAT and fmt != FORMAT_1:
        raise ValueError("unknown game record format {}".format(fmt))
    index = data[1]
    if index >= len(ROWS):
        raise ValueError("game record of an unknown game ({})".format(index))
    k = data[2]
    end = len(data) - 2
    if k > MAX_PARAMS or 3 + k + (2 if fmt == FORMAT_1 else 1) > end:
        raise ValueError("game record: bad settings")
    params = tuple(data[3:3 + k])
    pos = 3 + k
    if fmt == FORMAT_1:
        n = (data[pos] << 8) | data[pos + 1]
        pos += 2
    else:  # the length in 7-bit groups, low first
        n = 0
        shift = 0
        while True:
            if pos >= end or shift > 14:
                raise ValueError("game record: base state cut short")
            b = data[pos]
            pos += 1
            n |= (b & 127) << shift
            shift += 7
            if not b & 128:
                break
    if pos + n > end:
        raise ValueError("game record: base state cut short")
    return fmt, index, params, data[pos:pos + n], pos + n, end


def header(data):
    """``(index, params)`` of a record, its frame checked, nothing replayed (no game's code
    is imported: the device reads a save's settings before it loads anything)."""
    f = _frame(data)
    return f[1], f[2]


def parse(data):
    """``(index, params, base, actions)`` of a record; ValueError when it is corrupt. A
    format 2 record of a game that writes its actions as symbols is replayed to read them."""
    fmt, index, params, base, pos, end = _frame(data)
    if fmt == FORMAT_1:
        return index, params, base, read_actions(data, pos, end)
    cls = _cls(index)
    if not cls.coded:
        return index, params, base, _symbols(cls, data, pos, end)
    return index, params, base, replay(data).actions()


def _symbols(cls, data, pos, end):
    return read_packed(data, pos, end) if cls.packed else read_actions(data, pos, end)


def game_id_of(data):
    """The id of the game a record holds (checked, not replayed)."""
    return ROWS[_frame(data)[1]][0]


def _fresh(cls, params, base):
    game = cls(*params)
    if base:
        game.set_base(base)
    return game


def _prepared(data, steps):
    """(game, actions, symbols, check) for ``replay``: the record's frame read and, where its
    one written form is known without playing it, checked; ``game`` made at its start.
    ``symbols``: the actions are the symbols a game writes (read as played); ``check``: the
    written form is compared once played. Kept apart from ``replay``'s loop, whose frame sits
    under every rules call (CircuitPython's Python stack: tests/test_pystack_app.py)."""
    fmt, index, params, base, pos, end = _frame(data)
    cls = _cls(index)
    written = None  # the record's one written form, when it is known without a replay
    if fmt == FORMAT_1:
        actions = read_actions(data, pos, end)
        written = encode(index, params, base, actions)
    else:
        actions = _symbols(cls, data, pos, end)
        if not cls.coded and not cls.packed:  # the symbols are the actions, in 7-bit groups
            out = bytearray()
            for a in actions:
                put_action(out, a)
            written = encode2(index, params, base, out)
    n = len(actions)
    if written is not None and written != bytes(data):
        raise ValueError("game record is not in its one written form")
    if steps is not None and (type(steps) is not int or steps < 0 or steps > n):
        raise ValueError("steps must be 0..{}".format(n))
    game = _fresh(cls, params, base)
    if written is not None:
        return game, actions if steps is None else actions[:steps], False, False
    return game, actions, True, True


def _checked(game, data, steps):
    """A game played from its symbols: its bytes must be the record's, then cut to ``steps``."""
    if game.to_bytes() != bytes(data):
        raise ValueError("game record is not in its one written form")
    if steps is not None and steps < len(game._log):
        game._replay(game._log[:steps])


def replay(data, steps=None):
    """The game after all of a record's actions, or after the first ``steps``. ValueError
    when the record is corrupt, not in its one written form, or an action in it is not
    legal where it stands. Records of format 1 (written before format 2) read too."""
    game, actions, symbols, check = _prepared(data, steps)
    for i in range(len(actions)):
        try:
            game.apply(game._action(actions[i]) if symbols else actions[i])
        except ValueError as e:
            raise ValueError("game record corrupt at action {}: {}".format(i + 1, e)) from None
        if len(game._log) != i + 1:
            # an action that starts a new record (Let's Do Lunch's next game) inside one
            raise ValueError("game record corrupt at action {}: a record ends there".format(
                i + 1))
    if check:
        _checked(game, data, steps)
    return game


def from_bytes(data):
    """A saved game (the same bytes as its record)."""
    return replay(data)
