"""How many finished-game records a 2 MB Pico keeps on MicroPython's littlefs, and what an
append and a mount cost.

Plain MicroPython 1.24.1 for the Pico leaves 1408 KB of the flash to its file system: littlefs
v2, 4 KB blocks (352 of them), set up as the rp2 port mounts it (rp2's _boot.py: VfsLfs2 with
progsize=256; extmod/vfs_lfs.c's defaults for the rest: read 32, lookahead 32, so a 1 KB cache,
and block_cycles 100). This builds such an image with littlefs-python (the same C library),
puts on it what `lunchbox sync` puts on a board (lunchbox.device.mpfiles.board_files: the .mpy,
/lib, settings.toml), then runs the firmware's own FileStore on it and appends finished-game
records until the store refuses one (it keeps RESERVE bytes for the saved game). It prints, for
each record size, how many fit, what room() said beforehand, and what an append costs the flash
on average (blocks erased, bytes programmed, bytes littlefs read); then the same for 200-byte
records in batches of other sizes (the store's BATCH_MAX is chosen from these), and what a
mount with records waiting reads (the store reads frame headers, no payload).

    .venv/bin/python bench/mp_records.py [--profile pico-display-pack-mp] [--quick]
    .venv/bin/python bench/mp_records.py --board   (the store's times and heap on the
                                                    emulated Pico: MicroPython 1.24.1)
"""

import argparse
import sys
from pathlib import Path

import littlefs
from littlefs.errors import LittleFSError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT))

from companion.store.filestore import BATCH_MAX, FileStore  # noqa: E402

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

    def read(self, n=-1):
        return self.fs._call(self.f.read, n)

    def seek(self, at, whence=0):
        return self.fs._call(self.f.seek, at, whence)

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


class Counting(littlefs.UserContext):
    """The flash, counting what littlefs does to it."""

    def __init__(self, buffer):
        super().__init__(buffer=buffer)
        self.erases = self.progged = self.read_bytes = 0

    def read(self, cfg, block, off, size):
        self.read_bytes += size
        return super().read(cfg, block, off, size)

    def prog(self, cfg, block, off, data):
        self.progged += len(data)
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.erases += 1
        return super().erase(cfg, block)


class CountingFs(LfsFs):
    """The store's own file calls, counted: files opened, bytes it read."""

    def __init__(self, fs):
        super().__init__(fs)
        self.opens = self.read_bytes = 0

    def open(self, path, mode):
        self.opens += 1
        f = super().open(path, mode)
        read = f.read

        def counted(n=-1):
            out = read(n)
            self.read_bytes += len(out)
            return out

        f.read = counted
        return f


def counted(fs):
    """``fs`` (a littlefs-python LittleFS) again, on a flash that counts."""
    ctx = Counting(bytearray(fs.context.buffer))
    return ctx, littlefs.LittleFS(context=ctx, mount=True, **GEOMETRY)


