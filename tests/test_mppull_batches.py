"""`lunchbox pull` of the batch files the MicroPython firmware writes (records/mppull.py).

The board's files are made by the firmware's own FileStore (companion/store/filestore.py), in a
real folder standing for the board's /data, or on the real board: MicroPython 1.24.1 in
rp2040js (tests/mpboard.py), its own littlefs, reached by `lunchbox pull` over real mpremote.
The records go into a real games database. What is proved: every record of a batch is stored
once, a file is removed only once all its records are stored, a cut at every call of a pull
(each read, each commit, each removal) loses nothing and stores nothing twice, a damaged frame
is one corrupt record (its bytes kept, one line said, numbered by its place in the file) and
the good ones around it are stored, and the files of the firmware before batches (one record
each) still come in.
"""

import os
import shutil
import sys
from pathlib import Path

import pytest

from companion.store.filestore import FileStore
from lunchbox.errors import LunchboxError
from lunchbox.records import db as dbmod
from lunchbox.records import mppull
from lunchbox.records.pull import summary

UID = "e6614103e7452d2f"


class CableCut(LunchboxError):
    pass


class Info:
    uid = UID
    release = "1.24.1"


class FolderBoard:
    """What pull_board asks of an open board (mpboard.Board's calls), answered from a real
    folder holding the board's /data; the cable is cut at call ``cut`` (a read, a removal, or
    the database commit between them: ``cut_commit`` says before it or after it)."""

    def __init__(self, root, cut=None, cut_commit="before"):
        self.root = Path(root)
        self.cut = cut
        self.cut_commit = cut_commit
        self.n = 0
        self.removed = []

    def step(self):
        n = self.n
        self.n += 1
        if n == self.cut:
            raise CableCut("the board stopped answering")

    def stop_app(self):
        return Info()

    def manifest(self):
        return {"profile": "pico-ssd1306-5btn-mp"}

    def set_clock(self, t):
        pass

    def _local(self, path):
        return self.root / path.lstrip("/")

    def walk(self, folders):
        out = []
        for folder in folders:
            base = self._local(folder)
            if base.is_dir():
                for p in sorted(base.iterdir()):
                    out.append(("/" + str(p.relative_to(self.root)), p.stat().st_size))
        return out

    def read(self, path, doing=None):
        self.step()
        p = self._local(path)
        return p.read_bytes() if p.exists() else None

    def remove(self, path):
        self.step()
        p = self._local(path)
        if p.exists():
            p.unlink()
            self.removed.append(path)


class CutDb:
    """The real database; its commits count as calls of the pull, cut before or after."""

    def __init__(self, db, board):
        self.db = db
        self.board = board

    def __getattr__(self, name):
        return getattr(self.db, name)

    def store_batch(self, *args):
        if self.board.cut_commit == "before":
            self.board.step()
            return self.db.store_batch(*args)
        out = self.db.store_batch(*args)
        self.board.step()
        return out


_GAMES = []


def games():
    """Real finished-game records, as the firmware keeps them (tests/test_pull.py plays them)."""
    if not _GAMES:
        import test_pull

        b = test_pull.board_with_games(4)
        _GAMES.extend(bytes(p) for _, kind, p in b.store.records() if kind == 3)
    return _GAMES


def payload(i, kind=3):
    if kind == 2:
        return "MenuScreen|ValueError: boom {}".format(i).encode()
    return games()[i % len(games())]


def board_with_records(root, n=80, crash_at=(5,), several=True):
    """A board's /data after ``n`` records (crashes at ``crash_at``) written by the firmware's
    own store: batch files of up to 4 KB. Returns [(seq, kind, payload)]."""
    Path(root).mkdir(parents=True, exist_ok=True)
    s = FileStore(str(Path(root) / "data"))
    assert s.root is not None
    recs = []
    for i in range(n):
        kind = 2 if i in crash_at else 3
        seq = s.append_record(kind, payload(i, kind))
        recs.append((seq, kind, payload(i, kind)))
    assert len(s._batches) >= 2 or not several  # several batch files
    return recs


