"""Each game in a fresh VM, as Adafruit's Fruit Jam OS starts its apps: on the board the menu
hands over to a game by a soft reload (``hw.relaunch``), so the game has the whole heap and
nothing of the menu or of the last game stays behind; leaving the game reloads into the menu.
Where ``hw.relaunch`` is None (tests that build an App by hand) a game opens over the menu in
the same VM. Why and what it costs: docs/firmware.md, "One game a VM"."""

from .hwbase import MENU
from .screens import Screen


class Door(Screen):
    """The bottom of a game VM's stack, under the game: shown again only when the game is
    left, and then it goes back to the menu."""

    def __init__(self, app):
        super().__init__(app)
        self.shown = 0

    def enter(self):
        self.shown += 1

    def tick(self, now):
        # still on top once the event is done: the game was left (a screen that pops and
        # pushes the next one, as a setup list does, shows the door only for a moment)
        # (and nothing queued to be built over it: app.later)
        if self.shown > 1 and self.app._later is None:
            self.app.hw.relaunch(MENU + self.app.hw.launched)


def start_game(app, resume):
    """The first screens of a game VM: the door, then the game (its saved game carried on,
    or its new-game screen)."""
    from .loader import open_game

    door = Door(app)
    app.push(door)
    open_game(app, app.hw.launched)
    if app.top is door:  # nothing opened (a game this firmware lacks): back to the menu
        app.hw.relaunch(MENU + app.hw.launched)

