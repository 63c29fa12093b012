"""The main menu and the resume prompt: the games it lists come from their descriptors
(core/catalog.py), opening one is loader.py's, "First player" is first_player.py's, Settings
is settings_menu.py (each loaded only while open)."""

from . import __version__
from .core.buttons import BACK
from .loader import game_info, open_game
from .screens import ConfirmDialog, ListScreen


def start(app, resume):
    """The app's first screens: the main menu, and the resume prompt over it."""
    from .launch import menu_row

    app.push(MainMenu(app, selected=menu_row(app.hw)))
    if resume:
        resume_prompt(app)


def resume_prompt(app):
    saved = app.store.load_game()
    if saved is None:
        return
    game_id, payload = saved
    if app.kept(payload):
        # a game over whose record is kept: the power went while its result was on screen,
        # and that screen comes back (leaving it forgets the save)
        open_game(app, game_id, payload)
        return
    info = game_info(game_id)
    name = info[2] if info else game_id

    def yes():
        open_game(app, game_id, payload)

    def no():
        app.store.clear_game()
        app.notify("Saved game discarded")

    def later():
        pass  # Back keeps the saved game: it is offered again from the menu and at restart

    app.push(ConfirmDialog(app, "Resume game?", name, yes, no, "Resume", "Discard", later))


class MainMenu(ListScreen):
    title = "Lunchbox"

    def __init__(self, app, selected=0):
        from .core.catalog import menu_games

        self.games = menu_games()  # (id, label): the descriptors read once, at the menu
        super().__init__(app, selected=selected)

    def items(self):
        return [g[1] for g in self.games] + ["First player", "Settings"]

    def status(self):
        from .core.records import waiting

        n = waiting(self.app.store)
        return "{} to pull".format(n) if n else "v" + __version__

    def activate(self, index):
        if index < len(self.games):
            open_game(self.app, self.games[index][0])
        elif index == len(self.games):
            from .first_player import FirstPlayer  # it drops itself when it closes

            self.app.push(FirstPlayer(self.app))
        else:
            from .settings_menu import SettingsScreen  # only while Settings is open

            self.app.push(SettingsScreen(self.app))

    def on_button(self, button, kind):
        if button == BACK:
            return  # nowhere to go back to
        super().on_button(button, kind)
