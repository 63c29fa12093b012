"""The Aqua Brunch strength calculator's state (portable): three predator slots and the aqua
cards drawn. The arithmetic itself is shared_rules.aqua_brunch.strength."""

from shared_rules._compat import const

CARDS = ("orca8", "orca5", "baby", "octopus", "walrus", "shark535", "shark626", "shark717")
CARD_LABELS = ("Orca 8", "Orca 5", "Baby orca", "Octopus", "Walrus",
               "Shark 5/3/5", "Shark 6/2/6", "Shark 7/1/7")
AQUA_VALUES = (0, -1, -2, -4)
SLOTS = const(3)
_VERSION = const(1)
_EMPTY = const(0xFF)


class AquaCalc:
    """``slots``: three card indexes into CARDS or None; ``aqua``: four booleans."""

    __slots__ = ("slots", "aqua")

    def __init__(self):
        self.slots = [None, None, None]
        self.aqua = [False, False, False, False]

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
        from shared_rules.aqua_brunch import strength

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
        data = bytes(data)
        if len(data) != 5:
            raise ValueError("aqua calc: want 5 bytes, got {}".format(len(data)))
        if data[0] != _VERSION:
            raise ValueError("aqua calc: unknown format version {}".format(data[0]))
        calc = cls()
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
        return calc
