# The turn clock of the game on screen (clocks.py says what it does): imported
# when a game's screen with a clock first comes on top, after that screen is built.

from ..app.buttons import ticks_diff
from ..screen.ui import TitleBar
from ..screen.ui import text as label
from .saves import let_go
from .state import CHESS, NONE, WARN_MS, text, wrap

AMBER = (255, 110, 0)
RED = (255, 0, 0)
RARE = "companion.turn_clock.rare"  # what it does now and then: loaded for that, let go after


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

    def wrap(self, record):
        self.follow()
        self.saved_at = now = self.now()  # the next save of the running clock from here
        return wrap(self.tc.to_bytes(now, ticks_diff), record)

    def _saved(self, now):
        self.saved_at = now
        self.screen.suspend()  # saved when the game has a save (nothing before its first move)
        self._texts(now)

    # the app's side

    def tick(self, now, save_ms, hold_ms):
        # (clocks.py's SAVE_MS and HOLD_MS)
        app = self.app
        screen = self.screen
        tc = self.tc
        if screen not in app.stack or tc.seat != NONE and screen.game.is_terminal() or (
                self.hold is not None):
            # its game was left, or is over (its record kept, or not yet: shown on the game's
            # own screen, nothing runs), or a scoreboard's OK held long
            from .rare import now_and_then

            now_and_then(self, now, hold_ms)
            let_go(RARE)
            if self.clocks.view is not self:
                return
        if tc.running() and ticks_diff(now, self.saved_at) >= save_ms:
            self._saved(now)
        self._texts(now)
        self._warn(now)
        if self.bar is None and app.refreshes != self.drawn:
            self.drawn = app.refreshes  # the screen drew something new: the corner?
            from .corner import corner  # kept: loaded only when the bar has no room

            corner(self)

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
            # it may take more cells, or fewer, or none (or fit there now); set, not
            # relayout: a frame less at the deepest of CircuitPython's Python stack (a save
            # under a press, tests/test_pystack_app.py)
            bar.set(bar.title, bar.right)
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
            self.bar = None  # none fits: the corner (corner.py), or nowhere
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
