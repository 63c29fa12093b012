"""The record format of the nvm save log (see docs/persistence.md).

A record is ``magic kind length seq payload crc``::

    0  magic   1 byte   0xB7 (never 0xFF, the erased value, so a record start is never blank)
    1  kind    1 byte   what the record is (store.py)
    2  length  2 bytes  payload length, big-endian
    4  seq     4 bytes  sequence number, big-endian
    8  payload length bytes
    .  crc32   4 bytes  CRC-32 of everything before it, big-endian

``step`` tells where the record at a position ends using only the bytes inside that record, so
a torn record (a power cut while it was programmed) is skipped the same way on every later
mount: the bytes it covers are never programmed again until the sector is erased.
"""

from shared_rules._compat import const

from .crc32 import crc32

MAGIC = const(0xB7)
HEADER = const(8)
OVERHEAD = const(12)  # header + crc
ERASED = const(0xFF)
MAX_BODY = const(1100)  # the largest payload the parser accepts (store limits keep below it)

# check() verdicts
BLANK = const(0)  # erased byte where a record would start
GOOD = const(1)
BAD = const(2)


def encode(kind, seq, body):
    """The bytes of one record."""
    n = len(body)
    rec = bytearray(OVERHEAD + n)
    rec[0] = MAGIC
    rec[1] = kind
    rec[2:4] = n.to_bytes(2, "big")
    rec[4:8] = seq.to_bytes(4, "big")
    rec[8:8 + n] = body
    rec[8 + n:] = crc32(rec, 0, 8 + n).to_bytes(4, "big")
    return rec


def step(data, pos, end):
    """Where the record starting at ``pos`` ends: by its length field when that is sane (the
    record fits before ``end``), else ``pos + OVERHEAD``. Reads only bytes below the result."""
    if pos + OVERHEAD <= end:
        n = (data[pos + 2] << 8) | data[pos + 3]
        if n <= MAX_BODY and pos + OVERHEAD + n <= end:
            return pos + OVERHEAD + n
    return pos + OVERHEAD


def check(data, pos, end):
    """``(verdict, next)`` for the record at ``pos``: BLANK (an erased byte: the log ends here
    if everything after is erased too), GOOD (magic, sane length and CRC all right) or BAD.
    ``next`` may pass ``end`` for a BAD record too close to it."""
    if data[pos] == ERASED:
        return BLANK, pos
    nxt = step(data, pos, end)
    if data[pos] != MAGIC or nxt > end:
        return BAD, nxt
    if (data[pos + 2] << 8) | data[pos + 3] != nxt - pos - OVERHEAD:
        return BAD, nxt  # an insane length (step fell back to the smallest size)
    want = int.from_bytes(data[nxt - 4:nxt], "big")
    if crc32(data, pos, nxt - 4) != want:
        return BAD, nxt
    return GOOD, nxt


def kind_of(data, pos):
    return data[pos + 1]


def seq_of(data, pos):
    return int.from_bytes(data[pos + 4:pos + 8], "big")


def torn(data, pos, nxt, end):
    """A BAD record that looks like an interrupted append: it starts with the magic byte, fits,
    and its last byte is still erased (programming runs from the first byte to the last)."""
    return data[pos] == MAGIC and nxt <= end and data[nxt - 1] == ERASED


_FF = b"\xff" * 32


def erased(data, start, end):
    """True when ``data[start:end]`` is all erased bytes (compared 32 at a time)."""
    while end - start >= 32:
        if data[start:start + 32] != _FF:
            return False
        start += 32
    for i in range(start, end):
        if data[i] != ERASED:
            return False
    return True
