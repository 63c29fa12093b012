"""The simulator's hardware: a pygame-backed display, buttons fed from the keyboard or a script,
a file standing in for nvm, a NeoPixel stand-in, a clock, a battery whose charge you set, and a
pseudo-terminal as the USB data channel. Everything here is what ``companion.board.hwpico`` builds
from real parts on the Pico."""

import os
import time

TICKS_MASK = (1 << 29) - 1  # supervisor.ticks_ms wraps at 2**29
NVM_SIZE = 4096  # microcontroller.nvm on RP2040/RP2350: one flash sector
MAX_WATCHDOG_S = 8  # the largest watchdog timeout CircuitPython takes on RP2040/RP2350
DIM_SHADE = 70  # of 255: how much of each colour a dimmed screen keeps in the window and shots


class SimStop(BaseException):  # not an error: the end of a simulator run
    """Raised from the hardware hooks to end a run (window closed, script done, quit key).

    A BaseException so the firmware's crash handler (``except Exception``) lets it through."""


class PowerCycle(BaseException):
    """Raised by the ``reset`` script step: the session starts the firmware again."""


class SimWatchdog:
    """The device's watchdog in RESET mode, on the simulator's clock: when it has not been fed
    for ``timeout`` seconds it resets the board (a PowerCycle: the firmware starts again on
    the same nvm). The simulator checks it on each ``hw.idle()``, so it catches an app stuck
    in a loop that still idles (waiting for something that never comes); a loop that never
    returns to the simulator cannot be interrupted here, as on the device it would be."""

    def __init__(self, clock):
        self.clock = clock
        self.timeout = None
        self.fed = 0
        self.last = None
        self.resets = 0
        self.reset_at = None

    def start(self, seconds):
        # the RP2040/RP2350 watchdog counts to 8.388 s: CircuitPython refuses more than 8
        # (ports/raspberrypi/common-hal/watchdog/WatchDogTimer.c)
        if not 0 <= seconds <= MAX_WATCHDOG_S:
            raise ValueError("timeout must be 0-{}".format(MAX_WATCHDOG_S))
        self.timeout = seconds
        self.last = self.clock()

    def feed(self):
        self.fed += 1
        self.last = self.clock()

    def check(self):
        if self.timeout is None or self.last is None:
            return
        if (self.clock() - self.last) & TICKS_MASK > self.timeout * 1000:
            self.resets += 1
            self.reset_at = self.clock()
            self.timeout = None  # a reset stops it until the firmware starts it again
            raise PowerCycle()


