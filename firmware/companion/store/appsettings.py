"""The user's settings (portable): brightness, LEDs on/off, player names, Space Lunch's
hints on/off and cards typed/dealt, and when the idle screen dims and goes off, as bytes for nvm.

Format 1: version, brightness (0..100, a multiple of 10), flags, name count, then each name as
a length byte and ASCII bytes. Flags: bit 0 LEDs on, bit 1 hints OFF, bit 2 cards dealt by the
device, bits 3-4 the dim time and bits 5-7 the screen-off time, each as its index in DIM_S /
OFF_S. Every field but the LEDs is 0 at its default (hints on, cards typed, dim after a minute,
off after five), so settings saved before a field existed read as its default, and settings at
the defaults are the same bytes as before (an older firmware or host tool still reads them).
"""

# The turn clock is one more byte after the names, there only when it is not 0 (the clock is
# off by default, so the default bytes do not change). ``clock`` keeps that byte as it is; what
# it means is turn_clock/setting.py's, loaded only where a clock is set or runs. (Comments, not
# docstrings, here: this module is always in memory, and the heap bench counts docstrings.)

from shared_rules._compat import const

_VERSION = const(1)
MAX_PLAYERS = const(7)
NAME_LEN = const(8)
NAME_CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"
BRIGHTNESS_STEP = const(10)
_LEDS = const(1)
_NO_HINTS = const(2)
_DEAL = const(4)
_DIM_SHIFT = const(3)
_OFF_SHIFT = const(5)
# seconds without a press before the screen dims / goes off, 0 = never; the first of each is
# the default (stored as 0). Two bits hold the dim time, three the screen-off time.
DIM_S = (60, 30, 120, 0)
OFF_S = (300, 120, 600, 1800, 0)


def default_names():
    return ["P{}".format(i + 1) for i in range(MAX_PLAYERS)]


def check_name(name):
    if not 1 <= len(name) <= NAME_LEN:
        raise ValueError("player name {!r}: 1 to {} characters".format(name, NAME_LEN))
    for ch in name:
        if ch not in NAME_CHARS:
            raise ValueError("player name {!r}: bad character {!r}".format(name, ch))
    return name


class AppSettings:
    __slots__ = ("brightness", "leds", "names", "hints", "deal", "dim", "off", "clock")

    def __init__(self, brightness=50, leds=True, names=None, hints=True, deal=False,
                 dim=DIM_S[0], off=OFF_S[0], clock=0):
        if not (0 <= brightness <= 100 and brightness % BRIGHTNESS_STEP == 0):
            raise ValueError("brightness {!r}: 0..100 in steps of 10".format(brightness))
        if dim not in DIM_S:
            raise ValueError("dim after {!r} s: one of {}".format(dim, DIM_S))
        if off not in OFF_S:
            raise ValueError("screen off after {!r} s: one of {}".format(off, OFF_S))
        self.clock = clock  # the turn clock's byte: 0 off (turn_clock/setting.py)
        self.dim = dim  # seconds without a press before the screen dims (0: never)
        self.off = off  # ... before it goes off (0: never)
        self.brightness = brightness
        self.leds = bool(leds)
        self.hints = bool(hints)  # Space Lunch: the suggested card, the advice, the threat LEDs
        self.deal = bool(deal)  # Space Lunch: the device deals the cards (else they are typed)
        self.names = list(names) if names is not None else default_names()
        if len(self.names) != MAX_PLAYERS:
            raise ValueError("want {} player names, got {}".format(MAX_PLAYERS, len(self.names)))
        for name in self.names:
            check_name(name)

    def to_bytes(self):
        flags = (_LEDS if self.leds else 0) | (0 if self.hints else _NO_HINTS) | (
            _DEAL if self.deal else 0) | DIM_S.index(self.dim) << _DIM_SHIFT | (
            OFF_S.index(self.off) << _OFF_SHIFT)
        out = bytearray((_VERSION, self.brightness, flags, len(self.names)))
        for name in self.names:
            raw = name.encode()
            out.append(len(raw))
            out.extend(raw)
        if self.clock:
            out.append(self.clock)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data):
        data = bytes(data)
        if len(data) < 4:
            raise ValueError("settings: {} bytes is too short".format(len(data)))
        if data[0] != _VERSION:
            raise ValueError("settings: unknown format version {}".format(data[0]))
        flags = data[2]
        off = flags >> _OFF_SHIFT
        if off >= len(OFF_S):
            raise ValueError("settings: bad flags {}".format(flags))
        count = data[3]
        names = []
        at = 4
        for _ in range(count):
            if at >= len(data):
                raise ValueError("settings: truncated at byte {}".format(at))
            n = data[at]
            if at + 1 + n > len(data):
                raise ValueError("settings: truncated name at byte {}".format(at))
            try:
                names.append(data[at + 1:at + 1 + n].decode())
            except UnicodeError:
                raise ValueError("settings: name at byte {} is not text".format(at)) from None
            at += 1 + n
        clock = data[at] if at == len(data) - 1 else 0  # the turn clock's byte, when set
        # the clock: a mode 0-2 and one of turn_clock/setting.py's 10 chess times
        if at + (1 if clock else 0) != len(data) or clock & 3 == 3 or clock >> 2 & 15 > 9:
            raise ValueError("settings: {} bytes after the names, not a clock setting".format(
                len(data) - at))
        return cls(data[1], flags & _LEDS, names, not flags & _NO_HINTS, flags & _DEAL,
                   DIM_S[flags >> _DIM_SHIFT & 3], OFF_S[off], clock)
