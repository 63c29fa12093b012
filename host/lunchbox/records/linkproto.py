"""The data-channel protocol, host side: frames, the incremental frame parser, and the
encoding of each request and answer. The device's half is firmware/companion/app/link.py (a
separate, portable implementation; tests check the two agree). docs/records.md describes both.

    A5 5A  type  tag  length (2, big-endian)  payload  CRC-32 (4, big-endian, over type..payload)
"""

import struct
import zlib

from ..errors import LunchboxError

SYNC = b"\xa5\x5a"
HEADER = 6
OVERHEAD = 10
PROTOCOL = 1
MAX_PAYLOAD = 4096  # the largest answer the host accepts (the device sends at most 1200)
DEVICE_RX_MAX = 256  # the largest request the device accepts
# Sent before the first request of a session: as many zero bytes as the longest frame the
# device buffers, so a frame a cut left half-received completes, fails its CRC and is dropped.
FLUSH = bytes(DEVICE_RX_MAX + OVERHEAD)

HELLO, LIST, GET, ACK, TIME, GET_SETTINGS, SET_SETTINGS, GAME, CHECK = range(1, 10)
ERROR = 0x7F
REPLY = 0x80
NAMES = {HELLO: "HELLO", LIST: "LIST", GET: "GET", ACK: "ACK", TIME: "TIME",
         GET_SETTINGS: "GET_SETTINGS", SET_SETTINGS: "SET_SETTINGS", GAME: "GAME",
         CHECK: "CHECK"}

E_FRAME, E_TYPE, E_REQUEST, E_MISSING, E_REFUSED, E_FAILED = range(1, 7)
ERROR_NAMES = {E_FRAME: "damaged frame", E_TYPE: "unknown request", E_REQUEST: "bad request",
               E_MISSING: "not found", E_REFUSED: "refused", E_FAILED: "device failure"}


class ProtocolError(ValueError):
    """An answer that parses as a frame but does not make sense."""


class DeviceError(LunchboxError):
    """The device answered ERROR (it refused, or could not do it)."""

    def __init__(self, code, message):
        super().__init__("{} ({})".format(message or ERROR_NAMES.get(code, "error"),
                                          ERROR_NAMES.get(code, code)))
        self.code = code
        self.text = message


def encode(ftype, tag, payload=b""):
    if not 0 <= ftype <= 255 or not 0 <= tag <= 255:
        raise ValueError("frame type/tag out of range")
    if len(payload) > 0xFFFF:
        raise ValueError("payload of {} bytes is too long".format(len(payload)))
    body = struct.pack(">BBH", ftype, tag, len(payload)) + bytes(payload)
    return SYNC + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


class Parser:
    """Incremental: ``feed(data)`` returns the complete good frames ``[(type, tag, payload)]``.
    Damaged frames are counted in ``dropped`` and skipped by searching for the next sync from
    the byte after the damaged one's start. The buffer holds at most one frame."""

    def __init__(self, max_payload=MAX_PAYLOAD):
        self.max_payload = max_payload
        self.buf = bytearray()
        self.dropped = 0

    def reset(self):
        self.buf = bytearray()

    def feed(self, data):
        frames = []
        data = memoryview(bytes(data))
        limit = self.max_payload + OVERHEAD
        while True:
            if data and len(self.buf) < limit:
                if not self.buf:
                    j = bytes(data).find(0xA5)
                    if j < 0:
                        return frames
                    data = data[j:]
                take = limit - len(self.buf)
                self.buf += data[:take]
                data = data[take:]
            progressed = self._scan(frames)
            if not data and not progressed:
                return frames

    def _scan(self, frames):
        buf = self.buf
        progressed = False
        while buf:
            k = buf.find(SYNC)
            if k < 0:
                keep = 1 if buf[-1] == 0xA5 else 0
                progressed |= len(buf) > keep
                del buf[:len(buf) - keep]
                break
            if k:
                del buf[:k]
                progressed = True
            if len(buf) < HEADER:
                break
            ftype, tag, n = struct.unpack_from(">BBH", buf, 2)
            if n > self.max_payload:
                self.dropped += 1
                del buf[:1]
                progressed = True
                continue
            if len(buf) < OVERHEAD + n:
                j = self._later_frame(buf)
                if j < 0:
                    break
                # a sync in garbage claimed the bytes of a good frame that is already
                # whole: the claim is the damaged one (firmware app/link.py does the same)
                self.dropped += 1
                del buf[:j]
                progressed = True
                continue
            if not self._good(buf, 0, n):
                self.dropped += 1
                del buf[:1]
                progressed = True
                continue
            frames.append((ftype, tag, bytes(buf[HEADER:HEADER + n])))
            del buf[:OVERHEAD + n]
            progressed = True
        return progressed

    def _good(self, buf, i, n):
        (crc,) = struct.unpack_from(">I", buf, i + HEADER + n)
        return zlib.crc32(buf[i + 2:i + HEADER + n]) & 0xFFFFFFFF == crc

    def _later_frame(self, buf):
        """Where the first whole, good frame after the start of ``buf`` begins, or -1."""
        j = buf.find(SYNC, 1)
        while 0 < j <= len(buf) - OVERHEAD:
            (n,) = struct.unpack_from(">H", buf, j + 4)
            if n <= self.max_payload and j + OVERHEAD + n <= len(buf) and self._good(buf, j, n):
                return j
            j = buf.find(SYNC, j + 1)
        return -1


