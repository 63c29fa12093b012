"""The simulator's built-in font, laid out as CircuitPython's is.

On the device ``terminalio.FONT`` is a fixed-width font whose glyphs all sit in one bitmap
(``FONT.bitmap``), each glyph a tile of it (``get_glyph(cp).tile_index``); the firmware draws a
line of text as one TileGrid over that bitmap (companion/screen/textlabel.py). Blinka's stand-in
loads the same terminal font but gives every glyph a bitmap of its own and no such sheet
(``FONT.bitmap`` is a class there), so this builds the sheet from its glyphs and answers
``get_glyph`` as the device does.
"""

from collections import namedtuple

Glyph = namedtuple("Glyph", "bitmap tile_index width height dx dy shift_x shift_y")
FIRST = 0x20
LAST = 0x7E


class SheetFont:
    def __init__(self, font):
        import displayio

        w, h = font.get_bounding_box()[:2]
        self._box = (w, h)
        glyphs = [font.get_glyph(cp) for cp in range(FIRST, LAST + 1)]
        descent = max([0] + [-g.dy for g in glyphs if g is not None])
        self.bitmap = displayio.Bitmap(w * len(glyphs), h, 2)
        for i, g in enumerate(glyphs):
            if g is None:
                continue
            top = (h - descent) - (g.dy + g.height)  # the glyph's top row in its cell
            for y in range(g.height):
                for x in range(g.width):
                    cx, cy = g.dx + x, top + y
                    if 0 <= cx < w and 0 <= cy < h and g.bitmap[x, y]:
                        self.bitmap[i * w + cx, cy] = 1
        self._glyphs = [Glyph(self.bitmap, i, w, h, 0, -descent, w, 0)
                        for i in range(len(glyphs))]

    def get_bounding_box(self):
        return self._box

    def get_glyph(self, codepoint):
        if FIRST <= codepoint <= LAST:
            return self._glyphs[codepoint - FIRST]
        return None


def install():
    """Put the sheet font in place of Blinka's (once per process)."""
    import terminalio

    if not isinstance(terminalio.FONT, SheetFont):
        terminalio.FONT = SheetFont(terminalio.FONT)
