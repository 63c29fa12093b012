"""Widgets: small displayio groups that lay themselves out from the display's metrics.

Each widget owns a ``group`` and updates its labels in place; the app refreshes the display once
per handled event. Text is always fitted to the cells available (screen.text.fit), so nothing is
ever drawn cut off or off-screen.
"""

import displayio
import terminalio
import vectorio

from .text import fit, wrap
from .textlabel import Label

try:  # names for the type comments, for mypy only (tests/test_api_check.py)
    from typing import TYPE_CHECKING
except ImportError:  # CircuitPython has no typing module
    TYPE_CHECKING = False  # type: ignore[misc]
if TYPE_CHECKING:  # used in type comments
    from typing import Any, Optional  # noqa: F401


def rect(x, y, w, h, color, palette=None):
    """A filled rectangle: a vectorio shape, which displayio draws at about half a TileGrid's
    cost a pixel (no tile arithmetic: 2.4 against 5.2 us a pixel on the board; docs/firmware.md,
    "Screens and redraws") and which holds no bitmap. ``palette``: one to share (its colour 0)."""
    if palette is None:
        palette = displayio.Palette(1)
        palette[0] = color
    return vectorio.Rectangle(pixel_shader=palette, width=max(1, w), height=max(1, h), x=x, y=y)


def show(layer, shown):
    """Show or hide a TileGrid (or a Group) only if that changes: a TileGrid told
    ``hidden = False`` while shown is drawn whole again at the next refresh
    (shared-module/displayio/TileGrid.c), where a Group ignores it."""
    if layer.hidden == bool(shown):
        layer.hidden = not shown


def text(d, s, x, y, color=None, scale=None, anchor=(0, 0.5), bg=None):
    """A label whose anchor point sits at (x, y); ``bg``: its cells opaque in that colour
    (for a label on a box of that colour: displayio then draws each of its pixels once)."""
    return Label(
        terminalio.FONT,
        text=s,
        color=d.FG if color is None else color,
        scale=d.scale if scale is None else scale,
        anchor_point=anchor,
        anchored_position=(x, y),
        background=bg,
    )


