"""How many finished-game records a 2 MB Pico keeps on MicroPython's littlefs.

Plain MicroPython 1.24.1 for the Pico leaves 1408 KB of the flash to its file system: littlefs
v2, 4 KB blocks (352 of them), set up as the rp2 port mounts it (read 32, prog 256 bytes: a
1 KB cache, 32 bytes of lookahead, block_cycles 100; extmod/vfs_lfsx.c). This builds such an
image with littlefs-python (the same C library), puts on it what a board carries (the firmware's
files: ~320 KB of .mpy, /lib, settings.toml), then runs the firmware's own FileStore on it and
appends finished-game records until the store refuses one (it keeps RESERVE bytes for the
saved game). It prints, for each record size, how many fit and what room() said beforehand.

    .venv/bin/python bench/mp_records.py [--firmware-kb 320]
"""

import argparse
import sys
from pathlib import Path

import littlefs
from littlefs.errors import LittleFSError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT))

from companion.core.filestore import FileStore  # noqa: E402

BLOCK = 4096
BLOCKS = 352  # 1408 KB: MicroPython 1.24.1's rp2 file system on a 2 MB Pico
GEOMETRY = dict(block_size=BLOCK, block_count=BLOCKS, read_size=32, prog_size=256,
                cache_size=1024, lookahead_size=32, block_cycles=100)


class LfsFs:
    """FileStore's file system calls on a littlefs-python image: littlefs's errors as the
    OSError numbers MicroPython raises (ENOSPC 28, ENOENT 2, EEXIST 17)."""

    def __init__(self, fs):
        self.lfs = fs

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except LittleFSError as e:
            raise OSError(-e.code) from None

    def open(self, path, mode):
        return _File(self, self._call(self.lfs.open, path, mode))

    def rename(self, a, b):
        self._call(self.lfs.rename, a, b)

    def remove(self, path):
        self._call(self.lfs.remove, path)

    def listdir(self, path):
        return self._call(self.lfs.listdir, path)

    def mkdir(self, path):
        self._call(self.lfs.mkdir, path)

    def statvfs(self, path):
        used = self._call(lambda: self.lfs.used_block_count)
        return (BLOCK, BLOCK, BLOCKS, BLOCKS - used, BLOCKS - used, 0, 0, 0, 0, 255)


class _File:
    def __init__(self, fs, f):
        self.fs = fs
        self.f = f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def read(self):
        return self.fs._call(self.f.read)

    def write(self, data):
        return self.fs._call(self.f.write, data)

    def close(self):
        self.fs._call(self.f.close)


def image(firmware_kb=320):
    """A fresh littlefs of the Pico's geometry holding ``firmware_kb`` of firmware files (40
    files, as companion/ and lib/ have about that many of a few KB each... and more)."""
    fs = littlefs.LittleFS(**GEOMETRY)
    fs.mkdir("/lib")
    n = max(1, firmware_kb // 8)
    for i in range(n):
        with fs.open("/lib/m{:03d}.mpy".format(i), "wb") as f:
            f.write(bytes((i * 7 + j) & 0xFF for j in range(8 * 1024)))
    return fs


def fill(size, firmware_kb=320, game=600):
    """(records kept, room() said at the start, blocks used by the firmware) for records of
    ``size`` bytes beside a saved game of ``game`` bytes and the settings."""
    fs = image(firmware_kb)
    base = fs.used_block_count
    store = FileStore("/data", fs=LfsFs(fs))
    store.save_settings(bytes(42))
    store.save_game("space_lunch", bytes(range(256)) * (game // 256) + bytes(game % 256))
    said = store.room(size)
    n = 0
    while store.append_record(3, bytes((n + k) & 0xFF for k in range(size))) is not None:
        n += 1
    # the saved game still saves, and everything kept mounts back
    store.save_game("space_lunch", bytes(game))
    again = FileStore("/data", fs=LfsFs(fs))
    assert again.load_game() == ("space_lunch", bytes(game))
    assert len(again.records()) == n
    return n, said, base


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--firmware-kb", type=int, default=320)
    args = ap.parse_args()
    print("littlefs {} KB ({} blocks of {} B), firmware files {} KB".format(
        BLOCK * BLOCKS // 1024, BLOCKS, BLOCK, args.firmware_kb))
    print("{:>12} {:>14} {:>16}".format("record bytes", "records kept", "room() at start"))
    for size in (90, 200, 260, 512, 1024):
        n, said, base = fill(size, args.firmware_kb)
        print("{:>12} {:>14} {:>16}".format(size, n, said))


if __name__ == "__main__":
    main()
