"""The two display classes: layout metrics and colours for each kind of screen.

Widgets never hard-code sizes: they ask the display for its character cell, row height and
colours, so every screen lays out on both the 240x135 colour ST7789 and the 128x64 mono SSD1306.
The driver object (busdisplay.BusDisplay, or the simulator's window) is
made elsewhere and handed in; auto_refresh is turned off here and the app refreshes once per
handled event, so a half-drawn change is never shown.
"""

import displayio

try:  # names for the type comments, for mypy only (tests/test_api_check.py)
    from typing import TYPE_CHECKING
except ImportError:  # CircuitPython has no typing module
    TYPE_CHECKING = False  # type: ignore[misc]
if TYPE_CHECKING:  # used in type comments
    from typing import Union  # noqa: F401

    from busdisplay import BusDisplay  # noqa: F401

GLYPH_W = 6  # terminalio.FONT cell
GLYPH_H = 12


class _Display:
    mono = False
    scale = 1
    title_scale = 1
    pad = 2
    row_gap = 0

    def __init__(self, driver, width, height):
        # type: (BusDisplay, int, int) -> None
        self.driver = driver
        self.width = width
        self.height = height
        try:
            driver.auto_refresh = False
        except AttributeError:
            pass
        self.root = displayio.Group()
        driver.root_group = self.root
        self.char_w = GLYPH_W * self.scale
        self.char_h = GLYPH_H * self.scale
        self.title_h = GLYPH_H * self.title_scale + 2 * self.pad
        # list rows share what is left below the title bar equally
        self.rows = (height - self.title_h) // (self.char_h + self.row_gap)
        self.row_h = (height - self.title_h) // self.rows
        self.cols = (width - 2 * self.pad) // self.char_w
        self.title_cols = (width - 2 * self.pad) // (GLYPH_W * self.title_scale)

    # the panel's last power-on steps, sent before the first refresh (hwpico: the ST7789's
    # 120 ms after its reset pass while the app is built)
    wake = None

    def refresh(self):
        if self.wake is not None:
            wake = self.wake
            self.wake = None
            wake()
        self.driver.refresh()

    def redraw(self):
        """Draw the whole screen at the next refresh, each pixel once. displayio otherwise
        redraws the area of every layer that changed, one after the other, overlaps and all:
        a new screen is its old screen's area and then each of its own layers again (twice
        the pixels of the screen, or more). A root group set anew is drawn whole, once
        (shared-module/displayio/display_core.c, ``full_refresh``)."""
        driver = self.driver
        driver.root_group = None
        driver.root_group = self.root

    dimmable = True  # False once the driver has said it cannot dim

    def set_brightness(self, percent):
        # type: (int) -> None
        """0..100; never fully dark (the box would look switched off). A panel that cannot
        dim stays at full brightness: CircuitPython raises RuntimeError("Brightness not
        adjustable") for a display with neither a backlight pin nor a brightness command
        (an ST7789 wired without its backlight), and for an I2C bus busy at that moment, so
        that one is not taken as final."""
        self._brightness(min(100, max(10, percent)))

    def _brightness(self, percent):
        if not self.dimmable:
            return
        try:
            self.driver.brightness = percent / 100
        except (AttributeError, NotImplementedError):
            self.dimmable = False
        except RuntimeError:
            pass

    power = 0  # power.idle: AWAKE, DIM or OFF
    DIM_PERCENT = 10

    def set_power(self, state, percent):
        # type: (int, int) -> None
        """AWAKE at the user's brightness ``percent``, DIM at 10 % (the least set_brightness
        gives), or OFF: nothing drawn (a black screen even where the panel cannot dim), the
        backlight at 0, and an SSD1306 in its sleep mode (0xAE: under 10 uA). The caller
        refreshes after it. The simulator shows the state (its driver's ``show_power``)."""
        was = self.power
        self.power = state
        if state == 2:  # OFF
            self.root.hidden = True
            self.redraw()  # black, each pixel once
            self._brightness(0)
            self._panel(False)
        else:
            if was == 2:
                self._panel(True)
                self.root.hidden = False
                self.redraw()  # every pixel is drawn again at the next refresh, once
            self.set_brightness(min(percent, self.DIM_PERCENT) if state == 1 else percent)
        show = getattr(self.driver, "show_power", None)
        if state != was and show is not None:
            show(state)

    def _panel(self, on):
        """The panel's own sleep mode, where it has one (MonoDisplay)."""


class ColorDisplay(_Display):
    """240x135 colour (Pimoroni Pico Display Pack, ST7789)."""

    scale = 2
    title_scale = 2
    row_gap = 2
    BG = 0x000000
    FG = 0xFFFFFF
    DIM = 0x8C8C8C
    TITLE_BG = 0x0B3D91
    TITLE_FG = 0xFFFFFF
    SEL_BG = 0xFFC61A
    SEL_FG = 0x000000
    EDIT_BG = 0x19B5FE
    ACCENT = 0x19B5FE
    GOOD = 0x2ECC40
    BAD = 0xFF4136


class MonoDisplay(_Display):
    """128x64 monochrome (SSD1306): only black and white, inverse video for emphasis."""

    mono = True
    scale = 1
    title_scale = 1
    pad = 1
    row_gap = 0
    BG = 0x000000
    FG = 0xFFFFFF
    DIM = 0xFFFFFF
    TITLE_BG = 0xFFFFFF
    TITLE_FG = 0x000000
    SEL_BG = 0xFFFFFF
    SEL_FG = 0x000000
    EDIT_BG = 0xFFFFFF
    ACCENT = 0xFFFFFF
    GOOD = 0xFFFFFF
    BAD = 0xFFFFFF

    def _panel(self, on):
        # the SSD1306's sleep mode (0xAE: under 10 uA, its RAM kept) and back (0xAF), sent
        # through the display's bus (the simulator's display has none)
        send = getattr(getattr(self.driver, "bus", None), "send", None)
        if send is not None:
            send(0xAF if on else 0xAE, b"")


def make(kind, driver, width, height):
    # type: (str, BusDisplay, int, int) -> Union[ColorDisplay, MonoDisplay]
    """The display class for a LUNCHBOX_DISPLAY value."""
    if kind == "st7789":
        return ColorDisplay(driver, width, height)
    if kind == "ssd1306":
        return MonoDisplay(driver, width, height)
    raise ValueError("unknown display {!r}".format(kind))
