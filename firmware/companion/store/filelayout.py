"""The store's files on littlefs, as both its halves read them (store/filestore.py writes and
reads, store/filemount.py reads at the mount): magic numbers, a frame's sizes, a sealed file's
check. The layout itself, the contract with `lunchbox pull`, is filestore.py's docstring."""

from shared_rules._compat import const

from .crc32 import crc32

ENOSPC = const(28)  # littlefs's "no space" (MicroPython's errno module lacks the name)
REC_MAGIC = b"LBR1"  # one record a file (the firmware before batches): read, never written
BATCH_MAGIC = b"LBR2"  # a frame of a batch file
HEAD = const(11)  # a frame's magic, seq, kind, length
FRAME = const(15)  # ... and its CRC: a frame is FRAME + its payload
STATE_MAGIC = b"LBS1"
# Bytes of free space a finished-game record may not take: the saved game (up to 1 KB, written
# aside before the old one goes) and the settings always find room, however many records wait.
RESERVE = const(24576)
BLOCK = const(4096)  # littlefs's block on the Pico
MSG_FULL = "Storage full - pull records with lunchbox pull"


def unseal(magic, data):
    """The body of a sealed file's bytes, or None when they are not one."""
    if data is None or len(data) < 8 or data[:4] != magic:
        return None
    body = data[4:-4]
    if crc32(body) != int.from_bytes(data[-4:], "big"):
        return None
    return body
