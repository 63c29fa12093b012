"""An emulated MicroPython Pico on a pseudo-terminal: the real MicroPython UF2 running in
rp2040js (tests/mp/serve.js), its USB REPL bridged to a pty, so mpremote and pyserial talk to
it as to a Pico on a USB port. The board's flash is kept in a file between runs.

    python tests/mpboard.py --profile pico-ssd1306-5btn-mp     (or: make board PROFILE=...)

prints the port to give `lunchbox` (``--port``) and serves until Ctrl-C. A new board has the
profile's MicroPython and an empty littlefs; ``--bootloader`` starts one from a bare flash in
its UF2 bootloader: a folder holding INFO_UF2.TXT, as the RPI-RP2 drive, where `lunchbox
flash --drive FOLDER` puts MicroPython (as it does when the board is asked for its
bootloader). In the tests: ``EmulatedBoard(flash_file).start()``, ``.port``, ``.cut()``
(the cable pulled: the board stops at that instruction, its flash as it is), ``.stop()``.
"""

import argparse
import os
import select
import signal
import subprocess
import sys
import termios
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVE = ROOT / "tests" / "mp" / "serve.js"
BOOTROM = ROOT / "tests" / "cp" / "bootrom.js"
PLAIN_UF2 = ROOT / "tests" / "mp" / "RPI_PICO-20241129-v1.24.1.uf2"
PIMORONI_UF2 = ROOT / "tests" / "mp" / "pico-v1.23.0-1-pimoroni-micropython.uf2"
INFO_UF2 = "INFO_UF2.TXT\n"
# The file store's modules and what they import, as (repository path, path under the board's
# /lib): what a test or bench copies to run store/filestore.py on the emulated board alone
FILESTORE_FILES = tuple((src, src[len("firmware/"):] if src.startswith("firmware/") else src)
                        for src in (
    "firmware/companion/__init__.py", "firmware/companion/store/__init__.py",
    "firmware/companion/store/filestore.py", "firmware/companion/store/filemount.py",
    "firmware/companion/store/filelayout.py", "firmware/companion/store/crc32.py",
    "firmware/companion/store/saveformat.py",
    "shared_rules/__init__.py", "shared_rules/_compat.py"))
# what the RP2040's boot ROM shows on its drive (the lines drives.read_info_uf2 reads)
INFO_TEXT = "UF2 Bootloader v3.0\r\nModel: Raspberry Pi RP2\r\nBoard-ID: RPI-RP2\r\n"
BOOTLOADER_EXIT = 4  # serve.js: the board asked for its bootloader


def uf2_for(profile):
    """The MicroPython image a profile's board runs: Pimoroni's (PicoGraphics) when its
    display needs it, else plain MicroPython (profiles.firmware_build)."""
    try:
        sys.path.insert(0, str(ROOT / "host"))
        from lunchbox.hardware import profiles

        build = profiles.firmware_build(profiles.load_profile(str(profile), check=False))
    except Exception:  # a path or name lunchbox cannot read: go by the name
        build = "micropython-pimoroni" if "display-pack" in str(profile) else "micropython"
    return PIMORONI_UF2 if build == "micropython-pimoroni" else PLAIN_UF2


