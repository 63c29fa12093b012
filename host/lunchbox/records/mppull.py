"""`lunchbox pull` from a MicroPython board: its records are files on its littlefs, read over
the REPL (device.mpboard), stored in the same games database as the data channel's.

On the board (companion/core/filestore.py): /data/rec/NNNNNNNN.rec, NNNNNNNN the record's
sequence number (8 digits), content b"LBR1" + kind byte + payload + CRC-32 of (kind byte +
payload), 4 bytes big-endian. A .tmp beside them is a write the board did not finish: never
read (the board deletes it at its next start).

Each batch of records is committed to the database first, and only then removed from the
board, so a cut at any point loses nothing (what was not committed is still on the board) and
stores nothing twice (a record already stored under its board, epoch and sequence is only
removed). A record that fails its CRC or does not replay is stored aside as corrupt, its
bytes kept, and removed like the others.
"""

import re
import struct
import time
import zlib

from ..device import mpboard
from . import gamerec

FOLDER = "/data/rec"
MAGIC = b"LBR1"
NAME = re.compile(r"^(\d{8})\.rec$")
BATCH = 25


class BoardHello:
    """What the database keeps of a board (linkproto.Hello's fields that store_batch uses)."""

    def __init__(self, board_id, firmware, profile):
        self.board_id = board_id
        self.firmware = firmware
        self.profile = profile


def parse(data):
    """(kind, payload, None) for a good record file, (kind or 0, payload, why) for a bad one."""
    if len(data) < len(MAGIC) + 1 + 4 or not data.startswith(MAGIC):
        return 0, bytes(data), "not a Lunchbox record file ({} bytes)".format(len(data))
    body, tail = data[len(MAGIC):-4], data[-4:]
    if zlib.crc32(body) & 0xFFFFFFFF != struct.unpack(">I", tail)[0]:
        return body[0], bytes(body[1:]), "its CRC does not match (damaged on the board)"
    return body[0], bytes(body[1:]), None


def record_file(seq, kind, payload):
    """A record file's bytes, as the board writes them (tests make records with it)."""
    body = bytes([kind]) + bytes(payload)
    return MAGIC + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


class Result:
    def __init__(self, board):
        self.board = board
        self.new = 0
        self.already = 0
        self.corrupt = []
        self.crashes = 0
        self.waiting = None
        self.new_epoch = False
        self.bytes = 0
        self.seconds = 0.0


def pull_board(board, db, progress=None, now=time.time, set_clock=True, batch=BATCH):
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
    records = []
    for seq in sorted(names):
        data = board.read(names[seq], "reading record {}".format(seq))
        if data is None:  # gone since the listing (the board is stopped: not expected)
            continue
        res.bytes += len(data)
        records.append((seq, data))
    board_id = hello.board_id
    epoch = db.epoch(board_id)
    for seq, data in records:
        kind, payload, _ = parse(data)
        old = db.stored(board_id, epoch, seq)
        if old is not None and old != gamerec.crc(payload):
            epoch += 1  # the board's records started again from 1 since the last pull
            res.new_epoch = True
            break
    total = len(records)
    rows, done = [], []
    for i, (seq, data) in enumerate(records):
        kind, payload, bad = parse(data)
        if db.stored(board_id, epoch, seq) is not None:
            res.already += 1
        else:
            row = gamerec.summarize(seq, kind, payload, now())
            if bad:
                row.update(status="corrupt", error=bad)
            row["board_id"] = board_id
            row["epoch"] = epoch
            rows.append(row)
            if row["status"] == "corrupt":
                res.corrupt.append((seq, row["error"]))
            elif row["status"] == "crash":
                res.crashes += 1
        done.append(names[seq])
        if progress:
            progress(i + 1, total, "record {}".format(seq))
        if len(done) >= batch or i == total - 1:
            res.new += db.store_batch(hello, rows, epoch if res.new_epoch else None, now())
            rows = []
            for path in done:  # only once stored
                board.remove(path)
            done = []
    if not records:
        db.store_batch(hello, [], None, now())
    res.waiting = 0
    res.seconds = time.monotonic() - t0
    return res


def pull(device, db, progress=None, set_clock=True, open_board=None):
    with (open_board or mpboard.Board)(device) as board:
        return pull_board(board, db, progress=progress, set_clock=set_clock)
