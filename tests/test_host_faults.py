"""Fault injection for the host tool, like the nvm power-cut suite for the device.

- cuts: a sync is killed (SIGKILL, after the file being written is truncated) at every write
  it makes, in a forked child; the drive must hold each file's old or new content, the user's
  files and settings.toml lines intact, an unfinished sync must be visible in the manifest,
  and a plain sync must then finish the job;
- unplugs: the drive is swapped for an empty mount-point folder at every write: the sync must
  stop with a message naming what was and was not written, and put nothing on the host disk;
- planted links, FIFOs and hard links at every path a sync reads or writes;
- malformed input: manifests, journals, settings.toml, boot_out.txt, profiles, through the
  real command line: one line and a fix, a non-zero exit, never a traceback;
- the records commands (history, replay, stats, export, pull): output paths that are links,
  FIFOs, devices, folders, read-only or another user's; full and read-only disks, SIGTERM
  mid-write; huge numbers; arguments not UTF-8; foreign, newer and broken databases.

Each case counts in CASES; the last test checks the totals printed in docs/host-tool.md
(`python -m pytest -q -p no:xdist tests/test_host_faults.py -s` prints them).
"""

import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lunchbox import cli
from lunchbox.device import doctor, fileset, sync
from lunchbox.errors import LunchboxError

# One worker runs the whole file (make test's --dist loadgroup), so the totals at its end see
# every case and check them against the docs.
pytestmark = pytest.mark.xdist_group("host-faults")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "host-tool.md"
BOOT_OUT = ("Adafruit CircuitPython 10.0.0 on 2025-09-15; Raspberry Pi Pico with rp2040\n"
            "Board ID:raspberry_pi_pico\n")

# The user's own settings: Latin-1 bytes, CRLF line ends, a comment; kept byte for byte.
USER_SETTINGS = (b'CIRCUITPY_WIFI_SSID = "caf\xe9"\r\nCIRCUITPY_WIFI_PASSWORD = "p\xe4ss w\xf6rd"'
                 b'\r\n# my own note\r\n')
USER_FILES = {"notes.txt": b"the user's own file\n", "lib/user_lib.py": b"# the user's lib\n",
              "boot_out.txt": BOOT_OUT.encode()}
HELLO = b'print("Hello World!")\n'  # a fresh CircuitPython drive's code.py: the user's


def rendered(version):
    return 'LUNCHBOX_PROFILE = "test"\nLUNCHBOX_VERSION = "{}"\n'.format(version)


def fileset_v1():
    return {
        "boot.py": b"import usb_cdc\nusb_cdc.enable(console=True, data=True)\n",
        "code.py": b"import companion.app.loop\ncompanion.app.main()\n",
        "companion/__init__.py": b'__version__ = "1"\n',
        "companion/app/loop.py": b"def main():\n    return 1\n" * 40,
        "companion/gone.py": b"X = 1\n",
        "companion/core/__init__.py": b"",
        "lib/neopixel.py": bytes(range(256)) * 12,
        "shared_rules/dice.py": b"SIDES = 3\n",
        # what merge_settings(USER_SETTINGS, ...) gives, spelled out
        "settings.toml": USER_SETTINGS + b"\n" + (fileset.SETTINGS_HEADER + rendered(1)).encode(),
    }


def test_merge_keeps_the_user_lines_byte_for_byte():
    assert fileset.merge_settings(USER_SETTINGS, rendered(1)) == fileset_v1()["settings.toml"]


def fileset_v2(drive_settings):
    files = fileset_v1()
    del files["companion/gone.py"]
    files["code.py"] = b"import companion.app.loop\ncompanion.app.main()  # v2\n"
    files["companion/__init__.py"] = b'__version__ = "2"\n'
    files["companion/app/loop.py"] = b"def main():\n    return 2\n" * 40
    files["companion/new.py"] = b"NEW = True\n"
    files["settings.toml"] = fileset.merge_settings(drive_settings, rendered(2))
    return files


def snapshot(root):
    """rel -> bytes for regular files, rel -> ("link", target) / ("other",) otherwise."""
    out = {}
    root = Path(root)
    if not root.exists():
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_file():
                out[rel] = p.read_bytes()
            elif not p.is_dir():
                out[rel] = ("other",)
    return out


def put(root, files):
    for rel, data in files.items():
        p = Path(root, *rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


@pytest.fixture(autouse=True)
def userdata(tmp_path, monkeypatch):
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "userdata"))
    return tmp_path / "userdata"


class World:
    """A drive folder, an outside folder that must never change, and the user data folder."""

    def __init__(self, tmp_path, name="CIRCUITPY"):
        self.base = tmp_path
        self.drive = tmp_path / "media" / name
        self.outside = tmp_path / "outside"
        self.outside.mkdir(parents=True, exist_ok=True)
        (self.outside / "victim.txt").write_bytes(b"precious host file\n")
        (self.outside / "dir").mkdir(exist_ok=True)
        put(self.drive, USER_FILES)
        self.outside_before = snapshot(self.outside)

    def outside_intact(self):
        return snapshot(self.outside) == self.outside_before

    def backups(self):
        return [p.read_bytes() for p in (self.base / "userdata" / "backups").rglob("*")
                if p.is_file()]


class Tally:
    """The cases of one kind: tried, handled and lost, in total and per category; at the end
    checked against the table and the total line ``line`` (a format of tried, handled, lost)
    in ``doc``."""

    def __init__(self, categories, doc, line):
        self.categories = categories  # in the doc's order
        self.doc, self.line = doc, line
        self.totals = {"tried": 0, "handled": 0, "lost": 0}
        self.counts = {}

    def count(self, category, handled, lost=False):
        self.totals["tried"] += 1
        self.totals["handled"] += bool(handled)
        self.totals["lost"] += bool(lost)
        c = self.counts.setdefault(category, [0, 0, 0])
        c[0] += 1
        c[1] += bool(handled)
        c[2] += bool(lost)

    def check_doc(self):
        if set(self.counts) != set(self.categories):  # a -k run: the tally is partial
            pytest.skip("only a whole run of this file counts every case")
        lines = ["| {} | {} | {} | {} |".format(name, *self.counts[name])
                 for name in self.categories]
        total = self.line.format(**self.totals)
        print("\n" + "\n".join(lines) + "\n" + total)
        assert self.totals["lost"] == 0 and self.totals["handled"] == self.totals["tried"]
        docs = self.doc.read_text()
        m = re.search(re.sub(r"\\\{\w+\\\}", r"\\d+", re.escape(self.line)), docs)
        where = self.doc.relative_to(ROOT)
        assert m and m.group(0) == total, (
            "{} should say '{}' (and the table above it: {})".format(where, total, lines))
        for line in lines:
            assert line in docs, "{} lacks the row {}".format(where, line)


# one table in docs/host-tool.md: the sync's cases, then the records commands' (below)
CASES = Tally(("cut at every write", "unplug at every write", "planted links and FIFOs",
               "two syncs at once", "malformed input",
               "links, FIFOs, devices and folders as output", "full disks and signals",
               "huge numbers", "arguments not UTF-8", "foreign databases"), DOCS,
              "cases tried: {tried}, handled: {handled}, data lost: {lost}")
count = CASES.count


