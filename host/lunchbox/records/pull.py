"""`lunchbox pull`: copy the finished games off every attached Lunchbox into the games
database, then let each board reclaim them.

Per board: HELLO (who it is), TIME (its clock, so later games carry a date), LIST, then GET
each record not yet stored, a batch at a time: commit the batch, and only then ACK it. A cut at
any point costs nothing: what was committed is known by (board, sequence) and not fetched
again; what was not acknowledged stays on the board. A record that does not replay is stored
aside as corrupt (its bytes kept), reported by its sequence number, and acknowledged, so it
does not block the others.
"""

import os
import sys
import time

from ..errors import LunchboxError, printable, shown
from . import db as dbmod
from . import gamerec
from .link import LinkError, data_ports, open_link

BATCH = 25


class Result:
    def __init__(self, board):
        self.board = board  # linkproto.Hello
        self.new = 0
        self.already = 0
        self.corrupt = []  # [(seq, reason)]
        self.crashes = 0
        self.waiting = None  # records left on the board after the pull
        self.new_epoch = False
        self.bytes = 0
        self.seconds = 0.0


def pull_board(link, db, progress=None, now=time.time, set_clock=True, batch=BATCH):
    """Pull one board over ``link`` into ``db``; returns a Result. Raises LinkError when the
    link fails (what was committed stays committed)."""
    t0 = time.monotonic()
    b0 = link.sent + link.received
    hello = link.hello()
    res = Result(hello)
    if set_clock:
        link.set_time(int(now()))
    entries = link.list()
    board = hello.board_id
    epoch = db.epoch(board)
    for seq, _kind, _n, crc in entries:
        old = db.stored(board, epoch, seq)
        if old is not None and old != crc:
            # the board's log started again from 1 since we last pulled: a new epoch
            epoch += 1
            res.new_epoch = True
            break
    rows = []
    total = len(entries)
    for i, (seq, kind, n, crc) in enumerate(entries):
        if db.stored(board, epoch, seq) is not None:
            res.already += 1
        else:
            rkind, payload = link.get(seq)
            if rkind != kind or len(payload) != n or gamerec.crc(payload) != crc:
                raise LinkError("record {} changed while it was pulled".format(seq),
                                "pull again")
            gamerec.keep(res, rows, gamerec.summarize(seq, kind, payload, now()), board, epoch)
        if progress:
            progress(i + 1, total, "record {}".format(seq))
        if len(rows) >= batch or (i == total - 1):
            res.new += db.store_batch(hello, rows, epoch if res.new_epoch else None, now())
            rows = []
            res.waiting = link.ack(seq)  # only after the commit
    if not entries:
        db.store_batch(hello, [], None, now())  # the board is known, and when we saw it
        res.waiting = 0
    res.bytes = link.sent + link.received - b0
    res.seconds = time.monotonic() - t0
    return res


# ---- the command ---------------------------------------------------------------------------

def register(parser):
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", help="the data channel's serial port, or a MicroPython "
                       "board's (default: every Lunchbox found by its USB interface name or "
                       "ids)")
    where.add_argument("--sim", action="store_true",
                       help="pull from the running simulator (lunchbox sim)")
    parser.add_argument("--db", help="games database file (default: in your user data folder; "
                        "or $" + dbmod.DB_ENV + ")")
    parser.add_argument("--no-clock", action="store_true",
                        help="do not set the board's clock")


class Counter:
    """``Counter(label)(done, total, name)``: "pulling 3/12 record 57" redrawn in place on a
    terminal; silent elsewhere (the summary line says it all)."""

    def __init__(self, label, stream=None):
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.used = False

    def __call__(self, done, total, name=""):
        if self.tty:
            self.used = True
            self.stream.write("\r{:<60}".format("{} {}/{} {}".format(self.label, done, total,
                                                                       name))[:60])
            self.stream.flush()

    def close(self):
        if self.used:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


def targets(port=None, sim=False, list_ports=None):
    """[(device, kind)]: kind "link" (a CircuitPython data channel or the simulator), "mp" (a
    MicroPython board's REPL), or "probe": a --port whose USB ids the system does not give
    (a pseudo-terminal), told apart when it is pulled (``kind_of``)."""
    from ..device import ports

    if sim:
        return [(d, "link") for d in data_ports(port, sim)]
    try:
        listed = (list_ports or ports.list_ports)()
    except Exception:  # no serial backend: --port and the data channel's own errors say it
        listed = []
    if port:
        known = [p for p in listed if p.device == port]
        if known:
            return [(port, "mp" if known[0].role == ports.MICROPYTHON else "link")]
        return [(port, "probe")]
    mp = [p.device for p in ports.micropython_ports(listed)]
    if not mp:
        return [(d, "link") for d in data_ports(port, sim)]
    cp = [p for p in ports.circuitpython_ports(listed) if p.role == ports.DATA]
    return [(p.device, "link") for p in cp] + [(d, "mp") for d in mp]


def open_probed(device, kind, probe=None):
    """(kind, link or None): a --port of unknown ids is tried as a data channel first (HELLO:
    the simulator, a CircuitPython board), then as a MicroPython REPL; the link's own error
    when neither answers."""
    from ..device import mpboard

    if kind == "mp":
        return "mp", None
    link = open_link(device)
    if kind == "link":
        return "link", link
    try:
        link.hello()
        return "link", link
    except LinkError:
        link.close()
        if os.path.exists(device) and (probe or mpboard.answers_as_repl)(device):
            return "mp", None
        raise


def run(args):
    from . import mppull

    devices = targets(args.port, args.sim)
    failed = []
    with dbmod.Database(args.db) as db:
        for device, kind in devices:
            bar = Counter("pulling")
            try:
                kind, link = open_probed(device, kind)
                if kind == "mp":
                    res = mppull.pull(device, db, progress=bar, set_clock=not args.no_clock)
                else:
                    try:
                        res = pull_board(link, db, progress=bar, set_clock=not args.no_clock)
                    finally:
                        link.close()
            except LunchboxError as e:
                bar.close()
                if len(devices) == 1:
                    raise
                failed.append("{}: {}".format(device, e))
                continue
            bar.close()
            print(summary(device, res))
        n = len(db.games())
        print("{} game{} in {}".format(n, "" if n == 1 else "s", shown(db.path)))
    if failed:
        raise LunchboxError("some boards were not pulled: " + "; ".join(failed),
                            "plug them in again and rerun lunchbox pull")
    return 0


def summary(device, res):
    lines = ["{} (board {}, firmware {}): {} new record{}, {} already stored, {} left on the "
             "board".format(device, res.board.board_id, printable(res.board.firmware), res.new,
                            "" if res.new == 1 else "s", res.already, res.waiting)]
    if res.new_epoch:
        lines.append("  this board's memory started again since the last pull: its new games "
                     "are kept apart from the old ones")
    if res.crashes:
        lines.append("  {} crash report{} (lunchbox history --crashes)".format(
            res.crashes, "" if res.crashes == 1 else "s"))
    for seq, reason in res.corrupt:
        lines.append("  record {} is corrupt and was skipped ({}); its bytes are kept".format(
            seq, reason))
    return "\n".join(lines)
