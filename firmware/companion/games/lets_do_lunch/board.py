"""The Let's Do Lunch board: 7 x 7 cells as one TileGrid over a small sheet of cell pictures.

Every cell is one tile index, so a change (a placement, the lit column, the cursor) is a few
index assignments and displayio redraws only those cells; the pictures are drawn once, when the
widget is made. Player 0 (A) is filled, player 1 (B) hollow on the mono display (beige and
brown on the colour one), so the sides differ without colour. The River (column 6) has its
own background; the rolled column is lit (inverse on mono); the cursor shows the piece that
would be placed; the last placement carries a dot; eaten cannibals stay as crosses until the
next action.
"""

import displayio
from bitmaptools import fill_region as fill

from companion.screen.ui import rect

# palette entries
_BG = 0
_GRID = 1
_RIVER = 2
_LIT = 3
_A = 4
_B = 5
_GHOST = 6
_CUR = 7

# backgrounds
NORMAL = 0
RIVER = 1
LIT = 2
# contents of a tile, per background
EMPTY = 0
A = 1
B = 2
GHOST_A = 3
GHOST_B = 4
LAST_A = 5
LAST_B = 6
_PER_BG = 7
CURSOR_A = 3 * _PER_BG
CURSOR_B = CURSOR_A + 1
_TILES = CURSOR_B + 1

COLORS = (0x000000, 0x505050, 0x0B2A5C, 0x5C4A00, 0xF2D39B, 0xC0702E, 0xFF4136, 0xFFC61A)
RIVER_COLUMN = 6
# 3..9 in a 3x5 font, rows top to bottom, 3 bits each
_DIGITS = (0b111001111001111, 0b101101111001001, 0b111100111001111, 0b111100111101111,
           0b111001001001001, 0b111101111101111, 0b111101111001111)


