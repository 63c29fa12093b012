"""The data-channel protocol, device side (portable). docs/records.md has the whole of it.

Every message, both ways, is one frame::

    A5 5A  type  tag  length (2, big-endian)  payload  CRC-32 (4, big-endian)

The CRC covers type, tag, length and payload. A request's ``tag`` comes back in its answer so
the host can tell a late answer from the one it waits for; answers have type ``request | 0x80``,
or ERROR. The device only ever reads and writes its own saves: nothing received is executed.
A bad frame (wrong CRC, a length over RX_MAX, a frame left unfinished for TIMEOUT_MS, a sync
in garbage whose claimed bytes hold a whole good frame) is dropped and the reader looks for the
next sync from the byte after the bad frame's start, so garbage, a cut and a 200 KB line all
cost nothing but an ERROR answer or silence; the buffer
never holds more than one frame. (The host also opens each session with RX_MAX + OVERHEAD zero
bytes, which complete and so flush any frame a cut left half-received.)
"""

from shared_rules._compat import const

from ..store.crc32 import crc32

SYNC = b"\xa5\x5a"
HEADER = const(6)
OVERHEAD = const(10)
PROTOCOL = const(1)
RX_MAX = const(256)  # the largest request payload accepted (settings are ~70 bytes)
TX_MAX = const(1200)  # the largest answer payload sent (a record: 1024 + envelope + 5)
TIMEOUT_MS = const(1000)  # an unfinished frame is dropped after this long without bytes
LIST_MAX = const(64)  # entries in one LIST answer
_MASK = const(0x1FFFFFFF)  # supervisor.ticks_ms wraps at 2**29

# Request types (answers: type | 0x80)
HELLO = const(0x01)
LIST = const(0x02)
GET = const(0x03)
ACK = const(0x04)
TIME = const(0x05)
GET_SETTINGS = const(0x06)
SET_SETTINGS = const(0x07)
GAME = const(0x08)
CHECK = const(0x09)  # the box's own figures (settings/boxcheck.py): version, heap, runtime, battery
ERROR = const(0x7F)

# ERROR codes
E_FRAME = const(1)  # a frame arrived damaged (answered with tag 0)
E_TYPE = const(2)  # unknown request type
E_REQUEST = const(3)  # the request's payload is malformed
E_MISSING = const(4)  # no such record
E_REFUSED = const(5)  # the value was checked and refused (the message says why)
E_FAILED = const(6)  # the device could not do it (e.g. its memory failed)


def _u32(n):
    return bytes(((n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255))


def _get32(b, i):
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]


def frame(ftype, tag, payload=b""):
    """The bytes of one frame."""
    n = len(payload)
    out = bytearray(OVERHEAD + n)
    out[0] = 0xA5
    out[1] = 0x5A
    out[2] = ftype
    out[3] = tag
    out[4] = n >> 8
    out[5] = n & 255
    out[6:6 + n] = payload
    out[6 + n:] = _u32(crc32(out, 2, 6 + n))
    return bytes(out)


def _good(buf, i, n):
    """The frame of payload length ``n`` at ``buf[i]`` has a right CRC."""
    return crc32(buf, i + 2, i + HEADER + n) == _get32(buf, i + HEADER + n)


def _ticks_diff(a, b):
    d = (a - b) & _MASK
    return d - (_MASK + 1) if d > (_MASK >> 1) else d


