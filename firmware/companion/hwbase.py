"""What the app gets instead of ``board``: one object with the hardware's parts.

``hwpico.build()`` fills it on the device and the simulator fills it on a PC, so the app code
is the same on both.

- display: a display.ColorDisplay or display.MonoDisplay
- buttons: ``poll()`` -> list of (button id, pressed) transitions since the last call
- pixels: neopixel.NeoPixel (auto_write=False) or None
- clock: ``clock()`` -> milliseconds, wrapping like supervisor.ticks_ms
- nvm: bytearray-like (microcontroller.nvm)
- link: the USB data channel (in_waiting, read, write) or None
- watchdog: ``start(seconds)`` and ``feed()``
- idle(): called once per main-loop pass (a short sleep on the device)
- profile: the dict from core.settings.read
"""


try:  # names for the type comments, for mypy only (tests/test_api_check.py)
    from typing import TYPE_CHECKING
except ImportError:  # CircuitPython has no typing module
    TYPE_CHECKING = False  # type: ignore[misc]
if TYPE_CHECKING:  # used in type comments
    from typing import Any, Callable, Optional  # noqa: F401

    from adafruit_pixelbuf import PixelBuf  # noqa: F401
    from nvm import ByteArray  # noqa: F401
    from usb_cdc import Serial  # noqa: F401


class NullWatchdog:
    """A watchdog that never resets: for a Hardware made without one (tests, benches). The
    device has hwpico.Watchdog (RESET mode, 8 s) and the simulator sim_hw.SimWatchdog, which
    resets the simulated board when it is not fed."""

    def __init__(self):
        self.timeout = None
        self.fed = 0

    def start(self, seconds):
        self.timeout = seconds

    def feed(self):
        self.fed += 1


class Hardware:
    def __init__(self, display, buttons, clock, nvm, profile, pixels=None, link=None,
                 watchdog=None, idle=None, uid=b""):
        # type: (Any, Any, Callable[[], int], ByteArray, dict, Optional[PixelBuf], Optional[Serial], Any, Optional[Callable[[], Any]], bytes) -> None
        self.display = display
        self.buttons = buttons
        self.clock = clock
        self.nvm = nvm
        self.profile = profile
        self.pixels = pixels
        self.link = link
        self.watchdog = watchdog if watchdog is not None else NullWatchdog()
        self._idle = idle
        self.uid = uid  # the board's unique id (microcontroller.cpu.uid): records are keyed by it

    def idle(self):
        if self._idle is not None:
            self._idle()
