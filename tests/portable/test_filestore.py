"""The file store (MicroPython's saves on littlefs) on a real folder: on CPython a temporary
folder, on the MicroPython lane the WebAssembly port's own file system through its os module.
The layout the host reads, remounts, cut writes, corrupt files, a full file system, and a power
cut at every file system call of a session (tests/test_filestore_powercut.py goes further on
CPython and on a littlefs image)."""

import os

from _harness import raises
from companion.store import filestore
from companion.store.crc32 import crc32
from companion.store.filestore import MSG_FULL, FileStore
from companion.store.saveformat import MSG_BLANK

_made = [0]


def fresh_root():
    try:
        import tempfile

        return tempfile.mkdtemp() + "/data"
    except ImportError:  # MicroPython: a new folder of its own file system
        _made[0] += 1
        return "/fstest{}".format(_made[0])


def clean(root):
    """Remove a store's folder (on a Pico's littlefs every folder takes two 4 KB blocks: the
    tests' folders would fill it)."""
    for sub in ("/rec", ""):
        try:
            names = os.listdir(root + sub)
        except OSError:
            continue
        for name in names:
            try:
                os.remove(root + sub + "/" + name)
            except OSError:
                pass
        try:
            os.rmdir(root + sub)
        except OSError:
            pass


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def state(s):
    return (s.load_game(), s.load_settings(), list(s.records()))


class PowerCut(BaseException):
    pass


class CutFs:
    """The real file system calls, with the power cut at call ``at`` (counted from 0): the
    call is not made (``half``: a write puts half its bytes down first, a rename or remove is
    made and then the power goes)."""

    def __init__(self, at=None, half=False, full_at=None):
        self.os = filestore._OsFs()
        self.at = at
        self.half = half
        self.full_at = full_at  # this call raises OSError(ENOSPC) instead
        self.n = 0

    def _step(self):
        n = self.n
        self.n += 1
        if n == self.full_at:
            raise OSError(28)
        return n == self.at

    def open(self, path, mode):
        if self._step():
            raise PowerCut()
        f = self.os.open(path, mode)
        return _CutFile(self, f, path if "a" in mode or "w" in mode else None)

    def rename(self, a, b):
        if self._step():
            if self.half:
                self.os.rename(a, b)
            raise PowerCut()
        self.os.rename(a, b)

    def remove(self, path):
        if self._step():
            if self.half:
                self.os.remove(path)
            raise PowerCut()
        self.os.remove(path)

    def listdir(self, path):
        return self.os.listdir(path)

    def mkdir(self, path):
        if self._step():
            raise PowerCut()
        self.os.mkdir(path)

    def statvfs(self, path):
        return self.os.statvfs(path)