class TitleBar:
    """The top bar: a title on the left and an optional short status on the right.

    While the app shows the battery gauge (power/battery.py), ``TitleBar.gauge`` is its group
    and ``TitleBar.top`` the bar of the screen shown: that bar keeps ``reserve`` title cells free
    at its right edge for it, and hides it instead when the title and status would not fit
    beside it (nothing a screen says is cut for the gauge)."""

    # While a game has the turn clock on, ``TitleBar.clock`` is its view (turn_clock/view.py):
    # the top bar asks it for the cells it and the gauge take at the right (``lay``: nothing
    # the bar says is cut for the clock either).

    reserve = 2
    gauge = None  # type: Optional[displayio.Group]
    top = None  # type: Optional[TitleBar]
    clock = None  # type: Any

    def __init__(self, d, title, right=""):
        self.d = d
        self.group = displayio.Group()
        # mono: a one-pixel gap keeps the bar apart from a selected first row
        self.group.append(rect(0, 0, d.width, d.title_h - (1 if d.mono else 0), d.TITLE_BG))
        mid = d.title_h // 2
        # opaque on the bar: a changed title redraws its cells alone, not the bar under them
        bg = d.TITLE_BG
        self._title = text(d, "", d.pad, mid, d.TITLE_FG, d.title_scale, bg=bg)
        self._right = text(d, "", d.width - d.pad, mid, d.TITLE_FG, d.title_scale, (1, 0.5), bg)
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
        # a title may be phrasings, longest first (screen.text.fit): the clock and the gauge
        # make room for the shortest, the title then says what fits beside them
        least = title[-1] if isinstance(title, tuple) else title
        if TitleBar.clock is not None and self is TitleBar.top:
            laid = TitleBar.clock.lay(self, least, right)
        elif gauge is not None and self is TitleBar.top:
            room = cols - TitleBar.reserve
            fits = len(least) + (len(right) + 1 if right else 0) <= room and (
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
        self.labels = []
        self.bar = SelectionBar(d, self.top)
        self.group.append(self.bar.group)
        for r in range(self.rows):
            y = self.top + r * d.row_h + d.row_h // 2
            lab = text(d, "", d.pad, y)
            self.labels.append(lab)
            self.group.append(lab)
        # the rows' mark labels are made when the list first has a mark: most lists (the main
        # menu, a dialog's answers) never have one, and a label is ~0.4 KB of the heap
        self.marks = None
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
        if self.marks is None and any(self.item_marks):
            self._make_marks()
        self._render()

    def _make_marks(self):
        # from set_items, not from _render, and without text()'s frame: a list first shown
        # deep in a game's opening is near the end of CircuitPython's small Python stack
        # (CIRCUITPY_PYSTACK_SIZE; tests/test_pystack_app.py)
        d = self.d
        self.marks = []
        for r in range(self.rows):
            mark = Label(terminalio.FONT, color=d.FG, scale=d.scale, anchor_point=(1, 0.5),
                         background=d.BG, anchored_position=(
                             d.width - d.pad - 4, self.top + r * d.row_h + d.row_h // 2))
            self.marks.append(mark)
            self.group.insert(len(self.group) - 1, mark)  # under the scroll bar, as the rows

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
        bar_bg = d.EDIT_BG if self.editing else d.SEL_BG
        for r in range(self.rows):
            i = self.first + r
            sel = i == self.selected and i < n
            if i < n:
                mark = fit(self.item_marks[i], cols * 2 // 3)
                room = cols - (len(mark) + 1 if mark else 0)
                s = fit(self.items[i], room)
            else:
                s, mark = "", ""
            lab = self.labels[r]
            if lab.text != s:
                lab.text = s
            # the selected row's own label in the bar's colours (only colours that change
            # are set: a palette changed redraws the label)
            paint(lab, d.SEL_FG if sel else d.FG, bar_bg if sel else None)
            if self.marks is not None:
                m = self.marks[r]
                paint(m, d.SEL_FG if sel else d.FG, bar_bg if sel else d.BG)
                if m.text != mark:
                    m.text = mark
            if sel:
                self.bar.place(self.top + r * d.row_h, d.pad + lab.cells * d.char_w, bar_bg)
        show(self.bar.group, n)
        if n > self.rows:
            track = self.rows * d.row_h
            h = max(4, track * self.rows // n)
            self.thumb.y = self.top + (track - h) * self.first // (n - self.rows)
            show(self.thumb, True)
            if self.thumb.height != h:  # a shape's size is set in place
                self.thumb.height = h
        else:
            show(self.thumb, False)


def paint(label, fg, bg):
    """A label's colours (``bg`` None: its cells transparent), set only where they change."""
    if label.color != fg:
        label.color = fg
    if label.background != bg:
        label.background = bg


class SelectionBar:
    """A list's selection bar: strips of the bar's colour around the selected row's label,
    which ListMenu turns to the bar's colours (left, right, and above and below where the row
    is taller than the text). Nothing of the bar lies over a label: displayio draws each
    changed layer's area in turn, so a bar laid over its row drew that row twice whenever
    its text changed (a scroll); now a move recolours two labels and moves the strips, and
    a scroll writes each row's changed cells once."""

    def __init__(self, d, top):
        self.d = d
        self.group = displayio.Group(y=top)
        self.palette = displayio.Palette(1)
        self.palette[0] = d.SEL_BG
        w = d.width
        above = d.row_h // 2 - d.char_h // 2  # the labels' place (Label: anchor (0, 0.5))
        for x, y, pw, ph in ((0, 0, w, above), (0, above + d.char_h, w, d.row_h - d.char_h - above),
                             (0, above, d.pad, d.char_h)):
            if pw > 0 and ph > 0:
                self.group.append(rect(x, y, pw, ph, 0, self.palette))
        # right of the label's cells to the edge (moved as the label's width changes)
        self.right = rect(w - 1, above, 1, d.char_h, 0, self.palette)
        self.group.append(self.right)

    def place(self, y, x, color):
        """The bar at row top ``y``, its label's cells ending at ``x``, in ``color``."""
        self.palette[0] = color
        if self.group.y != y:
            self.group.y = y
        x = min(x, self.d.width - 1)  # at least a pixel wide (compared as it is stored)
        w = self.d.width - x
        if self.right.x != x or self.right.width != w:
            self.right.x = x
            self.right.width = w


class Toast:
    """A message box over the bottom of the screen; the app hides it after a while.

    Hidden, its parts are out of its group: a group redraws the area its parts took, once,
    when they are taken out (shared-module/displayio/Group.c), where hidden parts would each
    redraw their own (the labels' areas over the box's again)."""

    def __init__(self, d):
        self.d = d
        self.group = displayio.Group()
        self.parts = []
        self.lines = 2
        y = d.height - (self.lines * d.char_h + 2 * d.pad + 4)
        # a list row whose text the box's top edge would cut is taken whole (the OLED's rows;
        # its frame on the row's first pixel row, which the row above does not reach)
        t = d.title_h + (y - d.title_h) // d.row_h * d.row_h + (d.row_h - d.char_h) // 2
        if t < y < t + d.char_h:
            y = t
        self.y = y
        self.h = d.height - y
        self.cut = []  # the screen's labels hidden while the toast is up (cover())
        # the box and its one-pixel frame: one TileGrid over a small sheet of 3x3 tiles (the
        # sheet framed: corners, edges, inside), laid out over the box; drawn once when the
        # toast shows or hides (two full-size rectangles were two bitmaps, each drawn in turn)
        w, h = d.width, self.h
        tw = 32  # tiles of a word a row at most, as rect's
        while w % tw:
            tw -= 1
        th = 4
        while h % th:
            th += 1
        cols, rows = w // tw, h // th
        sheet = displayio.Bitmap(3 * tw, 3 * th, 2)
        for i in range(3 * tw):
            sheet[i, 0] = sheet[i, 3 * th - 1] = 1
        for i in range(3 * th):
            sheet[0, i] = sheet[3 * tw - 1, i] = 1
        palette = displayio.Palette(2)
        palette[0] = d.TITLE_BG if not d.mono else 0
        palette[1] = d.FG
        box = displayio.TileGrid(sheet, pixel_shader=palette, x=0, y=y, width=cols,
                                 height=rows, tile_width=tw, tile_height=th, default_tile=4)
        for i in range(cols):
            c = 0 if i == 0 else 2 if i == cols - 1 else 1
            box[i, 0] = c
            box[i, rows - 1] = 6 + c
        for j in range(1, rows - 1):
            box[0, j] = 3
            box[cols - 1, j] = 5
        self.parts.append(box)
        self.labels = []
        top = y + (h - self.lines * d.char_h) // 2
        for i in range(self.lines):
            lab = text(d, "", d.width // 2, top + i * d.char_h + d.char_h // 2,
                       d.TITLE_FG if not d.mono else d.FG, anchor=(0.5, 0.5))
            self.labels.append(lab)
            self.parts.append(lab)
        self.until = None

    def show(self, message, until):
        lines = wrap(message, self.d.cols - 1, self.lines)
        for i in range(self.lines):
            self.labels[i].text = lines[i] if i < len(lines) else ""
        if not len(self.group):
            for part in self.parts:
                self.group.append(part)
        self.until = until

    def cover(self):
        """Hide each line of text on the screen that the box's top edge would cut in two (a
        game's board, a panel of several lines): a line half shown under a toast does not
        read; the lines above it stay. Called by the app before a refresh while the toast is
        up (the screen may change under it); hide() shows them again. No recursion: a toast
        comes deep in a press."""
        top = self.y
        todo = []
        root = self.d.root
        for i in range(len(root)):
            if root[i] is not self.group:
                todo.append((root[i], 0, 0, 1))
        while todo:
            node, x, y, s = todo.pop()
            if node.hidden:
                continue
            x += node.x * s
            y += node.y * s
            if isinstance(node, Label):
                s *= node.scale
                for row in node:  # a TileGrid a line (textlabel.Label)
                    y0 = y + row.y * s
                    # a text label's children are its rows' TileGrids (textlabel.Label)
                    if not row.hidden and y0 < top < (
                            y0 + row.tile_height * s):  # type: ignore[union-attr]
                        row.hidden = True
                        self.cut.append(row)
            elif isinstance(node, displayio.Group):
                s *= node.scale
                for child in node:
                    todo.append((child, x, y, s))

    def hide(self):
        group = self.group
        while len(group):
            group.pop()
        cut = self.cut
        while cut:
            cut.pop().hidden = False
        self.until = None

    @property
    def visible(self):
        return len(self.group) > 0


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
