"""The game protocol's base class: what every game object shares (docs/design.md, "The game
protocol"). A game is its parameters, an optional base state and the int actions applied since.
That one log gives the saved bytes, the record the host pulls, the replay, and undo: undo
replays the log minus its last action from the start (the one undo mechanism), so it works the
same after a restore from bytes.

A subclass (one per game, wrapping its rules engine as ``self.engine``) provides ``_start()``
(a fresh engine from ``self.params`` and ``self.base``), ``_do(action)`` (ValueError in a
player's words and no change when the action is illegal; may return a small result),
``current_player()``, ``legal_actions()``, ``winners()``, ``scores()`` and ``describe()``.
"""

from shared_rules._codec import checksum
from shared_rules._compat import const

CHANCE = const(-1)  # a card dealt or dice rolled: typed in by the table or drawn by the device
TERMINAL = const(-4)
TABLE = const(-5)  # a decision the whole table takes (who called Lunch, the next game...)

FORMAT = const(2)  # the record format written (byte 0); format 1 records still read
FORMAT_1 = const(1)
MAX_ACTION = const(0x1FFFFF)  # three bytes of 7 bits
MAX_PARAMS = const(8)
PAD = const(15)  # the nibble after an odd number of packed symbols (never a symbol)


def put_action(out, a):
    """Append ``a`` (0..MAX_ACTION) in 1-3 bytes: 7 bits a byte, high bit = more follows."""
    if type(a) is not int or a < 0 or a > MAX_ACTION:
        raise ValueError("action {!r} out of range".format(a))
    while a > 127:
        out.append(0x80 | (a & 127))
        a >>= 7
    out.append(a)


def encode(index, params, base, actions):
    """A record's bytes in format 1 (the one written before format 2: the base length in two
    bytes, every action in 7-bit groups): a record of that format reads only as these bytes,
    and a new game with no action is the same game in either format."""
    out = bytearray((FORMAT_1, index, len(params)))
    out.extend(bytes(params))
    n = len(base)
    out.append(n >> 8)
    out.append(n & 255)
    out.extend(base)
    for a in actions:
        put_action(out, a)
    out.extend(checksum(out))
    return bytes(out)


def encode2(index, params, base, written):
    """A record's bytes in format 2 (docs/design.md, "The game protocol"): the base state's
    length in 7-bit groups, then ``written``, the actions as the game wrote them."""
    out = bytearray((FORMAT, index, len(params)))
    out.extend(bytes(params))
    put_action(out, len(base))
    out.extend(base)
    out.extend(written)
    out.extend(checksum(out))
    return bytes(out)


def leaders(values):
    """The seats holding the highest of ``values`` (one per seat)."""
    best = max(values)
    return [s for s in range(len(values)) if values[s] == best]


def tie_break_wanted(tied, entries):
    """The first of the ``tied`` seats whose tie-break entry (-1: not given yet) the table
    still has to give, or None (no tie, or all given)."""
    if len(tied) < 2:
        return None
    for s in tied:
        if entries[s] < 0:
            return s
    return None


def tie_break_winners(tied, entries):
    """The tied seats with the highest tie-break entry (all of them: a shared win)."""
    if len(tied) == 1:
        return tied
    most = max([entries[s] for s in tied])
    return [s for s in tied if entries[s] == most]


