"""Start the app on a ``hw`` object and keep it running: an unexpected exception shows a crash
screen for a few seconds, is recorded in the nvm log (record kind 2), and the app starts again
at the menu with the saved game intact. The watchdog resets a hung app.

On the board the restart after the crash screen is a fresh VM (hw.relaunch: a soft reset on
MicroPython, a reload on CircuitPython, which comes back at the menu): restarted in the same
VM the heap kept what the crash left in pieces. On MicroPython the menu came back with 60 KB
free instead of 105 KB; on CircuitPython a game's VM that ran out of room could not even
import the menu, and tried again and again until the watchdog reset the chip."""

from ..board.hwbase import MENU, Relaunch
from .loop import App

WATCHDOG_S = 8  # RP2040's maximum is about 8.3 s
QUIET_AFTER = 3  # crashes in a row before any events: stop writing records (flash wear)
GAME_ROOM = 1800  # bytes free for appends at a game's start (docs/persistence.md, "Room")
CRASHED = "!"  # a VM started after a crash, "!<crashes in a row>[ <game>]"
MESSAGE_MAX = 160  # of a crash's message carried to the next VM (a long one is cut)


def run(hw, store=None):
    if store is None:
        store = open_store(hw.nvm)
    hw.watchdog.start(WATCHDOG_S)
    notice = store.status
    streak = _first_streak(hw, store)
    trace = getattr(hw, "trace", 0)
    while True:
        app = None
        try:
            home, resume = _first_screens(hw, streak)
            if home is _start_game:
                # a whole game's saves fit without a compaction, which needs 4 KB in one piece:
                # compact now, before the game is built (docs/persistence.md, "Room")
                store.make_room(GAME_ROOM)
            if home is _start_game and notice == _blank():
                notice = None  # the menu's VM said it at power-on: a game's repeats it
            app = App(hw, store, home, resume=resume, notice=notice)
            notice = None
            if trace:  # the heap/time trace (companion/app/trace.py): the test lane reads it
                from .trace import attach

                attach(app, hw.clock)
            app.run()
        except Relaunch as r:  # a host's stand-in for the board's fresh VM (hwbase.py)
            hw.launched = r.target
            streak = 0
        except Exception as e:  # anything at all: show it, record it, restart
            where = "start"
            if app is not None:
                if app.top is not None:
                    where = type(app.top).__name__
                if app.handled:
                    streak = 0
            app = None  # the crashed app's screens are freed before the crash screen is made
            streak += 1
            _after_crash(hw, store, e, where, streak)


# run's own frame is under every screen's code on CircuitPython's small Python stack
# (tests/test_cp_pystack.py): what a crash needs besides is in functions of their own

def _first_streak(hw, store):
    """The crashes in a row before this VM; the last VM's crash shown here when it had no
    room to show it."""
    streak, left = _crash_streak(hw)
    if left is not None:
        _crashed(hw, store, left[0], left[1], streak <= QUIET_AFTER)
    return streak


def _after_crash(hw, store, exc, where, streak):
    """The crash screen; on the board then a fresh VM (never returns)."""
    shown = _crashed(hw, store, exc, where, streak <= QUIET_AFTER)
    if _fresh_vm(hw):
        # (CircuitPython carries the target in sleep memory after a length byte: 255 at most)
        said = "" if shown else "\n{}\n{}\n{}".format(where, type(exc).__name__,
                                                      str(exc)[:MESSAGE_MAX])
        hw.relaunch(CRASHED + str(streak) + _its_game(hw.launched) + said)  # never returns


def _its_game(launched):
    """" <game id>": the game the crashed VM was for (or had just left, back at the menu),
    so that the menu after the crash has the cursor on its row, as after leaving it."""
    if not launched or launched[0] == CRASHED:
        return ""
    return " " + (launched[1:] if launched[0] == MENU else launched)


def _blank():
    from ..store.saveformat import MSG_BLANK  # (the stores import it: no module more)

    return MSG_BLANK


def _fresh_vm(hw):
    """A board's VM (MicroPython or CircuitPython) that can start a fresh one; a PC's app (the
    simulator, tests) restarts in place."""
    import sys

    return sys.implementation.name != "cpython" and hw.relaunch is not None


def _crash_streak(hw):
    """(crashes in a row before this VM, the crash it must still show or None): 0 and None,
    but for a board's VM started after a crash, which then starts at the menu, offering the
    saved game, its cursor on the game that crashed.
    The last VM's crash comes as "!<crashes>[ <game>]" and, when it had no room for the
    crash screen, its screen, exception class and message on lines of their own."""
    launched = hw.launched
    if not launched or launched[0] != CRASHED:
        return 0, None
    lines = launched[1:].split("\n", 3)
    first = lines[0].split(" ", 1)
    hw.launched = MENU + first[1] if len(first) > 1 and first[1] else None
    try:
        streak = int(first[0])
    except ValueError:
        streak = 1
    if len(lines) < 4:
        return streak, None
    return streak, (_exception(lines[2], lines[3]), lines[1])


def _exception(name, message):
    """The exception ``name`` said ``message``, as near as this VM can make it: a built-in
    class of that name, else a RuntimeError naming it."""
    import builtins

    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls(message)
    return RuntimeError("{}: {}".format(name, message))


def _crashed(hw, store, exc, where, record):
    """companion/app/crash.py, loaded only now and let go after: a crash is rare, its screen's
    code is not kept beside the app that starts again."""
    import sys

    from .unload import forget

    # on the board: what the crash screen loads goes with it (its record's modules too: the
    # menu started after a crash kept 3.4 KB of them)
    before = list(sys.modules) if _fresh_vm(hw) else ()
    try:
        from .crash import crashed
    except (MemoryError, ImportError):  # no room even for that: the app restarts at once
        print("crash in", where, type(exc).__name__, exc)
        return False
    crashed(hw, store, exc, where, record)
    forget("companion.app.crash")
    if before:
        forget(*[name for name in sys.modules if name not in before])
    return True


def open_store(nvm):
    """The store on ``nvm``, mounted (mounting never raises: a bad log becomes
    ``store.status``); the mount's code is read once a VM and let go. On MicroPython (no
    nvm: hwmp gives None) the saves are files on its littlefs, /data (store/filestore.py)."""
    import sys

    if nvm is None and sys.implementation.name == "micropython":
        from ..store.filestore import FileStore

        store = FileStore("/data")
        mounted = ("companion.store.filemount",)
    else:
        from ..store.store import Store

        store = Store(nvm)
        mounted = ("companion.store.mount", "companion.store.nvmscan")
    from .unload import forget

    forget(*mounted)
    return store


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
_OPENERS = ("companion.app.loader", "companion.app.catalog", "shared_rules.registry")


def _start_game(app, resume):
    from .launch import start_game

    start_game(app, resume)
    import sys

    if sys.implementation.name == "cpython":
        return  # a PC has the room (and tests read the loader's state)
    from .unload import forget

    forget(*_OPENERS)
