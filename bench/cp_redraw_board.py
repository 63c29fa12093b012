"""The board side of bench/cp_redraw_costs.py: this file is the drive's code.py. It times
displayio's refresh() on the Display Pack's ST7789 (real CircuitPython 9.2.2 in the lane's
emulator), for both ways of addressing the panel, and prints one ``COST`` line a figure."""

import gc

import board
import busio
import displayio
import supervisor
import terminalio
import vectorio
from busdisplay import BusDisplay
from fourwire import FourWire

from companion.board.hwpico import ST7789_ROTATIONS, st7789_awake
from companion.screen.textlabel import Label

ticks = supervisor.ticks_ms
# (MADCTL, displayio's rotation, colstart, rowstart): the panel turning the picture (what the
# firmware does for the Display Pack's rotation 270) and displayio turning it (Adafruit's)
WAYS = {"panel": ST7789_ROTATIONS[270], "displayio": (0xC0, 270, 53, 40)}
_spi = []


def make(way):
    madctl, rotation, colstart, rowstart = WAYS[way]
    displayio.release_displays()
    for old in _spi:
        old.deinit()
    del _spi[:]
    spi = busio.SPI(board.GP18, MOSI=board.GP19)
    _spi.append(spi)
    bus = FourWire(spi, command=board.GP16, chip_select=board.GP17, baudrate=62500000)
    seq = b"\x01\x80\x7a" + st7789_awake(madctl)  # SWRESET, 122 ms, then the modes
    return BusDisplay(bus, seq, width=240, height=135, rotation=rotation,
                      colstart=colstart, rowstart=rowstart, backlight_pin=board.GP20,
                      auto_refresh=False)


def rect(x, y, w, h, c):
    p = displayio.Palette(1)
    p[0] = c
    return vectorio.Rectangle(pixel_shader=p, width=w, height=h, x=x, y=y)


def text(s, x, y, bg=None, anchor=(0, 0.5)):
    return Label(terminalio.FONT, text=s, scale=2, anchored_position=(x, y), anchor_point=anchor,
                 background=bg)


def rows(n=4, chars=18):
    g = displayio.Group()
    for i in range(n):
        g.append(text(("Wxyz Space Lunch " * 2)[:chars], 2, 43 + i * 26))
    return g


def list_screen():
    g = displayio.Group()
    g.append(rect(0, 0, 240, 28, 0x0B3D91))
    g.append(text("Settings", 2, 14, 0x0B3D91))
    names = ("Brightness", "Dim after", "Player names", "About")
    marks = ("80%", "1 min", "", "")
    for i in range(4):
        g.append(text(names[i], 2, 41 + i * 26))
        g.append(text(marks[i], 230, 41 + i * 26, 0, (1, 0.5)))
    g.append(rect(238, 28, 2, 26, 0x8C8C8C))
    return g


_pal = displayio.Palette(2)
_pal[1] = 0xFFFFFF
_pal.make_transparent(0)


def tile():
    return displayio.TileGrid(terminalio.FONT.bitmap, pixel_shader=_pal, width=1, height=1,
                              tile_width=6, tile_height=12, default_tile=88, x=228, y=120)


def hidden(layer):
    layer.hidden = True
    return layer


# layers far from what is drawn: what each costs the walk displayio makes of the whole tree
# for every piece of every area it draws
KINDS = (
    ("a text label", lambda: text("x", 228, 120)),
    ("a hidden text label", lambda: hidden(text("x", 228, 120))),
    ("a bare TileGrid", tile),
    ("a vectorio rectangle", lambda: rect(239, 134, 1, 1, 0xFFFFFF)),
    ("a hidden vectorio rectangle", lambda: hidden(rect(239, 134, 1, 1, 0xFFFFFF))),
    ("an empty Group", displayio.Group),
)


def measure(way):
    """[(what, ms)] with the panel addressed ``way``."""
    drv = make(way)

    def whole(group, n=3):
        drv.root_group = group
        drv.refresh()
        t = ticks()
        for _ in range(n):
            drv.root_group = None  # a root set anew is drawn whole, once
            drv.root_group = group
            drv.refresh()
        return (ticks() - t) / n

    def change(fn, n=4):
        drv.refresh()
        spent = 0
        for i in range(n):
            fn(i)
            t = ticks()
            drv.refresh()
            spent += ticks() - t
        return spent / n

    out = [("an empty screen, whole", whole(displayio.Group()))]
    g = displayio.Group()
    g.append(rect(0, 0, 240, 135, 0x0B3D91))
    out.append(("one box over the whole screen (32,400 px of vectorio)", whole(g)))
    out.append(("4 rows of 18 characters, whole (20,736 px of text)", whole(rows())))
    out.append(("4 rows of 9 characters, whole (10,368 px of text)", whole(rows(4, 9))))
    out.append(("a list screen (title bar, 4 rows, 2 marks, scroll bar), whole",
                whole(list_screen())))
    for name, make_layer in KINDS:
        g = rows()
        for _ in range(20):
            g.append(make_layer())
        out.append(("4 rows + 20 of {}, whole".format(name), whole(g)))
    g = rows()
    labels = list(g)
    drv.root_group = g
    drv.refresh()

    def one_char(i):
        labels[0].text = ("A" if i % 2 else "B") + labels[0].text[1:]

    def every_char(i):
        for lab in labels:
            lab.text = "abcdefghijklmnopqr" if i % 2 else "ABCDEFGHIJKLMNOPQR"

    def hide(i):
        labels[1].hidden = not labels[1].hidden

    out.append(("a row's first character changed", change(one_char)))
    out.append(("every character of the 4 rows changed", change(every_char)))
    out.append(("a row hidden or shown", change(hide)))
    drv.root_group = None
    return out


def main():
    for way in ("panel", "displayio"):
        for name, ms in measure(way):
            print("COST {} | {} | {:.1f}".format(way, name, ms))
        gc.collect()
    t = ticks()
    for _ in range(200):
        terminalio.FONT.get_glyph(65)
    print("COST python | a get_glyph() (us) | {:.1f}".format((ticks() - t) * 1000 / 200))
    # the lane's driver waits for the app's first trace line
    print("LBX 0 Bench free={} pre=0 ms=0".format(gc.mem_free()))
    while True:
        pass


main()