def stored(db_path):
    with dbmod.Database(str(db_path)) as db:
        rows = db.conn.execute("SELECT seq, kind, raw, status FROM records").fetchall()
        return sorted((r["seq"], r["kind"], bytes(r["raw"]), r["status"]) for r in rows)


def rec_files(root):
    return sorted(os.listdir(Path(root) / "data" / "rec"))


def test_batches_are_stored_once_and_each_file_removed_when_all_its_records_are(tmp_path):
    board = tmp_path / "board"
    recs = board_with_records(board)
    files = rec_files(board)
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        fb = FolderBoard(board)
        res = mppull.pull_board(fb, db, set_clock=False, batch=10)
    assert res.new == 80 and res.already == 0 and res.crashes == 1 and not res.corrupt
    assert res.waiting == 0 and fb.removed == ["/data/rec/" + n for n in files]
    rows = stored(tmp_path / "g.db")
    assert [(r[0], r[1], r[2]) for r in rows] == recs
    assert rec_files(board) == []
    # the board numbers on after the pull; the next pull takes only the new ones
    s = FileStore(str(board / "data"))
    assert s.waiting() == 0 and s.append_record(3, payload(99)) == 81
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        res = mppull.pull_board(FolderBoard(board), db, set_clock=False)
    assert res.new == 1 and res.already == 0
    assert len(stored(tmp_path / "g.db")) == 81 and rec_files(board) == []


def test_files_of_the_firmware_before_batches_are_still_pulled(tmp_path):
    board = tmp_path / "board"
    rec = board / "data" / "rec"
    rec.mkdir(parents=True)
    old = [(1, 3, payload(1)), (2, 2, b"a crash"), (3, 3, payload(3))]
    for seq, kind, p in old:
        (rec / "{:08d}.rec".format(seq)).write_bytes(mppull.record_file(seq, kind, p))
    (rec / "00000004.tmp").write_bytes(b"LBR1\x03a cut wri")
    s = FileStore(str(board / "data"))  # today's firmware mounts them, numbers on
    assert s.waiting() == 2 and len(s.records()) == 3
    new = [(s.append_record(3, payload(i)), 3, payload(i)) for i in (10, 11)]
    assert new[0][0] == 5  # 4 was taken by the cut write
    assert rec_files(board) == ["00000001.rec", "00000002.rec", "00000003.rec",
                                "00000005.rec"]
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        res = mppull.pull_board(FolderBoard(board), db, set_clock=False)
    assert res.new == 5 and res.crashes == 1 and not res.corrupt
    assert [(r[0], r[1], r[2]) for r in stored(tmp_path / "g.db")] == old + new
    assert rec_files(board) == []


@pytest.mark.parametrize("cut_commit", ["before", "after"])
def test_a_cut_at_every_call_of_a_pull_loses_nothing_and_stores_nothing_twice(
        tmp_path, cut_commit):
    base = tmp_path / "base"
    recs = board_with_records(base)
    shutil.copytree(base, tmp_path / "counting")
    with dbmod.Database(str(tmp_path / "count.db")) as gdb:
        fb = FolderBoard(tmp_path / "counting", cut_commit=cut_commit)
        mppull.pull_board(fb, CutDb(gdb, fb), set_clock=False, batch=10)
        total = fb.n
    n = len(rec_files(base))
    assert total >= 3 * n  # a read, a commit and a removal a file at least
    for at in range(total):
        board = tmp_path / "b{}".format(at)
        shutil.copytree(base, board)
        db = tmp_path / "g{}.db".format(at)
        with dbmod.Database(str(db)) as gdb:
            fb = FolderBoard(board, cut=at, cut_commit=cut_commit)
            with pytest.raises(CableCut):
                mppull.pull_board(fb, CutDb(gdb, fb), set_clock=False, batch=10)
        left = rec_files(board)
        got = stored(db)
        # nothing lost: every record is stored or still on the board, in a whole file
        on_board = [r for r in FileStore(str(board / "data")).records()]
        assert sorted(set(r[0] for r in got) | set(r[0] for r in on_board)) == [
            r[0] for r in recs], (at, left)
        # a file gone from the board had all its records stored
        for seq, _, _ in recs:
            if seq not in [r[0] for r in on_board]:
                assert seq in [r[0] for r in got], (at, seq)
        with dbmod.Database(str(db)) as gdb:
            res = mppull.pull_board(FolderBoard(board), gdb, set_clock=False, batch=10)
        assert res.new + len(got) == len(recs) and not res.corrupt, at
        assert [(r[0], r[1], r[2]) for r in stored(db)] == recs, at  # each exactly once
        assert rec_files(board) == []


