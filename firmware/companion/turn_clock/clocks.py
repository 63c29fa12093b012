# The turn clock on the game screens (docs/records.md, "The turn clock"). Imported only when
# the clock is on in Settings, or the saved game has one: a game without it carries none of
# this; app/loop.py asks ``app.clock`` (a Clocks) at a few points and the screens know nothing of
# it. Comments rather than docstrings: the heap bench counts docstrings.
#
# In parts, for the heap of a game's VM (docs/firmware.md): this module (the app's start:
# the saves through the clock) and saves.py come first; the view (view.py) and the clock's
# state (state.py) once a game's screen is built and on top, where the heap is tightest;
# what only starts a clock (start.py, Settings' byte, the games' catalog) is let go once it
# has. __init__.py lists the parts.
#
# - It follows the game's turn: the screen's ``clock_seat()`` when it has one, else the
#   game's current player; a card dealt or dice rolled leave it with the seat whose clock
#   runs. A table scoreboard (its descriptor has a parent game) does not know the table's
#   turns: a long OK passes its clock to the next player, held on past 2 s it pauses instead.
# - A long OK pauses and resumes it (a scoreboard: resumes); paused it shows "||" before the
#   time, in the selection's yellow on the colour display. A game resumed from its save
#   (after a power cut too) starts paused.
# - It shows at the right of the top screen's title bar where the title and status leave
#   room (ui.TitleBar asks ``lay``: nothing they say is cut for it), as "9:58" at the title's
#   size or smaller, or "10m"; else in the bottom right corner, or the top right one, when
#   nothing is drawn there; else not at all until there is room
#   (tests/test_turn_clock_layout.py measures how often).
# - In a chess clock's last minute the LEDs blink amber; past its time they stay red.
# - It is saved with the game (state.py): at every save of the game (each move), at a
#   pause, when the screen goes off or the game is left, and every 30 s while it runs, so a
#   power cut loses at most those 30 s. Its times go into the game's record (``timed``).

from ..app.buttons import LONG, OK
from .saves import Saves, let_go

SAVE_MS = 30000  # a running clock is saved this often between moves (docs/records.md: wear)
HOLD_MS = 1300  # a scoreboard: OK held this long past the long press pauses instead
# what only starts a clock (start.py, the games' catalog, Settings' byte, the reading
# of a saved clock): let go after
RARE = "companion.turn_clock.rare"  # (as view.RARE) its now-and-then part: let go after use
_ONCE = ("companion.turn_clock.start", "companion.app.catalog", "companion.turn_clock.setting",
         "companion.turn_clock.statebytes")


class Clocks:
    # ``app.clock`` while a clock may be about (app/loop.py makes it at the start, Settings > Clock
    # when it is turned on): it gives each game screen that becomes the top its Clock, takes
    # it back when the game is left, and the saves go through it (state.py: Saves).

    def __init__(self, app):
        self.app = app
        self.view = None  # the Clock of the game on screen
        self.due = None  # the game screen on top that gets its clock at the next tick
        if getattr(app.store, "clock_of", None) is None:
            app.store = Saves(app.store)
        app.store.wrap = self._wrap
        app.clock = self

    def _wrap(self, game_id, payload):
        view = self.view
        if view is not None and view.screen.game.game_id == game_id:
            return view.wrap(payload)
        return payload

    def place(self):
        # the top screen changed: a game screen (game.py) gets its clock at the next tick, a
        # game left gives it back (a game that is over: at the next tick, once its record is
        # kept)
        app = self.app
        view = self.view
        if view is not None and view.screen not in app.stack and not view.screen.ended:
            from .rare import leave

            leave(view)
            let_go(RARE)
        top = app.top
        self.due = None
        if self.view is None and hasattr(top, "ended") and getattr(top, "clock", None) is None:
            self.due = top
        if self.view is not None:
            self.view.place()

    def tick(self, now):
        due = self.due
        if due is not None:
            self.due = None
            if due is self.app.top and self.view is None:
                self._attach(due)
        if self.view is not None:
            self.view.tick(now, SAVE_MS, HOLD_MS)

    def _attach(self, screen):
        # Not at ``place``: a game's screen is pushed while the code that built it still
        # holds what it built from (a game's new-game lists, Space Lunch's entry.py); by the
        # tick after, that is let go, and the clock's code comes into that room too.
        import sys

        had = [n for n in _ONCE if n in sys.modules]  # (the menu's VM may use them)
        # the code that stays first, while the heap has its largest free runs (after the
        # game's screen those are few): then what only starts the clock
        from . import view  # noqa: F401
        from .start import attach

        attach(self, screen, had)
        let_go("companion.turn_clock.start", had)
        let_go(RARE)  # (a resumed clock's message)
        if self.view is not None:
            self.view.place()
        else:  # no clock for this screen (a calculator, or Settings say off)
            let_go("companion.turn_clock.view")
            let_go("companion.turn_clock.state")

    def press(self, event):
        # True when the event is the clock's: a long OK on its game's screen
        view = self.view
        if event[0] != OK or event[1] != LONG or view is None or self.app.top is not view.screen:
            return False
        from .rare import press

        press(view)
        let_go(RARE)
        return True

    def timed(self, env):
        # a finished game's envelope, with each seat's time when its game has a clock
        if self.view is None:
            return env
        from .rare import record
        from .statebytes import timed

        env = timed(env, record(self.view))
        let_go(RARE)
        return env