# ---- cuts: a sync killed at every write -----------------------------------------------------

def _ops(drive, files):
    """Every (op, path) a sync of ``files`` onto ``drive`` makes, found by running it on a
    copy."""
    copy = Path(str(drive) + "-count")
    shutil.copytree(drive, copy, symlinks=True)
    seen = []
    sync.sync(str(copy), files, hook=lambda op, path, tmp: seen.append((op, path)))
    shutil.rmtree(copy)
    return seen


def _killed_sync(drive, files, at):
    """Fork; the child syncs and is SIGKILLed at its ``at``-th write (the file it was writing
    truncated to half first). Returns the child's wait status."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            n = [0]

            def cut(op, path, tmp):
                if n[0] == at:
                    if tmp and os.path.exists(tmp):
                        size = os.path.getsize(tmp) or len(files.get(
                            Path(path).relative_to(drive).as_posix(), b"xx"))
                        with open(tmp, "r+b") as f:
                            f.truncate(size // 2)
                    os.kill(os.getpid(), signal.SIGKILL)
                n[0] += 1
            sync.sync(str(drive), files, hook=cut)
            os._exit(0)
        except BaseException:  # report through the exit status only
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    return status


def _check_cut(world, before, files, user_edits):
    """(handled, lost, why) for a drive after a cut, then after the repairing sync."""
    drive = world.drive
    after = snapshot(drive)
    lost = False
    why = []
    for rel, data in USER_FILES.items():
        if after.get(rel) != data:
            lost = True
            why.append("user file {} changed".format(rel))
    settings = after.get("settings.toml")
    if not isinstance(settings, bytes) or USER_SETTINGS not in settings:
        lost = True
        why.append("user settings lines lost")
    for rel, edit in user_edits.items():
        if after.get(rel) != edit and edit not in world.backups():
            lost = True
            why.append("user edit of {} neither on the drive nor backed up".format(rel))
    for rel in set(before) | set(after) | set(files):
        now = after.get(rel)
        if rel in files:
            ok = now in (before.get(rel), files[rel])
        elif rel in before:
            ok = now in (before[rel], None) or rel in (sync.MANIFEST, sync.PENDING)
        else:
            ok = (rel == sync.PENDING or rel == sync.MANIFEST
                  or rel.rsplit("/", 1)[-1].startswith(sync.TMP_PREFIX))
        if not ok:
            why.append("{} is neither the old nor the new file".format(rel))
    finished = all(after.get(rel) == data for rel, data in files.items())
    untouched = {rel: v for rel, v in after.items()
                 if not rel.rsplit("/", 1)[-1].startswith(sync.TMP_PREFIX)} == before
    if not finished and not untouched:
        manifest = sync.read_manifest(str(drive))
        if manifest is None or manifest.get("complete"):
            why.append("a half-done sync looks complete")
    if not world.outside_intact():
        why.append("a file outside the drive changed")
    # the plain sync the user runs next finishes the job
    try:
        sync.sync(str(drive), files)
        final = snapshot(drive)
        if any(final.get(rel) != data for rel, data in files.items()):
            why.append("the repairing sync left a file wrong")
        if any(rel.rsplit("/", 1)[-1].startswith(sync.TMP_PREFIX) or rel == sync.PENDING
               for rel in final):
            why.append("temporary files or the journal left behind")
        if any(final.get(rel) != data for rel, data in USER_FILES.items()):
            lost = True
            why.append("the repair changed a user file")
        if not sync.read_manifest(str(drive))["complete"]:
            why.append("manifest incomplete after the repair")
        if sync.sync(str(drive), files).changes:
            why.append("a third sync still had work")
    except LunchboxError as e:
        why.append("the repairing sync failed: {}".format(e))
    return not why, lost, why


def _scenarios(tmp_path):
    """(name, prepare(world) -> (files, user_edits)) for the syncs that are cut."""

    def first(world):
        put(world.drive, {"code.py": HELLO, "settings.toml": USER_SETTINGS})
        return fileset_v1(), {"code.py": HELLO}

    def update(world):
        put(world.drive, {"settings.toml": USER_SETTINGS})
        sync.sync(str(world.drive), fileset_v1())
        edit = b"# the user edited this on the board\n"
        put(world.drive, {"companion/app/loop.py": edit})
        drive_settings = (world.drive / "settings.toml").read_bytes()
        return fileset_v2(drive_settings), {"companion/app/loop.py": edit}

    return [("first sync", first), ("update sync", update)]


def test_cut_at_every_write_of_a_sync(tmp_path):
    failures = []
    for name, prepare in _scenarios(tmp_path):
        template = World(tmp_path / "template" / name.replace(" ", "-"))
        files, edits = prepare(template)
        ops = _ops(template.drive, files)
        assert len(ops) > 10
        for at in range(len(ops)):
            case = tmp_path / "cases" / "{}-{}".format(name.replace(" ", "-"), at)
            world = World(case)
            shutil.rmtree(world.drive)
            shutil.copytree(template.drive, world.drive, symlinks=True)
            os.environ["LUNCHBOX_DATA"] = str(case / "userdata")  # restored by the fixture
            before = snapshot(world.drive)
            status = _killed_sync(world.drive, files, at)
            killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            handled, lost, why = _check_cut(world, before, files, edits)
            if not killed:
                why.append("the child was not killed at write {} (status {})".format(
                    at, status))
                handled = False
            count("cut at every write", handled, lost)
            if why:
                failures.append("{} #{} ({} {}): {}".format(
                    name, at, ops[at][0], os.path.basename(ops[at][1]), "; ".join(why)))
            shutil.rmtree(case)
    assert not failures, "\n".join(failures)


# ---- unplugs: the drive goes away at every write --------------------------------------------

def test_unplug_at_every_write_puts_nothing_on_the_host(tmp_path):
    failures = []
    template = World(tmp_path / "template")
    put(template.drive, {"settings.toml": USER_SETTINGS})
    files = fileset_v1()
    ops = _ops(template.drive, files)
    for at in range(len(ops)):
        case = tmp_path / "case-{}".format(at)
        world = World(case)
        shutil.rmtree(world.drive)
        shutil.copytree(template.drive, world.drive)
        gone = Path(str(world.drive) + "-unplugged")
        n = [0]

        def unplug(op, path, tmp, at=at, world=world, gone=gone, n=n):
            if n[0] == at:
                os.rename(world.drive, gone)
                world.drive.mkdir()  # the empty mount point left on the host disk
            n[0] += 1
        why = []
        try:
            sync.sync(str(world.drive), files, hook=unplug)
            why.append("sync reported success on a drive that went away")
        except LunchboxError as e:
            text = str(e)
            if "went away" not in text or "not made:" not in text or not e.hint:
                why.append("message does not say what was and was not written: " + text)
        if snapshot(world.drive):
            why.append("files landed on the host disk: {}".format(sorted(snapshot(world.drive))))
        world.drive.rmdir()
        os.rename(gone, world.drive)  # plugged back in
        handled, lost, more = _check_cut(world, snapshot(template.drive), files, {})
        why += more
        count("unplug at every write", not why, lost)
        if why:
            failures.append("#{} ({}): {}".format(at, ops[at][0], "; ".join(why)))
    assert not failures, "\n".join(failures)


# ---- planted links, FIFOs and hard links ----------------------------------------------------

def _clear(p):
    if p.is_symlink() or p.is_file() or (p.exists() and not p.is_dir()):
        p.unlink()
    elif p.is_dir():
        shutil.rmtree(p)


def _plant(world, kind):
    """Put the hostile thing ``kind`` on the drive, in place of whatever is there."""
    d, out = world.drive, world.outside
    targets = {
        "file link to outside": ("code.py", lambda p: p.symlink_to(out / "victim.txt")),
        "dangling link to outside": ("code.py",
                                     lambda p: p.symlink_to(out / "created-by-sync.txt")),
        "folder link to outside": ("companion", lambda p: p.symlink_to(out / "dir")),
        "link inside the drive": ("shared_rules", lambda p: p.symlink_to(d / "lib")),
        "manifest link to outside": (sync.MANIFEST, lambda p: p.symlink_to(out / "victim.txt")),
        "journal link to outside": (sync.PENDING, lambda p: p.symlink_to(out / "victim.txt")),
        "old temporary name link to outside": (sync.MANIFEST + ".new",
                                               lambda p: p.symlink_to(out / "victim.txt")),
        "settings link to outside": ("settings.toml",
                                     lambda p: p.symlink_to(out / "victim.txt")),
        "hard link to an outside file": ("code.py", lambda p: os.link(out / "victim.txt", p)),
        "FIFO at a shipped file": ("companion/app/loop.py", os.mkfifo),
        "FIFO at an empty shipped file": ("companion/core/__init__.py", os.mkfifo),
        "FIFO as the manifest": (sync.MANIFEST, os.mkfifo),
        "FIFO as the journal": (sync.PENDING, os.mkfifo),
        "a file where a folder goes": ("companion", lambda p: p.write_bytes(b"not a folder")),
    }
    rel, make = targets[kind]
    p = d / rel
    _clear(p)
    p.parent.mkdir(parents=True, exist_ok=True)
    make(p)


PLANTS = ["file link to outside", "dangling link to outside", "folder link to outside",
          "link inside the drive", "manifest link to outside", "journal link to outside",
          "old temporary name link to outside", "settings link to outside",
          "hard link to an outside file", "FIFO at a shipped file",
          "FIFO at an empty shipped file", "FIFO as the manifest", "FIFO as the journal",
          "a file where a folder goes"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs symlinks and FIFOs")
@pytest.mark.parametrize("first", [True, False], ids=["first sync", "later sync"])
def test_planted_links_never_lead_outside(tmp_path, first):
    failures = []
    for kind in PLANTS:
        world = World(tmp_path / kind.replace(" ", "-"))
        files = fileset_v1()
        if not first:
            sync.sync(str(world.drive), files)
            files = fileset_v2((world.drive / "settings.toml").read_bytes())
        _plant(world, kind)
        why = []
        try:
            with _deadline(10):
                sync.sync(str(world.drive), files)
        except LunchboxError as e:
            if not e.hint:
                why.append("no fix given: {}".format(e))
        except Exception as e:  # the failure this suite looks for
            why.append("{}: {}".format(type(e).__name__, e))
        if not world.outside_intact():
            why.append("outside the drive changed")
        if (world.outside / "created-by-sync.txt").exists():
            why.append("a file was created outside through a dangling link")
        lost = any(snapshot(world.drive).get(rel) != data for rel, data in USER_FILES.items())
        count("planted links and FIFOs", not why and not lost, lost)
        if why or lost:
            failures.append("{}: {}".format(kind, "; ".join(why) or "user file lost"))
    assert not failures, "\n".join(failures)


@contextlib.contextmanager
def _deadline(seconds):
    """Turn a hang (a FIFO opened for reading) into a failure instead of a stuck test run."""
    def alarm(signum, frame):
        raise TimeoutError("hung for {} s".format(seconds))
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("when", ["write", "replace"])
def test_link_planted_while_the_sync_runs(tmp_path, when):
    # planted while the data is written aside: seen by the check before the rename; planted
    # after that check: the rename replaces the link itself, never what it points to
    world = World(tmp_path)
    files = fileset_v1()

    def plant(op, path, tmp):
        if op == when and path.endswith("code.py"):
            if os.path.lexists(path):
                os.remove(path)
            os.symlink(world.outside / "victim.txt", path)
    if when == "write":
        with pytest.raises(LunchboxError, match="symbolic link"):
            sync.sync(str(world.drive), files, hook=plant)
    else:
        sync.sync(str(world.drive), files, hook=plant)
        code = world.drive / "code.py"
        assert not code.is_symlink() and code.read_bytes() == files["code.py"]
    assert world.outside_intact()
    count("planted links and FIFOs", world.outside_intact())


# ---- two syncs at once ----------------------------------------------------------------------

def test_one_sync_at_a_time_per_drive(tmp_path):
    world = World(tmp_path)
    files = fileset_v1()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock = sync.DriveLock(str(world.drive))
        os.makedirs(lock.folder, exist_ok=True)
        Path(lock.path).write_text("{}\n".format(holder.pid))
        before = snapshot(world.drive)
        with pytest.raises(LunchboxError, match="another lunchbox sync .process {}".format(
                holder.pid)) as e:
            sync.sync(str(world.drive), files)
        assert "wait for it" in e.value.hint and snapshot(world.drive) == before
        count("two syncs at once", True)
    finally:
        holder.kill()
        holder.wait()
    # its process is gone: the lock is stale, taken over, and removed when the sync ends
    p = sync.sync(str(world.drive), files)
    assert p.writes and not os.path.exists(lock.path)
    count("two syncs at once", True)
    # a second sync started inside the first (the hook runs mid-sync) is refused
    files2 = fileset_v2((world.drive / "settings.toml").read_bytes())
    seen = []

    def nested(op, path, tmp):
        if not seen:
            with pytest.raises(LunchboxError, match="another lunchbox sync"):
                sync.sync(str(world.drive), fileset_v1())
            seen.append(True)
    sync.sync(str(world.drive), files2, hook=nested)
    assert seen and not os.path.exists(lock.path)
    count("two syncs at once", True)


# ---- malformed input through the command line -----------------------------------------------

def run_cli(argv):
    """(exit status, stderr) of `lunchbox ARGV` in this process; an exception escaping main
    is what a user would see as a traceback."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), _deadline(20):
        try:
            rc = cli.main(argv)
        except SystemExit as e:
            rc = e.code
    return rc, err.getvalue()