class EmulatedBoard:
    """One emulated Pico. ``start()`` powers it on (the flash file's content; a ``uf2`` is
    written over it first, as the bootloader does); its REPL is then at ``port``."""

    def __init__(self, flash, link=None, boot_timeout=120.0):
        self.flash = Path(flash)
        self.link = Path(link) if link else self.flash.with_suffix(".tty")
        self.boot_timeout = boot_timeout
        self.proc = None
        self.master = self.slave = None
        self.port = None  # the link to the pty's slave side, as /dev/ttyACM0 would be
        self.pts = None
        self.sent = 0  # bytes the host sent the board since start()
        self.cut_after = None  # cut the cable once the host has sent this many bytes
        self.cut_pattern = None  # (bytes, n): cut n bytes after the host sends these bytes
        self._seen = b""
        self.recorded = None  # a bytearray: everything the host sends is kept in it
        self.heard = bytearray()  # everything the board sent since start()
        self.bootloader = None  # the bootloader drive's folder while it shows one
        self._threads = []
        self._stopping = False
        self._lock = threading.Lock()

    # ---- power -------------------------------------------------------------------------

    def start(self, uf2=None):
        self.master, self.slave = os.openpty()
        # raw at once: with the pty's default echo, what the board sends before a program
        # opens the port would come back to it as typed input
        tty.setraw(self.slave)
        self.pts = os.ttyname(self.slave)
        tmp = self.link.with_name(self.link.name + ".new")
        if tmp.is_symlink() or tmp.exists():
            tmp.unlink()
        os.symlink(self.pts, tmp)
        os.replace(tmp, self.link)
        self.port = str(self.link)
        args = ["node", str(SERVE), "--bootrom", str(BOOTROM), "--flash", str(self.flash)]
        if uf2:
            args += ["--uf2", str(uf2)]
        env = dict(os.environ, NODE_PATH=str(ROOT / "node_modules"))
        self.sent = 0
        self.heard = bytearray()
        self._stopping = False
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=str(ROOT))
        ready = threading.Event()
        self._threads = [threading.Thread(target=self._from_board, daemon=True),
                         threading.Thread(target=self._to_board, daemon=True),
                         threading.Thread(target=self._log, args=(ready,), daemon=True)]
        for t in self._threads:
            t.start()
        if not ready.wait(self.boot_timeout):
            code = self.proc.poll()
            self.stop()
            if code == BOOTLOADER_EXIT or not self._has_firmware():
                return self  # no firmware: the bootloader shows (see show_bootloader)
            raise RuntimeError("the emulated board did not connect its USB")
        return self

    def _has_firmware(self):
        try:
            with open(self.flash, "rb") as f:
                return f.read(256) != b"\xff" * 256
        except OSError:
            return False

    def _log(self, ready):
        for line in self.proc.stderr:
            if line.strip() == b"ready":
                ready.set()
            else:
                if b"invalid SIO address" not in line:  # rp2040js at a soft reset
                    sys.stderr.write("[board] " + line.decode("utf-8", "replace"))

    def _from_board(self):
        out, master, slave = self.proc.stdout, self.master, self.slave
        while True:
            data = out.read1(4096)
            if not data or self._stopping:
                return
            self.heard += data
            while data:
                try:
                    n = os.write(master, data)
                except BlockingIOError:
                    # the port's buffer is full: a reader gets a moment; nobody reading the
                    # port drops it, as a real CDC does
                    if not select.select([], [master], [], 0.5)[1]:
                        termios.tcflush(slave, termios.TCIFLUSH)
                    continue
                except OSError:
                    return
                data = data[n:]

    def _to_board(self):
        master = self.master
        os.set_blocking(master, False)
        while not self._stopping:
            try:
                r, _, _ = select.select([master], [], [], 0.2)
            except (OSError, ValueError):
                return
            if not r or self._stopping:
                continue
            try:
                data = os.read(master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            if self.cut_pattern is not None:
                pattern, extra, nth = self.cut_pattern
                window = self._seen + data
                at = window.find(pattern)
                while at >= 0 and nth > 1:
                    nth -= 1
                    at = window.find(pattern, at + 1)
                if at >= 0:
                    self.cut_pattern = None
                    self.cut_after = self.sent - len(self._seen) + at + len(pattern) + extra
                else:
                    self.cut_pattern = (pattern, extra, nth)
                self._seen = window[-(len(pattern) - 1):] if len(pattern) > 1 else b""
            if self.cut_after is not None and self.sent + len(data) >= self.cut_after:
                data = data[:max(0, self.cut_after - self.sent)]
                self._send(data)
                self.cut_after = None
                self.cut()
                return
            self._send(data)

    def _send(self, data):
        self.sent += len(data)
        if self.recorded is not None:
            self.recorded += data
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (OSError, ValueError):
            pass

    def wait_heard(self, text, count=1, timeout=30.0):
        """Wait until the board has sent ``text`` ``count`` times since start(); how many."""
        end = time.monotonic() + timeout
        while self.heard.count(text) < count and time.monotonic() < end:
            time.sleep(0.1)
        return self.heard.count(text)

    def cut_at(self, pattern, extra=0, nth=1):
        """Pull the cable ``extra`` bytes after the host sends ``pattern`` for the ``nth``
        time from now."""
        self._seen = b""
        self.cut_pattern = (pattern, extra, nth)

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def cut(self):
        """The cable pulled: the board stops where it is (its flash as it is) and the port
        hangs up."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGUSR1)
        self._close()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self._close()

    def _close(self):
        with self._lock:  # the relay's cut and the test's stop may come together
            self._stopping = True
            proc = self.proc
            fds, self.master, self.slave = (self.master, self.slave), None, None
            threads, self._threads = self._threads, []
        if proc is not None and proc.poll() is None:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc is not None:
            for f in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    f.close()
                except (OSError, ValueError):
                    pass
        for fd in fds:
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        for t in threads:
            if t is not threading.current_thread() and t.ident is not None:
                t.join(2)

    def exit_code(self):
        return None if self.proc is None else self.proc.poll()

    # ---- the UF2 bootloader --------------------------------------------------------------

    def show_bootloader(self, folder):
        """The board in its bootloader: ``folder`` is its drive (INFO_UF2.TXT); a .uf2 copied
        there is written to the flash and the board starts (``wait_flashed``)."""
        self.bootloader = Path(folder)
        self.bootloader.mkdir(parents=True, exist_ok=True)
        (self.bootloader / "INFO_UF2.TXT").write_text(INFO_TEXT)
        return self.bootloader

    def wait_flashed(self, timeout=60.0, poll=0.2):
        """Wait for a whole .uf2 on the bootloader drive; then the drive goes (as the RP2's
        does when it reboots) and the board starts with the image. The image's path, or
        None when none came."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for f in sorted(self.bootloader.glob("*.uf2")) + sorted(
                    self.bootloader.glob("*.UF2")):
                data = f.read_bytes()
                if data and len(data) % 512 == 0 and _whole_uf2(data):
                    image = self.flash.with_suffix(".flashed.uf2")
                    image.write_bytes(data)
                    for g in self.bootloader.iterdir():
                        g.unlink()
                    self.bootloader.rmdir()
                    self.bootloader = None
                    self.start(uf2=image)
                    return image
            time.sleep(poll)
        return None


