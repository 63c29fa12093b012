"""A display for MicroPython: the displayio tree drawn whole into a panel's framebuffer.

``FramebufferDisplay(panel)`` is what companion/screen/display.py wraps as its driver on
MicroPython. A refresh draws the root group into ``panel.buffer`` with framebuf (the
background, then every layer in list order: fill_rect for shapes, boxes and text drawn larger,
blit with a palette for other tiles and glyphs) and sends it with ``panel.show()``, once. The
panel (the board layer's) gives:

- ``width``, ``height``; ``format``: "P8" (a byte a pixel, a pen index: framebuf.GS8),
  "P4" (half a byte a pixel, the first pixel of two in the high half: framebuf.GS4_HMSB, as
  PicoGraphics' PEN_P4 lays it out) or "MONO" (a bit a pixel: framebuf.MONO_VLSB, the
  SSD1306's layout);
- ``buffer``: the bytearray drawn into; ``show()``: send it to the glass;
- ``pen(rgb888)`` -> the pixel value of a colour (P8, P4: a palette index; MONO: 0 or 1,
  ``mono_pen`` here converts as displayio does for a 1-bit display); a P4 panel's 16 pens
  are a ``Pens16`` (below): a frame that brings a colour when all 16 are taken is drawn
  again on a palette emptied for it;
- ``brightness``: None, or a callable taking 0..1; ``bus``: None, or an object with
  ``send(command, data)``.

A Palette's entries changed after a draw show at the next refresh (the palette drops what
the display made of it when it changes, and all palettes drop it when the display's ``era``
changes: its pens were given out again).
"""

import time

import displayio
import framebuf


def mono_pen(rgb888):
    """0 or 1 for a colour on a 1-bit panel: displayio's luma, lit from 128
    (shared-module/displayio/ColorConverter.c)."""
    r = rgb888 >> 16 & 0xFF
    g = rgb888 >> 8 & 0xFF
    b = rgb888 & 0xFF
    return 1 if (r * 19 + g * 182 + b * 54) // 255 >= 128 else 0


