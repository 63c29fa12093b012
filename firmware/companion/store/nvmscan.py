"""Reading the nvm save log's records back (the format: nvmlog.py): where each ends, whether it
is whole, whether a power cut tore it. Needed only at mount (store/mount.py), once a VM.

``step`` tells where the record at a position ends using only the bytes inside that record, so
a torn record (a power cut while it was programmed) is skipped the same way on every later
mount: the bytes it covers are never programmed again until the sector is erased.
"""

from shared_rules._compat import const

from .crc32 import crc32
from .nvmlog import ERASED, HEADER, MAGIC, MAX_BODY, OVERHEAD

# check() verdicts
BLANK = const(0)  # erased byte where a record would start
GOOD = const(1)
BAD = const(2)


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
    c = crc32(data, pos, nxt - 4)
    if c >> 8 != (data[nxt - 4] << 16) | (data[nxt - 3] << 8) | data[nxt - 2]:
        return BAD, nxt
    # The last byte may be missing bits (power cut while programming exactly that byte):
    # the 24 bits before it already vouch for the record, so that counts as written.
    want = c & 0x7F
    if data[nxt - 1] & want != want:
        return BAD, nxt
    return GOOD, nxt


def seq_of(data, pos):
    # shifts, not int.from_bytes of a slice: no allocation while numbers stay below 2**30
    return (data[pos + 4] << 24) | (data[pos + 5] << 16) | (data[pos + 6] << 8) | data[pos + 7]


def torn(data, pos, nxt, end):
    """A BAD record that looks like an interrupted append: it starts with the magic byte (or
    some of its bits), fits, and its last byte is still erased (programming runs from the first
    byte to the last; a finished record never ends in 0xFF)."""
    return data[pos] & MAGIC == MAGIC and nxt <= end and data[nxt - 1] == ERASED


def hides(data, pos, nxt):
    """True when a good record starts inside ``data[pos + 1:nxt]``: a damaged length field made
    one record swallow the next ones, so it is not an unfinished append."""
    for i in range(pos + 1, nxt - OVERHEAD + 1):
        if data[i] == MAGIC and check(data, i, nxt)[0] == GOOD:
            return True
    return False


def good_after(data, pos, end):
    """True when a good record starts anywhere in ``data[pos + 1:end]``."""
    for i in range(pos + 1, end - OVERHEAD + 1):
        if data[i] == MAGIC and check(data, i, end)[0] == GOOD:
            return True
    return False


def one_write(data, pos, end, seq):
    """Could ``data[pos:end]`` be one save (a record numbered ``seq``, maybe followed by a
    12-byte record numbered ``seq + 1``) whose programming was cut, leaving bytes with only
    some of their bits? A page is programmed as a whole, so such bytes end with their page."""
    last = end - 1
    while last > pos and data[last] == ERASED:
        last -= 1
    if data[pos] == MAGIC and pos + HEADER <= end and seq_of(data, pos) == seq:
        return last < step(data, pos, end) + OVERHEAD  # the header was programmed
    if last >= (pos // 256 + 1) * 256:
        return False
    for i in range(pos + 1, last - HEADER + 2):  # a second record's header: two writes
        if data[i] == MAGIC and seq_of(data, i) == seq + 1:
            return False
    return True


def resized(data, pos, nxt):
    """True when the programmed part of a torn-looking record is a whole record after all, whose
    length field was damaged to point into erased space: damage, not an unfinished append."""
    last = nxt - 1
    while last > pos and data[last] == ERASED:
        last -= 1
    n = last + 1 - pos - OVERHEAD
    if n < 0:
        return False
    rec = bytearray(data[pos:last + 1])
    rec[2:4] = n.to_bytes(2, "big")
    c = crc32(rec, 0, 8 + n)
    want = c & 0x7F
    return c >> 8 == int.from_bytes(rec[8 + n:11 + n], "big") and rec[11 + n] & want == want


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
