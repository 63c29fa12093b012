"""A counter per row (the serve check, the pass advisor, best serve) and read-only lines (their
answers), for the table scoreboards' tools (docs/scoring.md)."""

from ..app.buttons import UNDO
from .screens import ListScreen


class LinesScreen(ListScreen):
    """Read-only lines (a round's result, the scores); OK or Back closes it."""

    def __init__(self, app, title, lines, marks=None, status=""):
        self.lines = lines
        self.line_marks = marks
        self.stat = status
        super().__init__(app, title)

    def items(self):
        return self.lines

    def marks(self):
        return self.line_marks

    def status(self):
        return self.stat

    def activate(self, index):
        self.app.pop()


class Counter(ListScreen):
    """Counts per row: OK on a row adds one (after ``top`` it goes back to 0), undo (a long Back
    or the fifth button) takes one off the row under the cursor; "Done" (the first row, one
    step back from the first count) hands the counts to ``then(counts)``.
    ``live(counts)`` -> the title bar's right-hand text."""

    def __init__(self, app, title, labels, counts, top, then, live=None, start=0):
        self.labels = labels
        self.counts = list(counts)
        self.top = top
        self.then = then
        self.live = live
        super().__init__(app, title, start + 1)

    def items(self):
        return ["Done"] + list(self.labels)

    def marks(self):
        return [""] + [str(c) if c else "-" for c in self.counts]

    def status(self):
        return self.live(self.counts) if self.live is not None else ""

    def activate(self, index):
        if index == 0:
            self.app.pop()
            self.then(self.counts)
            return
        i = index - 1
        self.counts[i] = 0 if self.counts[i] >= self.top else self.counts[i] + 1
        self.refresh_items()

    def on_button(self, button, kind):
        if button == UNDO:
            i = self.menu.selected - 1
            if i >= 0 and self.counts[i]:
                self.counts[i] -= 1
                self.refresh_items()
            else:
                self.app.notify("Undo takes one off the row")
            return
        super().on_button(button, kind)


def tenths(num, den):
    """num/den as a string with one decimal, rounded half up (no floats on the device)."""
    neg = (num < 0) != (den < 0)
    num, den = abs(num), abs(den)
    t = (num * 10 * 2 + den) // (2 * den)
    return "{}{}.{}".format("-" if neg and t else "", t // 10, t % 10)
