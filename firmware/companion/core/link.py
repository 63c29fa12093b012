"""The data-channel protocol (portable): a minimal, line-based placeholder.

The host sends one ASCII command per line (``\\n``-terminated, at most 120 bytes); the device
answers with one or more lines. Payloads travel as lowercase hex.

    HELLO            -> LUNCHBOX <firmware version> <profile id>
    GAME             -> GAME <game id> <payload hex>   |  GAME NONE
    RECORDS          -> REC <seq> <kind> <payload hex>  (one per record, oldest first)
                        END <count>
    anything else    -> ERR <message>
"""

from shared_rules._compat import const

MAX_LINE = const(120)
HEX = "0123456789abcdef"


def to_hex(data):
    out = []
    for b in bytes(data):
        out.append(HEX[b >> 4])
        out.append(HEX[b & 15])
    return "".join(out)


def from_hex(text):
    if len(text) % 2:
        raise ValueError("hex {!r}: odd length".format(text))
    out = bytearray()
    for i in range(0, len(text), 2):
        try:
            out.append(int(text[i:i + 2], 16))
        except ValueError:
            raise ValueError("hex {!r}: bad digits at {}".format(text, i)) from None
    return bytes(out)


def _ascii(buf):
    return "".join([chr(b) if 32 <= b < 127 else "?" for b in buf])


class LinkServer:
    """Feed it received bytes; it returns the bytes to send back.

    ``store`` is the nvm save log (load_game, records); ``version`` and ``profile`` are strings.
    """

    def __init__(self, store, version, profile):
        self.store = store
        self.version = version
        self.profile = profile
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        out = []
        for b in bytes(data):
            if b == 10:  # "\n"
                if self._overflow:
                    out.append("ERR line too long")
                else:
                    out.extend(self.command(_ascii(self._buf)))
                self._buf = bytearray()
                self._overflow = False
            elif b != 13:
                if len(self._buf) >= MAX_LINE:
                    self._overflow = True
                else:
                    self._buf.append(b)
        return "".join(line + "\n" for line in out).encode()

    def command(self, line):
        words = line.strip().split()
        if not words:
            return []
        cmd = words[0].upper()
        if cmd == "HELLO":
            return ["LUNCHBOX {} {}".format(self.version, self.profile)]
        if cmd == "GAME":
            saved = self.store.load_game()
            if saved is None:
                return ["GAME NONE"]
            return ["GAME {} {}".format(saved[0], to_hex(saved[1]))]
        if cmd == "RECORDS":
            recs = self.store.records()
            lines = ["REC {} {} {}".format(seq, kind, to_hex(payload))
                     for seq, kind, payload in recs]
            lines.append("END {}".format(len(recs)))
            return lines
        return ["ERR unknown command {}".format(words[0][:20])]


def crash_payload(exc_name, message, where):
    """The payload of a crash record (kind 2): ``where|ExcName: message``, at most 96 bytes."""
    text = "{}|{}: {}".format(where, exc_name, message)
    raw = text.encode()
    return raw[:96]
