"""Talking to a Lunchbox over its USB data channel (or the simulator's pseudo-terminal).

``Link(stream)`` sends one request at a time and waits for the answer carrying its tag;
answers to earlier, timed-out requests are dropped, and a request that gets no answer is sent
again (every request is idempotent). Transport failures become LinkError, device refusals
DeviceError; callers never see pyserial's exceptions.
"""

import os
import time
from pathlib import Path

from ..errors import LunchboxError
from . import linkproto as lp

SIM_LINK_ENV = "LUNCHBOX_SIM_LINK"


def sim_uid(nvm_path):
    """A simulated board's unique id (8 bytes, as microcontroller.cpu.uid on a Pico): one per
    nvm file, so two simulators with their own nvm are two boards to lunchbox pull."""
    import hashlib

    key = os.path.abspath(nvm_path) if nvm_path else "memory"
    return b"SIM" + hashlib.sha256(key.encode()).digest()[:5]


class LinkError(LunchboxError):
    """The link failed (cut, no answer, nonsense)."""


def sim_link_file():
    """Where a running simulator writes its data channel's path (for ``--sim``)."""
    return Path(os.environ.get(SIM_LINK_ENV) or Path.home() / ".lunchbox" / "sim-link")


def announce_sim_link(path):
    import tempfile

    f = sim_link_file()
    tmp = None
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        # a unique temporary name: two simulators, or a file of the user's, never collide
        fd, tmp = tempfile.mkstemp(dir=str(f.parent), prefix="." + f.name + ".", suffix=".tmp")
        with os.fdopen(fd, "w") as out:
            out.write(str(path) + "\n")
        os.replace(tmp, str(f))
        tmp = None
    except OSError:
        pass  # --sim will then say it cannot find the simulator
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def read_sim_link():
    """The path in the sim-link file, or "" when there is none or it holds no path (garbage
    bytes, a FIFO or a device in its place: never opened, never read past 4 KB)."""
    import stat

    f = sim_link_file()
    try:
        fd = os.open(str(f), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        data = os.read(fd, 4096)
    except OSError:
        return ""
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return ""
    return text if text and "\0" not in text and "\n" not in text else ""


def forget_sim_link(path):
    f = sim_link_file()
    try:
        if read_sim_link() == str(path):
            f.unlink()
    except OSError:
        pass


class Link:
    """Requests over a byte stream with ``write(bytes)`` and ``read(n)`` (which returns what is
    there, waiting at most its own short timeout)."""

    def __init__(self, stream, timeout=1.5, retries=2, clock=time.monotonic):
        self.stream = stream
        self.timeout = timeout
        self.retries = retries
        self.clock = clock
        self.parser = lp.Parser()
        self.tag = 0
        self.sent = 0  # bytes on the wire, both ways
        self.received = 0

    def close(self):
        try:
            self.stream.close()
        except Exception:  # closing a cut link must not fail
            pass

    def _write(self, data):
        try:
            self.stream.write(data)
            flush = getattr(self.stream, "flush", None)
            if flush:
                flush()
        except Exception as e:  # pyserial, OSError, a cut test stream
            raise LinkError("the data link was cut while sending: {}".format(e),
                            "plug the Lunchbox in again and retry") from None
        self.sent += len(data)

    def _read(self):
        try:
            data = self.stream.read(4096)
        except Exception as e:
            raise LinkError("the data link was cut while receiving: {}".format(e),
                            "plug the Lunchbox in again and retry") from None
        self.received += len(data or b"")
        return data or b""

    def request(self, ftype, payload=b""):
        """The answer's payload. ERROR answers raise DeviceError."""
        for _attempt in range(self.retries + 1):
            self.tag = self.tag % 255 + 1
            tag = self.tag
            self._write(lp.encode(ftype, tag, payload))
            deadline = self.clock() + self.timeout
            while self.clock() < deadline:
                for rtype, rtag, rpayload in self.parser.feed(self._read()):
                    if rtag != tag:
                        continue  # a late answer to an earlier try, or a frame error report
                    if rtype == lp.ERROR:
                        raise lp.parse_error(rpayload)
                    if rtype != ftype | lp.REPLY:
                        raise LinkError("the device answered {} to {}".format(
                            rtype, lp.NAMES.get(ftype, ftype)))
                    return rpayload
        raise LinkError("the Lunchbox did not answer {} ({} tries)".format(
            lp.NAMES.get(ftype, ftype), self.retries + 1),
            "is its firmware up to date (lunchbox sync) and is it on the menu, not crashed?")

    # the commands

    def hello(self):
        """Who is there. Opens a session: first flushes what a cut may have left behind."""
        self._write(lp.FLUSH)
        self.parser.reset()
        try:
            h = lp.parse_hello(self.request(lp.HELLO))
        except lp.ProtocolError as e:
            raise LinkError("this does not look like a Lunchbox: {}".format(e)) from None
        if h.protocol != lp.PROTOCOL:
            raise LinkError("the Lunchbox speaks link protocol {}, this lunchbox {}".format(
                h.protocol, lp.PROTOCOL), "update both: pip install -U, then lunchbox sync")
        return h

    def list(self):
        """Every record waiting on the device: ``[(seq, kind, length, crc)]``, oldest first."""
        out = []
        after = 0
        while True:
            more, entries = lp.parse_list(self.request(lp.LIST, lp.u32(after)))
            out.extend(entries)
            if not more or not entries:
                return out
            after = entries[-1][0]

    def get(self, seq):
        rseq, kind, payload = lp.parse_get(self.request(lp.GET, lp.u32(seq)))
        if rseq != seq:
            raise LinkError("asked for record {}, got {}".format(seq, rseq))
        return kind, payload

    def ack(self, up_to):
        """The device may now drop records up to ``up_to``; returns how many still wait."""
        return lp.parse_ack(self.request(lp.ACK, lp.u32(up_to)))

    def set_time(self, unix=None, tz_minutes=None):
        if unix is None:
            unix = int(time.time())
        if tz_minutes is None:
            tz_minutes = int(time.localtime(unix).tm_gmtoff // 60)
        self.request(lp.TIME, lp.time_request(unix, tz_minutes))

    def get_settings(self):
        return self.request(lp.GET_SETTINGS)

    def set_settings(self, raw):
        self.request(lp.SET_SETTINGS, raw)

    def check(self):
        """The box's own figures (Settings > Check the box's last page) as {key: text}."""
        try:
            return lp.parse_check(self.request(lp.CHECK))
        except lp.ProtocolError as e:
            raise LinkError("the box's CHECK answer: {}".format(e)) from None

    def game(self):
        return lp.parse_game(self.request(lp.GAME))


class SerialStream:
    """A pyserial port as a Link stream."""

    def __init__(self, device, open_serial=None):
        import serial

        try:
            self.port = (open_serial or serial.Serial)(device, baudrate=115200, timeout=0.02,
                                                       write_timeout=2)
        except (OSError, serial.SerialException) as e:
            raise LinkError("cannot open {}: {}".format(device, e),
                            "is the Lunchbox plugged in, and is no other program using it?") \
                from None
        self.device = device

    def write(self, data):
        self.port.write(data)

    def flush(self):
        self.port.flush()

    def read(self, n):
        waiting = self.port.in_waiting
        return self.port.read(min(n, waiting) if waiting else 1)

    def close(self):
        self.port.close()


def data_ports(port=None, sim=False, list_ports=None):
    """The serial devices to talk to: ``--port``, ``--sim``'s pseudo-terminal, or every port
    named as a CircuitPython data channel."""
    if port:
        return [port]
    if sim:
        f = sim_link_file()
        path = read_sim_link()
        if not path or not os.path.exists(path):
            raise LinkError("no simulator is running (no path to one in {})".format(f),
                            "start one in another terminal: lunchbox sim")
        return [path]
    from ..device import ports

    found = (list_ports or ports.list_ports)()
    data = [p.device for p in found if p.role == ports.DATA]
    if data:
        return data
    if found:
        raise LinkError("a CircuitPython board is attached but shows no data channel ({})"
                        .format(", ".join(p.describe() for p in found)),
                        "install the Lunchbox firmware (lunchbox sync), whose boot.py turns "
                        "it on, then unplug and replug the board; or give --port")
    raise LinkError("no Lunchbox found", "plug it in with a data USB cable, or give --port "
                    "or --sim")


def open_link(device, **kw):
    return Link(SerialStream(device), **kw)
