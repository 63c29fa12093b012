"""A Lunchbox on the other end of an in-memory cable: the device's LinkServer over a real
Store on the fake flash, reached through a stream the host's Link can use, which can be cut
after any number of bytes in either direction (an unplug)."""

from _flash import FlashNVM

from companion.app.link import LinkServer
from companion.store import records
from companion.store.store import Store
from lunchbox.records import link as hostlink

UID = bytes.fromhex("E66141040327522C")


class Cut(OSError):
    pass


class Ticker:
    """A clock that moves 50 ms each time it is read: the host's timeouts pass without
    waiting."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        self.t += 0.05
        return self.t


def host_link(stream):
    """The host's Link over ``stream`` (a Board's, or a test's own), on a Ticker."""
    return hostlink.Link(stream, clock=Ticker())


class Board:
    """A device: nvm, store, link server, and a millisecond clock that moves with traffic."""

    def __init__(self, uid=UID, nvm=None):
        self.nvm = nvm or FlashNVM(4096)
        self.uid = uid
        self.boot()

    def boot(self):
        """Power on (again): a new store mounted on the same nvm, a new link server."""
        self.store = Store(self.nvm)
        self.server = LinkServer(self.store, "0.1.0", "pico-display-pack", self.uid)
        self.now = 0

    def finish(self, record, names=("ANNA", "BO"), unix=None):
        if unix is None:
            unix = self.server.unix_now(self.now)
        seats = records.seats(record)
        return self.store.append_record(records.KIND_GAME,
                                        records.envelope(record, unix, list(names)[:seats]))

    def stream(self, cut_after=None, cut_dir="both"):
        return Stream(self, cut_after, cut_dir)

    def link(self, **cut):
        """The host's Link to this board (``cut``: as for stream())."""
        return host_link(self.stream(**cut))


class Stream:
    """The host's end of the cable. ``cut_after`` bytes (counted in ``cut_dir``: "out" host to
    device, "in" device to host, or "both") then it is unplugged: the bytes of that write are
    delivered only up to the cut, and every later call raises Cut."""

    def __init__(self, board, cut_after=None, cut_dir="both"):
        self.board = board
        self.cut_after = cut_after
        self.cut_dir = cut_dir
        self.count = 0
        self.pending = b""
        self.dead = False

    def _budget(self, n, direction):
        if self.cut_after is None or self.cut_dir not in (direction, "both"):
            return n
        left = self.cut_after - self.count
        return max(0, min(n, left))

    def write(self, data):
        if self.dead:
            raise Cut("unplugged")
        n = self._budget(len(data), "out")
        if self.cut_after is not None and self.cut_dir in ("out", "both"):
            self.count += n
        self.board.now += 5
        out = self.board.server.feed(bytes(data[:n]), self.board.now)
        self.pending += out
        if n < len(data):
            self.dead = True
            raise Cut("unplugged while sending")

    def read(self, n):
        if self.dead:
            raise Cut("unplugged")
        if not self.pending:
            self.board.now += 5
            self.pending += self.board.server.feed(b"", self.board.now)
        take = min(n, len(self.pending))
        k = self._budget(take, "in")
        if self.cut_after is not None and self.cut_dir in ("in", "both"):
            self.count += k
        out, self.pending = self.pending[:k], self.pending[k:]
        if k < take:
            self.dead = True
            if not out:
                raise Cut("unplugged while receiving")
        return out

    def close(self):
        self.dead = True
