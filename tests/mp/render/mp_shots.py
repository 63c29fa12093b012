"""MicroPython's side of tests/test_mp_render.py: each scene drawn by firmware/mplib on an
in-memory panel, its framebuffer printed (hex) with the colours of its pens and the time the
renderer took (the WebAssembly port's clock: not a Pico's)."""

import binascii
import gc

import scenes
from fbdisplay import FramebufferDisplay, Pens16, mono_pen

from companion.screen import display as displays


class Panel:
    """A panel in memory: the framebuffer, pens given out in the order colours come (P8),
    16 of them as the Display Pack's PicoGraphics panel has them (P4: fbdisplay.Pens16, the
    board's own), or displayio's 1-bit conversion (MONO), and a count of sends."""

    def __init__(self, width, height, fmt):
        self.width = width
        self.height = height
        self.format = fmt
        if fmt == "P8":
            size = width * height
        elif fmt == "P4":
            size = (width * height + 1) // 2
        else:
            size = width * ((height + 7) // 8)
        self.buffer = bytearray(size)
        self.colors = []
        self._pens = {}
        self.shows = 0
        self.brightness = None
        self.bus = None
        if fmt == "P4":
            self.pens = Pens16(self._set)
            self.pen = self.pens.pen

    def _set(self, i, rgb):
        if i == len(self.colors):
            self.colors.append(rgb)
        else:
            self.colors[i] = rgb

    def pen(self, rgb):
        if self.format == "MONO":
            return mono_pen(rgb)
        p = self._pens.get(rgb)
        if p is None:
            p = self._pens[rgb] = len(self.colors)
            self.colors.append(rgb)
        return p

    def show(self):
        self.shows += 1


def display(kind, width, height, fmt=None):
    panel = Panel(width, height, fmt or ("P4" if kind == "st7789" else "MONO"))
    return panel, displays.make(kind, FramebufferDisplay(panel), width, height)


def shot(name, kind, width, height, fmt=None):
    import terminalio

    panel, d = display(kind, width, height, fmt)
    scenes.build(name, d)
    drv = d.driver
    d.refresh()
    warm = drv.draw_us
    terminalio.FONT.bitmap._tc = None  # the glyphs made again, as at the first screen
    drv._plans = {}
    d.refresh()
    cold = drv.draw_us
    label = kind if fmt is None else "{}-{}".format(kind, fmt)
    print("@@SHOT", name, label, width, height, panel.format, warm, cold, panel.shows)
    print("@@PENS", " ".join(["{:06x}".format(c) for c in panel.colors]))
    buf = panel.buffer
    for i in range(0, len(buf), 2048):
        print("@@HEX", binascii.hexlify(buf[i:i + 2048]).decode())
    print("@@DONE")
    gc.collect()


def all_shots(names=None):
    todo = [(name, kind, w, h, None) for kind, w, h in scenes.DISPLAYS
            for name in names or scenes.SCENES]
    # the colour panel a byte a pixel too (fbdisplay's P8, a pen for every colour)
    todo += [(name, "st7789", 240, 135, "P8") for name in scenes.P8_SCENES]
    for name, kind, w, h, fmt in todo:
        try:
            shot(name, kind, w, h, fmt)
        except Exception as e:
            import sys

            print("@@FAILED", name, kind if fmt is None else "{}-{}".format(kind, fmt))
            sys.print_exception(e)
            print("@@DONE")