def one_line_error(rc, err, command):
    lines = [line for line in err.splitlines() if line.startswith("lunchbox " + command)]
    return rc not in (0, None) and len(lines) == 1 and "fix:" in err and "Traceback" not in err


def _bad_manifests():
    deep = "[" * 100000 + "]" * 100000
    return {
        "manifest nested very deep": (sync.MANIFEST, '{"format":2,"files":{},"x":' + deep + "}"),
        "manifest files nested very deep": (sync.MANIFEST, '{"format":2,"files":' + deep + "}"),
        "manifest of 2 MiB": (sync.MANIFEST, '{"format":2,"files":{},"x":"' + "a" * (2 << 20)
                              + '"}'),
        "manifest with 30000 entries": (sync.MANIFEST, json.dumps(
            {"format": 2, "files": {"f{}.py".format(i): "0" * 16 for i in range(30000)}})),
        "manifest a list": (sync.MANIFEST, "[1, 2, 3]"),
        "manifest files a list": (sync.MANIFEST, '{"format":2,"files":[1]}'),
        "manifest format 99": (sync.MANIFEST, '{"format":99,"files":{}}'),
        "manifest digest a number": (sync.MANIFEST, '{"format":2,"files":{"code.py":5}}'),
        "manifest path outside": (sync.MANIFEST, '{"format":2,"files":{"../x":"' + "0" * 16
                                  + '"}}'),
        "manifest not UTF-8": (sync.MANIFEST, b'{"format":2,"files":{"\xff":1}}'),
        "journal nested very deep": (sync.PENDING, '{"format":2,"pending":' + deep + "}"),
        "journal path outside": (sync.PENDING, '{"format":2,"pending":{"/etc/passwd":null}}'),
        "journal a number": (sync.PENDING, "12"),
        "journal of 2 MiB": (sync.PENDING, '{"format":2,"pending":{},"x":"' + "a" * (2 << 20)
                             + '"}'),
        "boot_out.txt binary": ("boot_out.txt", bytes(range(256)) * 4),
        "boot_out.txt empty": ("boot_out.txt", b""),
        "boot_out.txt of 1 MiB": ("boot_out.txt", b"x" * (1 << 20)),
        "boot_out.txt CircuitPython 7": ("boot_out.txt", BOOT_OUT.replace("10.0.0", "7.0.0")),
        "settings.toml of 1 MiB": ("settings.toml", b"# x\n" * (1 << 18)),
    }


