# The turn clock on the game screens (docs/records.md, "The turn clock"). Imported only when
# the clock is on in Settings, or the saved game has one: a game without it carries none of
# this; app.py asks ``app.clock`` (a Clocks) at a few points and the screens know nothing of
# it. Comments rather than docstrings: the heap bench counts docstrings.
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
# - It is saved with the game (core/clock.py): at every save of the game (each move), at a
#   pause, when the screen goes off or the game is left, and every 30 s while it runs, so a
#   power cut loses at most those 30 s. Its times go into the game's record (``timed``).

from .core.buttons import LONG, OK, ticks_diff
from .core.clock import CHESS, NONE, WARN_MS, Saves, TurnClock, text, timed, wrap
from .core.clockset import setting
from .ui import TitleBar
from .ui import text as label

SAVE_MS = 30000  # a running clock is saved this often between moves (docs/records.md: wear)
HOLD_MS = 1300  # a scoreboard: OK held this long past the long press pauses instead
AMBER = (255, 110, 0)
RED = (255, 0, 0)
MSG_PAUSED = "Clock paused: hold OK to go on"


class Clocks:
    # ``app.clock`` while a clock may be about (app.py makes it at the start, Settings > Clock
    # when it is turned on): it gives each game screen that becomes the top its Clock, takes
    # it back when the game is left, and the saves go through it (core/clock.py: Saves).

    def __init__(self, app):
        self.app = app
        self.view = None  # the Clock of the game on screen
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
        # the top screen changed: a game screen (game.py) gets its clock, a game left gives it
        # back (a game that is over: at the next tick, once its record is kept)
        app = self.app
        view = self.view
        if view is not None and view.screen not in app.stack and not view.screen.ended:
            view.leave()
        top = app.top
        if self.view is None and hasattr(top, "ended") and getattr(top, "clock", None) is None:
            attach(self, top)
        if self.view is not None:
            self.view.place()

    def tick(self, now):
        if self.view is not None:
            self.view.tick(now)

    def press(self, event):
        # True when the event is the clock's: a long OK on its game's screen
        view = self.view
        if event[0] != OK or event[1] != LONG or view is None or self.app.top is not view.screen:
            return False
        view.press()
        return True

    def timed(self, env):
        # a finished game's envelope, with each seat's time when its game has a clock
        return env if self.view is None else timed(env, self.view.record())


def attach(clocks, screen):
    # Give a game screen its clock: the one saved with its game, else a new one as Settings
    # say; none (screen.clock False) when the clock is off, or for a screen that is no
    # recorded game (the strength calculator keeps an Aqua Brunch id and is no registry game).
    import sys

    had = "companion.core.catalog" in sys.modules
    from .core.catalog import about, index

    app = screen.app
    game = screen.game
    screen.clock = False
    row = about(game.game_id) if index(game.game_id) == getattr(game, "index", -1) else None
    if not had and sys.implementation.name != "cpython":
        _drop(sys, "companion.core.catalog")  # the game plays on without it
    if row is None or row.get("recorded") is False:
        return
    now = app.hw.clock()
    tc = None
    state = app.store.clock_of(game.game_id, game.to_bytes())
    if state:
        try:
            tc = TurnClock.from_bytes(state, now)
            tc.paused = True  # resumed: it goes on when the players are back
        except ValueError:
            app.notify("Clock unreadable - a new one")
    fresh = tc is None
    if fresh:
        mode, minutes, bonus = setting(app.settings.clock)
        if not mode:
            return
        tc = TurnClock(mode, minutes * 60, bonus, _seats(game))
    view = screen.clock = Clock(clocks, screen, tc, bool(row.get("parent")), now)
    if not fresh:
        if tc.seat != NONE:
            app.notify(MSG_PAUSED)
    elif view.table:
        app.notify("Clock: hold OK to pass it on")
    else:
        view.follow()
        app.notify("Clock on: hold OK to pause")


def _drop(sys, name):
    # as loader.unload (not imported for this: a game's VM has let it go)
    del sys.modules[name]
    dot = name.rfind(".")
    try:
        delattr(sys.modules[name[:dot]], name[dot + 1:])
    except (AttributeError, KeyError):
        pass


def _seats(game):
    return max(1, len(game.scores()))