class FramebufferDisplay:
    def __init__(self, panel):
        fmt = panel.format
        if fmt == "P8":
            f = framebuf.GS8
        elif fmt == "P4":
            f = framebuf.GS4_HMSB
        elif fmt == "MONO":
            f = framebuf.MONO_VLSB
        else:
            raise ValueError("panel format must be 'P8', 'P4' or 'MONO', not {!r}".format(fmt))
        self.panel = panel
        self.width = panel.width
        self.height = panel.height
        self.mono = fmt == "MONO"
        self._nib = fmt == "P4"  # pens packed two a byte in a palette's framebuf
        self._top = 2 if self.mono else 16 if self._nib else 256  # pen values there are
        self._fmt = f
        self.era = object()  # what the palettes' pens were made under (see refresh)
        self.redraws = 0  # frames drawn again for want of a pen (P4: over 16 colours)
        self.fb = framebuf.FrameBuffer(panel.buffer, self.width, self.height, f)
        self.pen = panel.pen
        self.bus = getattr(panel, "bus", None)
        self.auto_refresh = False  # nothing is drawn but by refresh()
        self._root = None
        self._plans = {}  # palette plans shared by equal palettes (most labels' are)
        self._brightness = 1.0
        self.draw_us = 0  # the last refresh: drawing, then sending (for the benches)
        self.show_us = 0

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        # shared-module/displayio/display_core.c: the group shown now is accepted again,
        # one held anywhere else is not
        if group is not None and not isinstance(group, displayio.Group):
            raise ValueError("Must be a Group subclass.")
        if group is self._root:
            return
        if group is not None:
            if group._in:
                raise ValueError("Group already used")
            group._in = True
        if self._root is not None:
            self._root._in = False
        self._root = group

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        t0 = time.ticks_us()
        self._draw()
        pens = getattr(self.panel, "pens", None)
        if pens is not None and pens.spilled:
            # a colour came with all 16 pens taken (it was drawn in the nearest): the pens
            # given out again to this frame's colours alone, the frame drawn again
            pens.reset()
            self.era = object()
            self._plans = {}
            self.redraws += 1
            self._draw()
        t1 = time.ticks_us()
        self.panel.show()
        self.draw_us = time.ticks_diff(t1, t0)
        self.show_us = time.ticks_diff(time.ticks_us(), t1)
        return True

    def _draw(self):
        self.fb.fill(self.pen(0))
        if self._root is not None:
            self._root._draw(self, 0, 0, 1)

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        value = float(value)
        if not 0 <= value <= 1:
            raise ValueError("brightness must be 0-1")
        dim = self.panel.brightness
        if dim is None:
            raise AttributeError("this panel cannot dim")
        dim(value)
        self._brightness = value

    def _plan(self, colors, transparent, n):
        """How a source of ``n`` values draws through ``colors`` (``transparent``: a bit an
        entry): a tuple of passes (_pass). framebuf's key is compared with the palette's
        output, so transparent entries map to a pen no opaque entry has; a 1-bit panel with
        black, white and transparent entries takes two passes."""
        m = len(colors)
        if n < m:
            n = m
        pens = bytearray(n)
        opaque = 0
        for i in range(m):
            if not transparent >> i & 1:
                pens[i] = self.pen(colors[i])
                opaque |= 1 << i
        if not opaque:
            return ()
        key = bytes(pens) + opaque.to_bytes((n + 7) >> 3, "little")
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        if opaque == (1 << n) - 1:
            plan = (self._pass(pens, -1),)
        elif not self.mono:
            used = bytearray(256)
            for i in range(n):
                if opaque >> i & 1:
                    used[pens[i]] = 1
            top = self._top
            k = 0  # a pen no opaque entry has
            while k < top and used[k]:
                k += 1
            if k == top:
                raise ValueError("no pen left for a transparent entry: {} colours in "
                                 "use".format(top))
            plan = (self._pass(_keyed(pens, opaque, k), k),)
        else:
            lit = 0
            for i in range(n):
                if opaque >> i & 1 and pens[i]:
                    lit |= 1 << i
            dark = opaque & ~lit
            if lit and dark:  # the dark entries, then the lit ones
                plan = (self._pass(_ones(n, ~dark), 1), self._pass(_ones(n, lit), 0))
            else:
                k = 0 if lit else 1
                plan = (self._pass(_keyed(pens, opaque, k), k),)
        if len(self._plans) >= 48:
            self._plans = {}
        self._plans[key] = plan
        return plan

    def _pass(self, pens, key):
        """(palette framebuf, key, whether value 0 draws nothing: a blank tile is skipped,
        the pens themselves: a tile cut into boxes is filled with them)"""
        src = pens
        if self._nib:  # GS4_HMSB: entry 2i in the high half of byte i, 2i + 1 in the low
            src = bytearray((len(pens) + 1) >> 1)
            for i in range(len(pens)):
                src[i >> 1] |= pens[i] << (0 if i & 1 else 4)
        return (framebuf.FrameBuffer(src, len(pens), 1, self._fmt), key, pens[0] == key, pens)


def _keyed(pens, keep, k):
    """``pens`` with every entry not in the bit mask ``keep`` set to ``k``."""
    for i in range(len(pens)):
        if not keep >> i & 1:
            pens[i] = k
    return pens


def _ones(n, mask):
    """n pens: 1 for the entries in the bit mask ``mask``, 0 for the others."""
    pens = bytearray(n)
    for i in range(n):
        if mask >> i & 1:
            pens[i] = 1
    return pens


class Pens16:
    """The 16 pens of a 4-bit panel (PicoGraphics' PEN_P4): colours get pens in the order
    they come, ``set_pen(index, rgb888)`` puts each in the panel's palette. When all 16 are
    taken a new colour is drawn in the nearest one and ``spilled`` is set: the display then
    resets the pens and draws the frame again, so a frame of at most 16 colours always shows
    them exactly (the games' screens have fewer; the menus after a game start afresh)."""

    def __init__(self, set_pen):
        self._set = set_pen
        self._pens = {}
        self._rgb = []
        self.spilled = False

    def pen(self, rgb):
        p = self._pens.get(rgb)
        if p is None:
            p = len(self._rgb)
            if p < 16:
                self._pens[rgb] = p
                self._rgb.append(rgb)
                self._set(p, rgb)
            else:
                self.spilled = True
                p = _nearest(self._rgb, rgb)
        return p

    def reset(self):
        self._pens = {}
        self._rgb = []
        self.spilled = False


def _nearest(colors, rgb):
    best = 0
    far = 1 << 30
    r, g, b = rgb >> 16, rgb >> 8 & 0xFF, rgb & 0xFF
    for i in range(len(colors)):
        c = colors[i]
        d = (c >> 16) - r
        e = (c >> 8 & 0xFF) - g
        f = (c & 0xFF) - b
        d = d * d + e * e + f * f
        if d < far:
            best, far = i, d
    return best
