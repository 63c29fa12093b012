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


class NullWatchdog:
    """The simulator's watchdog: the seam where the device's RESET-mode watchdog sits."""

    def __init__(self):
        self.timeout = None
        self.fed = 0

    def start(self, seconds):
        self.timeout = seconds

    def feed(self):
        self.fed += 1


class Hardware:
    def __init__(self, display, buttons, clock, nvm, profile, pixels=None, link=None,
                 watchdog=None, idle=None):
        self.display = display
        self.buttons = buttons
        self.clock = clock
        self.nvm = nvm
        self.profile = profile
        self.pixels = pixels
        self.link = link
        self.watchdog = watchdog if watchdog is not None else NullWatchdog()
        self._idle = idle

    def idle(self):
        if self._idle is not None:
            self._idle()
