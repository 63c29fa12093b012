"""`lunchbox flash` against folders standing in for the bootloader and CIRCUITPY drives and a
real pseudo-terminal standing in for the board's console port."""

import errno
import hashlib
import io
import os
import select
import termios

import pytest

from lunchbox.device import flash, ports, uf2
from lunchbox.errors import LunchboxError


def firmware_image(banner=b"Adafruit CircuitPython 10.0.0 on 2025-09-15; Raspberry Pi Pico "
                          b"with rp2040", family=uf2.RP2040, size=100 * 1024):
    """A UF2 laid out as a real firmware image: 256-byte blocks of flash at 0x10000000, the
    version banner (NUL-terminated, as a C string in .rodata) in the middle of the payload,
    straddling a block boundary, as it may in a real build."""
    body = bytearray(b"".join(hashlib.sha256(b"%d" % i).digest() for i in range(size // 32)))
    if banner:
        at = 256 * 150 - len(banner) // 2
        body[at:at + len(banner) + 1] = banner + b"\0"
    return uf2.build(bytes(body), family)


IMAGE = firmware_image()
IMAGE_2350 = firmware_image(b"Adafruit CircuitPython 10.0.0 on 2025-09-15; Raspberry Pi Pico 2 "
                            b"with rp2350a", uf2.RP2350_ARM_S)


class ListedPort:
    """What pyserial's list_ports gives for a port (device and USB ids)."""

    def __init__(self, device, vid=None, pid=None, interface=None):
        self.device, self.vid, self.pid, self.interface = device, vid, pid, interface


class FakeBoard:
    """Drives that come and go as a board would, advanced by the fake clock's sleeps."""

    def __init__(self, drives):
        self.drives = drives  # the conftest's fake_drives
        self.media = drives.media
        self.info = drives.INFO_RP2040
        self.now = 0.0
        self.on_sleep = []

    def sleep(self, s):
        self.now += s
        for hook in list(self.on_sleep):
            hook()

    def clock(self):
        return self.now

    def show_bootloader(self):
        return self.drives.rpi_rp2(info=self.info)

    def show_circuitpy(self):
        return self.drives.circuitpy()

    def reboot_after_copy(self):
        boot = self.media / "RPI-RP2"

        def hook():
            if (boot / flash.COPY_NAME).exists() and not (self.media / "CIRCUITPY").exists():
                self.show_circuitpy()
        self.on_sleep.append(hook)


@pytest.fixture
def board(fake_drives):
    return FakeBoard(fake_drives.at("media"))


def env_for(board, **kw):
    kw.setdefault("comports", lambda: [])
    kw.setdefault("err", io.StringIO())
    return flash.Env(roots=[str(board.media)], sleep=board.sleep, clock=board.clock, **kw)


def uf2_file(tmp_path, data=IMAGE, name="cp.uf2"):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_flash_found_drive(board, tmp_path):
    boot = board.show_bootloader()
    board.reboot_after_copy()
    env = env_for(board)
    cp = flash.flash(env, uf2_file(tmp_path), timeout=5, circuitpy_timeout=10)
    assert cp.label == "CIRCUITPY"
    assert (boot / flash.COPY_NAME).read_bytes() == IMAGE
    assert "RP2040 UF2" in env.err.getvalue()


def test_flash_named_drive(board, tmp_path):
    boot = board.show_bootloader()
    board.reboot_after_copy()
    flash.flash(env_for(board), uf2_file(tmp_path), drive=str(boot), circuitpy_timeout=10)
    assert (boot / flash.COPY_NAME).read_bytes() == IMAGE
    with pytest.raises(LunchboxError, match="not a UF2 bootloader drive"):
        flash.flash(env_for(board), uf2_file(tmp_path), drive=str(tmp_path))


@pytest.mark.parametrize("damage", [
    lambda d: d[:-200], lambda d: d[:512 * 10], lambda d: b"PK" + d[2:],
    lambda d: d[:512] + d[1024:],
])
def test_broken_uf2_writes_nothing(board, tmp_path, damage):
    boot = board.show_bootloader()
    before = sorted(os.listdir(boot))
    with pytest.raises(uf2.UF2Error):
        flash.flash(env_for(board), uf2_file(tmp_path, damage(IMAGE)))
    assert sorted(os.listdir(boot)) == before


def test_wrong_chip_writes_nothing(board, tmp_path):
    boot = board.show_bootloader()
    with pytest.raises(LunchboxError, match="bootloader is an RP2040 but the UF2 is for RP2350"):
        flash.flash(env_for(board), uf2_file(tmp_path, IMAGE_2350))
    assert not (boot / flash.COPY_NAME).exists()
    with pytest.raises(uf2.UF2Error, match="but this board needs an RP2040 one"):
        flash.flash(env_for(board), uf2_file(tmp_path, IMAGE_2350), chip="RP2040")


def test_rp2350_bootloader(board, tmp_path):
    board.info = board.drives.INFO_RP2350
    boot = board.show_bootloader()
    board.reboot_after_copy()
    flash.flash(env_for(board), uf2_file(tmp_path, IMAGE_2350), circuitpy_timeout=10)
    assert (boot / flash.COPY_NAME).read_bytes() == IMAGE_2350


def test_two_bootloaders_never_guessed(board, tmp_path):
    board.show_bootloader()
    board.drives.rpi_rp2("RP2350", board.drives.INFO_RP2350)
    with pytest.raises(LunchboxError, match="2 bootloader drives"):
        flash.flash(env_for(board), uf2_file(tmp_path))


class FakePortInfo:
    def __init__(self, device, interface, vid=0x239A, pid=0x80F4):
        self.device = device
        self.interface = interface
        self.vid = vid
        self.pid = pid
        self.serial_number = "E6614C311B7D5A2C"
        self.description = "Pico"


@pytest.fixture
def pty():
    master, slave = os.openpty()
    yield master, slave, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def _read_all(fd):
    out = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        out += chunk
    return out


def test_reboot_by_1200_baud_touch(board, tmp_path, pty):
    master, slave, name = pty
    termios.tcsetattr(slave, termios.TCSANOW, _with_speed(termios.tcgetattr(slave),
                                                          termios.B115200))

    def hook():  # the "board" sees its console set to 1200 baud and restarts
        if termios.tcgetattr(slave)[4] == termios.B1200:
            board.show_bootloader()
    board.on_sleep.append(hook)
    board.reboot_after_copy()
    data_port = FakePortInfo("/dev/null-data", "CircuitPython CDC2 control")
    env = env_for(board, comports=lambda: [data_port, FakePortInfo(name,
                                                                   "CircuitPython CDC control")])
    flash.flash(env, uf2_file(tmp_path), timeout=10, circuitpy_timeout=10)
    assert (board.media / "RPI-RP2" / flash.COPY_NAME).read_bytes() == IMAGE
    assert "restart into its bootloader" in env.err.getvalue()
    assert "REPL" not in env.err.getvalue()
    assert _read_all(master) == b""  # nothing typed at the REPL


def _with_speed(attrs, speed):
    attrs = list(attrs)
    attrs[4] = attrs[5] = speed
    return attrs


def test_reboot_falls_back_to_repl(board, tmp_path, pty):
    master, slave, name = pty
    typed = []

    def hook():  # this board ignores the touch, but obeys the REPL
        typed.append(_read_all(master))
        if b"microcontroller.reset()" in b"".join(typed):
            board.show_bootloader()
    board.on_sleep.append(hook)
    board.reboot_after_copy()
    env = env_for(board, comports=lambda: [FakePortInfo(name, "CircuitPython CDC control")])
    flash.flash(env, uf2_file(tmp_path), timeout=10, circuitpy_timeout=10)
    text = b"".join(typed)
    assert text.startswith(b"\x03\x03")
    for line in ports.REPL_UF2_LINES:
        assert line in text
    assert "typing the reset into the REPL" in env.err.getvalue()


def test_reboot_times_out_with_clear_message(board, tmp_path, pty):
    _, _, name = pty
    env = env_for(board, comports=lambda: [FakePortInfo(name, "CircuitPython CDC control")])
    with pytest.raises(LunchboxError, match="did not show its bootloader drive within 8 s") as e:
        flash.flash(env, uf2_file(tmp_path), timeout=8)
    assert "BOOTSEL" in e.value.hint
    assert board.now == pytest.approx(6 + 8, abs=1.5)


def test_nothing_attached(board, tmp_path):
    with pytest.raises(LunchboxError, match="no bootloader drive and no running") as e:
        flash.flash(env_for(board), uf2_file(tmp_path))
    assert "BOOTSEL" in e.value.hint


def test_two_boards_running_not_guessed(board, tmp_path):
    two = [FakePortInfo("/dev/a", "CircuitPython CDC control"),
           FakePortInfo("/dev/b", "CircuitPython CDC control", pid=0x8120)]
    with pytest.raises(LunchboxError, match="2 CircuitPython boards"):
        flash.flash(env_for(board, comports=lambda: two), uf2_file(tmp_path))


def test_port_roles():
    found = ports.list_ports(lambda: [
        FakePortInfo("/dev/ttyACM1", "CircuitPython CDC2 control"),
        FakePortInfo("/dev/ttyACM0", "CircuitPython CDC control"),
        FakePortInfo("/dev/ttyUSB0", None, vid=0x0403, pid=0x6001),  # an FTDI cable: not ours
        FakePortInfo("/dev/cu.usbmodem1", None, vid=0x2E8A, pid=0x000B),  # macOS, no names
    ])
    assert [(p.device, p.role) for p in found] == [
        ("/dev/cu.usbmodem1", "unknown"), ("/dev/ttyACM0", "console"), ("/dev/ttyACM1", "data")]
    assert [p.device for p in ports.console_ports(found)] == ["/dev/ttyACM0"]
    assert found[0].board == "Raspberry Pi Pico 2"
    assert "2E8A:000B" in found[0].describe()
    unnamed = [p for p in found if p.role == "unknown"]
    assert ports.console_ports(unnamed) == unnamed
    others = ports.list_ports(lambda: [
        FakePortInfo("/dev/cu.usbmodem2", None, vid=0x239A, pid=0x8162),
        FakePortInfo("/dev/cu.usbmodem3", None, vid=0x2E8A, pid=0x000C),  # not a CircuitPython id
    ])
    assert [(p.device, p.board) for p in others] == [("/dev/cu.usbmodem2", "Raspberry Pi Pico 2 W")]


def test_copy_error_after_last_byte_is_success(board, tmp_path):
    boot = board.show_bootloader()
    board.reboot_after_copy()

    class Vanishing:
        def __init__(self, path, mode):
            self.f = open(path, mode)

        def write(self, b):
            return self.f.write(b)

        def flush(self):
            self.f.flush()
            raise OSError(errno.EIO, "Input/output error")  # the drive left: board rebooted

        def fileno(self):
            return self.f.fileno()

        def close(self):
            self.f.close()

    env = env_for(board, opener=Vanishing)
    flash.flash(env, uf2_file(tmp_path), circuitpy_timeout=10)
    assert (boot / flash.COPY_NAME).read_bytes() == IMAGE


def test_copy_error_midway(board, tmp_path):
    board.show_bootloader()

    class Unplugged:
        def __init__(self, path, mode):
            self.n = 0

        def write(self, b):
            self.n += 1
            if self.n == 3:
                raise OSError(errno.ENODEV, "No such device")

        def close(self):
            pass

    with pytest.raises(LunchboxError, match="copying stopped after 65536 of") as e:
        flash.flash(env_for(board, opener=Unplugged), uf2_file(tmp_path))
    assert "BOOTSEL" in e.value.hint


def test_circuitpy_never_appears(board, tmp_path):
    board.show_bootloader()
    with pytest.raises(LunchboxError, match="no CIRCUITPY drive appeared within 12 s"):
        flash.flash(env_for(board), uf2_file(tmp_path), circuitpy_timeout=12)


def test_circuitpy_wait_has_its_own_timeout(board, tmp_path):
    """A first start (formatting CIRCUITPY) takes longer than --timeout's bootloader wait:
    the CIRCUITPY wait runs on --circuitpy-timeout, not on --timeout nor a fixed 60 s."""
    def slow_start(after):
        def hook():
            copied = (board.media / "RPI-RP2" / flash.COPY_NAME).exists()
            if copied and board.now >= after and not (board.media / "CIRCUITPY").exists():
                board.show_circuitpy()
        return hook

    board.show_bootloader()
    board.on_sleep.append(slow_start(90))
    cp = flash.flash(env_for(board), uf2_file(tmp_path), timeout=5, circuitpy_timeout=120)
    assert cp.label == "CIRCUITPY" and 90 <= board.now <= 120
    (board.media / "CIRCUITPY").rename(board.media / "gone")
    board.now = 0.0
    with pytest.raises(LunchboxError, match="appeared within 2.5 s") as e:
        flash.flash(env_for(board), uf2_file(tmp_path), timeout=300, circuitpy_timeout=2.5)
    assert board.now < 10 and "--circuitpy-timeout" in e.value.hint


def test_cli_passes_both_timeouts(tmp_path, monkeypatch, capsys):
    from lunchbox import cli
    from lunchbox.device import drives

    seen = {}

    def fake_flash(env, uf2_path, board, chip, drive, ask, timeout, circuitpy_timeout,
                   force=False, build=None):
        seen.update(timeout=timeout, circuitpy_timeout=circuitpy_timeout)
        return drives.Drive(str(tmp_path))

    monkeypatch.setattr(flash, "flash", fake_flash)
    assert cli.main(["flash", "--uf2", "x.uf2", "--no-sync", "--timeout", "7",
                     "--circuitpy-timeout", "200"]) == 0
    assert seen == {"timeout": 7.0, "circuitpy_timeout": 200.0}
    assert cli.main(["flash", "--uf2", "x.uf2", "--no-sync"]) == 0
    assert seen == {"timeout": flash.BOOTLOADER_TIMEOUT,
                    "circuitpy_timeout": flash.CIRCUITPY_TIMEOUT}
    for bad in ("0", "-3", "soon", "inf"):
        with pytest.raises(SystemExit):
            cli.main(["flash", "--uf2", "x.uf2", "--circuitpy-timeout", bad])
        assert "not a number of seconds above 0" in capsys.readouterr().err


def test_missing_uf2_file(board, tmp_path):
    with pytest.raises(LunchboxError, match="cannot read"):
        flash.flash(env_for(board), str(tmp_path / "nope.uf2"))


def test_pinned_without_digest_refused(board):
    with pytest.raises(LunchboxError, match="no verified SHA-256") as e:
        flash.flash(env_for(board), board="raspberry_pi_pico")
    assert "--uf2 FILE" in e.value.hint
    with pytest.raises(LunchboxError, match="which board"):
        flash.flash(env_for(board))


def test_pinned_download_then_flash(board, tmp_path, web):
    url = web.serve(lambda path: IMAGE) + "/cp-pico.uf2"
    table = {"raspberry_pi_pico": (url, hashlib.sha256(IMAGE).hexdigest())}
    boot = board.show_bootloader()
    board.reboot_after_copy()
    env = env_for(board, table=table, cache=str(tmp_path / "cache"), url_opener=web.open)
    flash.flash(env, board="raspberry_pi_pico", chip="RP2040", circuitpy_timeout=10)
    assert (boot / flash.COPY_NAME).read_bytes() == IMAGE
    assert os.listdir(tmp_path / "cache") == ["cp-pico.uf2"]
    assert web.hits == ["/cp-pico.uf2"]


def test_cli_refuses_broken_uf2_before_anything(tmp_path, capsys):
    from lunchbox import cli

    bad = uf2_file(tmp_path, IMAGE[:-7])
    rc = cli.main(["flash", "--uf2", bad, "--drive", str(tmp_path / "nowhere"), "--no-sync"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "lunchbox flash: the file is" in err and "truncated" in err and "fix:" in err
    assert err.count("truncated") == 1  # printed once


def test_progress_bar_terminal_and_log():
    from lunchbox.progress import Bar

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = Bar("flash", tty)
    bar(512 * 1024, 1024 * 1024, "circuitpython.uf2")
    bar(1024 * 1024, 1024 * 1024)
    bar.close()
    text = tty.getvalue()
    assert text.count("\r") == 2 and " 50% 512/1024 KiB circuitpython.uf2" in text
    assert "100%" in text and text.endswith("\n")
    log = io.StringIO()
    bar = Bar("sync", log)
    bar(10 * 1024, 20 * 1024, "a.py")
    bar.close()
    assert log.getvalue() == "sync [###############---------------]  50% 10/20 KiB\n"
    quiet = io.StringIO()
    Bar("sync", quiet).close()
    assert quiet.getvalue() == ""


# ---- what the image says it is ---------------------------------------------------------------

def test_identify_reads_the_banner_across_blocks():
    fw = uf2.identify(IMAGE)
    assert (fw.kind, fw.version, fw.date, fw.board, fw.chip) == (
        "CircuitPython", (10, 0, 0), "2025-09-15", "Raspberry Pi Pico", "rp2040")
    fw = uf2.identify(firmware_image(b"MicroPython v1.22.0 on 2023-12-27; Raspberry Pi Pico "
                                     b"with RP2040"))
    assert (fw.kind, fw.version) == ("MicroPython", (1, 22, 0))
    assert uf2.identify(firmware_image(None)).kind is None


@pytest.mark.parametrize("banner,profile_board,message", [
    (b"Adafruit CircuitPython 7.0.0 on 2021-09-20; Raspberry Pi Pico with rp2040",
     "raspberry_pi_pico", "CircuitPython 7.0.0; Lunchbox runs on CircuitPython 9.x and 10.x"),
    (b"Adafruit CircuitPython 8.2.9 on 2023-12-06; Raspberry Pi Pico with rp2040",
     None, "CircuitPython 8.2.9"),
    (b"Adafruit CircuitPython 10.0.0 on 2025-09-15; Raspberry Pi Pico W with rp2040",
     "raspberry_pi_pico", "for the Raspberry Pi Pico W, but the board is a Raspberry Pi Pico"),
    (b"MicroPython v1.22.0 on 2023-12-27; Raspberry Pi Pico with RP2040",
     "raspberry_pi_pico", "MicroPython v1.22.0 for Raspberry Pi Pico, not CircuitPython"),
    (None, "raspberry_pi_pico", "does not say it is CircuitPython"),
])
def test_wrong_firmware_refused_unless_forced(board, tmp_path, banner, profile_board, message):
    path = uf2_file(tmp_path, firmware_image(banner))
    boot = board.show_bootloader()
    with pytest.raises(LunchboxError, match=message) as e:
        flash.flash(env_for(board), path, board=profile_board)
    assert "nothing was written" in str(e.value) and "--force" in e.value.hint
    assert "circuitpython.org/board/{}/".format(profile_board or "raspberry_pi_pico") in (
        e.value.hint)
    assert not (boot / flash.COPY_NAME).exists()
    err = io.StringIO()
    board.reboot_after_copy()
    kw = {}
    if banner and banner.startswith(b"MicroPython"):
        # MicroPython starts instead: flash waits for its serial port, not for CIRCUITPY
        kw["comports"] = lambda: [ListedPort("/dev/ttyACM0", 0x2E8A, 0x0005)] if (
            boot / flash.COPY_NAME).exists() else []
    got = flash.flash(env_for(board, err=err, **kw), path, board=profile_board, force=True)
    assert "flashing it anyway: --force" in err.getvalue()
    if kw:
        assert (got.device, got.role) == ("/dev/ttyACM0", ports.MICROPYTHON)


def test_right_image_for_each_board_accepted(board, tmp_path):
    board.show_bootloader()
    board.reboot_after_copy()
    err = io.StringIO()
    flash.flash(env_for(board, err=err), uf2_file(tmp_path), board="raspberry_pi_pico")
    assert "it is CircuitPython 10.0.0 (2025-09-15, for Raspberry Pi Pico with rp2040)" in (
        err.getvalue())
    img = firmware_image(b"Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico 2 W "
                         b"with rp2350a", uf2.RP2350_ARM_S)
    flash.check_firmware(uf2.identify(img), "raspberry_pi_pico2_w")
    with pytest.raises(LunchboxError, match="Pico 2 W, but the board is a Raspberry Pi Pico 2"):
        flash.check_firmware(uf2.identify(img), "raspberry_pi_pico2")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_uf2_that_is_not_a_file_refused_at_once(tmp_path, kind):
    import subprocess
    import sys

    path = tmp_path / "cp.uf2"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    r = subprocess.run([sys.executable, "-m", "lunchbox", "flash", "--uf2", str(path),
                        "--drive", str(tmp_path), "--no-sync"], capture_output=True,
                       text=True, timeout=20)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "not a file" in r.stderr and "fix:" in r.stderr


def test_link_planted_on_the_bootloader_drive_is_not_followed(board, tmp_path):
    boot = board.show_bootloader()
    victim = tmp_path / "victim.bin"
    victim.write_bytes(b"precious")
    (boot / flash.COPY_NAME).symlink_to(victim)
    with pytest.raises(LunchboxError, match="cannot write to .*refusing to write through it"):
        flash.flash(env_for(board), uf2_file(tmp_path), board="raspberry_pi_pico")
    assert victim.read_bytes() == b"precious"


# ---- MicroPython images (the real UF2s the MicroPython lane boots) --------------------------

MP_DIR = os.path.join(os.path.dirname(__file__), "mp")
PLAIN = os.path.join(MP_DIR, "RPI_PICO-20241129-v1.24.1.uf2")
PIMORONI = os.path.join(MP_DIR, "pico-v1.23.0-1-pimoroni-micropython.uf2")
CP922 = os.path.join(os.path.dirname(__file__), "cp",
                     "adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.2.uf2")


def test_micropython_images_identified():
    with open(PLAIN, "rb") as f:
        plain = uf2.identify(f.read())
    with open(PIMORONI, "rb") as f:
        pim = uf2.identify(f.read())
    assert (plain.kind, plain.version, plain.board, plain.chip, plain.picographics) == (
        "MicroPython", (1, 24, 1), "Raspberry Pi Pico", "RP2040", False)
    assert (pim.kind, pim.version, pim.build, pim.picographics) == (
        "MicroPython", (1, 23, 0), "pico v1.23.0-1", True)
    assert "PicoGraphics" in pim.describe()


@pytest.mark.parametrize("image,build,message,hint", [
    (PLAIN, "micropython", None, None),
    (PIMORONI, "micropython-pimoroni", None, None),
    (PIMORONI, "micropython", None, None),  # PicoGraphics does no harm to an OLED build
    (PLAIN, "micropython-pimoroni", "plain MicroPython v1.24.1, without PicoGraphics",
     "github.com/pimoroni/pimoroni-pico/releases"),
    (CP922, "micropython", "CircuitPython 9.2.2, but the profile runs on MicroPython",
     "micropython.org/download/RPI_PICO"),
    (PLAIN, "circuitpython", "MicroPython v1.24.1 for Raspberry Pi Pico, not CircuitPython",
     "name a MicroPython profile: --profile pico-display-pack-mp | pico-ssd1306-5btn-mp"),
])
def test_micropython_image_checked_before_writing(board, tmp_path, image, build, message,
                                                  hint):
    boot = board.show_bootloader()
    env = env_for(board, comports=lambda: [ListedPort("/dev/ttyACM0", 0x2E8A, 0x0005)] if (
        boot / flash.COPY_NAME).exists() else [])
    if message is None:
        port = flash.flash(env, image, board="raspberry_pi_pico", build=build)
        assert port.device == "/dev/ttyACM0"
        with open(image, "rb") as f:
            assert (boot / flash.COPY_NAME).read_bytes() == f.read()
        return
    with pytest.raises(LunchboxError, match=message) as e:
        flash.flash(env, image, board="raspberry_pi_pico", build=build)
    assert "nothing was written" in str(e.value) and hint in e.value.hint
    assert not (boot / flash.COPY_NAME).exists()


def test_old_micropython_refused():
    fw = uf2.identify(firmware_image(b"MicroPython v1.22.2 on 2024-02-22; Raspberry Pi Pico "
                                     b"with RP2040"))
    with pytest.raises(LunchboxError, match="need MicroPython 1.23 or later"):
        flash.check_firmware(fw, "raspberry_pi_pico", build="micropython")


def test_no_micropython_download(board):
    board.show_bootloader()
    with pytest.raises(LunchboxError, match="lunchbox downloads none") as e:
        flash.flash(env_for(board), None, board="raspberry_pi_pico", build="micropython")
    assert "micropython.org/download/RPI_PICO" in e.value.hint


def test_uf2_help_names_the_tested_circuitpython_and_no_false_default():
    """One tested CircuitPython (9.2.2), where to get it, and no default that is
    not there (no digest is pinned, so nothing is downloaded)."""
    from lunchbox.device import download

    text = flash.uf2_help()
    assert "9.2.2 is the tested version" in text
    assert "https://circuitpython.org/board/" in text
    assert download._url("raspberry_pi_pico").endswith("en_US-9.2.2.uf2")
    assert "10.0" not in text and "default" not in text
    assert "Required" in text and "downloads nothing" in text
    pinned = {"raspberry_pi_pico": ("https://example/x.uf2", "ab" * 32)}
    assert "downloaded and checked for raspberry_pi_pico" in flash.uf2_help(pinned)