def _damage(path, seq, at):
    """Flip a bit of record ``seq``'s frame in a batch file, ``at`` bytes into the frame."""
    data = bytearray(path.read_bytes())
    first = int(path.name[:8])
    off = sum(len(mppull.batch_file([r[:3]])) for r in mppull.parse(first, bytes(data))
              if r[0] < seq)
    data[off + at] ^= 0x08
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_frame_is_one_corrupt_record_and_the_rest_are_stored(tmp_path, capsys):
    board = tmp_path / "board"
    recs = board_with_records(board, n=60)
    path = board / "data" / "rec" / "00000001.rec"
    _damage(path, 3, 40)  # a payload byte of record 3
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        res = mppull.pull_board(FolderBoard(board), db, set_clock=False)
    assert res.new == 60 and res.corrupt == [(3, "its CRC does not match (damaged on the "
                                                 "board)")]
    rows = stored(tmp_path / "g.db")
    assert [(r[0], r[1], r[2]) for r in rows if r[0] != 3] == [r for r in recs if r[0] != 3]
    assert [r[3] for r in rows if r[0] == 3] == ["corrupt"]  # its bytes kept in the database
    assert rec_files(board) == []
    lines = summary("/dev/ttyACM0", res).splitlines()
    said = [line for line in lines if "corrupt" in line]
    assert len(said) == 1 and "record 3" in said[0] and "CRC" in said[0], lines
    # a second pull: nothing stored twice
    s = FileStore(str(board / "data"))
    s.append_record(3, payload(7))
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        res = mppull.pull_board(FolderBoard(board), db, set_clock=False)
    assert res.new == 1 and not res.corrupt and len(stored(tmp_path / "g.db")) == 61


def test_a_frame_whose_number_was_damaged_hides_no_record_to_come(tmp_path):
    board = tmp_path / "board"
    board_with_records(board, n=8, several=False)
    path = board / "data" / "rec" / "00000001.rec"
    _damage(path, 3, 7)  # record 3's number's low byte: 3 ^ 8 = 11, a number still to come
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        res = mppull.pull_board(FolderBoard(board), db, set_clock=False)
    assert res.new == 8 and [c[0] for c in res.corrupt] == [3]
    assert [r[0] for r in stored(tmp_path / "g.db")] == list(range(1, 9))
    s = FileStore(str(board / "data"))
    assert [s.append_record(3, payload(i)) for i in range(4)] == [9, 10, 11, 12]
    with dbmod.Database(str(tmp_path / "g.db")) as db:
        res = mppull.pull_board(FolderBoard(board), db, set_clock=False)
    assert res.new == 4 and res.already == 0 and not res.new_epoch  # 11 is stored, as itself
    rows = stored(tmp_path / "g.db")
    assert [r[0] for r in rows] == list(range(1, 13)) and rows[10][2] == payload(2)


@pytest.mark.parametrize("cut", [5, 11, 40])
def test_a_batch_cut_short_or_with_a_bad_header_is_one_corrupt_record(cut):
    recs = [(7, 3, payload(7)), (8, 3, payload(8))]
    whole = mppull.batch_file(recs)
    ninth = mppull.batch_file([(9, 3, payload(9))])
    for tail, why in ((ninth[:cut], "cut short"), (b"LBX2" + bytes(40), "not a record")):
        if cut < 11 and why == "cut short":
            why = "not a record"  # not even a header left
        got = mppull.parse(7, whole + tail)
        assert got[:2] == [r + (None,) for r in recs] and len(got) == 3, cut
        assert got[2][0] == 9 and why in got[2][3] and got[2][2] in tail, (cut, got[2])
    # a frame whose header reads but whose CRC fails: numbered by its place, the walk goes on
    damaged = bytearray(mppull.batch_file(recs + [(9, 3, payload(9))]))
    damaged[5] ^= 0x40  # record 7's number
    got = mppull.parse(7, bytes(damaged))
    assert [(g[0], g[3]) for g in got] == [(7, "its CRC does not match (damaged on the "
                                                "board)"), (8, None), (9, None)]


