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
    MAX_PARAMS,
    TABLE,
    TERMINAL,
    encode,
    read_actions,
)

__all__ = ("IDS", "CHANCE", "TERMINAL", "TABLE", "new", "record", "replay", "from_bytes",
           "parse", "game_id_of", "module_of")

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


def parse(data):
    """``(index, params, base, actions)`` of a record; ValueError when it is corrupt."""
    if not isinstance(data, (bytes, bytearray)) or len(data) < 7:
        raise ValueError("not a game record")
    data = bytes(data)
    if checksum(data[:-2]) != data[-2:]:
        raise ValueError("game record fails its checksum")
    if data[0] != FORMAT:
        raise ValueError("unknown game record format {}".format(data[0]))
    index = data[1]
    if index >= len(ROWS):
        raise ValueError("game record of an unknown game ({})".format(index))
    k = data[2]
    if k > MAX_PARAMS or 3 + k + 2 > len(data) - 2:
        raise ValueError("game record: bad settings")
    params = tuple(data[3:3 + k])
    pos = 3 + k
    n = (data[pos] << 8) | data[pos + 1]
    pos += 2
    end = len(data) - 2
    if pos + n > end:
        raise ValueError("game record: base state cut short")
    base = data[pos:pos + n]
    return index, params, base, read_actions(data, pos + n, end)


def game_id_of(data):
    """The id of the game a record holds (checked, not replayed)."""
    return ROWS[parse(data)[0]][0]


def replay(data, steps=None):
    """The game after all of a record's actions, or after the first ``steps``. ValueError
    when the record is corrupt or an action in it is not legal where it stands."""
    index, params, base, actions = parse(data)
    if encode(index, params, base, actions) != bytes(data):
        raise ValueError("game record is not in its one written form")
    if steps is not None:
        if type(steps) is not int or steps < 0 or steps > len(actions):
            raise ValueError("steps must be 0..{}".format(len(actions)))
        actions = actions[:steps]
    cls = _cls(index)
    game = cls(*params)
    if base:
        game.set_base(base)
    for i in range(len(actions)):
        try:
            game.apply(actions[i])
        except ValueError as e:
            raise ValueError("game record corrupt at action {}: {}".format(i + 1, e)) from None
        if len(game._log) != i + 1:
            # an action that starts a new record (Let's Do Lunch's next game) inside one
            raise ValueError("game record corrupt at action {}: a record ends there".format(
                i + 1))
    return game


def from_bytes(data):
    """A saved game (the same bytes as its record)."""
    return replay(data)
