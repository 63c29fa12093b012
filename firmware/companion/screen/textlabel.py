"""Text in the built-in font at one TileGrid a line.

adafruit_display_text's ``label.Label`` makes a TileGrid for every glyph (about 100 bytes
each on the device) and its code keeps ~14 KB of heap (a 40 KB peak to compile). The built-in
``terminalio.FONT`` is fixed-width and all its glyphs sit in one bitmap, so a line of text is a
single TileGrid whose tiles are the glyphs, as ``terminalio.Terminal`` draws it. This class
offers the part of ``label.Label`` the app uses: ``text`` (lines split at "\\n"), ``color``,
``scale``, ``anchor_point``, ``anchored_position``, ``line_spacing`` and ``bounding_box``.
"""

import displayio


def tile(font, ch):
    """The glyph sheet's tile of ``ch`` ("?" for a character the font has not)."""
    glyph = font.get_glyph(ord(ch))
    if glyph is None:
        glyph = font.get_glyph(63)  # "?"
    return glyph.tile_index


_seen = [None, False]  # the last font asked about, and whether its ASCII tiles are in order


def _in_order(font):
    """Does ``font`` keep printable ASCII as tiles 0-94 in code order, as the built-in font
    does (shared-module/fontio/BuiltinFont.c)? Then a character's tile is ord(c) - 32: each
    get_glyph() makes a Glyph, ~70 us on the board (bench/cp_redraw_costs.py), for every
    character a label writes."""
    if _seen[0] is not font:
        _seen[0] = font
        _seen[1] = tile(font, " ") == 0 and tile(font, "A") == 33 and tile(font, "~") == 94
    return _seen[1]


class Label(displayio.Group):
    def __init__(self, font, text="", color=0xFFFFFF, scale=1, anchor_point=(0, 0),
                 anchored_position=(0, 0), line_spacing=1.0, background=None):
        super().__init__(scale=scale)
        self._font = font
        box = font.get_bounding_box()
        self._cw = box[0]
        self._ch = box[1]
        self._step = int(box[1] * line_spacing + 0.5)
        self._palette = displayio.Palette(2)
        self._bg = None
        self._palette.make_transparent(0)
        self.background = background  # opaque cells: what is under them is not drawn there
        self.color = color
        self._space = self._tile(" ")
        self._anchor = anchor_point
        self._pos = anchored_position
        self._rows = []  # the TileGrids, a line each (also the group's items)
        self._text = None
        self._cols = 0
        self._lines = 0
        self.text = text

    def _tile(self, ch):
        # (no attribute of its own for it: a label's every attribute is heap, ~20 on a screen)
        o = ord(ch)
        if 32 <= o <= 126 and _in_order(self._font):
            return o - 32
        return tile(self._font, ch)

    def _row(self, width, y):
        # (height and x left at their defaults, 1 and 0: each keyword is two slots of this
        # frame on CircuitPython's small Python stack)
        return displayio.TileGrid(self._font.bitmap, pixel_shader=self._palette, width=width,
                                  tile_width=self._cw, tile_height=self._ch,
                                  default_tile=self._space, y=y)

    @property
    def text(self):
        return self._text

    @text.setter
    def text(self, value):
        value = str(value)
        if value == self._text:
            return
        lines = value.split("\n")
        # what each grid shows now: only the cells that change are written, as displayio
        # redraws the span of the tiles written (shared-module/displayio/TileGrid.c)
        was = self._text.split("\n") if self._text else []
        rows = self._rows
        while len(rows) > len(lines):
            rows.pop()
            self.pop()
        cols = 0
        for i in range(len(lines)):
            line = lines[i]
            cols = max(cols, len(line))
            old = was[i] if i < len(was) else ""
            if i == len(rows):
                rows.append(self._row(max(1, len(line)), i * self._step))
                self.append(rows[i])
                old = ""  # a new grid is all blank
            elif rows[i].width < len(line):
                rows[i] = self._row(len(line), i * self._step)  # a longer line: a wider grid
                self[i] = rows[i]
                old = ""
            row = rows[i]
            n = max(len(line), len(old))
            for k in range(n):
                c = line[k] if k < len(line) else " "
                if c != (old[k] if k < len(old) else " "):
                    row[k] = self._tile(c)
        self._text = value
        self._cols = cols
        self._lines = len(lines)
        self._place()

    @property
    def bounding_box(self):
        """``(x, y, width, height)`` of the text in unscaled pixels, from the group's origin."""
        if not self._cols:
            return (0, 0, 0, 0)
        return (0, 0, self._cols * self._cw, (self._lines - 1) * self._step + self._ch)

    def _place(self):
        _, _, w, h = self.bounding_box
        if not h:  # no text: where a line would be (an opaque label's blank cell stays there)
            h = self._ch
        s = self.scale
        self.x = int(self._pos[0] - self._anchor[0] * w * s + 0.5)
        self.y = int(self._pos[1] - self._anchor[1] * h * s + 0.5)

    @property
    def color(self):
        return self._palette[1]

    @color.setter
    def color(self, value):
        self._palette[1] = value

    @property
    def background(self):
        """The cells' colour; None: transparent (each set redraws the label: set on change)."""
        return self._bg

    @background.setter
    def background(self, value):
        if value is None:
            self._palette[0] = 0
            if self._bg is not None:
                self._palette.make_transparent(0)
        else:
            self._palette[0] = value
            if self._bg is None:
                self._palette.make_opaque(0)
        self._bg = value

    @property
    def cells(self):
        """The width of the first line's grid, in cells (what it draws, blanks included)."""
        return self._rows[0].width if self._rows else 0

    @property
    def anchor_point(self):
        return self._anchor

    @anchor_point.setter
    def anchor_point(self, value):
        self._anchor = value
        self._place()

    @property
    def anchored_position(self):
        return self._pos

    @anchored_position.setter
    def anchored_position(self, value):
        self._pos = value
        self._place()
