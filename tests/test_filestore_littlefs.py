"""The file store on littlefs itself (littlefs-python: the C library MicroPython's rp2 port
mounts, with the Pico's geometry) and on CPython folders: the reserve that keeps the saved game
saveable however many records wait, room() never promising more than fits, littlefs's own
ENOSPC, the figures stats() gives, and a folder the store cannot use. (The portable tests,
tests/portable/test_filestore.py, run the rest on CPython and on MicroPython.)"""

import sys
from pathlib import Path

import littlefs
import pytest

from companion.store.filestore import MSG_FULL, RESERVE, FileStore, rec_cost
from companion.store.saveformat import MSG_ERROR

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import mp_records


def small_image(blocks=48):
    """A littlefs of the Pico's block and page sizes, fewer blocks (quick to fill)."""
    geometry = dict(mp_records.GEOMETRY, block_count=blocks)
    return littlefs.LittleFS(**geometry)


class SmallFs(mp_records.LfsFs):
    def __init__(self, fs):
        super().__init__(fs)
        self.blocks = fs.block_count

    def statvfs(self, path):
        used = self.lfs.used_block_count
        return (4096, 4096, self.blocks, self.blocks - used, self.blocks - used, 0, 0, 0, 0,
                255)


def remount(fs):
    """The same flash mounted again (what the board sees after a reset)."""
    geometry = dict(mp_records.GEOMETRY, block_count=fs.block_count)
    ctx = littlefs.UserContext(buffer=bytearray(fs.context.buffer))
    return littlefs.LittleFS(context=ctx, **geometry)


@pytest.mark.parametrize("size", [90, 260, 700])
def test_records_fill_up_to_the_reserve_and_the_game_still_saves(size):
    fs = small_image()
    s = FileStore("/data", SmallFs(fs))
    s.save_settings(b"names" * 8)
    s.save_game("space_lunch", bytes(900))
    said = s.room(size)
    n = 0
    while s.append_record(3, bytes([n & 255]) * size) is not None:
        n += 1
    assert s.status == MSG_FULL and s.full
    assert s.room(size) == 0
    # room() erred low, never high, and not by much
    assert 0 < said <= n and said >= n * 0.6, (said, n)
    # the reserve: a whole game's saves still go down, a byte at a time
    for i in range(60):
        assert s.save_game("space_lunch", bytes(900 - i) + bytes([i])) is True
    again = FileStore("/data", SmallFs(remount(fs)))
    assert again.status == MSG_FULL  # said at every start until records are pulled
    assert again.load_game() == ("space_lunch", bytes(841) + bytes([59]))
    assert len(again.records()) == n
    assert [r[0] for r in again.records()] == list(range(1, n + 1))


def test_littlefs_own_no_space_keeps_the_last_save():
    fs = small_image(24)
    s = FileStore("/data", SmallFs(fs))
    s.save_game("aqua", b"saved")
    # something else fills the file system (files the host put there)
    i = 0
    try:
        while True:
            with fs.open("/junk{}".format(i), "wb") as f:
                f.write(bytes(4096))
            i += 1
    except littlefs.errors.LittleFSError:
        pass
    assert s.save_game("aqua", bytes(1000)) is False
    assert s.unsaved and s.status == MSG_FULL
    assert s.load_game() == ("aqua", b"saved")
    assert FileStore("/data", SmallFs(remount(fs))).load_game() == ("aqua", b"saved")
    assert s.append_record(3, b"end") is None


def test_stats_are_the_file_system_s():
    fs = small_image()
    s = FileStore("/data", SmallFs(fs))
    s.append_record(3, b"one")
    st = s.stats()
    assert st["size"] == 48 * 4096 and st["used"] == fs.used_block_count * 4096
    assert st["free"] == st["size"] - st["used"] and st["records"] == 1 and st["seq"] == 2
    # beside the reserve, one block kept for the write itself (an append copies its block)
    assert s.room(200) == (st["free"] - RESERVE - 4096) // rec_cost(200)