REPAIRED = {"manifest not UTF-8"}


@pytest.mark.parametrize("command", ["sync", "doctor"])
def test_malformed_drive_files_give_one_line(tmp_path, command):
    failures = []
    for name, (rel, content) in _bad_manifests().items():
        world = World(tmp_path / command / name.replace(" ", "-"))
        put(world.drive, {"settings.toml": USER_SETTINGS})
        put(world.drive, {rel: content if isinstance(content, bytes) else content.encode()})
        before = snapshot(world.drive)
        argv = [command, "--drive", str(world.drive), "--profile", "pico-display-pack"]
        try:
            rc, err = run_cli(argv)
        except Exception as e:
            failures.append("{}: {}: {}".format(name, type(e).__name__, str(e)[:200]))
            count("malformed input", False)
            continue
        if command == "sync" and name in REPAIRED:
            # unreadable as JSON: taken as half-written, compared by content, rewritten
            ok = rc == 0 and all(snapshot(world.drive).get(r) == d
                                 for r, d in USER_FILES.items())
        elif command == "sync":
            ok = one_line_error(rc, err, "sync") and snapshot(world.drive) == before
        else:  # doctor reports problems as a list, exit status 1
            ok = rc == 1 and "Traceback" not in err
        if name.startswith("journal path outside") and command == "sync":
            ok = ok and str(world.drive / sync.PENDING) in err.split("fix:")[1]
        count("malformed input", ok)
        if not ok:
            failures.append("{}: rc={} {}".format(name, rc, err[:300]))
    assert not failures, "\n".join(failures)


BAD_PROFILE_EDITS = {
    "rgb = 5": lambda t: t.replace('rgb = ["GP6", "GP7", "GP8"]', "rgb = 5"),
    "rgb with a list inside": lambda t: t.replace('rgb = ["GP6", "GP7", "GP8"]',
                                                  'rgb = [["GP6"], "GP7", "GP8"]'),
    "button pin a list": lambda t: t.replace('pin = "GP12"', 'pin = ["GP12"]'),
    "display pin a list": lambda t: t.replace('sck = "GP18"', 'sck = ["GP18"]'),
    "driver a list": lambda t: t.replace('driver = "st7789"', 'driver = ["st7789"]'),
    "board a list": lambda t: t.replace('board = "raspberry_pi_pico"',
                                        'board = ["raspberry_pi_pico"]'),
    "chip a table": lambda t: t.replace('chip = "RP2040"', 'chip = {a = 1}'),
    "role a list": lambda t: t.replace('role = "prev"', 'role = ["prev"]'),
    "label a list": lambda t: t.replace('label = "A"', "label = [1]"),
    "TOML nested very deep": lambda t: "x = " + "[" * 5000 + "]" * 5000 + "\n",
    "inline tables nested very deep": lambda t: "x = " + "{a = " * 3000 + "1" + "}" * 3000,
    "not UTF-8": lambda t: t.replace("Pimoroni Pico Display Pack", "Pimoroni \udce9",
                                     1).encode("utf-8", "surrogateescape"),
    "not TOML": lambda t: "[[[\n",
    "over 64 KiB": lambda t: t + "# padding\n" * 8000,
}


def test_bad_profiles_give_one_line(tmp_path):
    base = (ROOT / "hardware" / "profiles" / "pico-display-pack.toml").read_text()
    world = World(tmp_path)
    failures = []
    for name, make in BAD_PROFILE_EDITS.items():
        text = make(base)
        path = tmp_path / (name.replace(" ", "-") + ".toml")
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        for argv in (["profile", "validate", str(path)], ["profile", "show", str(path)],
                     ["sync", "--drive", str(world.drive), "--profile", str(path)],
                     ["doctor", "--drive", str(world.drive), "--profile", str(path)]):
            try:
                rc, err = run_cli(argv)
            except Exception as e:
                failures.append("{} ({}): {}: {}".format(name, argv[0], type(e).__name__, e))
                count("malformed input", False)
                continue
            ok = rc not in (0, None) and "Traceback" not in err
            if argv[0] == "sync":
                ok = ok and one_line_error(rc, err, "sync")
            count("malformed input", ok)
            if not ok:
                failures.append("{} ({}): rc={} {}".format(name, " ".join(argv[:2]), rc, err))
    assert snapshot(world.drive) == {k: v for k, v in USER_FILES.items()}
    assert not failures, "\n".join(failures)


def test_journal_naming_an_unknown_profile(tmp_path):
    world = World(tmp_path)
    put(world.drive, {sync.PENDING: b'{"format":2,"pending":{},"profile":"my-own-build"}'})
    rc, err = run_cli(["sync", "--drive", str(world.drive)])
    ok = one_line_error(rc, err, "sync") and "synced with profile 'my-own-build'" in err
    count("malformed input", ok)
    assert ok, err
    assert "--profile" in err.split("fix:")[1]


def test_latin1_settings_kept_byte_for_byte_through_the_command(tmp_path):
    world = World(tmp_path)
    put(world.drive, {"settings.toml": USER_SETTINGS})
    rc, err = run_cli(["sync", "--drive", str(world.drive), "--profile", "pico-display-pack"])
    data = (world.drive / "settings.toml").read_bytes()
    ok = rc == 0 and data.startswith(USER_SETTINGS) and b"\xef\xbf\xbd" not in data
    ok = ok and "line 1 is not UTF-8" in err  # said, not silently changed
    count("malformed input", ok, lost=not data.startswith(USER_SETTINGS))
    assert ok, err


