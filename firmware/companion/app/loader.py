"""Opening a game: its screens' module found by its descriptor (app/catalog.py), in a VM of
its own on the board (launch.py), and the modules of the game before it let go when they
share a VM (a PC, tests). The one place that loads and unloads game code."""

from ..screen.screens import MessageScreen
from . import unload as modules


def game_info(game_id):
    """``(id, menu label, name, screens module, family)`` of a game or scoreboard (family: the
    menu row it belongs to, as ``family``); None for an id no descriptor has. One read of its
    descriptor (a scoreboard's label: its parent's too): on the board each is an about.json
    read from flash and parsed, so an opening reads it here once and passes the family on."""
    from .catalog import about

    row = about(game_id)
    if row is None:
        return None
    parent = row.get("parent")
    label = row.get("label")
    if label is None and parent:
        label = about(parent).get("label")
    return (game_id, label or row["name"], row["name"], row.get("screens"), parent or game_id)


def family(game_id):
    """The menu row a game belongs to: a scoreboard opened from its game's list is that game,
    so opening it from the list's own code does not unload the list while it runs."""
    from .catalog import family as of

    return of(game_id)


_loaded = [None, ()]  # the game whose code is in memory, and the modules loaded before it


def forget_other_games(game_id, family_id=None):
    """Unload every module loaded since another game was opened (its screens and its rules,
    whether its opening or its play imported them): one game's code fits a Pico's heap beside
    the app, all five games' do not (bench/firmware_memory.py). What to drop is what was not
    in memory before that game, so no naming convention is needed; a module the app itself
    loaded meanwhile (the link, the records) is simply imported again when next needed.
    Returns the names dropped. Only on the device (unload.UNLOAD). ``family_id``: the
    game's family, when the caller has it."""
    import sys

    if not modules.UNLOAD or _loaded[0] is None:
        return []
    if _loaded[0] == (family_id or family(game_id)):
        return []
    before = set(_loaded[1])
    dropped = sorted([name for name in sys.modules if name not in before])
    for name in dropped:
        modules.unload(name)
    _loaded[0] = None
    _loaded[1] = ()
    return dropped


def _import_game(family_id, module_name):
    """Import a game's screen module, noting what was in memory before its family's first."""
    import sys

    if _loaded[0] != family_id:
        _loaded[0] = family_id
        _loaded[1] = tuple(sorted(sys.modules))
    return __import__(module_name, None, None, ["open"])


def _elsewhere(hw, family_id):
    """True when opening a game of ``family_id`` needs another VM: there is a relaunch, and
    this VM was not started for that game."""
    if hw.relaunch is None:
        return False
    launched = hw.launched
    if not launched:
        return True
    return launched != family_id and family(launched) != family_id


def open_game(app, game_id, payload=None):
    """Push the game's screen (resuming ``payload`` when given). On the board, a game not
    yet in this VM is started in a fresh one (companion/app/launch.py): ``payload`` is then
    always the saved game of that id, which the new VM carries on."""
    info = game_info(game_id)
    family_id = info[4] if info is not None else game_id
    if _elsewhere(app.hw, family_id):
        app.hw.relaunch(game_id)
        return
    forget_other_games(game_id, family_id)
    if info is None or info[3] is None:
        label, name = (info[1], info[2]) if info else (game_id, game_id)
        app.push(MessageScreen(app, label, name + " is coming in a later update."))
        return
    if payload is None:
        saved = app.store.load_game()
        if saved is not None and saved[0] == game_id:
            payload = saved[1]  # opening the game from the menu carries on the saved one
    module = _import_game(family_id, info[3])
    if payload is None:
        module.open(app, None)
        _warn_if_memory_is_full(app, game_id)
    else:
        try:
            module.open(app, payload)
        except ValueError:
            # a saved game this firmware cannot read: say so and start that game fresh
            app.store.clear_game()
            app.notify("Save unreadable - new game")  # a toast: two short lines at most
            module.open(app, None)
    # the registry made or read the game; the game plays on without it (~4 KB on the heap;
    # its end imports it again for the record)
    modules.forget("shared_rules.games")


def _warn_if_memory_is_full(app, game_id):
    """Before a new game, say so when its record would push out a game not yet pulled (an
    unpulled record is never dropped without this having been on screen)."""
    from ..store.records import warning
    from .catalog import index

    note = warning(app.store, index(game_id))
    if note:
        app.push(MessageScreen(app, "Memory", note))
