"""The main menu and the resume prompt: the games it lists come from their descriptors
(app/catalog.py), opening one is loader.py's, "First player" is first_player/'s, Settings
is settings/menu.py (each loaded only while open). On the board the menu's VM only shows the
menu: opening a game reloads into the game's own VM (launch.py), so the menu loads neither
the loader nor keeps the catalog once it has read its rows (docs/firmware.md)."""

from .. import __version__
from ..board.hwbase import MENU
from ..screen.screens import ConfirmDialog, ListScreen
from .buttons import BACK


def start(app, resume):
    """The app's first screens: the main menu, and the resume prompt over it. Both read the
    games' descriptors; then the catalog and the registry go (on the board, ~2.4 KB of heap;
    opening a game imports them again)."""
    from .unload import forget

    app.push(MainMenu(app))
    if resume:
        resume_prompt(app)
    forget("companion.app.catalog", "shared_rules.registry")


def resume_prompt(app):
    saved = app.store.load_game()
    if saved is None:
        return
    game_id, payload = saved
    if app.store.kept(payload):
        # a game over whose record is kept: the power went while its result was on screen,
        # and that screen comes back (leaving it forgets the save)
        from .loader import open_game

        open_game(app, game_id, payload)
        return
    from .catalog import about

    row = about(game_id)
    name = row["name"] if row else game_id

    def yes():
        from .loader import open_game  # (on the board: into the game's own VM)

        open_game(app, game_id, payload)

    def no():
        app.store.clear_game()
        app.notify("Saved game discarded")

    def later():
        pass  # Back keeps the saved game: it is offered again from the menu and at restart

    app.push(ConfirmDialog(app, "Resume game?", name, yes, no, "Resume", "Discard", later))


class MainMenu(ListScreen):
    title = "Lunchbox"
    shed = True  # under Settings, First player and the resume prompt (screens.ListScreen)

    def __init__(self, app):
        from .catalog import family, menu_games

        self.games = menu_games()  # (id, label): the descriptors read once, at the menu
        selected = 0
        left = app.hw.launched
        if left and left[0] == MENU:  # back from a game: the cursor on its row
            game_id = family(left[1:])
            for i in range(len(self.games)):
                if self.games[i][0] == game_id:
                    selected = i
        super().__init__(app, selected=selected)

    def items(self):
        return [g[1] for g in self.games] + ["First player", "Settings"]

    def status(self):
        n = self.app.store.waiting()
        return "{} to pull".format(n) if n else "v" + __version__

    def activate(self, index):
        if index < len(self.games):
            from .loader import open_game

            open_game(self.app, self.games[index][0])
        elif index == len(self.games):
            from ..first_player.screen import FirstPlayer  # it drops itself when it closes

            self.app.push(FirstPlayer(self.app))
        else:
            from ..settings.menu import SettingsScreen  # only while Settings is open

            self.app.push(SettingsScreen(self.app))

    def on_button(self, button, kind):
        if button == BACK:
            return  # nowhere to go back to
        super().on_button(button, kind)