class FrameReader:
    """Bytes in, good frames out. ``feed(data, now)`` returns ``[(type, tag, payload)]``;
    ``bad`` counts frames dropped as damaged (sync found, then a wrong length or CRC) since the
    last ``take_bad()``."""

    def __init__(self, max_payload=RX_MAX, timeout=TIMEOUT_MS):
        self.max = max_payload
        self.timeout = timeout
        self.buf = b""
        self.since = 0  # ticks when the frame in ``buf`` started
        self._now = 0
        self.bad = 0

    def take_bad(self):
        n = self.bad
        self.bad = 0
        return n

    def feed(self, data, now=0):
        out = []
        self._now = now
        if self.buf and self.timeout and _ticks_diff(now, self.since) > self.timeout:
            self.buf = b""  # a frame started that long ago is not coming (a cut): forget it
        if data:
            data = bytes(data)
        limit = self.max + OVERHEAD
        i = 0
        n = len(data)
        while True:
            room = limit - len(self.buf)
            if i < n and room > 0:
                if not self.buf:
                    # skip garbage at C speed: only a sync byte can start a frame
                    j = data.find(b"\xa5", i)
                    if j < 0:
                        break
                    i = j
                    self.since = now  # a frame starts
                take = min(room, n - i)
                self.buf = self.buf + data[i:i + take]
                i += take
            if not self._scan(out) and i >= n:
                break
        return out

    def _scan(self, out):
        """Take frames off the front of ``buf``; True when it made progress."""
        buf = self.buf
        moved = False
        while buf:
            k = buf.find(SYNC)
            if k < 0:
                # keep a last A5: it may be the first half of a sync
                keep = buf[-1:] if buf[-1] == 0xA5 else b""
                moved = moved or len(keep) != len(buf)
                buf = keep
                break
            if k:
                buf = buf[k:]
                moved = True
            if len(buf) < HEADER:
                break
            n = (buf[4] << 8) | buf[5]
            if n > self.max:
                self.bad += 1
                buf = buf[1:]
                moved = True
                continue
            if len(buf) < OVERHEAD + n:
                j = self._later_frame(buf)
                if j < 0:
                    break
                # a sync in garbage claimed the bytes of a good frame that is already
                # whole: the claim is the damaged one (the host's Parser does the same)
                self.bad += 1
                buf = buf[j:]
                moved = True
                continue
            if not _good(buf, 0, n):
                self.bad += 1
                buf = buf[1:]  # look for a sync inside the damaged frame
                moved = True
                continue
            out.append((buf[2], buf[3], bytes(buf[HEADER:HEADER + n])))
            buf = buf[OVERHEAD + n:]
            moved = True
        if moved and buf:
            self.since = self._now  # what is left starts a new frame
        self.buf = buf
        return moved

    def _later_frame(self, buf):
        """Where the first whole, good frame after the start of ``buf`` begins, or -1."""
        j = buf.find(SYNC, 1)
        while 0 < j <= len(buf) - OVERHEAD:
            n = (buf[j + 4] << 8) | buf[j + 5]
            if n <= self.max and j + OVERHEAD + n <= len(buf) and _good(buf, j, n):
                return j
            j = buf.find(SYNC, j + 1)
        return -1


