"""The Aqua Brunch strength calculator's state (portable): three predator slots and the aqua
cards drawn. The arithmetic itself is shared_rules.aqua_brunch.rules.strength.

It is a protocol game (shared_rules.protocol) so the game screen base drives it like any game:
its actions are ``CYCLE + 2 * slot`` (next card), ``CYCLE + 2 * slot + 1`` (previous card),
``TOGGLE + i`` (aqua card i on/off) and ``CLEAR``; undo replays them. It never ends, and its saved
bytes are the 5-byte hand (``to_bytes``), from which a resumed calculator undoes no further.
"""

from shared_rules._compat import const
from shared_rules.aqua_brunch.rules import AQUA_VALUES, CARDS
from shared_rules.aqua_brunch.rules import LABELS as CARD_LABELS
from shared_rules.protocol import Game

SLOTS = const(3)
_VERSION = const(1)
_EMPTY = const(0xFF)
CYCLE = const(0)
TOGGLE = const(6)
CLEAR = const(10)
SOLO = const(0)  # the one "seat"


class AquaCalc(Game):
    """``slots``: three card indexes into CARDS or None; ``aqua``: four booleans."""

    game_id = "aqua_brunch"

    def _start(self):
        self.slots = [None, None, None]
        self.aqua = [False, False, False, False]
        if self.base:
            self._read(self.base)

    def _load_base(self, base):
        AquaCalc()._read(base)  # ValueError when it is not a calculator's hand

    def _do(self, action):
        if type(action) is not int or action < 0 or action > CLEAR:
            raise ValueError("not a calculator key")
        if action < TOGGLE:
            self.cycle(action // 2, 1 - 2 * (action & 1))
        elif action < CLEAR:
            self.toggle_aqua(action - TOGGLE)
        else:
            self.clear()

    def current_player(self):
        return SOLO

    def legal_actions(self):
        return list(range(CLEAR + 1))

    def winners(self):
        return []

    def scores(self):
        s = self.strength()
        return [0 if s is None else s]

    def describe(self, action):
        if action < TOGGLE:
            return "slot {} {}".format(action // 2 + 1, "back" if action & 1 else "next")
        if action < CLEAR:
            return "aqua {}".format(AQUA_VALUES[action - TOGGLE])
        return "clear"

    def cycle(self, slot, step):
        """Move slot to the next (step 1) or previous (step -1) card; empty comes first."""
        cur = self.slots[slot]
        n = len(CARDS)
        pos = n if cur is None else cur  # position n is "empty"
        pos = (pos + step) % (n + 1)
        self.slots[slot] = None if pos == n else pos

    def toggle_aqua(self, i):
        self.aqua[i] = not self.aqua[i]

    def clear(self):
        self.slots = [None, None, None]
        self.aqua = [False, False, False, False]

    def cards(self):
        return [CARDS[i] for i in self.slots if i is not None]

    def aqua_values(self):
        return [AQUA_VALUES[i] for i in range(4) if self.aqua[i]]

    def complete(self):
        return None not in self.slots

    def strength(self):
        """The hand's strength, or None until three predators are picked."""
        if not self.complete():
            return None
        from shared_rules.aqua_brunch.rules import strength

        return strength(self.cards(), self.aqua_values())

    def slot_label(self, slot):
        i = self.slots[slot]
        return "-" if i is None else CARD_LABELS[i]

    def to_bytes(self):
        flags = 0
        for i in range(4):
            if self.aqua[i]:
                flags |= 1 << i
        slots = [(_EMPTY if s is None else s) for s in self.slots]
        return bytes([_VERSION] + slots + [flags])

    @classmethod
    def from_bytes(cls, data):
        calc = cls()
        calc.set_base(bytes(data))
        return calc

    def _read(self, data):
        data = bytes(data)
        if len(data) != 5:
            raise ValueError("aqua calc: want 5 bytes, got {}".format(len(data)))
        if data[0] != _VERSION:
            raise ValueError("aqua calc: unknown format version {}".format(data[0]))
        calc = self
        for k in range(SLOTS):
            v = data[1 + k]
            if v == _EMPTY:
                continue
            if v >= len(CARDS):
                raise ValueError("aqua calc: bad card index {}".format(v))
            calc.slots[k] = v
        if data[4] > 15:
            raise ValueError("aqua calc: bad aqua flags {}".format(data[4]))
        for i in range(4):
            calc.aqua[i] = bool(data[4] & (1 << i))
