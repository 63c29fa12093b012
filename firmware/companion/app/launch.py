"""Each game in a fresh VM, as Adafruit's Fruit Jam OS starts its apps: on the board the menu
hands over to a game by a soft reload (``hw.relaunch``), so the game has the whole heap and
nothing of the menu or of the last game stays behind; leaving the game reloads into the menu.
Where ``hw.relaunch`` is None (tests that build an App by hand) a game opens over the menu in
the same VM. Why and what it costs: docs/firmware.md, "One game a VM"."""

from ..board.hwbase import MENU
from ..screen.screens import Screen


class Door(Screen):
    """The bottom of a game VM's stack, under the game: shown again only when the game is
    left, and then it goes back to the menu."""

    def tick(self, now):
        # ticked only on top, once the pass's events are done: the game was left, or it
        # never opened (a game this firmware lacks). Not while a screen is queued to be
        # built over it (app.later): a game that opens once its press is handled (Space
        # Lunch's new deal, New game at an end) is still on its way.
        if self.app._later is None:
            self.app.hw.relaunch(MENU + self.app.hw.launched)


def start_game(app, resume):
    """The first screens of a game VM: the door, then the game (its saved game carried on,
    or its new-game screen)."""
    from .loader import open_game

    app.push(Door(app))
    open_game(app, app.hw.launched)  # nothing opened: the door's first tick goes back

