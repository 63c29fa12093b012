"""Start the app on a ``hw`` object and keep it running: an unexpected exception shows a crash
screen for a few seconds, is recorded in the nvm log (record kind 2), and the app starts again
at the menu with the saved game intact. The watchdog resets a hung app."""

from .app import App
from .core.buttons import ticks_diff
from .core.records import crash_payload
from .core.store import KIND_CRASH
from .hwbase import MENU, Relaunch

WATCHDOG_S = 8  # RP2040's maximum is about 8.3 s
CRASH_SHOW_MS = 3000
QUIET_AFTER = 3  # crashes in a row before any events: stop writing records (flash wear)
GAME_ROOM = 1800  # bytes free for appends at a game's start (docs/persistence.md, "Room")


def run(hw, store=None):
    if store is None:
        from .core.store import Store

        store = Store(hw.nvm)  # mounting never raises: a bad log becomes store.status
    hw.watchdog.start(WATCHDOG_S)
    notice = store.status
    streak = 0
    trace = getattr(hw, "trace", 0)
    while True:
        app = None
        try:
            home, resume = _first_screens(hw, streak)
            if home is _start_game:
                # a whole game's saves fit without a compaction, which needs 4 KB in one piece:
                # compact now, before the game is built (docs/persistence.md, "Room")
                store.make_room(GAME_ROOM)
            app = App(hw, store, home, resume=resume, notice=notice)
            notice = None
            if trace:  # the heap/time trace (companion/trace.py): the test lane reads it
                from .trace import attach

                attach(app, hw.clock)
            app.run()
        except Relaunch as r:  # a host's stand-in for the board's fresh VM (hwbase.py)
            hw.launched = r.target
            streak = 0
        except Exception as e:  # anything at all: show it, record it, restart
            if app is not None and app.handled:
                streak = 0
            streak += 1
            crashed(hw, store, e, app, record=streak <= QUIET_AFTER)


def _first_screens(hw, streak):
    """(home, resume): a VM started for a game opens it; one started from a game's way out
    shows the menu without the resume prompt; a power-on (and a restart after a crash) shows
    the menu and offers the saved game."""
    if streak == 0 and hw.launched and hw.launched[0] != MENU:
        return _start_game, False
    from .menu import start  # only in the menu's VM: a game's VM never shows it

    return start, streak < 2 and (streak > 0 or hw.launched is None)


# What found and opened the game: imported again if the game needs them later (a new game,
# its record's seats at the end), so the game plays with their heap (docs/firmware.md)
_OPENERS = ("companion.loader", "companion.core.catalog", "shared_rules.registry")


def _start_game(app, resume):
    from .launch import start_game

    start_game(app, resume)
    import sys

    if sys.implementation.name == "cpython":
        return  # a PC has the room (and tests read the loader's state)
    from .unload import forget

    forget(*_OPENERS)


def crashed(hw, store, exc, app=None, record=True):
    name = type(exc).__name__
    where = "start"
    if app is not None and app.top is not None:
        where = type(app.top).__name__
    try:
        import traceback

        traceback.print_exception(exc)
    except Exception:  # printing must never stop the restart
        print("crash in", where, name, exc)
    if record:
        try:
            store.append_record(KIND_CRASH, crash_payload(name, str(exc), where))
        except Exception:
            pass
    try:
        show_crash(hw.display, "{}: {}".format(name, exc))
    except Exception:  # a broken display must not stop the restart either
        pass
    start = hw.clock()
    while ticks_diff(hw.clock(), start) < CRASH_SHOW_MS:
        hw.watchdog.feed()
        hw.idle()


def show_crash(d, message):
    import displayio

    from .ui import TextBlock, TitleBar

    root = d.root
    while len(root):
        root.pop()
    g = displayio.Group()
    bar = TitleBar(d, "Oops - restarting")
    g.append(bar.group)
    lines = (d.height - d.title_h - d.pad) // d.char_h
    block = TextBlock(d, d.title_h + d.pad, lines, d.FG)
    block.set(message)
    g.append(block.group)
    root.append(g)
    d.refresh()
