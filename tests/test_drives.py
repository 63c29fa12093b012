"""Drive finding with real folders standing in for mounted volumes."""

import pytest

from lunchbox.device import drives
from lunchbox.device.drives import Drive
from lunchbox.errors import LunchboxError


@pytest.fixture
def boots(fake_drives):
    """boot_out.txt of a 9.2.1 Pico and of a 10.0.0 Pico 2, each with its UID line."""
    return (fake_drives.boot_out("9.2.1", "2024-11-20", uid="E6614C311B7D5A2C"),
            fake_drives.boot_out(board="Raspberry Pi Pico 2 with rp2350a",
                                 board_id="raspberry_pi_pico2", uid="0123456789ABCDEF"))


def test_linux_layout(fake_drives, boots):
    ann = fake_drives.at("media/ann")
    ann.circuitpy(boot=boots[0])
    ann.rpi_rp2()
    ann.volume("USBSTICK", {"notes.txt": "x"})
    media = str(ann.media)
    found = drives.find_circuitpy([media])
    assert [d.label for d in found] == ["CIRCUITPY"]
    boot = drives.find_bootloaders([media])
    assert [d.label for d in boot] == ["RPI-RP2"]
    assert "RPI-RP2" in drives.read_info_uf2(boot[0])


def test_macos_duplicate_labels(fake_drives):
    volumes = fake_drives.at("Volumes")
    for label in ("CIRCUITPY", "CIRCUITPY 1", "Macintosh HD"):
        volumes.volume(label)
    labels = [d.label for d in drives.find_circuitpy([str(volumes.media)])]
    assert labels == ["CIRCUITPY", "CIRCUITPY 1"]


@pytest.mark.parametrize("label,ok", [
    ("CIRCUITPY", True), ("CIRCUITPY 1", True), ("CIRCUITPY1", True), ("circuitpy", True),
    ("CIRCUITPY_2", True), ("CIRCUITPYX", False), ("MYCIRCUITPY", False), ("", False),
])
def test_label_rule(label, ok):
    assert drives.is_circuitpy_label(label) is ok


def test_missing_roots_and_duplicates(tmp_path, fake_drives):
    fake_drives.volume("CIRCUITPY")
    found = drives.find_circuitpy([str(tmp_path / "nope"), str(tmp_path), str(tmp_path)])
    assert len(found) == 1


def test_proc_mounts_parsing(tmp_path, fake_drives):
    vol = fake_drives.rpi_rp2("my board")
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


def test_parse_boot_out(boots):
    boot9, boot10 = boots
    b = drives.parse_boot_out(boot9)
    assert b.version == (9, 2, 1) and b.board_id == "raspberry_pi_pico"
    assert b.chip == "rp2040" and b.board_name == "Raspberry Pi Pico" and b.supported
    b = drives.parse_boot_out(boot10)
    assert b.version == (10, 0, 0) and b.board_id == "raspberry_pi_pico2" and b.supported
    b = drives.parse_boot_out("Adafruit CircuitPython 10.1.0-beta.1 on 2026-01-01; X with y\n")
    assert b.version == (10, 1, 0) and b.board_id is None
    old = drives.parse_boot_out(boot9.replace("9.2.1", "8.2.10"))
    assert not old.supported
    with pytest.raises(LunchboxError, match="8.2.10.*9.x and 10.x"):
        drives.check_supported(old)
    with pytest.raises(ValueError, match="does not start"):
        drives.parse_boot_out("MicroPython v1.22\n")
    with pytest.raises(ValueError, match="empty"):
        drives.parse_boot_out("")


def test_read_boot_out(fake_drives, boots):
    vol = fake_drives.circuitpy(boot=boots[1])
    assert drives.read_boot_out(Drive(vol)).version == (10, 0, 0)
    empty = fake_drives.circuitpy("CIRCUITPY1", boot=None)
    with pytest.raises(LunchboxError, match="no boot_out.txt") as err:
        drives.read_boot_out(Drive(empty))
    assert "reset" in err.value.hint
    bad = fake_drives.circuitpy("CIRCUITPY2", boot="garbage")
    with pytest.raises(LunchboxError, match="does not start"):
        drives.read_boot_out(Drive(bad))
