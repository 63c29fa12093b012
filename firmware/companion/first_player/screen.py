"""The main menu's "First player": how many play, then a fair pick among them with the names
spinning and the LEDs sweeping to the seat (pick.py). Loaded only while it is open."""

from ..app.buttons import BACK, LONG, OK
from ..screen.screens import ListScreen
from ..screen.text import fit
from .pick import Spin, release, rng

COUNTS = (2, 3, 4, 5, 6)  # the tables it picks for


class FirstPlayer(ListScreen):
    """The menu's pick: how many play, then the spin over their names (the names in Settings,
    pushed from a host, or P1..Pn). At the end OK spins again; Back goes back a step."""

    title = "First player"

    def __init__(self, app):
        self.n = 0  # 0: the count list is shown; else the players picked among
        self.spin = None
        self.source = rng(app)
        super().__init__(app)

    def items(self):
        if not self.n:
            return ["{} players".format(n) for n in COUNTS]
        return self.app.settings.names[:self.n]

    def marks(self):
        spin = self.spin
        if spin is None or not spin.done:
            return None
        return ["starts" if s == spin.seat else "" for s in range(self.n)]

    def activate(self, index):
        self.start(COUNTS[index])

    def start(self, n):
        self.stop()
        self.n = n
        self.spin = Spin(self.app, n, self.app.hw.clock(), self.source)
        self.title = "First player"
        self.refresh_items()
        self.menu.select(0)

    def stop(self):
        if self.spin is not None:
            self.spin.stop()
            self.spin = None

    def tick(self, now):
        spin = self.spin
        if spin is not None and spin.tick(now):
            if spin.done:
                name = self.app.settings.names[spin.seat]
                self.title = fit(name, 8) + " starts"
                self.refresh_items()
            self.menu.select(spin.at)
            self.changed()

    def on_button(self, button, kind):
        if self.spin is None:
            super().on_button(button, kind)  # the count list: Back to the menu
        elif button == BACK and kind != LONG:
            # during the spin, or after it: back to the count list, nothing picked
            n = self.n
            self.stop()
            self.n = 0
            self.title = "First player"
            self.refresh_items()
            self.menu.select(COUNTS.index(n))
        elif button == OK and kind != LONG and self.spin.done:
            self.start(self.n)  # again

    def exit(self):
        self.stop()
        release()
