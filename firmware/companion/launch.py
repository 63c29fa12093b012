"""Each game in a fresh VM, as Adafruit's Fruit Jam OS starts its apps: on the board the menu
hands over to a game by a soft reload (``hw.relaunch``), so the game has the whole heap and
nothing of the menu or of the last game stays behind; leaving the game reloads into the menu.
Where ``hw.relaunch`` is None (tests that build an App by hand) a game opens over the menu in
the same VM. Why and what it costs: docs/firmware.md, "One game a VM"."""

from .screens import Screen

# the relaunch target of the menu is MENU + the game just left: the menu comes back with its
# cursor on that game, and no "Resume game?" prompt (the player just left it)
MENU = "@"


class Relaunch(BaseException):
    """Raised by a host's ``hw.relaunch`` (the simulator): main.run starts a new App for
    ``target``, as the board's reload starts a new VM. A BaseException, so no screen's
    ``except Exception`` can swallow it."""

    def __init__(self, target):
        super().__init__(target)
        self.target = target


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
        if self.shown > 1:
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


def menu_row(hw):
    """The menu row to start on: the game a player has just left, else the first."""
    launched = hw.launched
    if not launched or launched[0] != MENU:
        return 0
    from .core.catalog import family, menu_games

    game_id = family(launched[1:])
    for i, game in enumerate(menu_games()):
        if game[0] == game_id:
            return i
    return 0
