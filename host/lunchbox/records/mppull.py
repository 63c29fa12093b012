"""`lunchbox pull` from a MicroPython board: its records are files on its littlefs, read over
the REPL (device.mpboard), stored in the same games database as the data channel's.

On the board (companion/store/filestore.py keeps them; its docstring is the contract):
/data/rec/NNNNNNNN.rec, NNNNNNNN (8 digits) the sequence number of the file's first record.
A batch file is frames of b"LBR2" + seq (4 bytes) + kind (1) + payload length (2) + payload
+ CRC-32 of seq..payload (4), all big-endian, the numbers consecutive; a file of the firmware
before batches holds one record, b"LBR1" + kind + payload + CRC-32 of kind and payload. A
.tmp beside them is a write the board did not finish: never read (the board removes it at its
next start).

Each batch of records is committed to the database first, and a file is removed from the
board only once all its records are stored, so a cut at any point loses nothing (what was
not committed is still on the board) and stores nothing twice (a record already stored under
its board, epoch and sequence is only removed). A record that fails its CRC or does not
replay is stored aside as corrupt, its bytes kept, and removed like the others.
"""

import re
import struct
import time
import zlib

from ..device import mpboard
from . import gamerec

FOLDER = "/data/rec"
MAGIC = b"LBR1"  # one record a file
BATCH = b"LBR2"  # a frame of a batch file
NAME = re.compile(r"^(\d{8})\.rec$")
COMMIT = 25  # records a database transaction


class BoardHello:
    """What the database keeps of a board (linkproto.Hello's fields that store_batch uses)."""

    def __init__(self, board_id, firmware, profile):
        self.board_id = board_id
        self.firmware = firmware
        self.profile = profile


def _crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def parse(first, data):
    """[(seq, kind, payload, why or None)] of a record file named for ``first``. A damaged
    frame is one record with its reason (its bytes kept); what follows a frame that cannot be
    read is one more, numbered next."""
    data = bytes(data)
    if data.startswith(MAGIC):
        body, tail = data[len(MAGIC):-4], data[-4:]
        if len(data) < len(MAGIC) + 5:
            return [(first, 0, data, "a record file cut short ({} bytes)".format(len(data)))]
        why = None if _crc(body) == struct.unpack(">I", tail)[0] else \
            "its CRC does not match (damaged on the board)"
        return [(first, body[0], body[1:], why)]
    out = []
    at, seq = 0, first  # seq: the number the next frame has (the board's are consecutive)
    while at < len(data):
        head = data[at:at + 11]
        if len(head) < 11 or not head.startswith(BATCH):
            out.append((seq, 0, data[at:], "not a record frame ({} bytes from byte {})".format(
                len(data) - at, at)))
            break
        said, kind, n = struct.unpack(">IBH", head[4:])
        end = at + 11 + n + 4
        if end > len(data):
            out.append((seq, kind, data[at + 11:], "a frame cut short"))
            break
        payload = data[at + 11:at + 11 + n]
        good = _crc(data[at + 4:at + 11 + n]) == struct.unpack(">I", data[end - 4:end])[0]
        # a damaged frame is numbered by its place: its own number may be what was damaged,
        # and stored under it, it could stand for (and hide) a record still to come
        out.append((said if good else seq, kind, payload, None if good else
                    "its CRC does not match (damaged on the board)"))
        at, seq = end, (said if good else seq) + 1
    if not out:
        out.append((first, 0, data, "an empty record file"))
    return out


def record_file(seq, kind, payload):
    """A one-record file's bytes (LBR1), as the firmware before batches wrote it."""
    body = bytes([kind]) + bytes(payload)
    return MAGIC + body + struct.pack(">I", _crc(body))


def batch_file(records):
    """A batch file's bytes (LBR2 frames) of [(seq, kind, payload)], as the board writes it."""
    out = b""
    for seq, kind, payload in records:
        head = struct.pack(">IBH", seq, kind, len(payload))
        out += BATCH + head + bytes(payload) + struct.pack(">I", _crc(head + bytes(payload)))
    return out


class Result:
    def __init__(self, board):
        self.board = board
        self.new = 0
        self.already = 0
        self.corrupt = []  # (seq, why): each said in one line
        self.left = []  # record files kept on the board (a damaged frame in them)
        self.crashes = 0
        self.waiting = None
        self.new_epoch = False
        self.bytes = 0
        self.seconds = 0.0


def pull_board(board, db, progress=None, now=time.time, set_clock=True, batch=COMMIT):
    """Pull the records of an open mpboard.Board into ``db``; returns a Result."""
    t0 = time.monotonic()
    info = board.stop_app()
    manifest = board.manifest() or {}
    hello = BoardHello(info.uid or "unknown",
                       str(manifest.get("firmware_version") or "MicroPython " + info.release),
                       str(manifest.get("profile") or ""))
    res = Result(hello)
    if set_clock:
        board.set_clock(int(now()))
    names = {}
    for path, _size in board.walk((FOLDER,)):
        m = NAME.match(path.rsplit("/", 1)[-1])
        if m and not path.endswith("/"):
            names[int(m.group(1))] = path
    records = []  # (seq, kind, payload, why, the file)
    for first in sorted(names):
        data = board.read(names[first], "reading {}".format(names[first]))
        if data is None:  # gone since the listing (the board is stopped: not expected)
            continue
        res.bytes += len(data)
        records += [r + (names[first],) for r in parse(first, data)]
    board_id = hello.board_id
    epoch = db.epoch(board_id)
    for seq, _kind, payload, _why, _path in records:
        old = db.stored(board_id, epoch, seq)
        if old is not None and old != gamerec.crc(payload):
            epoch += 1  # the board's records started again from 1 since the last pull
            res.new_epoch = True
            break
    left = {}  # file -> its records not yet committed
    for r in records:
        left[r[4]] = left.get(r[4], 0) + 1
    total = len(records)
    rows, done = [], []
    for i, (seq, kind, payload, bad, path) in enumerate(records):
        if db.stored(board_id, epoch, seq) is not None:
            res.already += 1
        else:
            row = gamerec.summarize(seq, kind, payload, now())
            if bad:
                row.update(status="corrupt", error=bad)
            gamerec.keep(res, rows, row, board_id, epoch)
        done.append(path)
        if progress:
            progress(i + 1, total, "record {}".format(seq))
        if len(rows) >= batch or i == total - 1:
            res.new += db.store_batch(hello, rows, epoch if res.new_epoch else None, now())
            rows = []
            for p in done:  # a file goes once all its records are stored
                left[p] -= 1
                if left[p] == 0:
                    board.remove(p)
            done = []
    if not records:
        db.store_batch(hello, [], None, now())
    res.waiting = 0
    res.seconds = time.monotonic() - t0
    return res


def pull(device, db, progress=None, set_clock=True, open_board=None):
    with (open_board or mpboard.Board)(device) as board:
        return pull_board(board, db, progress=progress, set_clock=set_clock)