def fill(size, files, game=600, batch=None):
    """(records kept, room() said at the start, erases, bytes programmed, bytes read by
    littlefs for an append on average) for records of ``size`` bytes beside a saved game of
    ``game`` bytes and the settings."""
    ctx, fs = counted(image(files))
    store = FileStore("/data", fs=LfsFs(fs))
    if batch is not None:
        store.batch_max = batch
    store.save_settings(bytes(42))
    store.save_game("space_lunch", bytes(range(256)) * (game // 256) + bytes(game % 256))
    said = store.room(size)
    n = 0
    ctx.erases = ctx.progged = ctx.read_bytes = 0
    while store.append_record(3, bytes((n + k) & 0xFF for k in range(size))) is not None:
        n += 1
    cost = (ctx.erases / n, ctx.progged / n, ctx.read_bytes / n)
    # the saved game still saves, and everything kept mounts back, in order
    store.save_game("space_lunch", bytes(game))
    again = FileStore("/data", fs=LfsFs(fs))
    assert again.load_game() == ("space_lunch", bytes(game))
    assert len(again.records()) == n
    assert [r[0] for r in again.records()] == list(range(1, n + 1))
    return (n, said) + cost


def mount_cost(files, waiting, size=200):
    """What a mount reads with ``waiting`` records of ``size`` bytes on the board: (files the
    store opened, bytes it read, bytes littlefs read from the flash, the records' bytes)."""
    fs = image(files)
    store = FileStore("/data", fs=LfsFs(fs))
    for i in range(waiting):
        store.append_record(3, bytes((i + k) & 0xFF for k in range(size)))
    ctx, fs = counted(fs)
    calls = CountingFs(fs)
    ctx.read_bytes = 0
    again = FileStore("/data", fs=calls)
    assert again.waiting() == waiting and len(again.records()) == waiting
    return calls.opens, calls.read_bytes, ctx.read_bytes, waiting * size


PROBE = """
import sys, gc, time
sys.path.insert(0, '/lib')
from companion.store.filestore import FileStore
gc.collect()
a = gc.mem_alloc()
t0 = time.ticks_ms()
s = FileStore('/data')
t1 = time.ticks_ms()
m = t1 - t0
gc.collect()
b = gc.mem_alloc()
t1 = time.ticks_ms()
n = s.waiting()
t2 = time.ticks_ms()
k = len(s.records())
t3 = time.ticks_ms()
seq = s.append_record(3, bytes(200))
t4 = time.ticks_ms()
s.append_record(3, bytes(200))
t5 = time.ticks_ms()
s.kept(bytes(200))
t6 = time.ticks_ms()
print('@@', n, k, seq, m, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, b - a, s.status)
"""


def on_board(waiting, size=200):
    """Times and heap on plain MicroPython 1.24.1 in rp2040js (tests/mpboard.py): its flash's
    littlefs replaced by an image holding the store's modules and ``waiting`` records of
    ``size`` bytes; then the store mounted, counted, appended to twice, asked kept().
    Returns the probe's figures (ms by the board's clock, heap bytes)."""
    import subprocess
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from mpboard import FILESTORE_FILES, PLAIN_UF2, EmulatedBoard

    files = {}
    for src, dst in FILESTORE_FILES:
        files["lib/" + dst] = (ROOT / src).read_bytes()
    fs = image(files)
    store = FileStore("/data", fs=LfsFs(fs))
    for i in range(waiting):
        store.append_record(3, bytes((i + k) & 0xFF for k in range(size)))
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "board.flash"
        board = EmulatedBoard(flash)
        board.start(uf2=PLAIN_UF2)  # the firmware in, its littlefs formatted
        board.stop()
        data = bytearray(flash.read_bytes())
        base = 0xA0000  # 1.24.1's littlefs: the last 1408 KB of the 2 MB
        data[base:base + BLOCK * BLOCKS] = fs.context.buffer
        flash.write_bytes(bytes(data))
        board.start()
        try:
            script = Path(tmp) / "probe.py"
            script.write_text(PROBE)
            out = subprocess.run([str(Path(sys.executable).with_name("mpremote")), "connect",
                                  board.port, "run", str(script)], capture_output=True,
                                 text=True, timeout=900).stdout
        finally:
            board.stop()
    line = [x for x in out.splitlines() if x.startswith("@@")]
    if not line:
        raise RuntimeError("the board said: " + out)
    return line[0].split()[1:]


ROW = "{:>14} {:>13} {:>16} {:>14} {:>14} {:>14}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", default="pico-display-pack-mp")
    ap.add_argument("--quick", action="store_true", help="the record sizes only")
    ap.add_argument("--board", action="store_true",
                    help="only the times and heap on MicroPython 1.24.1 in rp2040js")
    args = ap.parse_args()
    if args.board:
        print("MicroPython 1.24.1 in rp2040js (ms by its clock), 200-byte records waiting:")
        for waiting in (0, 300, 1000):
            f = on_board(waiting)
            print("  {:>5} waiting: mount {} ms, waiting() {} ms ({}), len(records()) {} ms, "
                  "an append {} ms then {} ms, kept() {} ms; the store's heap {} B".format(
                      waiting, f[3], f[4], f[0], f[5], f[6], f[7], f[8], f[9]), flush=True)
        return
    files = board_files(args.profile)
    fs = image(files)
    print("littlefs {} KB ({} blocks of {} B); the board's files for {}: {} files, {} KB, "
          "{} blocks; batches of up to {} B".format(
              BLOCK * BLOCKS // 1024, BLOCKS, BLOCK, args.profile, len(files),
              sum(len(v) for v in files.values()) // 1024, fs.used_block_count, BATCH_MAX))
    print(ROW.format("record bytes", "records kept", "room() at start", "erases/append",
                     "prog B/append", "read B/append"))
    row = "{:>14} {:>13} {:>16} {:>14.2f} {:>14.0f} {:>14.0f}"
    for size in (90, 200, 260, 512):
        print(row.format(size, *fill(size, files)), flush=True)
    if args.quick:
        return
    print("200-byte records, batches of other sizes:")
    for batch in (1024, 2048, 8192):
        print(row.format("batch " + str(batch), *fill(200, files, batch=batch)), flush=True)
    print("a mount with 200-byte records waiting:")
    for waiting in (100, 500, 1000):
        opens, store_read, flash_read, payload = mount_cost(files, waiting)
        print("  {:>5} waiting: {} files opened, the store read {} B (frame headers; the "
              "records hold {} B), littlefs read {} KB of flash".format(
                  waiting, opens, store_read, payload, flash_read // 1024), flush=True)


if __name__ == "__main__":
    main()