def test_a_root_the_store_cannot_use_is_memory_only_with_a_message(tmp_path):
    (tmp_path / "data").write_text("a file, not a folder")
    s = FileStore(str(tmp_path / "data"))
    assert s.status == MSG_ERROR and s.error is not None
    assert s.save_game("aqua", b"x") is True and s.load_game() == ("aqua", b"x")
    assert s.append_record(3, b"r") == 1
    assert (tmp_path / "data").read_text() == "a file, not a folder"


def test_files_that_are_not_the_store_s_are_left_alone(tmp_path):
    root = tmp_path / "data"
    s = FileStore(str(root))
    s.append_record(3, b"one")
    (root / "rec" / "README.txt").write_text("the host's")
    (root / "rec" / "notes.rec").write_text("not a number")
    (root / "other.bin").write_bytes(b"\x00")
    t = FileStore(str(root))
    assert t.status is None and [r[0] for r in t.records()] == [1]
    t.save_game("aqua", b"g")
    assert (root / "rec" / "README.txt").exists() and (root / "other.bin").exists()


@pytest.mark.soak
def test_on_micropython_1_24_on_an_emulated_pico(tmp_path):
    """The portable file store tests on plain MicroPython 1.24.1 for the Pico (its UF2 in
    rp2040js: its own littlefs on its own flash driver), and the geometry the capacity bench
    assumes is the board's: a commit after the format starts 256 bytes in (prog size 256)."""
    import subprocess
    import time

    from mpboard import FILESTORE_FILES, PLAIN_UF2, EmulatedBoard

    root = Path(__file__).resolve().parent.parent
    stage = tmp_path / "lib"
    for src, dst in FILESTORE_FILES + (("tests/portable/_harness.py", "_harness.py"),
                                       ("tests/portable/test_filestore.py", "test_filestore.py")):
        (stage / dst).parent.mkdir(parents=True, exist_ok=True)
        (stage / dst).write_bytes((root / src).read_bytes())
    driver = tmp_path / "driver.py"
    driver.write_text("import sys, gc\nsys.path.insert(0, '/lib')\nimport test_filestore as m\n"
                      "for n in sorted(dir(m)):\n"
                      "    if n.startswith('test_'):\n"
                      "        gc.collect()\n"
                      "        try:\n"
                      "            getattr(m, n)()\n"
                      "            print('PASS', n)\n"
                      "        except BaseException as e:\n"
                      "            print('FAIL', n)\n"
                      "            sys.print_exception(e)\n")
    mpremote = str(Path(sys.executable).with_name("mpremote"))
    flash = tmp_path / "flash.bin"
    board = EmulatedBoard(flash)
    board.start(uf2=PLAIN_UF2)  # a blank flash: MicroPython formats its littlefs at boot
    try:
        time.sleep(1)
        subprocess.run([mpremote, "connect", board.port, "exec", "import os; os.mkdir('/x')"],
                       check=True, capture_output=True, timeout=300)
    finally:
        board.stop()
    # littlefs at 0xA0000 (the last 1408 KB of 2 MB): block 1 holds the format's commit, then
    # the mkdir's, at the next prog-size boundary: 256, the bench's geometry
    block1 = flash.read_bytes()[0xA0000 + 4096:0xA0000 + 8192]
    assert block1[64:256] == b"\xff" * 192 and block1[256] != 0xFF
    assert mp_records.GEOMETRY["prog_size"] == 256
    board.start()
    try:
        time.sleep(1)
        subprocess.run([mpremote, "connect", board.port, "fs", "cp", "-r", str(stage), ":"],
                       check=True, capture_output=True, timeout=300)
        out = subprocess.run([mpremote, "connect", board.port, "run", str(driver)],
                             capture_output=True, text=True, timeout=900).stdout
    finally:
        board.stop()
    names = [n for n in dir(__import__("test_filestore")) if n.startswith("test_")]
    assert sorted(line.split()[1] for line in out.splitlines()
                  if line.startswith("PASS")) == sorted(names), out
