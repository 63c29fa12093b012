"""Widgets: small displayio groups that lay themselves out from the display's metrics.

Each widget owns a ``group`` and updates its labels in place; the app refreshes the display once
per handled event. Text is always fitted to the cells available (core.text.fit), so nothing is
ever drawn cut off or off-screen.
"""

import displayio
import terminalio

from .core.text import fit, wrap
from .textlabel import Label


def rect(x, y, w, h, color):
    """A filled rectangle as a one-colour TileGrid."""
    bitmap = displayio.Bitmap(max(1, w), max(1, h), 1)
    palette = displayio.Palette(1)
    palette[0] = color
    return displayio.TileGrid(bitmap, pixel_shader=palette, x=x, y=y)


def text(d, s, x, y, color=None, scale=None, anchor=(0, 0.5)):
    """A label whose anchor point sits at (x, y)."""
    return Label(
        terminalio.FONT,
        text=s,
        color=d.FG if color is None else color,
        scale=d.scale if scale is None else scale,
        anchor_point=anchor,
        anchored_position=(x, y),
    )


class TitleBar:
    """The top bar: a title on the left and an optional short status on the right.

    While the app shows the battery gauge (companion/power.py), ``TitleBar.gauge`` is its group
    and ``TitleBar.top`` the bar of the screen shown: that bar keeps ``reserve`` title cells free
    at its right edge for it, and hides it instead when the title and status would not fit
    beside it (nothing a screen says is cut for the gauge)."""

    # While a game has the turn clock on, ``TitleBar.clock`` is its view (companion/clock.py):
    # the top bar asks it for the cells it and the gauge take at the right (``lay``: nothing
    # the bar says is cut for the clock either).

    reserve = 2
    gauge = None
    top = None
    clock = None

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
        self.laid = 0  # the cells kept for the clock and the gauge now
        self.title = title
        self.right = right
        self.set(title, right)

    def relayout(self):
        """Lay the bar out again (the gauge came, went, or this bar is now the top one)."""
        self.set(self.title, self.right)

    def set(self, title, right=""):
        self.title = title
        self.right = right
        d = self.d
        cols = d.title_cols
        laid = 0
        gauge = TitleBar.gauge
        if TitleBar.clock is not None and self is TitleBar.top:
            laid = TitleBar.clock.lay(self, title, right)
        elif gauge is not None and self is TitleBar.top:
            room = cols - TitleBar.reserve
            fits = len(title) + (len(right) + 1 if right else 0) <= room and (
                len(right) <= room // 2)
            gauge.hidden = not fits
            if fits:
                laid = TitleBar.reserve
        if laid != self.laid:
            self.laid = laid
            x = d.width - d.pad - laid * 6 * d.title_scale  # 6: the font cell
            self._right.anchored_position = (x, self._right.anchored_position[1])
            self._t = self._r = None  # fitted again below
        cols -= laid
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