def make_display_class():
    """Define the pygame display subclass lazily (importing pygame/displayio is slow). The
    desktop displayio is made as strict as the board's first (sim/strict.py): every simulated
    display, the ``lunchbox sim`` one and the tests', raises where a Pico would."""
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay
    from busdisplay import BusDisplay
    from displayio._area import Area

    from . import strict

    strict.install()

    class SimDisplay(PyGameDisplay):
        """A PyGameDisplay that draws into an offscreen surface of the real size (for
        screenshots and the terminal) and, with a window, shows it scaled up, with the
        NeoPixel strip drawn under it. displayio draws into ``frame``; ``surface`` is what
        the panel shows: the frame, darker while the app has dimmed the screen, black while
        it is off (``show_power``: a real panel does this with its backlight)."""

        def __init__(self, width, height, scale=1, window=False, strip=0, lazy=False,
                     brightness_adjustable=True, **kwargs):
            self._scale = scale
            self._adjustable = True  # the constructor sets it quietly, as CircuitPython's does
            # lazy (headless): a refresh only notes that the screen changed; the pixels are
            # drawn when someone looks (render()). Blinka draws pixel by pixel in Python.
            self._lazy = lazy
            self._stale = False
            self._window_on = window
            self._strip = strip
            self.window = None
            self.surface = None
            self.frame = None
            self.power = 0  # companion.power.idle: AWAKE, DIM, OFF
            self.refresh_count = 0
            self.pixel_colors = []
            super().__init__(width=width, height=height, caption="Lunchbox simulator", **kwargs)
            self._adjustable = brightness_adjustable

        @property
        def brightness(self):
            return self._brightness

        @brightness.setter
        def brightness(self, value):
            # as CircuitPython's busdisplay: the range first, then a display with neither a
            # backlight pin nor a brightness command refuses (Blinka accepts anything)
            value = float(value)
            if not 0 <= value <= 1:
                raise ValueError("brightness must be 0-1")
            if not self._adjustable:
                raise RuntimeError("Brightness not adjustable")
            self._brightness = value

        def _initialize(self, init_sequence):
            pygame.init()
            w, h = self.width, self.height
            if self._window_on:
                extra = 24 if self._strip else 0
                self.window = pygame.display.set_mode((w * self._scale, h * self._scale + extra))
                pygame.display.set_caption(self._caption)
            self.surface = pygame.Surface((w, h))
            self.frame = pygame.Surface((w, h))
            self._pygame_screen = self.frame

        def _refresh_display(self):
            self.refresh_count += 1
            if self._lazy:
                self._stale = True
                return
            BusDisplay._refresh_display(self)
            self._compose()
            self._last_refresh = time.monotonic()
            self._refresh_pending = False
            self.present()

        def show_power(self, state):
            """The app dimmed the screen (1), turned it off (2) or woke it (0)."""
            if state == self.power:
                return
            self.power = state
            self.refresh_count += 1  # the terminal draws again
            if self._lazy:
                self._stale = True
            else:
                self._compose()
                self.present()

        def _compose(self):
            self.surface.blit(self.frame, (0, 0))
            if self.power == 1:
                self.surface.fill((DIM_SHADE,) * 3, special_flags=pygame.BLEND_MULT)
            elif self.power == 2:
                self.surface.fill((0, 0, 0))

        def present(self):
            if self.window is None:
                return
            w, h = self.width * self._scale, self.height * self._scale
            self.window.blit(pygame.transform.scale(self.surface, (w, h)), (0, 0))
            if self._strip:
                self.window.fill((20, 20, 20), (0, h, w, 24))
                n = self._strip
                step = w // max(1, n)
                for i in range(n):
                    c = self.pixel_colors[i] if i < len(self.pixel_colors) else (0, 0, 0)
                    pygame.draw.circle(self.window, c if any(c) else (50, 50, 50),
                                       (i * step + step // 2, h + 12), 8)
            pygame.display.flip()

        def render(self):
            """Draw the pixels now if refreshes were deferred (lazy mode)."""
            if self._stale:
                self._stale = False
                self._core.full_refresh = True
                BusDisplay._refresh_display(self)
                self._compose()

        def _get_refresh_areas(self):
            # Only what changed, as one rectangle (PyGameDisplay redraws the whole screen, and
            # many small areas each walk the whole group tree: both slow in pure Python).
            areas = BusDisplay._get_refresh_areas(self)
            if len(areas) > 1:
                union = Area()
                first = areas[0]
                first.copy_into(union)
                for area in areas[1:]:
                    union.union(area, union)
                areas = [union]
            return areas

        def _release(self):
            strict.release(self)
            self._core.release_display_core()  # as BusDisplay._release does
            pygame.display.quit()

        def _background(self):
            pass  # no auto-refresh thread: the app refreshes once per handled event

    return SimDisplay


def brightness_adjustable(cfg):
    """Whether the device's display could dim: the ST7789 is given no brightness command, so
    it needs its backlight pin; the SSD1306 dims by command (0x81, companion/board/hwpico.py)."""
    return cfg["display"] != "st7789" or "backlight" in cfg["display_pins"]


class SimSupply:
    """``hw.supply`` with a charge you set (``lunchbox sim --battery 15``): ``percent`` is
    0..100 on the battery, None on USB power."""

    def __init__(self, percent=None):
        self.percent = percent
        self.reads = 0

    def level(self):
        self.reads += 1
        return self.percent


def battery_level(text):
    """A --battery value: "15" or "15%" is 15 percent on the battery; "usb" is USB power."""
    word = str(text).strip().lower().rstrip("%")
    if word == "usb":
        return None
    if not word.isdigit() or not 0 <= int(word) <= 100:
        raise ValueError("{!r} is not a charge from 0 to 100 (or usb)".format(text))
    return int(word)


class ScriptButtons:
    """Button transitions queued by the keyboard or the key script; ``poll`` drains them."""

    def __init__(self):
        self.pending = []

    def push(self, button, pressed, at=None):
        # at: when it happened on the simulator's clock, as keypad stamps a board's events;
        # None (the keyboard, the key script): when the app reads it
        self.pending.append((button, pressed, at))

    def poll(self):
        out, self.pending = self.pending, []
        return out


class VirtualClock:
    """Milliseconds that move only when the simulator says so (scripted runs are exact)."""

    def __init__(self, start=0):
        self.now = start

    def __call__(self):
        return self.now & TICKS_MASK

    def advance(self, ms):
        self.now += ms


class RealClock:
    def __init__(self):
        self.t0 = time.monotonic()

    def __call__(self):
        return int((time.monotonic() - self.t0) * 1000) & TICKS_MASK


def check_nvm_write(size, index, value):
    """Raise what CircuitPython's microcontroller.nvm (nvm.ByteArray) raises for a write a
    bytearray would take: a bytearray grows or shrinks when a slice and its value differ in
    length, the device refuses (and a slice past the end is cut to the end first)."""
    if isinstance(index, slice):
        start, stop, step = index.indices(size)
        if step != 1:
            raise NotImplementedError("only slices with step=1 (aka None) are supported")
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise NotImplementedError("array/bytes required on right side")
        if len(value) != max(0, stop - start):
            raise ValueError("Slice and value different lengths.")
    else:
        if not isinstance(value, int):
            raise TypeError("can't convert {} to int".format(type(value).__name__))
        if not 0 <= value <= 255:
            raise ValueError("bytes must be 0-255")


class FileNvm:
    """A bytearray-like 4 KB nvm kept in a file (or only in memory when path is None).

    Every write goes straight to the file, like a flash write, so the state survives the
    simulator being killed. ``writes`` and ``bytes_written`` count what the firmware wrote."""

    def __init__(self, path=None, size=NVM_SIZE):
        self.path = path
        self.writes = 0
        self.bytes_written = 0
        data = None
        if path is not None and os.path.isfile(path):  # never open a FIFO: it would block
            with open(path, "rb") as f:
                data = f.read(size + 1)
        if data is None:
            self.data = bytearray(b"\xff" * size)  # erased flash
            self._flush()
        elif len(data) != size:
            # Junk appended after a good save (or a short file) must not cost the save: keep
            # the first 4 KB, pad with erased bytes; the store's own checks judge the content.
            self.data = bytearray(data[:size] + b"\xff" * (size - min(size, len(data))))
            self._flush()
        else:
            self.data = bytearray(data)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value):
        check_nvm_write(len(self.data), index, value)
        self.data[index] = value
        self.writes += 1
        self.bytes_written += len(value) if isinstance(index, slice) else 1
        self._flush()

    def _flush(self):
        if self.path is None:
            return
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self.data)
        os.replace(tmp, self.path)