def cell_size(d):
    """Pixels per cell: the mono board fills the height (7 x 9 = 63 + 1); the colour one
    leaves a row for the column numbers above it."""
    if d.mono:
        return (d.height - 1) // 7
    return min(16, (d.height - 14) // 7)


class BoardWidget:
    """``show(cells, lit, last, eaten, cursor, mover)``: cells is the engine's 49-byte board
    (0 empty, 1 player 0, 2 player 1, index (row-1)*7 + column-3)."""

    def __init__(self, d, left=0, top=None):
        self.d = d
        s = self.cell = cell_size(d)
        labels = not d.mono
        if top is None:
            top = 13 if labels else 0
        self.group = displayio.Group()
        pal = displayio.Palette(8)
        for i in range(8):
            pal[i] = COLORS[i]
        if d.mono:
            for i in range(8):
                pal[i] = 0 if i == _BG else 0xFFFFFF
        self.sheet = displayio.Bitmap(s * _TILES, s, 8)
        for t in range(_TILES):
            self._draw_tile(t)
        self.grid = displayio.TileGrid(self.sheet, pixel_shader=pal, width=7, height=7,
                                       tile_width=s, tile_height=s, x=left, y=top)
        self.group.append(self.grid)
        # the grid's right and bottom edges (each tile draws only its left and top edge)
        edge = 0xFFFFFF if d.mono else COLORS[_GRID]
        self.group.append(rect(left + 7 * s, top, 1, 7 * s + 1, edge))
        self.group.append(rect(left, top + 7 * s, 7 * s, 1, edge))
        self.width = 7 * s + 1
        self.header = None
        if labels:
            # the column numbers, drawn into one small bitmap (seven labels would cost ~5 KB)
            self.header = displayio.Bitmap(7 * s, top - 1, 4)
            hp = displayio.Palette(4)
            # the numbers in the text colour (grey did not read at arm's length), the River's
            # in its accent, the lit column's in the selection colour
            for i, c in enumerate((d.BG, d.FG, d.ACCENT, d.SEL_BG)):
                hp[i] = c
            self.group.append(displayio.TileGrid(self.header, pixel_shader=hp, x=left, y=0))
        self.tiles = bytearray(49)
        self._lit = None
        self._drawn = -1  # the lit column the header shows
        for i in range(49):
            self.tiles[i] = self._base(i % 7)
            self.grid[i % 7, i // 7] = self.tiles[i]

    # drawing the sheet (once)

    def _draw_tile(self, t):
        """Tile ``t`` of the sheet, in runs of pixels (bitmaptools.fill_region): a pixel at a
        time in Python took 0.66 s for the colour sheet on the board, most of a board's first
        screen (docs/firmware.md, "Times")."""
        d = self.d
        mono = d.mono
        s = self.cell
        b = self.sheet
        x0 = t * s
        cursor = t >= CURSOR_A
        if cursor:
            bg, what = LIT, t - CURSOR_A + 1
        else:
            bg, what = t // _PER_BG, t % _PER_BG
        back = (_BG, _RIVER, _LIT)[bg]
        grid = _GRID
        ink = None  # the piece's colour when not its own (mono: inverse video)
        if mono:
            if bg == RIVER:
                back = _BG  # the River: a sparse dot pattern below
            if bg == LIT and not cursor:
                grid = _BG
                ink = _BG
            if cursor:
                back = _BG  # a dark hole in the lit column, the piece to come inside
        if back:  # a new Bitmap holds 0
            fill(b, x0, 0, x0 + s, s, back)
        if mono:
            if grid != _BG:  # mono: a dot at each cell's corner, not dotted lines (busy)
                b[x0, 0] = grid
            elif back:  # the lit column's grid lines are dark
                fill(b, x0, 0, x0 + s, 1, _BG)
                fill(b, x0, 0, x0 + 1, s, _BG)
            if bg == RIVER:  # a sparse dot pattern: every fourth pixel of every fourth row
                for y in range(2, s, 4):
                    for x in range((y + 2) % 8 // 2, s, 4):
                        if x:
                            b[x0 + x, y] = _RIVER
        else:
            fill(b, x0, 0, x0 + s, 1, grid)
            fill(b, x0, 0, x0 + 1, s, grid)
        if what == EMPTY:
            return
        player = (what - 1) % 2
        piece = ink if ink is not None else (_A, _B)[player]
        size = s - 4
        if mono and cursor:
            size = s - 6  # a small preview: the hole around it shows where it goes
        if what == GHOST_A or what == GHOST_B:  # a cross: the two diagonals
            colour = ink if ink is not None else _GHOST
            for y in range(1, s):
                if (2 * y - s) ** 2 * (1 if mono else 2) <= size * size:
                    b[x0 + y, y] = colour
                    b[x0 + s - y, y] = colour
        else:
            self._disc(x0, size, piece)
            if mono and player == 1:  # hollow: a one-pixel ring left
                self._disc(x0, size - 2, back)
        if cursor and not mono:
            fill(b, x0 + 1, 1, x0 + s, 3, _CUR)
            fill(b, x0 + 1, s - 2, x0 + s, s, _CUR)
            fill(b, x0 + 1, 1, x0 + 3, s, _CUR)
            fill(b, x0 + s - 2, 1, x0 + s, s, _CUR)
        if what == LAST_A or what == LAST_B:
            if mono:
                # four corner dots around the piece (a dot inside would blur filled/hollow)
                for x, y in ((1, 1), (s - 1, 1), (1, s - 1), (s - 1, s - 1)):
                    b[x0 + x, y] = piece
            else:
                c = s // 2
                fill(b, x0 + c - 1, c - 1, x0 + c + 2, c + 2, back)

    def _disc(self, x0, size, value):
        """A piece of diameter ``size`` centred in the tile at ``x0``, a row at a time: a
        disc on colour, a square on mono (pixels 1..s-1, doubled coordinates)."""
        s = self.cell
        mono = self.d.mono
        r2 = size * size
        for y in range(1, s):
            dy2 = (2 * y - s) ** 2
            if dy2 > r2:
                continue
            left = s  # the row's first x inside; the row is symmetric about the centre
            for x in range(1, s):
                dx2 = (2 * x - s) ** 2
                if dx2 <= r2 if mono else dx2 + dy2 <= r2:
                    left = x
                    break
            if left < s:
                fill(self.sheet, x0 + left, y, x0 + s - left + 1, y + 1, value)

    # showing a position

    def _base(self, x):
        if x == self._lit:
            return LIT * _PER_BG
        return RIVER * _PER_BG if x + 3 == RIVER_COLUMN else NORMAL * _PER_BG

    def show(self, cells, lit=None, last=None, eaten=(), cursor=None, mover=0):
        """lit: the column (3..9) to light; last: the cell index placed last; eaten: (index,
        owner) pairs shown as crosses; cursor: a cell index where ``mover``'s piece would go."""
        self._lit = None if lit is None else lit - 3
        ghosts = {}
        for i, owner in eaten:
            ghosts[i] = owner
        for i in range(49):
            x = i % 7
            base = self._base(x)
            v = cells[i]
            if i == cursor and not v:
                t = CURSOR_A + mover
            elif v:
                t = base + (LAST_A if i == last else A) + v - 1
            elif i in ghosts:
                t = base + GHOST_A + ghosts[i]
            else:
                t = base
            if self.tiles[i] != t:
                self.tiles[i] = t
                self.grid[i] = t  # by index: no (x, y) tuple made
        if self.header is not None and self._drawn != self._lit:
            was = self._drawn
            self._drawn = self._lit
            for x in range(7):  # only the numbers that change colour: displayio redraws
                if was == -1 or x == was or x == self._lit:  # the span of what was written
                    self._digit(x, 3 if x == self._lit else (2 if x + 3 == RIVER_COLUMN else 1))

    def _digit(self, x, color):
        """Column number x + 3 in a 3x5 font at twice the size, centred over the column."""
        bits = _DIGITS[x]
        b = self.header
        x0 = x * self.cell + (self.cell - 6) // 2 + 1
        y0 = (b.height - 10) // 2
        w = b.width
        for r in range(5):
            for c in range(3):
                v = color if bits >> (14 - 3 * r - c) & 1 else 0
                i = (y0 + 2 * r) * w + x0 + 2 * c  # by index: no (x, y) tuple made
                b[i] = b[i + 1] = b[i + w] = b[i + w + 1] = v
