"""Drive finding with real folders standing in for mounted volumes."""

import pytest

from lunchbox import drives
from lunchbox.drives import Drive
from lunchbox.errors import LunchboxError

BOOT_9 = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
          "Board ID:raspberry_pi_pico\nUID:E6614C311B7D5A2C\n")
BOOT_10 = ("Adafruit CircuitPython 10.0.0 on 2025-09-15; Raspberry Pi Pico 2 with rp2350a\n"
           "Board ID:raspberry_pi_pico2\nUID:0123456789ABCDEF\n")
INFO_RP2040 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


def make_volume(root, label, files):
    path = root / label
    path.mkdir(parents=True)
    for name, text in files.items():
        (path / name).write_text(text)
    return path


def test_linux_layout(tmp_path):
    media = tmp_path / "media" / "ann"
    make_volume(media, "CIRCUITPY", {"boot_out.txt": BOOT_9})
    make_volume(media, "RPI-RP2", {"INFO_UF2.TXT": INFO_RP2040, "INDEX.HTM": ""})
    make_volume(media, "USBSTICK", {"notes.txt": "x"})
    found = drives.find_circuitpy([str(media)])
    assert [d.label for d in found] == ["CIRCUITPY"]
    boot = drives.find_bootloaders([str(media)])
    assert [d.label for d in boot] == ["RPI-RP2"]
    assert "RPI-RP2" in drives.read_info_uf2(boot[0])


def test_macos_duplicate_labels(tmp_path):
    volumes = tmp_path / "Volumes"
    make_volume(volumes, "CIRCUITPY", {})
    make_volume(volumes, "CIRCUITPY 1", {})
    make_volume(volumes, "Macintosh HD", {})
    labels = [d.label for d in drives.find_circuitpy([str(volumes)])]
    assert labels == ["CIRCUITPY", "CIRCUITPY 1"]


@pytest.mark.parametrize("label,ok", [
    ("CIRCUITPY", True), ("CIRCUITPY 1", True), ("CIRCUITPY1", True), ("circuitpy", True),
    ("CIRCUITPY_2", True), ("CIRCUITPYX", False), ("MYCIRCUITPY", False), ("", False),
])
def test_label_rule(label, ok):
    assert drives.is_circuitpy_label(label) is ok


def test_missing_roots_and_duplicates(tmp_path):
    make_volume(tmp_path, "CIRCUITPY", {})
    found = drives.find_circuitpy([str(tmp_path / "nope"), str(tmp_path), str(tmp_path)])
    assert len(found) == 1


def test_proc_mounts_parsing(tmp_path):
    vol = make_volume(tmp_path, "my board", {"INFO_UF2.TXT": INFO_RP2040})
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "proc /proc proc rw 0 0\n"
        "/dev/sdb1 {} vfat rw,nosuid 0 0\n"
        "/dev/sda1 / ext4 rw 0 0\n".format(str(vol).replace(" ", "\\040")))
    found = drives._proc_mounts(str(mounts))
    assert [d.path for d in found] == [str(vol)]
    assert drives._proc_mounts(str(tmp_path / "absent")) == []


def test_default_roots():
    assert drives.default_roots("darwin", {}) == ["/Volumes"]
    linux = drives.default_roots("linux", {"USER": "ann"})
    assert linux[:2] == ["/media/ann", "/run/media/ann"]
    assert "/mnt" in linux


def test_choose_never_guesses():
    a, b = Drive("/m/CIRCUITPY"), Drive("/m/CIRCUITPY 1")
    assert drives.choose([], "CIRCUITPY") is None
    assert drives.choose([a], "CIRCUITPY") is a
    with pytest.raises(LunchboxError) as err:
        drives.choose([a, b], "CIRCUITPY")
    assert "/m/CIRCUITPY 1" in str(err.value) and "--drive" in err.value.hint
    assert drives.choose([a, b], "CIRCUITPY", ask=lambda ds: ds[1]) is b
    with pytest.raises(LunchboxError, match="no drive chosen"):
        drives.choose([a, b], "CIRCUITPY", ask=lambda ds: None)


def test_wait_for_times_out_and_finds():
    now = [0.0]
    sleeps = []

    def sleep(s):
        sleeps.append(s)
        now[0] += s

    assert drives.wait_for(lambda: [], 2.0, sleep=sleep, clock=lambda: now[0]) is None
    assert now[0] == pytest.approx(2.0)
    calls = iter([[], [], ["x"]])
    assert drives.wait_for(lambda: next(calls), 10, sleep=sleep, clock=lambda: now[0]) == ["x"]


def test_parse_boot_out():
    b = drives.parse_boot_out(BOOT_9)
    assert b.version == (9, 2, 1) and b.board_id == "raspberry_pi_pico"
    assert b.chip == "rp2040" and b.board_name == "Raspberry Pi Pico" and b.supported
    b = drives.parse_boot_out(BOOT_10)
    assert b.version == (10, 0, 0) and b.board_id == "raspberry_pi_pico2" and b.supported
    b = drives.parse_boot_out("Adafruit CircuitPython 10.1.0-beta.1 on 2026-01-01; X with y\n")
    assert b.version == (10, 1, 0) and b.board_id is None
    old = drives.parse_boot_out(BOOT_9.replace("9.2.1", "8.2.10"))
    assert not old.supported
    with pytest.raises(LunchboxError, match="8.2.10.*9.x and 10.x"):
        drives.check_supported(old)
    with pytest.raises(ValueError, match="does not start"):
        drives.parse_boot_out("MicroPython v1.22\n")
    with pytest.raises(ValueError, match="empty"):
        drives.parse_boot_out("")


def test_read_boot_out(tmp_path):
    vol = make_volume(tmp_path, "CIRCUITPY", {"boot_out.txt": BOOT_10})
    assert drives.read_boot_out(Drive(vol)).version == (10, 0, 0)
    empty = make_volume(tmp_path, "CIRCUITPY1", {})
    with pytest.raises(LunchboxError, match="no boot_out.txt") as err:
        drives.read_boot_out(Drive(empty))
    assert "reset" in err.value.hint
    bad = make_volume(tmp_path, "CIRCUITPY2", {"boot_out.txt": "garbage"})
    with pytest.raises(LunchboxError, match="does not start"):
        drives.read_boot_out(Drive(bad))
