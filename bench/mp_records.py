"""How many finished-game records a 2 MB Pico keeps on MicroPython's littlefs.

Plain MicroPython 1.24.1 for the Pico leaves 1408 KB of the flash to its file system: littlefs
v2, 4 KB blocks (352 of them), set up as the rp2 port mounts it (read 32, prog 256 bytes: a
1 KB cache, 32 bytes of lookahead, block_cycles 100; extmod/vfs_lfsx.c). This builds such an
image with littlefs-python (the same C library), puts on it what `lunchbox sync` puts on a
board (lunchbox.device.mpfiles.board_files: the .mpy, /lib, settings.toml), then runs the
firmware's own FileStore on it and appends finished-game records until the store refuses one
(it keeps RESERVE bytes for the saved game). It prints, for each record size, how many fit,
what room() said beforehand, and, for comparison only, how many would fit packed several to
a file (not the layout the host reads).

    .venv/bin/python bench/mp_records.py [--profile pico-display-pack-mp]
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


def board_files(profile="pico-display-pack-mp"):
    """What `lunchbox sync` puts on a MicroPython board for ``profile`` (board path ->
    bytes: main.py, settings.toml, companion/ and shared_rules/ as .mpy, lib/)."""
    from lunchbox.device import mpfiles

    return mpfiles.board_files(profile)


def image(files):
    """A fresh littlefs of the Pico's geometry holding ``files`` (board path -> bytes)."""
    fs = littlefs.LittleFS(**GEOMETRY)
    for path in sorted(files):
        parts = path.split("/")
        for i in range(1, len(parts)):
            d = "/" + "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open("/" + path, "wb") as f:
            f.write(files[path])
    return fs


def fill(size, files, game=600):
    """(records kept, room() said at the start, blocks used by the firmware) for records of
    ``size`` bytes beside a saved game of ``game`` bytes and the settings."""
    fs = image(files)
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


def packed(size, files, per_block=BLOCK - 256):
    """For comparison, not the store's layout: records of ``size`` bytes appended into
    shared files of up to ``per_block`` bytes (several records a file). How many fit."""
    fs = image(files)
    n = k = 0
    try:
        while True:
            name = "/r{:06d}".format(k)
            with fs.open(name, "wb") as f:
                used = 0
                while used + size + 9 <= per_block:
                    f.write(bytes(size + 9))
                    used += size + 9
                    n += 1
            k += 1
    except LittleFSError:
        pass
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", default="pico-display-pack-mp")
    args = ap.parse_args()
    files = board_files(args.profile)
    fs = image(files)
    print("littlefs {} KB ({} blocks of {} B); the board's files for {}: {} files, {} KB, "
          "{} blocks".format(BLOCK * BLOCKS // 1024, BLOCKS, BLOCK, args.profile, len(files),
                             sum(len(v) for v in files.values()) // 1024,
                             fs.used_block_count))
    print("{:>12} {:>14} {:>16} {:>22}".format("record bytes", "records kept",
                                               "room() at start", "packed, for comparison"))
    for size in (90, 200, 260, 512, 1024):
        n, said, base = fill(size, files)
        print("{:>12} {:>14} {:>16} {:>22}".format(size, n, said, packed(size, files)))


if __name__ == "__main__":
    main()