class LinkServer:
    """The device end: ``feed(data, now)`` returns the bytes to send back (b"" for none).

    ``store`` is the nvm save store; ``version``, ``profile`` strings; ``uid`` the board's
    unique id (bytes, microcontroller.cpu.uid); ``on_settings(raw)`` is called with pushed
    settings bytes that passed the device's own checks (it saves and applies them).
    """

    def __init__(self, store, version, profile, uid=b"", on_settings=None):
        self.store = store
        self.version = version
        self.profile = profile
        self.uid = bytes(uid or b"")
        self.on_settings = on_settings
        self.reader = FrameReader()
        self.clock = None  # (unix seconds, ticks) when the host set the clock
        self.tz = 0  # the host's UTC offset, minutes
        self.supply = None  # hw.supply, for CHECK's battery figures (None: "none" read)

    # the wall clock the host set (lost at power-off: records then carry no date)

    def unix_now(self, now):
        """Seconds since 1970 (UTC) now, or 0 when no host has set the clock."""
        c = self.clock
        if c is None:
            return 0
        secs = _ticks_diff(now, c[1]) // 1000
        if secs:  # move the base along, so the ticks never drift a wrap (2**28 ms) away
            c = (c[0] + secs, (c[1] + secs * 1000) & _MASK)
            self.clock = c
        return c[0]

    def feed(self, data, now=0):
        if self.clock is not None:
            self.unix_now(now)
        frames = self.reader.feed(data, now)
        out = []
        if self.reader.take_bad():
            out.append(frame(ERROR, 0, bytes((E_FRAME,)) + b"damaged frame dropped"))
        for ftype, tag, payload in frames:
            try:
                rtype, answer = self.answer(ftype, payload, now)
            except ValueError as e:
                rtype, answer = ERROR, bytes((E_REQUEST,)) + str(e).encode()[:80]
            except Exception as e:  # a failing store must not stop the link
                rtype, answer = ERROR, bytes((E_FAILED,)) + str(e).encode()[:80]
            out.append(frame(rtype, tag, answer))
        return b"".join(out)

    def answer(self, ftype, p, now):
        """``(type, payload)`` of the answer to one request."""
        store = self.store
        if ftype == HELLO:
            recs = store.records()
            st = store.stats()
            first = recs[0][0] if recs else 0
            last = recs[-1][0] if recs else 0
            head = bytearray((PROTOCOL, TX_MAX >> 8, TX_MAX & 255, len(recs) >> 8,
                              len(recs) & 255))
            head += _u32(first) + _u32(last)
            head += bytes((1 if self.clock else 0, st["free"] >> 8, st["free"] & 255,
                           st["size"] >> 8, st["size"] & 255))
            for s in (self.uid, self.version.encode(), self.profile.encode()):
                s = s[:64]
                head += bytes((len(s),)) + s
            return HELLO | 0x80, bytes(head)
        if ftype == LIST:
            after = self._seq(p, 4)
            out = []
            more = 0
            for seq, kind, payload in store.records():
                if seq <= after:
                    continue
                if len(out) >= LIST_MAX:
                    more = 1
                    break
                n = len(payload)
                out.append(_u32(seq) + bytes((kind, n >> 8, n & 255)) + _u32(crc32(payload)))
            return LIST | 0x80, bytes((more,)) + b"".join(out)
        if ftype == GET:
            seq = self._seq(p, 4)
            for r in store.records(True):
                if r[0] == seq:
                    return GET | 0x80, _u32(seq) + bytes((r[1],)) + r[2]
            return ERROR, bytes((E_MISSING,)) + "no record {}".format(seq).encode()
        if ftype == ACK:
            store.ack_records(self._seq(p, 4))
            n = len(store.records())
            return ACK | 0x80, bytes((n >> 8, n & 255))  # how many still wait
        if ftype == TIME:
            secs = self._seq(p, 6)
            tz = (p[4] << 8) | p[5]
            if tz >= 0x8000:
                tz -= 0x10000
            if secs < 1577836800 or tz < -900 or tz > 900:  # before 2020, or a silly zone
                raise ValueError("clock {} {} out of range".format(secs, tz))
            self.clock = (secs, now & _MASK)
            self.tz = tz
            return TIME | 0x80, b""
        if ftype == GET_SETTINGS:
            raw = store.load_settings()
            return GET_SETTINGS | 0x80, raw or b""
        if ftype == SET_SETTINGS:
            from ..store.appsettings import AppSettings

            try:
                AppSettings.from_bytes(p)  # the same checks as the Settings screens
            except ValueError as e:
                return ERROR, bytes((E_REFUSED,)) + str(e).encode()[:80]
            if self.on_settings is not None:
                self.on_settings(bytes(p))
            else:
                store.save_settings(bytes(p))
            return SET_SETTINGS | 0x80, b""
        if ftype == GAME:
            g = store.load_game()
            if g is None:
                return GAME | 0x80, b""
            gid = g[0].encode()
            return GAME | 0x80, bytes((len(gid),)) + gid + g[1]
        if ftype == CHECK:
            # "key=value" lines, as Settings > Check the box's last page shows them
            from ..settings.boxcheck import encode, readings

            return CHECK | 0x80, encode(readings(self.version, self.profile, self.supply))
        return ERROR, bytes((E_TYPE,)) + "unknown request {}".format(ftype).encode()

    @staticmethod
    def _seq(p, n):
        if len(p) != n:
            raise ValueError("want {} bytes, got {}".format(n, len(p)))
        return _get32(p, 0)
