"""The record format of the nvm save log (see docs/persistence.md).

A record is ``magic kind length seq payload crc``::

    0  magic   1 byte   0xB7 (never 0xFF, the erased value, so a record start is never blank)
    1  kind    1 byte   what the record is (store.py)
    2  length  2 bytes  payload length, big-endian
    4  seq     4 bytes  sequence number, big-endian
    8  payload length bytes
    .  crc     4 bytes  CRC-32 of everything before it, big-endian, with the top bit of the
                     last byte cleared: a record never ends in 0xFF, so a last byte still
                     erased always means "not finished"

Writing a record is all the store does with this module while the app runs; reading them
back (nvmscan.py) is needed only at mount, once a VM.
"""

from shared_rules._compat import const

from .crc32 import crc32

MAGIC = const(0xB7)
HEADER = const(8)
OVERHEAD = const(12)  # header + crc
ERASED = const(0xFF)
MAX_BODY = const(1100)  # the largest payload the parser accepts (store limits keep below it)


def encode(kind, seq, body):
    """The bytes of one record."""
    n = len(body)
    rec = bytearray(OVERHEAD + n)
    rec[0] = MAGIC
    rec[1] = kind
    rec[2:4] = n.to_bytes(2, "big")
    rec[4:8] = seq.to_bytes(4, "big")
    rec[8:8 + n] = body
    rec[8 + n:] = (crc32(rec, 0, 8 + n) & 0xFFFFFF7F).to_bytes(4, "big")
    return rec
