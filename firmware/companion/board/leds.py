"""NeoPixel helpers: a frame of colours shown at the user's brightness, off when idle or
switched off in Settings. ``pixels`` is a neopixel.NeoPixel made with auto_write=False (or the
simulator's stand-in), or None when the build has no strip."""

try:  # names for the type comments, for mypy only (tests/test_api_check.py)
    from typing import TYPE_CHECKING
except ImportError:  # CircuitPython has no typing module
    TYPE_CHECKING = False  # type: ignore[misc]
if TYPE_CHECKING:  # used in type comments
    from typing import Optional  # noqa: F401

    from adafruit_pixelbuf import PixelBuf  # noqa: F401

IDLE_MS = 60000
MAX_BRIGHTNESS = 0.5  # a USB power bank and eyes at the table: half is plenty


class Leds:
    def __init__(self, pixels, brightness=50, enabled=True):
        # type: (Optional[PixelBuf], int, bool) -> None
        self.pixels = pixels
        self.n = len(pixels) if pixels is not None else 0
        self.brightness = brightness
        self.enabled = enabled
        self.frame = None
        self.awake = True
        self.last = None
        self.lit = False
        self._sent = None  # (brightness, colours) last sent to the strip
        self._draw()

    def configure(self, brightness, enabled):
        self.brightness = brightness
        self.enabled = enabled
        self._draw()

    def show(self, colors):
        """Show a list of (r, g, b); shorter lists leave the rest dark. None clears."""
        self.frame = list(colors) if colors is not None else None
        self._draw()

    def bar(self, value, full, color):
        """Light value/full of the strip (at least one pixel for a positive value)."""
        if self.n == 0:
            return
        lit = 0 if value <= 0 else max(1, min(self.n, value * self.n // max(1, full)))
        self.show([color] * lit)

    def off(self):
        self.show(None)

    def wake(self, now):
        self.last = now
        if not self.awake:
            self.awake = True
            self._draw()

    def tick(self, now, ticks_diff):
        if self.awake and self.last is not None and ticks_diff(now, self.last) > IDLE_MS:
            self.awake = False
            self._draw()

    def _draw(self):
        p = self.pixels
        if p is None:
            return
        on = self.enabled and self.awake and self.frame
        frame = self.frame if on else ()
        want = (self.brightness, [frame[i] if i < len(frame) else (0, 0, 0)
                                  for i in range(self.n)])
        self.lit = bool(on)
        # a game asks for its LEDs at every press, mostly as they are: a write to the strip
        # takes ~25 ms of the press on the board (the lane; neopixel_write sets up a PIO state
        # machine each time), so only a change is sent
        if want == self._sent:
            return
        self._sent = want
        p.brightness = MAX_BRIGHTNESS * self.brightness / 100
        colors = want[1]
        for i in range(self.n):
            p[i] = colors[i]
        p.show()
