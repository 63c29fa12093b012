"""The main menu, the games' table, and the resume prompt (Settings: settings_menu.py)."""

from . import __version__
from .core.buttons import BACK
from .screens import ConfirmDialog, ListScreen, MessageScreen

# (game id, menu label, full name, module with open(app, payload) or None until it exists)
GAMES = (
    ("space_lunch", "Space Lunch", "Space Lunch", "companion.space_lunch"),
    ("lets_do_lunch", "Let's Do Lunch", "Let's Do Lunch", "companion.ldl"),
    ("aqua_brunch", "Aqua Brunch", "Aqua Brunch", "companion.aqua_tools"),
    ("space_battle", "Space Battle", "Space Battle Lunchtime", "companion.battle_screens"),
    ("space_days", "Space Days", "Space Days", "companion.days_screens"),
)
# The table scoreboards (docs/scoring.md) save and record under their own ids; a saved one
# opens with its module, named as its game: (id, its game's row, module). "aqua_calc" opens the
# strength calculator from the Aqua Brunch list (it saves as "aqua_brunch").
SCOREBOARDS = (
    ("aqua_score", "aqua_brunch", "companion.aqua_score"),
    ("aqua_calc", "aqua_brunch", "companion.aqua"),
    ("battle_race", "space_battle", "companion.battle_screens"),
    ("days_score", "space_days", "companion.days_screens"),
)


def game_info(game_id):
    for board, game, module in SCOREBOARDS:
        if board == game_id:
            info = game_info(game)
            return (board, info[1], info[2], module)
    for info in GAMES:
        if info[0] == game_id:
            return info
    return None


def _on_device():
    import sys

    return sys.implementation.name != "cpython"


UNLOAD = _on_device()
_loaded = [None, ()]  # the game whose code is in memory, and the modules loaded before it


def _family(game_id):
    """The menu row a game belongs to: a scoreboard opened from its game's list is that game,
    so opening it from the list's own code does not unload the list while it runs."""
    for board, game, _module in SCOREBOARDS:
        if board == game_id:
            return game
    return game_id


def forget_other_games(game_id):
    """Unload every module loaded since another game was opened (its screens and its rules,
    whether its opening or its play imported them): one game's code fits a Pico's heap beside
    the app, all five games' do not (bench/firmware_memory.py). What to drop is what was not
    in memory before that game, so no naming convention is needed; a module the app itself
    loaded meanwhile (the link, the records) is simply imported again when next needed.
    Returns the names dropped. Only on the device (``UNLOAD``): on a PC there is room, and
    the simulator may share its process with other users of shared_rules (pytest), whose
    modules must not be swapped under them."""
    import sys

    if not UNLOAD or _loaded[0] is None or _loaded[0] == _family(game_id):
        return []
    before = set(_loaded[1])
    dropped = sorted([name for name in sys.modules if name not in before])
    for name in dropped:
        unload(sys, name)
    _loaded[0] = None
    _loaded[1] = ()
    return dropped


def _import_game(game_id, module_name):
    """Import a game's screen module, noting what was in memory before the game's first."""
    import sys

    if _loaded[0] != _family(game_id):
        _loaded[0] = _family(game_id)
        _loaded[1] = tuple(sorted(sys.modules))
    return __import__(module_name, None, None, ["open"])


def unload(sys, name):
    del sys.modules[name]
    # the parent package keeps the submodule as an attribute too
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot]) if dot > 0 else None
    if parent is not None and hasattr(parent, name[dot + 1:]):
        delattr(parent, name[dot + 1:])


def open_game(app, game_id, payload=None):
    """Push the game's screen (resuming ``payload`` when given)."""
    forget_other_games(game_id)
    info = game_info(game_id)
    if info is None or info[3] is None:
        label, name = (info[1], info[2]) if info else (game_id, game_id)
        app.push(MessageScreen(app, label, name + " is coming in a later update."))
        return
    if payload is None:
        saved = app.store.load_game()
        if saved is not None and saved[0] == game_id:
            payload = saved[1]  # opening the game from the menu carries on the saved one
    module = _import_game(game_id, info[3])
    if payload is None:
        module.open(app, None)
        _warn_if_memory_is_full(app, game_id)
        return
    try:
        module.open(app, payload)
    except ValueError:
        # a saved game this firmware cannot read: say so and start that game fresh
        app.store.clear_game()
        app.notify("Save unreadable - new game")  # a toast: two short lines at most
        module.open(app, None)


def _warn_if_memory_is_full(app, game_id):
    """Before a new game, say so when its record would push out a game not yet pulled (an
    unpulled record is never dropped without this having been on screen)."""
    from .core.records import warning

    ids = [g[0] for g in GAMES]
    note = warning(app.store, ids.index(game_id) if game_id in ids else -1)
    if note:
        app.push(MessageScreen(app, "Memory", note))


def start(app, resume):
    """The app's first screens: the main menu, and the resume prompt over it."""
    app.push(MainMenu(app))
    if resume:
        resume_prompt(app)


def resume_prompt(app):
    saved = app.store.load_game()
    if saved is None:
        return
    game_id, payload = saved
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

    def items(self):
        return [g[1] for g in GAMES] + ["Settings"]

    def status(self):
        from .core.records import waiting

        n = waiting(self.app.store)
        return "{} to pull".format(n) if n else "v" + __version__

    def activate(self, index):
        if index < len(GAMES):
            open_game(self.app, GAMES[index][0])
        else:
            from .settings_menu import SettingsScreen  # only while Settings is open

            self.app.push(SettingsScreen(self.app))

    def on_button(self, button, kind):
        if button == BACK:
            return  # nowhere to go back to
        super().on_button(button, kind)