class Game:
    game_id = ""
    index = 0  # the game's row in games.TABLE (byte 1 of a record)
    # Record format 2 writes each action as the symbol ``_symbol`` gives for it where it is
    # played (the action itself unless a game says otherwise) and reads it back by ``_action``:
    # in 7-bit groups, or two a byte when ``packed`` (every symbol 0-14, high nibble first,
    # PAD after an odd last one)
    coded = False
    packed = False
    defaults = ()  # the parameters' defaults; a subclass checks their ranges in _check
    seats = None  # (fewest, most, name) when the first parameter is the number of players

    def __init__(self, *params):
        if len(params) > len(self.defaults):
            raise ValueError("{} takes at most {} settings".format(self.game_id,
                                                                  len(self.defaults)))
        params = tuple(params) + tuple(self.defaults[len(params):])
        for p in params:
            if type(p) is not int or p < 0 or p > 255:
                raise ValueError("{}: a setting must be a small number, got {!r}".format(
                    self.game_id, p))
        self.params = params
        if self.seats is not None and not self.seats[0] <= params[0] <= self.seats[1]:
            raise ValueError("{} is for {} to {} players".format(self.seats[2], self.seats[0],
                                                                 self.seats[1]))
        self._check(params)
        self.base = b""
        self._log = []
        self._out = bytearray()  # the actions of _log as format 2 writes them
        self._start()

    def _check(self, params):
        pass

    def _symbol(self, action):
        """What the record writes for ``action`` about to be played here; None when it stands
        for nothing here (then ``_do`` refuses it)."""
        return action

    def _action(self, symbol):
        """The action ``symbol`` stands for here (ValueError when none): ``_symbol``'s inverse
        where the record's next action is played."""
        return symbol

    # ---- what a subclass provides ---------------------------------------------------------

    def _start(self):
        raise NotImplementedError

    def _do(self, action):
        raise NotImplementedError

    def chance_outcomes(self):
        return []

    # ---- the protocol ---------------------------------------------------------------------

    def is_terminal(self):
        return self.current_player() == TERMINAL

    def apply(self, action):
        """Play one action; ValueError (nothing changed) when it is not legal now."""
        if type(action) is not int:
            raise ValueError("an action is a number, not {!r}".format(action))
        if self.is_terminal():
            raise ValueError("the game is over")
        return self._step(action)

    def _step(self, action):
        sym = self._symbol(action)
        result = self._do(action)
        try:
            self._write(sym)
        except ValueError:  # a game taking what it cannot write: refuse it, not lose it
            self._replay(self._log)
            raise ValueError("action {} cannot be recorded here".format(action)) from None
        self._log.append(action)
        return result

    def _write(self, sym):
        out = self._out
        if not self.packed:
            put_action(out, sym)  # (ValueError for None or out of range)
        elif type(sym) is not int or sym < 0 or sym >= PAD:
            raise ValueError("symbol {!r} does not fit a nibble".format(sym))
        elif len(self._log) & 1:
            out[-1] = (out[-1] & 0xF0) | sym  # in place of the pad
        else:
            out.append((sym << 4) | PAD)

    def actions(self):
        return list(self._log)

    def moves(self):
        """How many actions so far, without copying them (a long game's list is an
        allocation a fragmented Pico heap may not have in one piece)."""
        return len(self._log)

    def can_undo(self):
        return len(self._log) > 0

    def undo(self):
        """Take back the last action (any number of times, back to the record's start)."""
        if not self._log:
            raise ValueError("nothing to undo")
        self._replay(self._log[:-1])

    def _replay(self, actions):
        log = self._log
        out = self._out
        self._log = []
        self._out = bytearray()
        self._start()
        try:
            for a in actions:
                self._step(a)
        except ValueError:
            # cannot happen for a log this object made; if it does, be the game as it was
            self._log = []
            self._start()
            for a in log:
                self._do(a)
            self._log = log
            self._out = out
            raise

    # ---- saved bytes and records ------------------------------------------------------------

    def to_bytes(self):
        """The record (format 2): version, game index, parameters, base state, actions,
        checksum. It is also the saved game: ``games.from_bytes`` replays it."""
        return encode2(self.index, self.params, self.base, self._out)

    def set_base(self, base):
        """Start the log from a saved engine state instead of a new game (Let's Do Lunch: each
        game of a match is its own record, starting from the match as it stood)."""
        self._load_base(bytes(base))  # ValueError when the state is corrupt
        self.base = bytes(base)
        self._log = []
        self._out = bytearray()
        self._start()

    def _load_base(self, base):
        raise ValueError("{} records have no base state".format(self.game_id))


class EngineGame(Game):
    """A game whose rules engine (``self.engine``) speaks tuples and knows its seats, scores
    and winners; ``_encode(t)`` turns one of its tuples into the protocol's int."""

    def _encode(self, t):
        raise NotImplementedError

    def current_player(self):
        e = self.engine
        return TERMINAL if e.is_over() else e.current_player()

    def legal_actions(self):
        return [self._encode(t) for t in self.engine.legal_actions()]

    def chance_outcomes(self):
        return [(self._encode(t), w) for t, w in self.engine.chance_outcomes()]

    def winners(self):
        return self.engine.winners() if self.engine.is_over() else []

    def scores(self):
        return self.engine.scores()


class TableScore(Game):
    """A scoreboard the table fills in (Space Battle's race, Space Days' scoring): the leaders
    on points win; a tie is broken by one more entry for each tied seat in seat order
    (``self.ties``, -1 until given), then shared. A subclass says when the points are all in
    (``scored()``)."""

    def tied(self):
        return leaders(self.scores())

    def asking(self):
        """The tied seat whose tie-break entry the table is asked for, or None."""
        if not self.scored():
            return None
        return tie_break_wanted(self.tied(), self.ties)

    def winners(self):
        if not self.is_terminal():
            return []
        return tie_break_winners(self.tied(), self.ties)
