"""`lunchbox doctor` on fake drives and fake port listings: every problem comes with its fix."""

import io
import json

from lunchbox import doctor, drives, fileset, sync, sync_command

BOOT_OUT = ("Adafruit CircuitPython 10.0.0 on 2025-09-15; Raspberry Pi Pico with rp2040\n"
            "Board ID:raspberry_pi_pico\n")


class PortInfo:
    def __init__(self, device, interface, vid=0x239A, pid=0x80F4):
        self.device, self.interface, self.vid, self.pid = device, interface, vid, pid
        self.serial_number = "X"
        self.description = "Pico"


CONSOLE = PortInfo("/dev/ttyACM0", "CircuitPython CDC control")
DATA = PortInfo("/dev/ttyACM1", "CircuitPython CDC2 control")


def circuitpy(tmp_path, boot_out=BOOT_OUT, profile="pico-display-pack", version=None,
              complete=True, synced=False):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(boot_out)
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


def test_all_well(tmp_path):
    circuitpy(tmp_path, synced=True)
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


def test_bootloader_only(tmp_path):
    (tmp_path / "RPI-RP2").mkdir()
    (tmp_path / "RPI-RP2" / "INFO_UF2.TXT").write_text("Board-ID: RPI-RP2\n")
    r = run(tmp_path)
    assert "bootloader drive:" in r.render() and "(RP2040)" in r.render()
    assert fixes(r)[0].startswith("install CircuitPython: lunchbox flash --profile "
                                  "pico-display-pack | pico-ssd1306-5btn --uf2 FILE")


def test_no_data_port(tmp_path):
    circuitpy(tmp_path, synced=True)
    r = run(tmp_path, [CONSOLE])
    assert len(r.problems) == 1 and "usb_cdc.enable(console=True, data=True)" in fixes(r)[0]


def test_old_firmware_and_interrupted_sync(tmp_path):
    circuitpy(tmp_path, version="0.0.1")
    r = run(tmp_path, [CONSOLE, DATA])
    assert "firmware: 0.0.1 on the device" in r.render()
    assert fixes(r) == ["lunchbox sync"]
    other = tmp_path / "b"
    other.mkdir()
    circuitpy(other, version=fileset.firmware_version(), complete=False)
    r = run(other, [CONSOLE, DATA])
    assert "did not finish" in r.problems[0][0] and "repairs" in fixes(r)[0]


def test_not_installed(tmp_path):
    circuitpy(tmp_path, profile=None)
    r = run(tmp_path, [CONSOLE, DATA])
    assert "profile: none on the device" in r.render()
    assert fixes(r) == ["lunchbox sync --profile NAME"]


def test_unsupported_version_and_board_mismatch(tmp_path):
    circuitpy(tmp_path, BOOT_OUT.replace("10.0.0", "8.2.0"), profile="pico2-display-pack",
              version=fileset.firmware_version())
    r = run(tmp_path, [CONSOLE, DATA])
    problems = " / ".join(p for p, _ in r.problems)
    assert "8.2.0 is not supported" in problems
    assert "profile pico2-display-pack is for raspberry_pi_pico2" in problems
    assert any(f.startswith("lunchbox flash --profile pico-display-pack | pico-ssd1306-5btn "
                            "--uf2 FILE") for f in fixes(r))
    assert any(f.startswith("lunchbox sync --profile") and "pico-ssd1306-5btn" in f
               for f in fixes(r))


def test_missing_boot_out_and_bad_manifest(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / sync.MANIFEST).write_text(json.dumps(
        {"format": 1, "complete": True, "files": {"../x": {"sha256": "0"}}}))
    r = run(tmp_path, [CONSOLE, DATA])
    problems = " / ".join(p for p, _ in r.problems)
    assert "no boot_out.txt" in problems and "not trustworthy" in problems
    assert all(fix for fix in fixes(r))


def test_unknown_profile_on_device(tmp_path):
    circuitpy(tmp_path, profile="no-such-build", version=fileset.firmware_version())
    r = run(tmp_path, [CONSOLE, DATA])
    assert "no hardware profile 'no-such-build'" in r.problems[0][0]
    assert "pico-display-pack" in fixes(r)[0]


def test_drive_without_serial_ports(tmp_path):
    circuitpy(tmp_path, synced=True)
    r = run(tmp_path, [])
    assert len(r.problems) == 1 and "no CircuitPython serial port" in r.problems[0][0]
    assert "usb_cdc" in fixes(r)[0]


def test_ports_without_interface_names(tmp_path):
    circuitpy(tmp_path, synced=True)
    r = run(tmp_path, [PortInfo("/dev/cu.usbmodem1", None, 0x2E8A, 0x000B)])
    assert "roles are guessed" in r.render() and r.problems == []


def test_local_edits_seen(tmp_path):
    d = circuitpy(tmp_path, synced=True)
    (d / "code.py").write_text("print('edited on the board')\n")
    r = run(tmp_path, [CONSOLE, DATA])
    assert r.problems == [("1 file on the device differs from the checkout (code.py)",
                           "lunchbox sync")]


def test_named_drive(tmp_path):
    d = circuitpy(tmp_path, synced=True)
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


def test_library_versions_shown_and_compared(tmp_path):
    d = circuitpy(tmp_path, synced=True)
    libs = json.loads((d / sync.MANIFEST).read_text())["libs"]
    r = run(tmp_path, [CONSOLE, DATA])
    assert r.problems == [] and r.notes == []
    assert "  libraries: adafruit_st7789 {}, ".format(libs["adafruit_st7789"]) in r.render()
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


def test_library_missing_or_extra_on_device(tmp_path):
    d = circuitpy(tmp_path, synced=True)
    set_libs(d, lambda doc: doc["libs"].pop("adafruit_ticks", None)
             or doc["libs"].pop("neopixel"))
    set_libs(d, lambda doc: doc["libs"].update(old_lib="1.0"))
    (note, fix), = run(tmp_path, [CONSOLE, DATA]).notes
    assert "old_lib 1.0 on the device, none here" in note and fix == "lunchbox sync"
    assert " none on the device, " in note


def test_library_versions_not_recorded_by_older_manifest(tmp_path):
    d = circuitpy(tmp_path, synced=True)
    set_libs(d, lambda doc: doc.pop("libs"))
    r = run(tmp_path, [CONSOLE, DATA])
    assert "libraries: versions not recorded (synced by an older lunchbox)" in r.render()
    assert r.problems == [] and r.notes == []


def test_library_versions_without_a_profile(tmp_path):
    import importlib.metadata

    d = circuitpy(tmp_path, profile=None, version=fileset.firmware_version())
    set_libs(d, lambda doc: doc.update(libs={"neopixel": "0.0.1", "adafruit_ticks":
                                             importlib.metadata.version(
                                                 "adafruit-circuitpython-ticks")}))
    r = run(tmp_path, [CONSOLE, DATA])
    (note, _), = r.notes
    assert note.endswith(": neopixel 0.0.1 on the device, {} here".format(
        importlib.metadata.version("adafruit-circuitpython-neopixel")))