def _whole_uf2(data):
    """True when the last block says it is the last (the bootloader reboots then)."""
    import struct

    block_no, count = struct.unpack_from("<II", data, len(data) - 512 + 20)
    return block_no == count - 1


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="serve an emulated MicroPython Pico on a pseudo-terminal until Ctrl-C "
                    "(the real MicroPython UF2 in rp2040js); its flash is kept in a file")
    parser.add_argument("--profile", default="pico-ssd1306-5btn-mp",
                        help="the hardware profile: picks the MicroPython image (Pimoroni's "
                             "with PicoGraphics for the Display Pack, else micropython.org's)")
    parser.add_argument("--flash", help="the board's flash file (default: "
                        "$LUNCHBOX_CACHE or ~/.cache/lunchbox, boards/PROFILE.flash)")
    parser.add_argument("--bootloader", action="store_true",
                        help="start from a bare flash, in the UF2 bootloader (its drive is a "
                             "folder): try `lunchbox flash` on it")
    args = parser.parse_args(argv)

    def stop(*_):
        raise KeyboardInterrupt  # a kill stops it as Ctrl-C does: the flash is saved

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    cache = os.environ.get("LUNCHBOX_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lunchbox")
    flash = Path(args.flash or os.path.join(cache, "boards", args.profile + ".flash"))
    flash.parent.mkdir(parents=True, exist_ok=True)
    uf2 = uf2_for(args.profile)
    if args.bootloader and flash.exists():
        flash.unlink()
    board = EmulatedBoard(flash)
    drive = flash.with_suffix(".RPI-RP2")
    try:
        if args.bootloader:
            board.show_bootloader(drive)
            print("bootloader drive: {}\ntry: lunchbox flash --drive {} --profile {} --uf2 {}"
                  .format(drive, drive, args.profile, uf2), flush=True)
            while board.wait_flashed(timeout=3600) is None:
                pass
        else:
            board.start(uf2=None if board._has_firmware() else uf2)
        while True:
            print("port: {}  (flash kept in {}; Ctrl-C stops it)".format(board.port, flash),
                  flush=True)
            print("try: lunchbox doctor --port {p}; lunchbox sync --port {p} --profile {prof}; "
                  "lunchbox pull --port {p}".format(p=board.port, prof=args.profile), flush=True)
            while board.running():
                time.sleep(0.5)
            if board.exit_code() != BOOTLOADER_EXIT:
                return 0
            board.show_bootloader(drive)
            print("bootloader drive: {}".format(drive), flush=True)
            while board.wait_flashed(timeout=3600) is None:
                pass
    except KeyboardInterrupt:
        return 0
    finally:
        board.stop()


if __name__ == "__main__":
    sys.exit(main())
