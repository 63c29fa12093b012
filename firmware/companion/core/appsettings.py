"""The user's settings (portable): brightness, LEDs on/off, player names, and Space Lunch's
hints on/off and cards typed/dealt, as bytes for nvm.

Format 1: version, brightness (0..100, a multiple of 10), flags, name count, then each name as
a length byte and ASCII bytes. Flags: bit 0 LEDs on, bit 1 hints OFF, bit 2 cards dealt by the
device. The two later bits are 0 at their defaults (hints on, cards typed), so settings saved
before they existed read as the defaults, and settings at the defaults are the same bytes as
before (an older firmware or host tool still reads them).
"""

from shared_rules._compat import const

_VERSION = const(1)
MAX_PLAYERS = const(7)
NAME_LEN = const(8)
NAME_CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"
BRIGHTNESS_STEP = const(10)
_LEDS = const(1)
_NO_HINTS = const(2)
_DEAL = const(4)
_FLAGS = const(7)  # every flag this format knows


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
    __slots__ = ("brightness", "leds", "names", "hints", "deal")

    def __init__(self, brightness=50, leds=True, names=None, hints=True, deal=False):
        if not (0 <= brightness <= 100 and brightness % BRIGHTNESS_STEP == 0):
            raise ValueError("brightness {!r}: 0..100 in steps of 10".format(brightness))
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
            _DEAL if self.deal else 0)
        out = bytearray((_VERSION, self.brightness, flags, len(self.names)))
        for name in self.names:
            raw = name.encode()
            out.append(len(raw))
            out.extend(raw)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data):
        data = bytes(data)
        if len(data) < 4:
            raise ValueError("settings: {} bytes is too short".format(len(data)))
        if data[0] != _VERSION:
            raise ValueError("settings: unknown format version {}".format(data[0]))
        flags = data[2]
        if flags & ~_FLAGS:
            raise ValueError("settings: bad flags {}".format(data[2]))
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
        if at != len(data):
            raise ValueError("settings: {} trailing bytes".format(len(data) - at))
        return cls(data[1], flags & _LEDS, names, not flags & _NO_HINTS, flags & _DEAL)
