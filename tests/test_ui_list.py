"""companion/ui.ListMenu's selection bar: the selected row's own label in the bar's colours,
strips of the bar around it and never over a label (displayio draws each changed layer's area
in turn: a bar over its row drew that row twice at every scroll)."""

from lunchbox.sim import setup_environment

setup_environment("headless")


class _Driver:
    """A stand-in for BusDisplay: the display classes read only these."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.auto_refresh = True
        self.root_group = None
        self.brightness = 1.0

    def refresh(self):
        pass


def _menu(kind, w, h, items, selected=0):
    from companion.screen import display
    from companion.screen.ui import ListMenu

    d = display.make(kind, _Driver(w, h), w, h)
    return d, ListMenu(d, items, selected=selected)


def _boxes(menu):
    """Screen boxes (x0, y0, x1, y1) of the selection bar's strips."""
    bar = menu.bar.group
    return [(s.x, bar.y + s.y, s.x + s.width, bar.y + s.y + s.height) for s in bar]


def test_the_selected_rows_label_wears_the_bar_and_the_strips_frame_it():
    for kind, w, h in (("st7789", 240, 135), ("ssd1306", 128, 64)):
        items = ["Space Lunch", "Let's Do Lunch", "Aqua Brunch", "Space Battle", "Space Days",
                 "Settings"]
        d, menu = _menu(kind, w, h, items)
        for step in (1, 1, 1, 1, -1, 1, 1, -3):
            menu.move(step)
            r = menu.selected - menu.first
            for i, lab in enumerate(menu.labels):
                sel = i == r
                assert lab.text == items[menu.first + i]
                assert lab.color == (d.SEL_FG if sel else d.FG)
                assert lab.background == (d.SEL_BG if sel else None)
            lab = menu.labels[r]
            row_top = menu.top + r * d.row_h
            assert menu.bar.group.y == row_top and not menu.bar.group.hidden
            # the strips cover the row outside the label's cells, and never a cell of it
            x0, y0 = lab.x, lab.y
            x1, y1 = x0 + lab.cells * d.char_w, y0 + d.char_h
            covered = set()
            for bx0, by0, bx1, by1 in _boxes(menu):
                assert bx1 <= x0 or bx0 >= x1 or by1 <= y0 or by0 >= y1, "a strip on the label"
                covered |= {(x, y) for x in range(bx0, bx1) for y in range(by0, by1)}
            covered |= {(x, y) for x in range(x0, x1) for y in range(y0, y1)}
            row = {(x, y) for x in range(w) for y in range(row_top, row_top + d.row_h)}
            assert row <= covered, "a gap in the bar"
        menu.set_editing(True)
        assert menu.labels[menu.selected - menu.first].background == d.EDIT_BG
        assert menu.bar.palette[0] == d.EDIT_BG
        menu.set_items([])
        assert menu.bar.group.hidden


def test_the_rows_mark_labels_are_made_only_when_the_list_has_a_mark():
    for kind, w, h in (("st7789", 240, 135), ("ssd1306", 128, 64)):
        items = ["Space Lunch", "Let's Do Lunch", "Aqua Brunch", "Space Battle", "Space Days",
                 "Settings"]
        d, menu = _menu(kind, w, h, items)
        layers = len(menu.group)
        for step in (1, 1, 1, 1, 1, -5):  # scrolled down and back: still no marks
            menu.move(step)
        menu.set_items(items, [""] * len(items))  # marks that are all blank: none made
        assert menu.marks is None and len(menu.group) == layers
        # a mark on the fifth item: a label for each row, under the scroll bar
        marks = ["", "", "", "", "on", ""]
        menu.set_items(items, marks)
        assert len(menu.marks) == menu.rows and len(menu.group) == layers + menu.rows
        assert menu.group[len(menu.group) - 1] is menu.thumb  # the scroll bar stays on top
        made = list(menu.marks)
        menu.select(4)
        r = 4 - menu.first
        mark = menu.marks[r]
        assert mark.text == "on"
        assert [m.text for m in menu.marks if m.text] == ["on"]
        assert mark.background == d.SEL_BG and mark.color == d.SEL_FG  # in the bar
        assert mark.x + mark.cells * d.char_w <= d.width - d.pad - 4
        menu.select(0)  # the row scrolls on: its label is kept, and says what that item has
        assert menu.marks[r] is mark and mark.text == marks[menu.first + r]
        assert mark.background == d.BG
        menu.set_items(items, marks)  # set again: the same labels, none added
        assert menu.marks == made and len(menu.group) == layers + menu.rows