def test_truncated_settings_is_reported_by_doctor(tmp_path):
    # whatever emptied it (an editor, an unplug under an older lunchbox), doctor says so and
    # sync restores the Lunchbox lines
    world = World(tmp_path)
    put(world.drive, {"settings.toml": USER_SETTINGS})
    assert run_cli(["sync", "--drive", str(world.drive), "--profile", "pico-display-pack"])[0] == 0
    (world.drive / "settings.toml").write_bytes(USER_SETTINGS[:20])
    report = doctor.diagnose(roots=[], comports=lambda: [], drive=str(world.drive))
    ok = any("settings.toml" in p for p, _ in report.problems)
    count("malformed input", ok)
    assert ok, report.render()


# ---- the records commands: hostile paths, arguments, databases, full disks, signals ----------
#
# Each case runs the real `lunchbox` in a subprocess (bytes argv, so non-UTF-8 arguments reach
# it as a shell would pass them) with a deadline, and checks: exactly one line "lunchbox CMD:
# ...", a non-zero exit, no traceback, and that no file in the case's folder (nor outside it)
# changed, appeared or vanished but those the case allows. Counted in the same table as the
# sync cases above (a file harmed counts as data lost).

count_record = CASES.count


def tally(failures, row, label, why, changed=None):
    """One case in the table's ``row``: handled when there is no ``why`` and nothing
    ``changed`` (what changed counts as data lost); else ``label`` and what went wrong go on
    ``failures``."""
    count_record(row, not why and not changed, lost=bool(changed))
    if why or changed:
        failures.append("{}: {}".format(label, why) if changed is None else
                        "{}: {} {}".format(label, why, changed))


def _records_db(path):
    """A games database filled by a real pull: Space Lunch, Let's Do Lunch, Aqua Brunch."""
    import linkloop
    import test_pull

    from lunchbox.records import db as dbmod

    with dbmod.Database(path) as db:
        board = linkloop.Board(uid=b"\x0c" * 8)
        for i, (gid, params, names) in enumerate((("space_lunch", (1,), ("ANNA",)),
                                                  ("lets_do_lunch", (), ("ANNA", "BO")),
                                                  ("aqua_brunch", (3,), ("ANNA", "BO", "CY")))):
            board.finish(test_pull.play(gid, *params, seed=i), names, unix=1767225600 + 60 * i)
        test_pull.do_pull(board, db)


_RECORDS_DB_BYTES = []  # the fixture's file, for a damaged copy


@pytest.fixture(scope="module")
def records_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "games.sqlite3"
    _records_db(path)
    _RECORDS_DB_BYTES[:] = [path.read_bytes()]
    return path