def test_the_frames_are_the_firmware_s(tmp_path):
    """mppull's batch_file() (the tests' bytes) is what the board's store writes."""
    s = FileStore(str(tmp_path / "data"))
    recs = [(s.append_record(k, p), k, p) for k, p in ((3, bytes(range(200))), (2, b""),
                                                       (1, b"x"))]
    data = (tmp_path / "data" / "rec" / "00000001.rec").read_bytes()
    assert data == mppull.batch_file(recs)
    assert mppull.parse(1, data) == [r + (None,) for r in recs]


# ---- on the real board ---------------------------------------------------------------------

@pytest.mark.xdist_group("mppull-board")  # its own emulator, beside test_mp_host's
def test_pull_from_micropython_1_24_of_records_its_own_store_wrote(tmp_path, monkeypatch,
                                                                   capsys):
    """The firmware's FileStore on plain MicroPython 1.24.1 in rp2040js (its littlefs, its
    flash driver) appends 40 real records (a crash among them), in two batches or more, beside
    a file of the firmware before batches; `lunchbox pull` over mpremote stores them all and
    leaves rec/ empty."""
    import subprocess

    from mpboard import FILESTORE_FILES, PLAIN_UF2, EmulatedBoard

    from lunchbox import cli

    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    root = Path(__file__).resolve().parent.parent
    stage = tmp_path / "lib"
    for src, dst in FILESTORE_FILES:
        (stage / dst).parent.mkdir(parents=True, exist_ok=True)
        (stage / dst).write_bytes((root / src).read_bytes())
    old = mppull.record_file(1, 3, payload(1))
    want = [(1, 3, payload(1))] + [(i, 2 if i == 6 else 3, payload(i, 2 if i == 6 else 3))
                                   for i in range(2, 42)]
    writer = tmp_path / "writer.py"
    writer.write_text(
        "import sys, os\nsys.path.insert(0, '/lib')\nW = {!r}\n"
        "for p in ('/data', '/data/rec'):\n"
        "    try:\n        os.mkdir(p)\n    except OSError:\n        pass\n"
        "f = open('/data/rec/00000001.rec', 'wb')\nf.write({!r})\nf.close()\n"
        "from companion.store.filestore import FileStore\n"
        "s = FileStore('/data')\n"
        "for seq, kind, p in W[1:]:\n"
        "    assert s.append_record(kind, p) == seq\n"
        "print('NAMES', ' '.join(sorted(os.listdir('/data/rec'))))\n"
        "print('WAITING', FileStore('/data').waiting())\n".format(want, old))
    mpremote = str(Path(sys.executable).with_name("mpremote"))
    board = EmulatedBoard(tmp_path / "board.flash")
    board.start(uf2=PLAIN_UF2)
    try:
        subprocess.run([mpremote, "connect", board.port, "fs", "cp", "-r", str(stage), ":"],
                       check=True, capture_output=True, timeout=300)
        out = subprocess.run([mpremote, "connect", board.port, "run", str(writer)],
                             capture_output=True, text=True, timeout=300).stdout
        names = out.split("NAMES ")[1].split("\n")[0].split()
        assert names[:2] == ["00000001.rec", "00000002.rec"] and len(names) >= 3, out
        assert "WAITING 40" in out, out  # 41 records, one a crash
        db = str(tmp_path / "g.db")
        capsys.readouterr()
        assert cli.main(["pull", "--port", board.port, "--db", db]) == 0
        said = capsys.readouterr().out
        assert "41 new records" in said and "1 crash report" in said, said
        assert "corrupt" not in said, said
        listed = subprocess.run([mpremote, "connect", board.port, "exec",
                                 "import os; print(os.listdir('/data/rec'))"],
                                capture_output=True, text=True, timeout=300).stdout
        assert listed.strip() == "[]", listed
    finally:
        board.stop()
    assert [(r[0], r[1], r[2]) for r in stored(db)] == want