# ---- requests ------------------------------------------------------------------------------

def u32(n):
    if not 0 <= n <= 0xFFFFFFFF:
        raise ValueError("{} is not a 32-bit sequence number".format(n))
    return struct.pack(">I", n)


def time_request(unix, tz_minutes):
    return struct.pack(">Ih", unix, tz_minutes)


# ---- answers -------------------------------------------------------------------------------

class Hello:
    """What the device says about itself."""

    def __init__(self, protocol, max_payload, waiting, first, last, clock_set, free, size, uid,
                 firmware, profile):
        self.protocol = protocol
        self.max_payload = max_payload
        self.waiting = waiting
        self.first = first
        self.last = last
        self.clock_set = clock_set
        self.free = free
        self.size = size
        self.uid = uid
        self.firmware = firmware
        self.profile = profile

    @property
    def board_id(self):
        return self.uid.hex().upper() if self.uid else "unknown"


def _strings(p, at, count):
    out = []
    for _ in range(count):
        if at >= len(p) or at + 1 + p[at] > len(p):
            raise ProtocolError("HELLO answer cut short")
        out.append(bytes(p[at + 1:at + 1 + p[at]]))
        at += 1 + p[at]
    if at != len(p):
        raise ProtocolError("HELLO answer has {} stray bytes".format(len(p) - at))
    return out


def parse_hello(p):
    if len(p) < 18:
        raise ProtocolError("HELLO answer of {} bytes is too short".format(len(p)))
    protocol, max_payload, waiting, first, last, clock, free, size = struct.unpack_from(
        ">BHHIIBHH", p, 0)
    uid, fw, profile = _strings(p, 18, 3)
    try:
        return Hello(protocol, max_payload, waiting, first, last, bool(clock), free, size, uid,
                     fw.decode(), profile.decode())
    except UnicodeDecodeError:
        raise ProtocolError("HELLO answer: version or profile is not text") from None


def parse_list(p):
    """``(more, [(seq, kind, length, crc)])``."""
    if not p or p[0] > 1 or (len(p) - 1) % 11:
        raise ProtocolError("LIST answer of {} bytes is malformed".format(len(p)))
    entries = [struct.unpack_from(">IBHI", p, i) for i in range(1, len(p), 11)]
    seqs = [e[0] for e in entries]
    if seqs != sorted(set(seqs)):
        raise ProtocolError("LIST answer is not in sequence order")
    return bool(p[0]), entries


def parse_get(p):
    """``(seq, kind, payload)``."""
    if len(p) < 5:
        raise ProtocolError("GET answer of {} bytes is too short".format(len(p)))
    seq, kind = struct.unpack_from(">IB", p, 0)
    return seq, kind, bytes(p[5:])


def parse_ack(p):
    if len(p) != 2:
        raise ProtocolError("ACK answer of {} bytes".format(len(p)))
    return struct.unpack(">H", p)[0]


def parse_game(p):
    """``None`` or ``(game_id, payload)``."""
    if not p:
        return None
    n = p[0]
    if n < 1 or 1 + n > len(p):
        raise ProtocolError("GAME answer is malformed")
    try:
        return bytes(p[1:1 + n]).decode(), bytes(p[1 + n:])
    except UnicodeDecodeError:
        raise ProtocolError("GAME answer: the game id is not text") from None


def parse_error(p):
    if not p:
        return DeviceError(0, "error")
    return DeviceError(p[0], bytes(p[1:]).decode("utf-8", "replace"))


def parse_check(p):
    """{key: value} of a CHECK answer: the box's own figures (firmware/companion/settings/
    boxcheck.py), a "key=value" line each, ASCII."""
    try:
        text = bytes(p).decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolError("CHECK answer is not text") from None
    out = {}
    for line in text.splitlines():
        key, eq, value = line.partition("=")
        if not eq or not key:
            raise ProtocolError("CHECK answer line {!r} is not key=value".format(line))
        out[key] = value
    return out