def lunchbox_bytes(argv, cwd, env=None, timeout=30, preexec=None):
    """`lunchbox ARGV` (bytes) in a subprocess: (exit status or 'hung', its output as text)."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "host"), str(ROOT)])
    env.pop(dbmod_env(), None)
    try:
        r = subprocess.run([os.fsencode(sys.executable), b"-m", b"lunchbox"] + list(argv),
                           cwd=str(cwd), env=env, capture_output=True, timeout=timeout,
                           preexec_fn=preexec)
    except subprocess.TimeoutExpired:
        return "hung", ""
    # stderr, then what went to stdout (portability's findings), for the words looked for
    return r.returncode, (r.stderr + b"\n" + r.stdout).decode("utf-8", "backslashreplace")


def _lunchbox_env(argv, cwd, env):
    """`lunchbox ARGV` with the environment ``env`` given as bytes (a value not UTF-8)."""
    env = dict(env)
    env[b"PYTHONPATH"] = os.fsencode(os.pathsep.join([str(ROOT / "host"), str(ROOT)]))
    r = subprocess.run([os.fsencode(sys.executable), b"-m", b"lunchbox"] + list(argv),
                       cwd=str(cwd), env=env, capture_output=True, timeout=30)
    return r.returncode, (r.stderr + b"\n" + r.stdout).decode("utf-8", "backslashreplace")


def dbmod_env():
    from lunchbox.records import db as dbmod

    return dbmod.DB_ENV


def _b(x):
    return x if isinstance(x, bytes) else os.fsencode(str(x))


def refused_once(rc, err, command, fix=True):
    """Why not, or "" when it is: one line, a non-zero exit, no traceback (and a fix)."""
    lines = [line for line in err.splitlines() if line.startswith("lunchbox " + command)]
    why = []
    if rc == "hung":
        why.append("hung")
    elif rc in (0, None):
        why.append("exit status 0")
    if "Traceback" in err:
        why.append("traceback")
    if len(lines) != 1:
        why.append("{} lines 'lunchbox {}'".format(len(lines), command))
    if fix and "fix:" not in err:
        why.append("no fix")
    return "; ".join(why) + (": " + err.strip()[-300:] if why else "")


class Around:
    """A case's folder with a file of the user's that must not change, and one outside."""

    def __init__(self, base):
        self.dir = base / "case"
        self.outside = base / "outside"
        self.dir.mkdir(parents=True)
        self.outside.mkdir()
        (self.outside / "victim.txt").write_bytes(b"precious host file\n")
        (self.dir / "mine.txt").write_bytes(b"the user's own file\n")
        self.before = None

    def freeze(self):
        self.before = (snapshot(self.dir), snapshot(self.outside))

    def changes(self, allowed=()):
        now = (snapshot(self.dir), snapshot(self.outside))
        out = []
        for which, (a, b) in zip(("case", "outside"), zip(self.before, now)):
            for rel in sorted(set(a) | set(b)):
                if a.get(rel) != b.get(rel) and rel not in allowed:
                    out.append("{} {} {}".format(
                        which, rel, "appeared" if rel not in a else "vanished" if rel not in b
                        else "changed"))
        return out


def _output_cases(records_db):
    """(name, make(around) -> argv, command, words in the message)."""
    def link_to_victim(a):
        (a.dir / "out.json").symlink_to(a.outside / "victim.txt")
        return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "out.json")]

    def dangling(a):
        (a.dir / "out.json").symlink_to(a.outside / "created-by-export.json")
        return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "out.json")]

    def fifo(a):
        os.mkfifo(a.dir / "out.csv")
        return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "out.csv")]

    def device(a):
        if os.geteuid() == 0:  # a node of our own (the null device), never the system's
            os.mknod(a.dir / "dev", 0o666 | __import__("stat").S_IFCHR, os.makedev(1, 3))
            return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "dev")]
        return [b"export", b"--db", _b(records_db), b"-o", _b(os.devnull)]

    def folder(a):
        (a.dir / "out").mkdir()
        return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "out")]

    def under_a_file(a):
        return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "mine.txt" / "x.csv")]

    def plot_link(a):
        (a.dir / "plots").mkdir()
        (a.dir / "plots" / "space-lunch-win-rate.png").symlink_to(a.outside / "victim.txt")
        return [b"stats", b"--db", _b(records_db), b"--plot", _b(a.dir / "plots")]

    def plot_fifo(a):
        (a.dir / "plots").mkdir()
        os.mkfifo(a.dir / "plots" / "lets-do-lunch-rolls.png")
        return [b"stats", b"--db", _b(records_db), b"--plot", _b(a.dir / "plots")]

    def read_only(a):
        (a.dir / "ro.csv").write_bytes(b"kept read-only by the user\n")
        os.chmod(a.dir / "ro.csv", 0o444)
        return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "ro.csv")]

    def not_ours(a):
        if os.geteuid() == 0:  # a file of another user in the case's folder
            (a.dir / "theirs.csv").write_bytes(b"another user's file\n")
            os.chown(a.dir / "theirs.csv", 4321, 4321)
            return [b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "theirs.csv")]
        return [b"export", b"--db", _b(records_db), b"-o", b"/etc/passwd"]

    def empty_name(a):
        return [b"export", b"--db", _b(records_db), b"-o", b""]

    def plot_into_a_file(a):
        return [b"stats", b"--db", _b(records_db), b"--plot", _b(a.dir / "mine.txt")]

    def shots_link(a):
        (a.dir / "shots").mkdir()
        (a.dir / "shots" / "001.png").symlink_to(a.outside / "victim.txt")
        return [b"replay", b"1", b"--db", _b(records_db), b"--sim", b"--upto", b"1",
                b"--shots", _b(a.dir / "shots")]

    def the_database_itself(a):
        shutil.copy(records_db, a.dir / "games.sqlite3")
        return [b"export", b"--db", _b(a.dir / "games.sqlite3"), b"-o",
                _b(a.dir / "." / "games.sqlite3")]

    def shots_into_a_file(a):
        return [b"replay", b"1", b"--db", _b(records_db), b"--sim", b"--shots",
                _b(a.dir / "mine.txt")]

    return [("export -o a link to a host file", link_to_victim, "export", "symbolic link"),
            ("export -o a dangling link", dangling, "export", "symbolic link"),
            ("export -o a FIFO", fifo, "export", "FIFO"),
            ("export -o a device node", device, "export", "device"),
            ("export -o a folder", folder, "export", "folder"),
            ("export -o under a file", under_a_file, "export", "Not a directory"),
            ("stats --plot over a link", plot_link, "stats", "symbolic link"),
            ("stats --plot over a FIFO", plot_fifo, "stats", "FIFO"),
            ("export -o a read-only file", read_only, "export", "read-only"),
            ("export -o another user's file", not_ours, "export", "another user"),
            ("export -o ''", empty_name, "export", "names no file"),
            ("stats --plot into a file", plot_into_a_file, "stats", "not a folder"),
            ("replay --shots over a link", shots_link, "replay", "symbolic link"),
            ("replay --shots into a file", shots_into_a_file, "replay", "not a folder"),
            ("export -o the games database", the_database_itself, "export",
             "the games database itself")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs symlinks and FIFOs")
def test_records_output_never_through_links_fifos_devices_or_folders(tmp_path, records_db):
    failures = []
    for name, make, command, words in _output_cases(records_db):
        a = Around(tmp_path / name.replace(" ", "-"))
        argv = make(a)
        a.freeze()
        rc, err = lunchbox_bytes(argv, a.dir)
        why = refused_once(rc, err, command)
        if words not in err:
            why += "; message lacks {!r}: {}".format(words, err.strip())
        tally(failures, "links, FIFOs, devices and folders as output", name, why, a.changes())
    assert not failures, "\n".join(failures)


def test_export_keeps_the_users_tmp_file_and_leaves_no_temporary(tmp_path, records_db):
    a = Around(tmp_path)
    (a.dir / "out.csv.tmp").write_bytes(b"the user's own .tmp\n")
    (a.dir / "out.csv").write_bytes(b"old export\n")
    a.freeze()
    rc, err = lunchbox_bytes([b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "out.csv")],
                             a.dir)
    changed = a.changes(allowed=("out.csv",))
    new = (a.dir / "out.csv").read_bytes()
    ok = rc == 0 and not changed and new.startswith(b"id,board") and "Traceback" not in err
    count_record("links, FIFOs, devices and folders as output", ok, lost=bool(changed))
    assert ok, (rc, err, changed)


def _limit_file_size(limit):
    def preexec():
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # then a write past it fails: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


@contextlib.contextmanager
def _tiny_tmpfs(path, size="64k"):
    """A 64 KiB tmpfs at ``path`` (root only), filled to the last block; None without root."""
    path.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", str(path)],
        capture_output=True).returncode == 0
    try:
        if mounted:
            (path / "old.json").write_bytes(b"old export\n")
            fd = os.open(path / "filler", os.O_WRONLY | os.O_CREAT)
            try:
                while os.write(fd, b"\0" * 4096):
                    pass
            except OSError:  # full
                pass
            finally:
                os.close(fd)
        yield path if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", str(path)], capture_output=True)


@contextlib.contextmanager
def _read_only_folder(path):
    path.mkdir()
    (path / "old.csv").write_bytes(b"old export\n")
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(path)],
        capture_output=True).returncode == 0
    if mounted:
        (path / "old.csv").write_bytes(b"old export\n")
        subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)
    else:
        os.chmod(path, 0o555)
    try:
        yield path
    finally:
        if mounted:
            subprocess.run(["umount", str(path)], capture_output=True)
        else:
            os.chmod(path, 0o755)


PULL = """
import sys
sys.path[:0] = [{tests!r}, {portable!r}]
sys.path.append({firmware!r})
import test_pull
from lunchbox import cli
from lunchbox.records import pull
board = test_pull.board_with_games(30)
pull.data_ports = lambda port, sim: ["/dev/lunchbox"]
pull.open_link = lambda device: board.link()
pull.BATCH = 3
if {limit!r} is not None:
    import resource, signal
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, ({limit!r}, {limit!r}))
code = cli.main(["pull", "--db", {db!r}])
sys.exit(code)
"""


def _pull_into(db, limit):
    """`lunchbox pull` of a board with 30 games into ``db``, in a subprocess (a file-size
    ``limit`` there, or none)."""
    here = Path(__file__).parent
    code = PULL.format(tests=str(here), portable=str(here / "portable"),
                       firmware=str(ROOT / "firmware"), limit=limit, db=str(db))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "host"), str(ROOT)]))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env)
    return r.returncode, (r.stderr + b"\n" + r.stdout).decode("utf-8", "backslashreplace")


def test_full_disk_leaves_the_old_file_and_no_temporary(tmp_path, records_db):
    failures = []
    # a file-size limit: every write past 2 KB fails (EFBIG), as on a full disk
    a = Around(tmp_path / "limit")
    (a.dir / "old.json").write_bytes(b"old export\n")
    a.freeze()
    rc, err = lunchbox_bytes([b"export", b"--db", _b(records_db), b"--format", b"json", b"-o",
                              _b(a.dir / "old.json")], a.dir, preexec=_limit_file_size(2048))
    tally(failures, "full disks and signals", "file-size limit", refused_once(rc, err, "export"),
          a.changes())
    # a real full file system (a tiny tmpfs, as root), written to and then replaced
    with _tiny_tmpfs(tmp_path / "tmpfs") as full:
        if full is not None:
            before = snapshot(full)
            rc, err = lunchbox_bytes([b"export", b"--db", _b(records_db), b"--format", b"json",
                                      b"-o", _b(full / "old.json")], tmp_path)
            why = refused_once(rc, err, "export")
            lost = snapshot(full) != before
            if "No space left" not in err:
                why += "; not the full disk's message: " + err.strip()
            tally(failures, "full disks and signals", "full tmpfs", why, lost)
        else:  # not root: a limit of 0 bytes, not one byte written (the same count in docs)
            a = Around(tmp_path / "limit0")
            (a.dir / "old.json").write_bytes(b"old export\n")
            a.freeze()
            rc, err = lunchbox_bytes([b"export", b"--db", _b(records_db), b"-o",
                                      _b(a.dir / "old.json")], a.dir, preexec=_limit_file_size(0))
            tally(failures, "full disks and signals", "file-size limit 0",
                  refused_once(rc, err, "export"), a.changes())
    # the plots on a disk that fills: none written, the folder made for them gone again
    a = Around(tmp_path / "plots")
    a.freeze()
    rc, err = lunchbox_bytes([b"stats", b"--db", _b(records_db), b"--plot",
                              _b(a.dir / "new" / "plots")], a.dir, preexec=_limit_file_size(4096))
    tally(failures, "full disks and signals", "plots, file-size limit",
          refused_once(rc, err, "stats"), a.changes())
    # a disk that refuses writes: a read-only tmpfs as root, else a folder without write access
    with _read_only_folder(tmp_path / "ro") as ro:
        before = snapshot(ro)
        rc, err = lunchbox_bytes([b"export", b"--db", _b(records_db), b"-o",
                                  _b(ro / "x.csv")], tmp_path)
        tally(failures, "full disks and signals", "read-only disk",
              refused_once(rc, err, "export"), snapshot(ro) != before)
    # a pull onto a disk that fills mid-pull: one line, what was stored is whole, the board
    # not acknowledged past it (a tiny tmpfs as root, else a file-size limit)
    with _tiny_tmpfs(tmp_path / "pullfs", size="40k") as fs:
        where = fs if fs is not None else tmp_path
        if fs is not None:
            (fs / "filler").unlink()
        rc, err = _pull_into(where / "g.sqlite3", limit=None if fs is not None else 0)
        why = refused_once(rc, err, "pull")
        if "full" not in err and "disk I/O" not in err:
            why += "; not a full disk's message: " + err.strip()[-300:]
        tally(failures, "full disks and signals", "pull on a full disk", why)
    # stdout closed: one line, nothing done (no file opened later takes its number)
    a = Around(tmp_path / "closed")
    a.freeze()
    rc, err = lunchbox_bytes([b"export", b"--db", _b(records_db), b"-o", _b(a.dir / "out.csv")],
                             a.dir, preexec=lambda: os.close(1))  # as `>&-` in a shell
    why = refused_once(rc, err, "export")
    if "standard output is closed" not in err:
        why += "; not the closed stdout's message: " + err.strip()
    tally(failures, "full disks and signals", "stdout closed", why, a.changes())
    # stdout on a full device
    with open("/dev/full", "wb") as full_dev:
        r = subprocess.run([sys.executable, "-m", "lunchbox", "export", "--db", str(records_db)],
                           stdout=full_dev, stderr=subprocess.PIPE, timeout=30, cwd=str(ROOT),
                           env=dict(os.environ, PYTHONPATH=str(ROOT / "host")))
    err = r.stderr.decode("utf-8", "replace")
    tally(failures, "full disks and signals", "stdout /dev/full",
          refused_once(r.returncode, err, "export"))
    assert not failures, "\n".join(failures)


def test_a_signal_while_writing_removes_the_temporary(tmp_path, records_db, monkeypatch):
    # the real handlers, the real signals, delivered while the data is being flushed to disk:
    # SIGTERM and SIGHUP (a closed terminal) stop it by outfile's handler, SIGINT (Ctrl-C) as
    # KeyboardInterrupt; also while the plots are written
    from lunchbox import outfile

    failures = []
    cases = [("SIGTERM", "export", 128 + signal.SIGTERM, "stopped by SIGTERM"),
             ("SIGHUP", "export", 128 + signal.SIGHUP, "stopped by SIGHUP"),
             ("SIGINT", "export", 130, "interrupted"),
             ("SIGTERM", "stats", 128 + signal.SIGTERM, "stopped by SIGTERM")]
    real_fsync = os.fsync
    for i, (name, command, want_rc, words) in enumerate(cases):
        a = Around(tmp_path / str(i))
        (a.dir / "old.csv").write_bytes(b"old export\n")
        a.freeze()
        sig = getattr(signal, name)

        def signal_then_fsync(fd, sig=sig):
            os.kill(os.getpid(), sig)
            real_fsync(fd)
        monkeypatch.setattr(outfile.os, "fsync", signal_then_fsync)
        target = ["-o", str(a.dir / "old.csv")] if command == "export" else [
            "--plot", str(a.dir / "plots")]
        rc, err = run_cli([command, "--db", str(records_db)] + target)
        monkeypatch.undo()
        changed = a.changes()
        ok = (rc == want_rc and words in err and not changed
              and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
              and signal.getsignal(signal.SIGHUP) == signal.SIG_DFL)
        count_record("full disks and signals", ok, lost=bool(changed))
        if not ok:
            failures.append("{} during {}: {} {} {}".format(name, command, rc, err, changed))
    assert not failures, "\n".join(failures)


HUGE = b"99999999999999999999"


def test_huge_numbers_get_one_line(tmp_path, records_db):
    cases = [([b"replay", HUGE], "replay", "no game with ID"),
             ([b"replay", b"-" + HUGE], "replay", "no game with ID"),
             ([b"replay", b"9" * 5000], "replay", "invalid int"),
             ([b"replay", b"1e400"], "replay", "invalid int"),
             ([b"replay", b"1", b"--upto", HUGE, b"--final", b"--sim", b"--profile",
               b"no-such-profile"], "replay", "profile"),
             ([b"sim", b"--headless", b"--scale", HUGE, b"--keys", b"ok"], "sim", "zoom"),
             ([b"sim", b"--headless", b"--keys", b"wait:" + HUGE], "sim", "key script"),
             # refused before any board is looked for
             ([b"push", b"--brightness", HUGE, b"--port", b"/nonexistent"], "push", "0..100"),
             ([b"push", b"--name", HUGE + b"=ANNA", b"--port", b"/nonexistent"], "push",
              "is not 1..7"),
             ([b"replay", b"1", b"--upto", b"-" + HUGE], "replay", "no action number"),
             ([b"replay", b"0"], "replay", "no game with ID")]
    failures = []
    for i, (argv, command, words) in enumerate(cases):
        a = Around(tmp_path / str(i))
        a.freeze()
        full = argv + ([b"--db", _b(records_db)] if command == "replay" else [])
        if command == "sim":
            full = argv + [b"--nvm", _b(a.dir / "nvm.bin")]
        rc, err = lunchbox_bytes(full, a.dir, timeout=60)
        why = refused_once(rc, err, command, fix="invalid" not in words and command != "sim")
        if words not in err:
            why += "; message lacks {!r}: {}".format(words, err.strip())
        tally(failures, "huge numbers", b" ".join(argv)[:60], why, a.changes())
    assert not failures, "\n".join(failures)


def test_arguments_not_utf8_get_one_line(tmp_path, records_db):
    bad = b"caf\xe9"
    cases = [[b"history", b"--board", bad], [b"history", b"--player", bad],
             [b"history", b"--game", bad], [b"history", b"--db", bad + b".db"],
             [b"stats", b"--plot", bad], [b"export", b"-o", bad + b".csv"],
             [b"export", b"--format", b"bgstats", b"--me", bad],
             [b"replay", b"1", b"--shots", bad], [b"portability", bad + b".py"],
             [b"pull", b"--port", bad], [b"push", b"--names", bad, b"--port", b"/nonexistent"],
             # before argparse: a choice, a number, an --option=value, a subcommand's argument
             [b"export", b"--format", bad], [b"replay", bad], [b"history", b"--db=" + bad],
             [b"profile", b"show", bad]]
    failures = []
    for i, argv in enumerate(cases):
        a = Around(tmp_path / str(i))
        a.freeze()
        db = [] if argv[0] in (b"portability", b"push", b"profile") or any(
            x.startswith(b"--db") for x in argv) else [
            b"--db", _b(records_db)]
        rc, err = lunchbox_bytes(argv + db, a.dir)
        why = refused_once(rc, err, argv[0].decode())
        if "not valid UTF-8" not in err or "\\xe9" not in err:
            why += "; does not say which bytes: " + err.strip()
        tally(failures, "arguments not UTF-8", b" ".join(argv), why, a.changes())
    # $LUNCHBOX_DB not UTF-8 (the environment is not refused: the bytes are the file's name)
    a = Around(tmp_path / "env")
    shutil.copy(records_db, os.fsdecode(_b(a.dir) + b"/caf\xe9.sqlite3"))
    with open(os.fsdecode(_b(a.dir) + b"/caf\xe9-other.sqlite3"), "wb") as f:
        f.write(b"not a database at all\n")
    a.freeze()
    for name, ok_rc in ((b"caf\xe9.sqlite3", 0), (b"caf\xe9-other.sqlite3", 1)):
        env = dict(os.environb)
        env[dbmod_env().encode()] = _b(a.dir) + b"/" + name
        rc, err = _lunchbox_env([b"history"], a.dir, env)
        why = "" if rc == ok_rc else "exit status {}".format(rc)
        if "Traceback" in err or (ok_rc and "\\xe9" not in err):
            why += "; " + err.strip()[-300:]
        tally(failures, "arguments not UTF-8", "$LUNCHBOX_DB {!r}".format(name), why, a.changes())
    # a source file that is not UTF-8, and a FIFO, given to the portability check
    a = Around(tmp_path / "portability-files")
    (a.dir / "latin1.py").write_bytes(b'NAME = "caf\xe9"\n')
    os.mkfifo(a.dir / "fifo.py")
    a.freeze()
    for name, words in (("latin1.py", "not UTF-8"), ("fifo.py", "not a regular file")):
        rc, err = lunchbox_bytes([b"portability", _b(a.dir / name)], a.dir, timeout=20)
        why = refused_once(rc, err, "portability")
        if words not in err:
            why += "; message lacks {!r}: {}".format(words, err.strip())
        tally(failures, "arguments not UTF-8", "portability " + name, why)
    assert not a.changes()
    assert not failures, "\n".join(failures)


def _foreign_dbs(a):
    """name -> (path of the database argument, words in the message)."""
    import sqlite3

    d = a.dir
    conn = sqlite3.connect(str(d / "foreign.sqlite3"))
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.commit()
    conn.close()
    conn = sqlite3.connect(str(d / "newer.sqlite3"))
    conn.execute("CREATE TABLE records (x)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    conn = sqlite3.connect(str(d / "wal.sqlite3"))  # SQLite makes -wal and -shm to read it
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    (d / "junk.sqlite3").write_bytes(b"this is not a database\n" * 100)
    data = bytearray(_RECORDS_DB_BYTES[0])  # ours, with its pages of games overwritten
    data[4096 * 3 + 100:4096 * 3 + 3100] = b"\xff" * 3000
    (d / "damaged.sqlite3").write_bytes(bytes(data))
    os.mkfifo(d / "fifo.sqlite3")
    (d / "folder.sqlite3").mkdir()
    return {"a foreign SQLite file": (d / "foreign.sqlite3", "not a lunchbox games database"),
            "a newer schema": (d / "newer.sqlite3", "newer lunchbox"),
            "a foreign SQLite file in WAL mode": (d / "wal.sqlite3",
                                                  "not a lunchbox games database"),
            "not SQLite": (d / "junk.sqlite3", "cannot open the games database"),
            "ours, damaged": (d / "damaged.sqlite3", "malformed"),
            "a FIFO": (d / "fifo.sqlite3", "not a regular file"),
            "a folder": (d / "folder.sqlite3", "a folder"),
            "under a file": (d / "mine.txt" / "g.sqlite3", "is a file, not a folder")}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_foreign_databases_are_refused_and_left_alone(tmp_path, records_db):
    failures = []
    commands = ([b"history"], [b"stats"], [b"export"], [b"replay", b"1"],
                [b"pull", b"--port", b"/nonexistent"])
    a = Around(tmp_path)
    cases = _foreign_dbs(a)
    a.freeze()
    for name, (path, words) in cases.items():
        for argv in commands:
            rc, err = lunchbox_bytes(argv + [b"--db", _b(path)], a.dir)
            why = refused_once(rc, err, argv[0].decode())
            if words not in err:
                why += "; message lacks {!r}: {}".format(words, err.strip())
            tally(failures, "foreign databases", "{} ({})".format(name, argv[0].decode()), why,
                  a.changes())
    # read commands create nothing: no database, no folder where none was, no table in an
    # empty file or an empty SQLite file
    import sqlite3

    (a.dir / "zero.sqlite3").write_bytes(b"")
    conn = sqlite3.connect(str(a.dir / "blank.sqlite3"))  # SQLite's header, no table
    conn.executescript("CREATE TABLE t (x); DROP TABLE t;")
    conn.close()
    a.freeze()
    for argv, db in [(argv, where) for argv in commands[:4] for where in (
            a.dir / "new" / "g.sqlite3", a.dir / "zero.sqlite3", a.dir / "blank.sqlite3")]:
        rc, err = lunchbox_bytes(argv + [b"--db", _b(db)], a.dir)
        # export writes an empty export; the others say no games were pulled yet
        ok = (rc not in (0, None) or argv[0] == b"export") and "Traceback" not in err \
            and not a.changes()
        count_record("foreign databases", ok)
        if not ok:
            failures.append("{} on {}: rc={} {} {}".format(
                argv[0].decode(), db.name, rc, err.strip(), a.changes()))
    # the user data folder is a file: the default database cannot be under it
    home = a.dir / "mine.txt"
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home))
    for argv in ([b"history"], [b"pull", b"--port", b"/nonexistent"]):
        rc, err = lunchbox_bytes(argv, a.dir, env=env)
        why = refused_once(rc, err, argv[0].decode())
        count_record("foreign databases", not why and not a.changes())
        if why:
            failures.append("data folder a file ({}): {}".format(argv[0].decode(), why))
    assert not failures, "\n".join(failures)


# ---- the totals -----------------------------------------------------------------------------

def test_zz_totals_match_the_docs():
    CASES.check_doc()