class Clock:
    # one game's clock on screen

    def __init__(self, clocks, screen, tc, table, now):
        app = screen.app
        d = app.d
        self.clocks = clocks
        self.app = app
        self.d = d
        self.screen = screen
        self.tc = tc
        self.table = table  # a scoreboard: passed on by a long OK
        self.lab = label(d, "", d.width - d.pad, d.title_h // 2, d.TITLE_FG, 1, (1, 0.5))
        self.lab.hidden = True
        d.root.insert(1, self.lab)  # over the screen, under the toast and the gauge
        self.forms = ("", "", "")  # the texts it may show: see _texts
        self.sec = None  # the second they show (an int: this runs every pass)
        self.form = 1  # which fits where it is: (text index << 2) | scale
        self.bar = None  # the title bar it is in; None: the corner, or nowhere
        self.saved_at = now
        self.hold = None  # a scoreboard: when OK was held long (a pass or a pause)
        self.warned = None  # the colour the LEDs warn in now
        self.kept = None  # the game's LED frame while they warn
        self.lit = None  # the frame the clock showed last
        self.drawn = -1  # the app's refresh the corner was looked at after
        TitleBar.clock = self  # type: ignore[assignment]  # (ui.py: None while there is none)
        clocks.view = self
        self._texts(now)

    def now(self):
        return self.app.hw.clock()

    # the game's side

    def follow(self):
        # to whose turn it is now (the game moved, or was undone): before each save and
        # record, so what is kept is the clock as the game stands
        if self.table:
            return
        screen = self.screen
        seat_of = getattr(screen, "clock_seat", None)
        seat = seat_of() if seat_of is not None else screen.game.current_player()
        tc = self.tc
        tc.seats(_seats(screen.game))
        if seat is not None and seat >= 0:
            tc.turn(seat, self.now(), ticks_diff)
        self._texts(self.now())

    def press(self):
        # a long OK: pause or go on; a scoreboard's running clock waits for the release
        # (tick: a pass) or for OK held on (a pause)
        tc = self.tc
        now = self.now()
        if tc.paused:
            tc.resume(now)
            self.app.notify("Clock goes on")
        elif self.table:
            self.hold = now
            return
        else:
            tc.pause(now, ticks_diff)
            self.app.notify(MSG_PAUSED)
        self._saved(now)

    def stop(self):
        self.tc.stop(self.now(), ticks_diff)
        self._unwarn()
        self._texts(self.now())

    def record(self):
        # each seat's (seconds, turns) since the last record (at the end, the last turn
        # complete and nothing running)
        if self.screen.game.is_terminal():
            self.stop()
        else:
            self.follow()
        return self.tc.record(self.now(), ticks_diff)

    def wrap(self, record):
        self.follow()
        self.saved_at = now = self.now()  # the next save of the running clock from here
        return wrap(self.tc.to_bytes(now, ticks_diff), record)

    def leave(self):
        # its game screen left the stack: saved as it stands, paused (unless over), and gone
        screen = self.screen
        tc = self.tc
        if not screen.ended:
            if tc.running():
                tc.pause(self.now(), ticks_diff)
            screen.suspend()
        self.app.d.root.remove(self.lab)
        self._unwarn()
        screen.clock = None  # shown again, it takes its clock from the save
        if self.clocks.view is self:
            self.clocks.view = None
        if TitleBar.clock is self:
            TitleBar.clock = None
        bar = self.bar
        self.bar = None
        if bar is not None and bar is TitleBar.top:
            bar.relayout()  # the cells it kept go back to the title

    def _saved(self, now):
        self.saved_at = now
        self.screen.suspend()  # saved when the game has a save (nothing before its first move)
        self._texts(now)

    # the app's side

    def tick(self, now):
        app = self.app
        screen = self.screen
        if screen not in app.stack:
            self.leave()  # its game was left, or is over and its record kept
            return
        tc = self.tc
        if tc.seat != NONE and screen.game.is_terminal():
            self.stop()  # over, shown on the game's own screen: nothing runs
        if self.hold is not None:
            if app.buttons._down[OK] is None:  # let go (core/buttons.py): the next player's
                self.hold = None
                tc.turn(tc.next_seat(), now, ticks_diff)
                app.notify("Clock: " + app.settings.names[tc.seat])
                self._saved(now)
            elif ticks_diff(now, self.hold) >= HOLD_MS:
                self.hold = None
                tc.pause(now, ticks_diff)
                app.notify(MSG_PAUSED)
                self._saved(now)
        if tc.running() and ticks_diff(now, self.saved_at) >= SAVE_MS:
            self._saved(now)
        self._texts(now)
        self._warn(now)
        if self.bar is None and app.refreshes != self.drawn:
            self.drawn = app.refreshes  # the screen drew something new: the corner?
            self.layout()

    def _warn(self, now):
        tc = self.tc
        want = None
        if tc.mode == CHESS and tc.running():
            ms = tc.shown(tc.seat, now, ticks_diff)
            if ms <= 0:
                want = RED
            elif ms <= WARN_MS and ms // 500 % 2:
                want = AMBER
        leds = self.app.leds
        if want is not None:
            leds.wake(now)  # lit even when no button was pressed for a minute
        if want is not self.warned:
            if leds.frame != self.lit:
                self.kept = leds.frame  # the game's own colours (it may have set new ones)
            self.warned = want
            leds.show(self.kept if want is None else [want] * max(1, leds.n))
            self.lit = leds.frame

    def _unwarn(self):
        if self.warned is not None:
            self.warned = None
            leds = self.app.leds
            if leds.frame == self.lit:  # the clock's colour still on: the game's again
                leds.show(self.kept)

    def _texts(self, now):
        # the texts again when the second shown has changed
        tc = self.tc
        seat = tc.seat
        sec = None
        if seat != NONE:
            ms = tc.shown(seat, now, ticks_diff)
            sec = (ms // 1000) * 16 + seat * 2 + (1 if tc.paused else 0)
        if sec == self.sec:
            return
        self.sec = sec
        forms = ("", "", "")
        if sec is not None:  # a scoreboard's with whose it is; the time alone; the short time
            mark = "||" if tc.paused else ""
            full = mark + text(ms, tc.mode)
            forms = (("P{} ".format(seat + 1) if self.table else "") + full,
                     mark + text(ms, tc.mode, True), full)
        old = self.forms
        if forms == old:
            return
        self.forms = forms
        self._color()
        bar = TitleBar.top  # the top screen's (place)
        if bar is not None and [len(f) for f in old] != [len(f) for f in forms]:
            bar.relayout()  # it may take more cells, or fewer, or none (or fit there now)
        else:
            self._show()
        self.app.dirty = True

    def _color(self):
        # the title's colour in the bar, the text's in the corner; paused: yellow in colour
        d = self.d
        color = d.TITLE_FG if self.bar is not None else d.FG
        if self.tc.paused and not d.mono:
            color = d.SEL_BG
        if self.lab.color != color:
            self.lab.color = color

    def _show(self):
        form = self.form
        s = self.forms[form >> 2]
        lab = self.lab
        if lab.scale != form & 3:
            lab.scale = form & 3
            lab.anchored_position = lab.anchored_position  # placed again at the new size
        lab.text = s
        lab.hidden = not s

    def lay(self, bar, title, right):
        # The cells the clock and the battery gauge take at the right of the top screen's
        # ``bar`` (ui.TitleBar.set asks), where the title and the status (which keeps half of
        # what is left) fit beside them: the gauge at the right edge, the clock left of it.
        # Its forms, largest first: the time (a scoreboard's with whose it is) at the title's
        # size, at the small size (half a cell of the colour display's title), the time alone,
        # the short time; each with a blank before it.
        d = self.d
        cols = d.title_cols
        used = len(title) + (len(right) + 1 if right else 0)
        ts = d.title_scale
        cells = 0
        for form in (ts, 1, 9, 5):  # (text index << 2) | scale
            s = self.forms[form >> 2]
            n = ((len(s) + 1) * (form & 3) + ts - 1) // ts if s else 0
            if n and used + n <= cols and len(right) <= (cols - n) // 2:
                self.form = form
                cells = n
                break
        kept = 0
        gauge = TitleBar.gauge
        if gauge is not None:
            room = cols - cells - TitleBar.reserve
            fits = used <= room and len(right) <= room // 2
            gauge.hidden = not fits
            if fits:
                kept = TitleBar.reserve
        lab = self.lab
        if not cells:
            self.bar = None  # none fits: the corner (layout), or nowhere
            lab.hidden = True
            return kept
        self.bar = bar
        self._color()
        lab.anchor_point = (1, 0.5)
        lab.anchored_position = (d.width - d.pad - kept * 6 * ts, d.title_h // 2)
        self._show()
        return cells + kept

    def place(self):
        # the top screen changed: its title bar, if it has one, lays the clock out
        bar = getattr(self.app.top, "bar", None)
        self.bar = None
        TitleBar.top = bar if isinstance(bar, TitleBar) else None
        if TitleBar.top is not None:
            bar.relayout()

    def layout(self):
        # out of the title bar: the bottom right corner, else the top right one, when nothing
        # the top screen draws is there (nor in the cell before it: it is not read as part of
        # a text), else hidden
        d = self.d
        lab = self.lab
        was = (lab.hidden, lab.text, lab.anchored_position)
        self._color()
        lab.hidden = True
        x1 = d.width - d.pad
        for y1 in (d.height - 1, 13):
            for i in (0, 2, 1):
                s = self.forms[i]
                if s and _free(self.app.top.group, (x1 - len(s) * 6 - 6, y1 - 12, x1, y1)):
                    self.form = (i << 2) | 1
                    lab.anchor_point = (1, 1)
                    lab.anchored_position = (x1, y1)
                    self._show()
                    break
            if not lab.hidden:
                break
        if (lab.hidden, lab.text, lab.anchored_position) != was:
            self.app.dirty = True


def _free(group, box):
    # True when nothing visible under group (texts by their boxes, tile grids by their size)
    # overlaps box (x0, y0, x1, y1) in screen pixels. A list, not recursion: the board's
    # Python stack is small.
    x0, y0, x1, y1 = box
    todo = [(group, 0, 0, 1)]
    while todo:
        node, ox, oy, scale = todo.pop()
        if node.hidden:
            continue
        x = ox + node.x * scale
        y = oy + node.y * scale
        bb = getattr(node, "bounding_box", None)
        tw = getattr(node, "tile_width", None)
        if bb is not None:
            s = scale * node.scale
            w = bb[2] * s if node.text else 0
            x += bb[0] * s
            y += bb[1] * s
            h = bb[3] * s
        elif tw is not None:
            w = node.width * tw * scale
            h = node.height * node.tile_height * scale
        else:
            try:
                for child in node:
                    todo.append((child, x, y, scale * node.scale))
            except TypeError:
                pass  # a shape (vectorio): the app draws none
            continue
        if w and x < x1 and x + w > x0 and y < y1 and y + h > y0:
            return False
    return True
