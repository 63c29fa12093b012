"""What the app gets instead of ``board``: one object with the hardware's parts.

``hwpico.build()`` fills it on the device and the simulator fills it on a PC, so the app code
is the same on both.

- display: a display.ColorDisplay or display.MonoDisplay
- buttons: ``poll()`` -> list of (button id, pressed, ms or None) transitions since the last
  call, each with the time it happened on ``clock``'s scale (None: when it is read)
- pixels: neopixel.NeoPixel (auto_write=False) or None
- clock: ``clock()`` -> milliseconds, wrapping like supervisor.ticks_ms
- nvm: bytearray-like (microcontroller.nvm)
- link: the USB data channel (in_waiting, read, write) or None
- watchdog: ``start(seconds)`` and ``feed()``
- idle(): called once per main-loop pass: on the device a pause of up to IDLE_MS
  (app/buttons.py) that a button's press ends at once
- profile: the dict from board.settings.read
- supply: ``level()`` -> the battery's charge in percent, or None on USB power; None where
  the build cannot read its supply (the profile's [power] table, hardware/README.md)
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


# the relaunch target of the menu is MENU + the game just left: the menu comes back with its
# cursor on that game, and no "Resume game?" prompt (the player just left it)
MENU = "@"


class Relaunch(BaseException):
    """Raised by a host's ``hw.relaunch`` (the simulator): main.run starts a new App for
    ``target``, as the board's reload starts a new VM (companion/app/launch.py). A BaseException,
    so no screen's ``except Exception`` can swallow it."""

    def __init__(self, target):
        super().__init__(target)
        self.target = target


class NullWatchdog:
    """A watchdog that never resets: for a Hardware made without one (tests, benches). The
    device has picoparts.Watchdog (RESET mode, 8 s) and the simulator
    lunchbox.sim.hw.SimWatchdog, which resets the simulated board when it is not fed."""

    def __init__(self):
        self.timeout = None
        self.fed = 0

    def start(self, seconds):
        self.timeout = seconds

    def feed(self):
        self.fed += 1


class Hardware:
    def __init__(self, display, buttons, clock, nvm, profile, pixels=None, link=None,
                 watchdog=None, idle=None, uid=b"", supply=None):
        # type: (Any, Any, Callable[[], int], ByteArray, dict, Optional[PixelBuf], Optional[Serial], Any, Optional[Callable[[], Any]], bytes, Any) -> None
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
        self.supply = supply
        # a fresh VM per game (companion/app/launch.py): relaunch(target) starts the VM for a
        # game id (or MENU); launched is what this VM was started for (None: power-on)
        self.relaunch = None
        self.launched = None
        self.trace = 0  # the heap trace (companion/app/trace.py) and the bytes it holds back
        self.held = None

    def seed(self):
        """32 bits for the device's fair random source (the dice, the first-player pick): the
        chip's own randomness (os.urandom) on the board; the clock where the firmware runs on
        CPython (the simulator), so a headless run replays."""
        import sys

        seed = self.clock()
        if sys.implementation.name != "cpython":
            try:
                import os

                seed = int.from_bytes(os.urandom(4), "big")
            except (ImportError, AttributeError, NotImplementedError, OSError):
                pass
        return seed

    def idle(self):
        if self._idle is not None:
            self._idle()
