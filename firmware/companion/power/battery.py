"""The battery gauge at the right of the title bar, and the low-battery warning.

Imported by the app the first time a build that can read its supply (hw.supply: the
profile's [power] table) runs on its battery: on USB nothing of it is loaded or shown. One
small bitmap is the whole gauge (a cell outline and its fill).
"""

import displayio

from ..screen.ui import TitleBar
from .idle import LOW

# LOW leaves hours: hardware/README.md. The toast's two lines break where the words do.
MSG_LOW = "Battery low:\ncharge it soon"


class Gauge:
    """A cell drawn in one 3-colour bitmap: outline, fill (red when low on the colour
    display), transparent; two title cells wide (ui.TitleBar.reserve). ``set(percent)``
    redraws only when the fill's width changes."""

    def __init__(self, d):
        s = d.title_scale
        self.w = 8 * s + 2  # the body (10x6 on the OLED, 18x10 in colour); the nub is s wide
        self.h = 4 * s + 2
        self.inner = self.w - 4  # inside the outline and a pixel gap each side
        self.bitmap = displayio.Bitmap(self.w + s, self.h, 3)
        palette = displayio.Palette(3)
        palette.make_transparent(0)
        palette[1] = d.TITLE_FG
        palette[2] = d.TITLE_FG
        self.palette = palette
        self.bad = d.BAD if not d.mono else d.TITLE_FG
        self.fg = d.TITLE_FG
        # a pixel into the title's right margin: three blank pixels between it and the text
        # in the cells before it (ui.TitleBar.reserve), the status or the clock's time
        x = d.width - d.pad + 1 - self.w - s
        y = (d.title_h - self.h) // 2
        self.group = displayio.Group(x=x, y=y)
        self.group.append(displayio.TileGrid(self.bitmap, pixel_shader=palette))
        self.group.hidden = True
        self.fill = -1
        b = self.bitmap
        for i in range(self.w):
            b[i, 0] = 1
            b[i, self.h - 1] = 1
        for j in range(self.h):
            b[0, j] = 1
            b[self.w - 1, j] = 1
        for j in range(self.h // 3, self.h - self.h // 3):
            for i in range(self.w, self.w + s):
                b[i, j] = 1

    def set(self, percent):
        fill = 0 if percent <= 0 else max(1, (self.inner * percent + 99) // 100)
        self.palette[2] = self.bad if percent <= LOW else self.fg
        if fill == self.fill:
            return
        self.fill = fill
        b = self.bitmap
        for i in range(self.inner):
            for j in range(2, self.h - 2):
                b[2 + i, j] = 2 if i < fill else 0


class Battery:
    """What the app's readings of hw.supply show: the gauge while on the battery (hidden on
    USB), and one warning when the charge falls to LOW (again after a charge)."""

    def __init__(self, app):
        self.app = app
        self.level = None
        self.gauge = Gauge(app.d)
        app.d.root.append(self.gauge.group)
        self.warned = False

    def show(self, level):
        """Take a reading (percent, or None on USB); True when the gauge comes or goes."""
        was = self.level
        self.level = level
        if level is None:
            self.warned = False
            return was is not None
        self.gauge.set(level)
        if level <= LOW and not self.warned:
            self.warned = True
            self.app.warn(MSG_LOW)
        elif level > LOW + 5:
            self.warned = False  # charged again: the next fall warns again
        self.app.dirty = True
        return was is None

    def place(self):
        """The gauge shows in the top screen's title bar, if it has one with room for it
        (ui.TitleBar); its status moves left of it."""
        app = self.app
        bar = getattr(app.top, "bar", None)
        if not isinstance(bar, TitleBar):
            bar = None
        self.gauge.group.hidden = True
        TitleBar.gauge = self.gauge.group if self.level is not None else None
        TitleBar.top = bar
        if bar is not None:
            bar.relayout()
        app.dirty = True