def pixel_color(color):
    """(r, g, b) as CircuitPython's adafruit_pixelbuf reads a colour
    (shared-module/adafruit_pixelbuf/PixelBuf.c): an int is 0xRRGGBB; a tuple must have 3 or 4
    items (ValueError), each truncated to 8 bits: 256 shows as 0, no error (a float too)."""
    if isinstance(color, (int, float)) and not isinstance(color, bool):
        v = int(color)
        return ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)
    items = list(color)
    if not 3 <= len(items) <= 4:
        raise ValueError("color length must be 3-4")
    out = []
    for c in items[:3]:
        if not isinstance(c, (int, float)):
            raise TypeError("can't convert {} to int".format(type(c).__name__))
        out.append(int(c) & 0xFF)
    return tuple(out)


class SimPixels:
    """The neopixel.NeoPixel API the firmware uses (auto_write=False)."""

    def __init__(self, n, display=None):
        self.n = n
        self.brightness = 1.0
        self.buf = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n
        self.display = display

    def __len__(self):
        return self.n

    def __setitem__(self, i, color):
        self.buf[i] = pixel_color(color)

    def __getitem__(self, i):
        return self.buf[i]

    def fill(self, color):
        self.buf = [pixel_color(color)] * self.n

    def show(self):
        b = self.brightness
        self.shown = [tuple(int(c * b) for c in rgb) for rgb in self.buf]
        if self.display is not None:
            self.display.pixel_colors = self.shown


class PtyLink:
    """The USB data channel as a pseudo-terminal: the firmware gets this object (in_waiting,
    read, write, like usb_cdc.data); host tools open ``self.path`` like the Pico's port."""

    def __init__(self):
        import fcntl
        import termios
        import tty

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        attrs = termios.tcgetattr(self.slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.path = os.ttyname(self.slave)
        self.buf = b""

    @property
    def in_waiting(self):
        try:
            chunk = os.read(self.master, 4096)
            if chunk:
                self.buf += chunk
        except (BlockingIOError, OSError):
            pass
        return len(self.buf)

    def read(self, n=1):
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def write(self, data):
        try:
            return os.write(self.master, bytes(data))
        except OSError:
            return 0  # nobody listening and the buffer is full: drop, like a closed port

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def battery_arg(text):
    """argparse's type for --battery."""
    import argparse

    try:
        return battery_level(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def make_supply(profile, percent):
    """The simulated ``hw.supply`` for ``profile`` (an id or a path): a SimSupply on USB power
    (``percent`` None) or at ``percent``, where the profile's build reads its battery; None
    where it cannot, and a --battery for such a profile is refused."""
    from ..errors import LunchboxError
    from ..hardware import profiles

    power = profiles.load_profile(profile).get("power", {})
    if not power.get("battery"):
        if percent is None:
            return None
        raise LunchboxError(
            "profile {} cannot read a battery (it has no [power] table)".format(profile),
            hint="drop --battery, or use a profile with `battery = \"lipo\"` under [power]")
    return SimSupply(percent)
