"""Space Lunch, two players: "Who starts?" (the one who ate at a restaurant most recently),
named, or picked at random with the race's own pick (first_player.pick.TablePick), itself loaded
only once "Pick at random" is chosen. This module is loaded only while the list is open
(entry.who_starts) and let go before the game's screen is built: a Pico builds that screen
next, with little to spare."""

from companion.app.buttons import BACK, LONG
from companion.screen.screens import ListScreen


class FirstPlayer(ListScreen):
    """``begin(seat)`` starts the game with that player first."""

    title = "Who starts?"

    def __init__(self, app, begin):
        self.begin = begin
        self.pick = None
        self.rows = []
        # on the first player, as before the random row came: naming one is one press
        super().__init__(app, selected=1)

    def items(self):
        names = self.app.settings.names[:2]
        if self.pick is None:  # TablePick's own first rows, until it is loaded
            self.rows = [("Pick at random", "", self._random)] + [
                (names[s], "", self._named(s)) for s in range(2)]
        else:
            self.title, _status, self.rows, _start = self.pick.view(names)
        return [r[0] for r in self.rows]

    def marks(self):
        return [r[1] for r in self.rows]

    def show(self):
        self.refresh_items()  # the pick's rows changed (its spin started or stopped)

    def activate(self, index):
        what = self.rows[index][2]
        if what is not None:
            what()

    def _random(self):
        from companion.first_player.pick import TablePick

        self.pick = TablePick(self, self._begin)
        self.pick.view(self.app.settings.names[:2])  # the count it picks among
        self.pick.random()

    def _unpick(self):
        from companion.first_player.pick import release

        self.pick.stop()
        self.pick = None
        release()
        self.refresh_items()
        self.menu.select(0)

    def _named(self, seat):
        return lambda: self._begin(seat)

    def _begin(self, seat):
        self.pick = None
        self.rows = []
        while len(self.group):
            # its widgets go now, whatever may still point at this screen while the game's
            # screen is built (the heap is tightest then)
            self.group.pop()
        self.bar = self.menu = None
        self.begin(seat)

    def tick(self, now):
        if self.pick is not None:
            self.pick.tick(now)

    def on_button(self, button, kind):
        pick = self.pick
        if pick is not None and button == BACK and kind != LONG:
            self._unpick()  # during the spin or after it: the list as it opened
        elif pick is None or not pick.button(button, kind):
            super().on_button(button, kind)

    def exit(self):
        if self.pick is not None:  # left during a pick: LEDs off, the module let go
            from companion.first_player.pick import release

            self.pick.stop()
            release()
