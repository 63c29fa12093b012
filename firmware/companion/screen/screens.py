"""The screen framework: a screen is a small object with a displayio group and four hooks.

The app keeps a stack of screens and shows the top one. ``enter()`` runs each time a screen
becomes the top (pushed, or uncovered by a pop), ``exit()`` when it is popped, ``on_button``
for each logical button event, ``tick(now)`` on every pass of the main loop. A screen that
changes what it shows calls ``self.changed()``; the app refreshes the display once per handled
event.
"""

import displayio

from ..app.buttons import BACK, LONG, NEXT, OK, PREV
from .text import fit
from .ui import ListMenu, TextBlock, TitleBar, text


class Screen:
    title = ""

    def __init__(self, app):
        self.app = app
        self.d = app.d
        self.group = displayio.Group()

    def enter(self):
        pass

    def exit(self):
        pass

    def on_button(self, button, kind):
        if button == BACK and kind != LONG:
            self.app.pop()

    def tick(self, now):
        pass

    def changed(self):
        self.app.dirty = True


class ListScreen(Screen):
    """A title bar over a scrolling list. Subclasses give ``items()`` (and optionally
    ``marks()``) and ``activate(index)``."""

    # True: while covered, the screen lets its title bar and list go and builds them again
    # when it is the top once more (where it was in the list kept): the main menu and the
    # Settings lists under the screens they open hold ~2 KB less each (docs/firmware.md,
    # "What the heap holds"). Only for screens whose code never reaches their list while
    # covered: ``refresh_items`` waits for the top, anything else must not touch ``menu``.
    shed = False

    def __init__(self, app, title=None, selected=0):
        super().__init__(app)
        if title is not None:
            self.title = title
        self._build(selected, 0)

    def _build(self, selected, first):
        self.bar = TitleBar(self.d, self.title, self.status())
        self.menu = ListMenu(self.d, self.items(), selected=selected)
        self.menu.first = first
        self.menu.set_items(self.items(), self.marks())
        self.group.append(self.bar.group)
        self.group.append(self.menu.group)

    def cover(self):
        menu = self.menu
        if self.shed and menu is not None:
            self._kept = (menu.selected, menu.first)
            self.group.remove(self.bar.group)  # what _build added, and only that
            self.group.remove(menu.group)
            self.bar = self.menu = None

    def items(self):
        return []

    def marks(self):
        return None

    def status(self):
        return ""

    def refresh_items(self):
        if self.menu is None:
            return  # covered and shed: built afresh, from the items then, at its enter
        self.menu.set_items(self.items(), self.marks())
        self.bar.set(self.title, self.status())
        self.changed()

    def enter(self):
        if self.menu is None:
            self._build(*self._kept)
            self.changed()
        else:
            self.refresh_items()

    def activate(self, index):
        pass

    def on_button(self, button, kind):
        if button == PREV:
            self.menu.move(-1, kind == 0)
            self.changed()
        elif button == NEXT:
            self.menu.move(1, kind == 0)
            self.changed()
        elif button == OK and kind != LONG:
            if self.menu.items:
                self.activate(self.menu.selected)
        else:
            super().on_button(button, kind)


class ItemPicker(ListScreen):
    """Pick one of ``options``; ``on_done(index)`` runs after the picker closes."""

    def __init__(self, app, title, options, selected, on_done):
        self.options = list(options)
        self.current = selected
        self.on_done = on_done
        super().__init__(app, title, selected)

    def items(self):
        return self.options

    def marks(self):
        return ["*" if i == self.current else "" for i in range(len(self.options))]

    def activate(self, index):
        self.on_done(index)  # first, so the screen below shows the new value when uncovered
        self.app.pop()


class ConfirmDialog(Screen):
    """A question with two choices; ``on_yes()`` / ``on_no()`` run after it closes.

    Back answers no, unless ``on_back`` is given (then Back runs that instead)."""

    def __init__(self, app, title, question, on_yes, on_no=None, yes="Yes", no="No",
                 on_back=None):
        super().__init__(app)
        d = self.d
        self.on_yes = on_yes
        self.on_no = on_no
        self.on_back = on_back
        self.bar = TitleBar(d, title)
        body = max(1, d.rows - 2)
        self.text = TextBlock(d, d.title_h, body)
        self.text.set(question)
        self.menu = ListMenu(d, [yes, no], top=d.title_h + body * d.row_h, rows=2)
        for part in (self.bar, self.text, self.menu):
            self.group.append(part.group)

    def on_button(self, button, kind):
        if button in (PREV, NEXT):
            self.menu.move(1)
            self.changed()
        elif button == OK and kind != LONG:
            self._close(self.menu.selected == 0)
        elif button == BACK and kind != LONG:
            self.app.pop(self.on_back if self.on_back is not None else self.on_no)

    def _close(self, yes):
        # the answer runs once the dialog has gone, before the screen below is shown: an
        # answer that opens a screen or goes home shows that screen only
        self.app.pop(self.on_yes if yes else self.on_no)


class MessageScreen(Screen):
    """A title and a wrapped message; OK or Back closes it."""

    def __init__(self, app, title, message):
        super().__init__(app)
        d = self.d
        self.bar = TitleBar(d, title)
        lines = (d.height - d.title_h - d.pad) // d.char_h
        self.text = TextBlock(d, d.title_h + d.pad, lines)
        self.text.set(message)
        self.group.append(self.bar.group)
        self.group.append(self.text.group)

    def on_button(self, button, kind):
        if (button == OK or button == BACK) and kind != LONG:
            self.app.pop()


class NumberPicker(Screen):
    """Choose a number in lo..hi by step. ``on_change(v)`` runs live (a preview),
    ``on_done(v)`` on OK; Back restores the first value through ``on_change``."""

    def __init__(self, app, title, value, lo, hi, step, on_done, on_change=None, unit=""):
        super().__init__(app)
        d = self.d
        self.value = self.start = value
        self.lo, self.hi, self.step = lo, hi, step
        self.on_done, self.on_change, self.unit = on_done, on_change, unit
        self.bar = TitleBar(d, title)
        big = d.scale * 2
        mid = d.title_h + (d.height - d.title_h - d.char_h) // 2
        self.label = text(d, "", d.width // 2, mid, d.ACCENT, big, (0.5, 0.5))
        self.hint = text(d, fit("OK set  Back cancel", d.cols), d.width // 2,
                         d.height - d.char_h // 2 - 1, d.DIM, anchor=(0.5, 0.5))
        self.group.append(self.bar.group)
        self.group.append(self.label)
        self.group.append(self.hint)
        self._show()

    def _show(self):
        s = "{}{}".format(self.value, self.unit)
        left = "<" if self.value > self.lo else " "
        right = ">" if self.value < self.hi else " "
        self.label.text = "{} {} {}".format(left, s, right)
        self.changed()

    def set_value(self, v):
        v = min(max(v, self.lo), self.hi)
        if v != self.value:
            self.value = v
            self._show()
            if self.on_change is not None:
                self.on_change(v)

    def on_button(self, button, kind):
        if button == PREV:
            self.set_value(self.value - self.step)
        elif button == NEXT:
            self.set_value(self.value + self.step)
        elif button == OK and kind != LONG:
            self.on_done(self.value)
            self.app.pop()
        elif button == BACK and kind != LONG:
            if self.on_change is not None and self.value != self.start:
                self.on_change(self.start)
            self.app.pop()
