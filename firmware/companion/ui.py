"""Widgets: small displayio groups that lay themselves out from the display's metrics.

Each widget owns a ``group`` and updates its labels in place; the app refreshes the display once
per handled event. Text is always fitted to the cells available (core.text.fit), so nothing is
ever drawn cut off or off-screen.
"""

import displayio
import terminalio
from adafruit_display_text import label

from .core.text import fit, wrap


def rect(x, y, w, h, color):
    """A filled rectangle as a one-colour TileGrid."""
    bitmap = displayio.Bitmap(max(1, w), max(1, h), 1)
    palette = displayio.Palette(1)
    palette[0] = color
    return displayio.TileGrid(bitmap, pixel_shader=palette, x=x, y=y)


def text(d, s, x, y, color=None, scale=None, anchor=(0, 0.5)):
    """A label whose anchor point sits at (x, y)."""
    return label.Label(
        terminalio.FONT,
        text=s,
        color=d.FG if color is None else color,
        scale=d.scale if scale is None else scale,
        anchor_point=anchor,
        anchored_position=(x, y),
    )


class TitleBar:
    """The top bar: a title on the left and an optional short status on the right."""

    def __init__(self, d, title, right=""):
        self.d = d
        self.group = displayio.Group()
        # mono: a one-pixel gap keeps the bar apart from a selected first row
        self.group.append(rect(0, 0, d.width, d.title_h - (1 if d.mono else 0), d.TITLE_BG))
        mid = d.title_h // 2
        self._title = text(d, "", d.pad, mid, d.TITLE_FG, d.title_scale)
        self._right = text(d, "", d.width - d.pad, mid, d.TITLE_FG, d.title_scale, (1, 0.5))
        self.group.append(self._title)
        self.group.append(self._right)
        self._t = None
        self._r = None
        self.set(title, right)

    def set(self, title, right=""):
        cols = self.d.title_cols
        right = fit(right, cols // 2)
        # keep one blank cell between the two parts
        title = fit(title, cols - (len(right) + 1 if right else 0))
        if title != self._t:
            self._title.text = title
            self._t = title
        if right != self._r:
            self._right.text = right
            self._r = right


class ListMenu:
    """A scrolling list of one-line items below the title bar, with a selection bar.

    ``items`` is a list of strings; ``marks`` (optional) a parallel list of short right-hand
    texts (a value, a tick). The selection bar turns to the edit colour when ``editing``.
    """

    def __init__(self, d, items, top=None, rows=None, selected=0):
        self.d = d
        self.top = d.title_h if top is None else top
        self.rows = d.rows if rows is None else rows
        self.group = displayio.Group()
        self.bar = rect(0, self.top, d.width, d.row_h, d.SEL_BG)
        self.group.append(self.bar)
        self.labels = []
        self.marks = []
        self._colors = [d.FG] * self.rows
        for r in range(self.rows):
            y = self.top + r * d.row_h + d.row_h // 2
            lab = text(d, "", d.pad, y)
            mark = text(d, "", d.width - d.pad - 4, y, anchor=(1, 0.5))
            self.labels.append(lab)
            self.marks.append(mark)
            self.group.append(lab)
            self.group.append(mark)
        # the scroll bar: a thin track at the right edge, shown when the list scrolls
        self.thumb = rect(d.width - 2, self.top, 2, d.row_h, d.DIM)
        self.group.append(self.thumb)
        self.items = []
        self.item_marks = []
        self.selected = selected
        self.first = 0
        self.editing = False
        self.set_items(items)

    def set_items(self, items, marks=None):
        self.items = list(items)
        self.item_marks = list(marks) if marks is not None else [""] * len(self.items)
        if self.selected >= len(self.items):
            self.selected = max(0, len(self.items) - 1)
        self._render()

    def move(self, step, wrap_around=True):
        n = len(self.items)
        if not n:
            return
        s = self.selected + step
        if wrap_around:
            s %= n
        else:
            s = min(max(s, 0), n - 1)
        self.selected = s
        self._render()

    def select(self, index):
        self.selected = min(max(index, 0), max(0, len(self.items) - 1))
        self._render()

    def set_editing(self, editing):
        self.editing = editing
        self._render()

    def _render(self):
        d = self.d
        n = len(self.items)
        if self.selected < self.first:
            self.first = self.selected
        elif self.selected >= self.first + self.rows:
            self.first = self.selected - self.rows + 1
        self.first = max(0, min(self.first, max(0, n - self.rows)))
        cols = d.cols - 1  # the last cell is left for the scroll bar
        for r in range(self.rows):
            i = self.first + r
            sel = i == self.selected
            if i < n:
                mark = fit(self.item_marks[i], cols * 2 // 3)
                room = cols - (len(mark) + 1 if mark else 0)
                s = fit(self.items[i], room)
            else:
                s, mark = "", ""
            color = d.SEL_FG if sel else d.FG
            lab = self.labels[r]
            if lab.text != s:
                lab.text = s
            if self._colors[r] != color:
                # only rows whose colour changes are redrawn (SPI time on the device)
                lab.color = color
                self.marks[r].color = color
                self._colors[r] = color
            if self.marks[r].text != mark:
                self.marks[r].text = mark
        self.bar.hidden = not n
        self.bar.y = self.top + (self.selected - self.first) * d.row_h
        self.bar.pixel_shader[0] = d.EDIT_BG if self.editing else d.SEL_BG
        if n > self.rows:
            track = self.rows * d.row_h
            h = max(4, track * self.rows // n)
            self.thumb.y = self.top + (track - h) * self.first // (n - self.rows)
            self.thumb.hidden = False
            self._thumb_h(h)
        else:
            self.thumb.hidden = True

    def _thumb_h(self, h):
        # TileGrids cannot be resized: swap in a new one only when the height changes
        if self.thumb.bitmap.height != h:
            i = self.group.index(self.thumb)
            y = self.thumb.y
            self.thumb = rect(self.d.width - 2, y, 2, h, self.d.DIM)
            self.group[i] = self.thumb


class Toast:
    """A message box over the bottom of the screen; the app hides it after a while."""

    def __init__(self, d):
        self.d = d
        self.group = displayio.Group()
        self.group.hidden = True
        self.lines = 2
        self.h = self.lines * d.char_h + 2 * d.pad + 4
        y = d.height - self.h
        self.group.append(rect(0, y, d.width, self.h, d.FG))
        self.group.append(rect(1, y + 1, d.width - 2, self.h - 2, d.TITLE_BG if not d.mono else 0))
        self.labels = []
        for i in range(self.lines):
            lab = text(d, "", d.width // 2, y + 2 + d.pad + i * d.char_h + d.char_h // 2,
                       d.TITLE_FG if not d.mono else d.FG, anchor=(0.5, 0.5))
            self.labels.append(lab)
            self.group.append(lab)
        self.until = None

    def show(self, message, until):
        lines = wrap(message, self.d.cols - 1, self.lines)
        for i in range(self.lines):
            self.labels[i].text = lines[i] if i < len(lines) else ""
        self.group.hidden = False
        self.until = until

    def hide(self):
        self.group.hidden = True
        self.until = None

    @property
    def visible(self):
        return not self.group.hidden


class TextBlock:
    """Wrapped lines of text in a box (dialogs, messages, the crash screen)."""

    def __init__(self, d, top, lines, color=None, center=True):
        self.d = d
        self.top = top
        self.n = lines
        self.group = displayio.Group()
        self.labels = []
        x = d.width // 2 if center else d.pad
        anchor = (0.5, 0.5) if center else (0, 0.5)
        for i in range(lines):
            lab = text(d, "", x, top + i * d.char_h + d.char_h // 2, color, anchor=anchor)
            self.labels.append(lab)
            self.group.append(lab)

    def set(self, message):
        lines = wrap(message, self.d.cols, self.n)
        for i in range(self.n):
            s = lines[i] if i < len(lines) else ""
            if self.labels[i].text != s:
                self.labels[i].text = s


class GridView:
    """A cols x rows grid of short texts with a cursor cell (for grid games like Space Lunch).
    Arguments go columns first, as in BoardView and displayio: (col, row) is (x, y)."""

    def __init__(self, d, cols, rows, top=None):
        self.d = d
        self.cols_n = cols
        self.rows_n = rows
        top = d.title_h if top is None else top
        self.cell_w = d.width // cols
        self.cell_h = (d.height - top) // rows
        self.cells = (self.cell_w - 2) // d.char_w  # characters per cell
        self.group = displayio.Group()
        self.cursor = rect(0, top, self.cell_w, self.cell_h, d.SEL_BG)
        self.group.append(self.cursor)
        self.top = top
        self.labels = []
        for r in range(rows):
            for c in range(cols):
                x = c * self.cell_w + self.cell_w // 2
                y = top + r * self.cell_h + self.cell_h // 2
                lab = text(d, "", x, y, anchor=(0.5, 0.5))
                self.labels.append(lab)
                self.group.append(lab)
        self.at = (0, 0)  # (col, row)
        self.values = [""] * (rows * cols)

    def set(self, col, row, value):
        i = row * self.cols_n + col
        self.values[i] = value
        self.labels[i].text = fit(value, self.cells)

    def move_cursor(self, col, row):
        d = self.d
        old = self.at[1] * self.cols_n + self.at[0]
        self.labels[old].color = d.FG
        self.at = (col, row)
        self.cursor.x = col * self.cell_w
        self.cursor.y = self.top + row * self.cell_h
        self.labels[row * self.cols_n + col].color = d.SEL_FG


class BoardView:
    """A board of cells drawn into one bitmap: 0 empty, 1 and 2 the players' pieces, with a
    highlighted column (the River in Let's Do Lunch) and a cursor cell."""

    EMPTY = 0
    A = 1
    B = 2
    _GRID = 3
    _CURSOR = 4
    _HIGHLIGHT = 5

    def __init__(self, d, cols, rows, top=None, left=None):
        self.d = d
        self.cols = cols
        self.rows = rows
        top = d.title_h + 1 if top is None else top
        self.cell = min((d.height - top - 1) // rows, (d.width - 2) // cols)
        w = self.cell * cols + 1
        h = self.cell * rows + 1
        left = (d.width - w) // 2 if left is None else left
        self.bitmap = displayio.Bitmap(w, h, 6)
        pal = displayio.Palette(6)
        pal[0] = d.BG
        pal[1] = d.PLAYERS[0]
        pal[2] = d.PLAYERS[1] if not d.mono else d.FG
        pal[3] = d.DIM
        pal[4] = d.SEL_BG
        pal[5] = 0x103050 if not d.mono else d.BG
        self.palette = pal
        self.group = displayio.Group()
        self.grid = displayio.TileGrid(self.bitmap, pixel_shader=pal, x=left, y=top)
        self.group.append(self.grid)
        self.values = [0] * (cols * rows)
        self.highlight = None
        self.cursor = None
        self._draw_all()

    def _draw_cell(self, c, r):
        s = self.cell
        b = self.bitmap
        x0, y0 = c * s, r * s
        v = self.values[r * self.cols + c]
        back = self._HIGHLIGHT if c == self.highlight else 0
        edge = self._CURSOR if self.cursor == (c, r) else self._GRID
        for y in range(y0, y0 + s + 1):
            for x in range(x0, x0 + s + 1):
                on_edge = x in (x0, x0 + s) or y in (y0, y0 + s)
                b[x, y] = edge if on_edge else back
        if v:
            m = max(1, s // 5)
            hollow = self.d.mono and v == self.B
            for y in range(y0 + m + 1, y0 + s - m):
                for x in range(x0 + m + 1, x0 + s - m):
                    inner = x0 + m + 2 < x < x0 + s - m - 2 and y0 + m + 2 < y < y0 + s - m - 2
                    b[x, y] = 0 if (hollow and inner) else v

    def _draw_all(self):
        for r in range(self.rows):
            for c in range(self.cols):
                self._draw_cell(c, r)

    def set(self, col, row, value):
        self.values[row * self.cols + col] = value
        self._draw_cell(col, row)

    def set_highlight(self, col):
        self.highlight = col
        self._draw_all()

    def set_cursor(self, col, row):
        old = self.cursor
        self.cursor = (col, row)
        # neighbours share edges: repaint the old cell first, the new cursor cell last
        if old is not None:
            self._draw_cell(old[0], old[1])
        self._draw_cell(col, row)