class _CutFile:
    def __init__(self, fs, f, path=None):
        self.fs = fs
        self.f = f
        self.path = path
        self.size = None
        if path is not None:
            try:
                self.size = os.stat(path)[6]
            except OSError:
                self.size = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is OSError and self.size is not None and exc[1].args[0] == 28:
            # ENOSPC at close: as on littlefs (which commits a file at close), the file
            # stays as it was when opened
            self.f.close()
            data = read(self.path)[:self.size]
            write(self.path, data)
            return False
        if exc[0] is PowerCut:
            self.f.close()  # (the bytes written so far stay, as a cut can leave them)
            return False
        try:
            cut = self.fs._step()
        except OSError:
            self.__exit__(OSError, OSError(28), None)
            raise
        if cut:
            self.f.close()
            raise PowerCut()
        self.f.close()

    def read(self, n=-1):
        return self.f.read(n)

    def seek(self, at, whence=0):
        return self.f.seek(at, whence)

    def write(self, data):
        if self.fs._step():
            if self.fs.half:
                self.f.write(data[:len(data) // 2])
            raise PowerCut()
        return self.f.write(data)


def test_a_blank_folder_mounts_fresh_and_saves_round_trip():
    root = fresh_root()
    s = FileStore(root)
    assert s.status == MSG_BLANK
    assert state(s) == (None, None, [])
    # said once, when the folder is made: a game's VM of its own mounts it again, and the
    # notice's toast then covered every menu until a save
    assert FileStore(root).status is None
    assert s.save_game("aqua", b"\x01\x02") is True
    assert s.save_game("aqua", b"\x01\x02") is False  # unchanged: nothing written
    assert s.save_settings(b"names") is True
    assert s.save_settings(bytearray(b"names")) is False
    t = FileStore(root)
    assert t.status is None
    assert t.load_game() == ("aqua", b"\x01\x02") and t.load_settings() == b"names"
    assert t.clear_game() is True and t.clear_game() is False
    assert FileStore(root).load_game() is None
    clean(root)


def frame(seq, kind, payload):
    body = seq.to_bytes(4, "big") + bytes((kind, len(payload) >> 8, len(payload) & 255))
    body += payload
    return b"LBR2" + body + crc32(body).to_bytes(4, "big")


def test_records_are_the_batch_files_the_host_reads():
    root = fresh_root()
    s = FileStore(root)
    assert s.append_record(3, b"game one") == 1
    assert s.append_record(2, b"crash") == 2
    assert s.append_record(1, b"bare") == 3
    # the contract with `lunchbox pull`: rec/NNNNNNNN.rec (the first record's number) =
    # frames of LBR2, seq, kind, length, payload, CRC-32 of seq..payload, big-endian
    assert os.listdir(root + "/rec") == ["00000001.rec"]
    assert read(root + "/rec/00000001.rec") == (frame(1, 3, b"game one") + frame(2, 2, b"crash")
                                                + frame(3, 1, b"bare"))
    t = FileStore(root)
    assert list(t.records()) == [(1, 3, b"game one"), (2, 2, b"crash"), (3, 1, b"bare")]
    assert len(t.records()) == 3
    assert t.waiting() == 2  # the crash is not a game
    assert t.kept(b"are") and not t.kept(b"one")  # the newest game record, not a crash
    assert t.stats()["records"] == 3 and t.stats()["seq"] == 4
    clean(root)


def test_a_batch_ends_before_it_would_pass_batch_max():
    root = fresh_root()
    s = FileStore(root)
    big = bytes(range(256)) * 4  # 1024 bytes: 1039 a frame, three to a 4 KB batch
    for i in range(7):
        assert s.append_record(3, big[i:] + big[:i]) == i + 1
    assert sorted(os.listdir(root + "/rec")) == ["00000001.rec", "00000004.rec",
                                                 "00000007.rec"]
    assert [len(read(root + "/rec/" + n)) for n in sorted(os.listdir(root + "/rec"))] == [
        3 * 1039, 3 * 1039, 1039]
    t = FileStore(root)
    assert [(r[0], r[2]) for r in t.records()] == [(i + 1, big[i:] + big[:i]) for i in range(7)]
    assert t.waiting() == 7 and len(t.records()) == 7
    assert t.append_record(3, b"small") == 8  # the newest batch has room: appended
    assert sorted(os.listdir(root + "/rec"))[-1] == "00000007.rec"
    assert t.kept(b"small")
    clean(root)


def test_files_of_the_firmware_before_batches_still_read():
    root = fresh_root()
    s = FileStore(root)
    s.append_record(3, b"placeholder")
    clean(root)
    os.mkdir(root)
    os.mkdir(root + "/rec")
    for seq, kind, payload in ((4, 3, b"old game"), (5, 2, b"old crash")):
        body = bytes((kind,)) + payload
        write(root + "/rec/{:08d}.rec".format(seq), b"LBR1" + body + crc32(body).to_bytes(4, "big"))
    write(root + "/rec/00000006.rec", b"LBR1\x03damaged with the wrong crc")
    write(root + "/rec/00000003.rec", b"")  # no record at all: set aside at the mount
    t = FileStore(root)
    assert t.status == "Corrupt save files set aside: record 3"
    assert exists(root + "/rec/00000003.bad")
    assert len(t.records()) == 3
    assert list(t.records()) == [(4, 3, b"old game"), (5, 2, b"old crash")]
    assert t.status == "Corrupt save files set aside: record 3, record 6"
    assert t.kept(b"old game")
    assert t.append_record(3, b"new") == 7  # a batch of its own, after the old files
    assert read(root + "/rec/00000007.rec") == frame(7, 3, b"new")
    assert list(FileStore(root).records()) == [(4, 3, b"old game"), (5, 2, b"old crash"),
                                               (7, 3, b"new")]
    clean(root)


def test_sequence_numbers_never_come_again_after_the_host_took_the_files():
    root = fresh_root()
    s = FileStore(root)
    for i in range(3):
        s.append_record(3, ("g%d" % i).encode())
    for name in os.listdir(root + "/rec"):  # `lunchbox pull` stored them and removed them
        os.remove(root + "/rec/" + name)
    t = FileStore(root)
    assert list(t.records()) == [] and t.waiting() == 0
    assert t.kept(b"g2")  # the end of a game resumed after the pull keeps it once
    assert t.append_record(3, b"g3") == 4
    clean(root)


def test_ack_removes_the_files_and_never_hides_records_not_written():
    root = fresh_root()
    s = FileStore(root)
    for i in range(4):
        s.append_record(3, bytes((i,)))
    assert s.ack_records(2) is True
    assert s.ack_records(2) is False
    # the batch still holds 3 and 4: it stays, its first two hidden
    assert os.listdir(root + "/rec") == ["00000001.rec"]
    assert [r[0] for r in FileStore(root).records()] == [3, 4]
    assert [r[0] for r in FileStore(root).records(True)] == [1, 2, 3, 4]
    assert s.waiting() == 2 and len(s.records()) == 2
    assert s.ack_records(99) is True  # up to the newest only: the whole batch goes
    assert os.listdir(root + "/rec") == []
    assert s.append_record(3, b"new") == 5
    assert [r[0] for r in FileStore(root).records()] == [5]
    with raises(ValueError, "-1"):
        s.ack_records(-1)
    clean(root)


def test_bad_arguments_are_refused_and_nothing_written():
    root = fresh_root()
    s = FileStore(root)
    with raises(ValueError, "not bytes"):
        s.save_game("aqua", "text")
    with raises(ValueError, "over 1024"):
        s.save_settings(bytes(1025))
    with raises(ValueError, "1..32"):
        s.save_game("", b"")
    with raises(ValueError, "1..255"):
        s.append_record(0, b"")
    assert sorted(os.listdir(root)) == ["rec"]
    clean(root)


def test_a_cut_write_leaves_a_tmp_that_the_mount_removes():
    root = fresh_root()
    s = FileStore(root)
    s.save_game("aqua", b"old")
    write(root + "/game.tmp", b"LBS1half a new gam")
    write(root + "/rec/00000007.tmp", b"LBR2\x00\x00\x00\x07cut")
    t = FileStore(root)
    assert t.status is None and t.load_game() == ("aqua", b"old")
    assert sorted(os.listdir(root)) == ["game.lbs", "rec"]
    assert os.listdir(root + "/rec") == []
    clean(root)


def test_a_corrupt_game_file_is_set_aside_and_the_rest_kept():
    root = fresh_root()
    s = FileStore(root)
    s.save_game("aqua", b"game")
    s.save_settings(b"names")
    s.append_record(3, b"rec")
    data = bytearray(read(root + "/game.lbs"))
    data[6] ^= 0x40
    write(root + "/game.lbs", data)
    t = FileStore(root)
    assert t.status == "Corrupt save files set aside: game"
    assert t.load_game() is None and t.load_settings() == b"names"
    assert list(t.records()) == [(1, 3, b"rec")]
    assert exists(root + "/game.bad")
    # the notice comes back at every mount until a write follows it (it has been on screen)
    assert FileStore(root).status == "Corrupt save files set aside: game"
    t.save_game("aqua", b"again")
    assert not exists(root + "/game.bad")
    assert FileStore(root).status is None
    clean(root)


def test_a_corrupt_frame_is_skipped_and_named_and_its_batch_kept():
    root = fresh_root()
    s = FileStore(root)
    for i in range(3):
        s.append_record(3, ("record %d" % i).encode())
    path = root + "/rec/00000001.rec"
    data = bytearray(read(path))
    data[len(frame(1, 3, b"record 0")) + 13] ^= 0x20  # a byte of record 2's payload
    write(path, data)
    t = FileStore(root)
    assert t.status is None and len(t.records()) == 3  # the mount reads no payload
    assert [r[0] for r in t.records()] == [1, 3]
    assert t.status == "Corrupt save files set aside: record 2"
    assert read(path) == data  # kept whole, for the host (it stores 1 and 3, says so)
    assert t.append_record(3, b"next") == 4
    assert [r[0] for r in FileStore(root).records()] == [1, 3, 4]
    clean(root)


def test_a_batch_cut_short_is_cut_back_to_its_whole_frames():
    # littlefs commits an append at close; a folder of another file system may keep part
    root = fresh_root()
    s = FileStore(root)
    s.append_record(3, b"one")
    s.append_record(3, b"two")
    path = root + "/rec/00000001.rec"
    whole = read(path)
    for cut in (3, 11, 19):
        write(path, whole + frame(3, 3, b"three")[:cut])
        t = FileStore(root)
        assert t.status is None and read(path) == whole
        assert list(t.records()) == [(1, 3, b"one"), (2, 3, b"two")]
    assert t.append_record(3, b"three") == 4  # 3 was taken before the cut: a gap
    assert [r[0] for r in FileStore(root).records()] == [1, 2, 4]
    assert sorted(os.listdir(root + "/rec")) == ["00000001.rec", "00000004.rec"]
    # a bad header further in: what comes before it is kept, the batch never appended to
    write(path, whole + b"LBR2\x00\x00\x00\x09" + bytes(40))
    u = FileStore(root)
    assert u.status == "Corrupt save files set aside: record 3"
    assert [r[0] for r in u.records()] == [1, 2, 4]
    clean(root)


def test_corrupt_settings_and_counters_say_so_and_keep_the_game():
    root = fresh_root()
    s = FileStore(root)
    s.save_game("aqua", b"game")
    s.save_settings(b"names")
    s.append_record(3, b"r")
    write(root + "/settings.lbs", b"LBS1")
    write(root + "/meta.lbs", b"\xff" * 20)
    t = FileStore(root)
    assert t.status == "Corrupt save files set aside: settings, record counters"
    assert t.load_game() == ("aqua", b"game") and t.load_settings() is None
    assert t.append_record(3, b"next") == 2  # numbered on from the files
    clean(root)


def test_a_full_file_system_loses_nothing_saved():
    root = fresh_root()
    s = FileStore(root)
    s.save_game("aqua", b"saved")
    s.save_settings(b"names")
    s.append_record(3, b"kept")
    for at in range(4):  # ENOSPC at the open, write, close, rename of the new game's file
        s.fs = CutFs(full_at=at)
        assert s.save_game("aqua", b"new") is False and s.unsaved
        assert s.status == MSG_FULL and s.full
        assert s.load_game() == ("aqua", b"saved")
        assert sorted(os.listdir(root)) == ["game.lbs", "meta.lbs", "rec", "settings.lbs"]
    s.fs = CutFs(full_at=1)
    assert s.save_settings(b"other") is False and s.load_settings() == b"names"
    # the counters' write (open, write, close, rename), then the record's appended to its
    # batch (open, write, close)
    for at in range(7):
        s.fs = CutFs(full_at=at)
        assert s.append_record(3, b"no room") is None
        assert read(root + "/rec/00000001.rec") == frame(1, 3, b"kept")
    # a new batch's file (open, write, close, rename): the one before it is not appended to
    for at in range(4):
        s._batches[-1][3] = False
        s.fs = CutFs(full_at=4 + at)
        assert s.append_record(3, b"no room") is None
        assert os.listdir(root + "/rec") == ["00000001.rec"]
    s.fs = filestore._OsFs()
    t = FileStore(root)
    assert t.load_game() == ("aqua", b"saved") and t.load_settings() == b"names"
    assert list(t.records()) == [(1, 3, b"kept")]
    assert t.save_game("aqua", b"new") is True  # room again: it saves
    clean(root)


def test_a_power_cut_at_every_call_leaves_the_last_complete_state():
    steps = (
        lambda s: s.save_settings(b"names"),
        lambda s: s.save_game("aqua", b"g1"),
        lambda s: s.append_record(3, b"end of g1"),
        lambda s: s.save_game("aqua", b"g2"),
        lambda s: s.append_record(2, b"crash"),
        lambda s: s.ack_records(1),
        lambda s: s.clear_game(),
    )
    # the states after each step, without cuts
    root = fresh_root()
    s = FileStore(root)
    states = [state(s)]
    for step in steps:
        step(s)
        states.append(state(FileStore(root)))
    clean(root)
    total = CutFs()
    root = fresh_root()
    s = FileStore(root, total)
    for step in steps:
        step(s)
    clean(root)
    cuts = 0
    for half in (False, True):
        for at in range(total.n):
            root = fresh_root()
            fs = CutFs(at, half)
            s = None
            done = 0
            try:
                s = FileStore(root, fs)
                for step in steps:
                    step(s)
                    done += 1
            except PowerCut:
                cuts += 1
            got = FileStore(root)
            assert got.status in (None, MSG_BLANK), (at, half, got.status)
            # the step cut is either not done or done, never half
            assert state(got) in (states[done], states[done + 1]), (at, half, state(got))
            assert not [n for n in os.listdir(root) if n.endswith(".tmp")]
            # and the store goes on from there
            got.save_game("lunch", b"after")
            assert FileStore(root).load_game() == ("lunch", b"after")
            clean(root)
    assert cuts == 2 * total.n and total.n > 30

