"""Space Lunch: what the solo and two-player screens share: the layout, the grid, the food
wheel, the top and bottom lines, and the buttons (the cursor over the cards that may be taken,
the coupon cursor, card entry). Subclasses draw the rest (space_lunch_solo, space_lunch_duel).
"""

from companion.app.buttons import BACK, LONG, NEXT, OK, PREV
from companion.screen.game import GameScreen, leave
from companion.screen.text import fit
from companion.screen.ui import TitleBar, text
from shared_rules.space_lunch.actions import AUTOMA, TAKE, decode, where

from . import view as V
from .coupon import Coupons
from .grid import AUTOMA as MARK_AUTOMA
from .grid import CURSOR, NONE, WAITING, FoodGrid, Wheel


class Layout:
    """Where things go, from the display's metrics (240x135 colour or 128x64 mono)."""

    def __init__(self, d):
        mono = d.mono
        self.scale = 1 if mono else 2
        self.top = d.title_h + (0 if mono else 1)
        self.cw = 19 if mono else 36
        self.ch = 12 if mono else 28
        self.left = 5 if mono else 6
        self.panel = self.left + 3 * self.cw + (3 if mono else 4)
        self.bar = 2 if mono else 3  # the Pick token under the grid
        # the bottom line (scale 1) below the Pick token, with a gap on the colour display:
        # the token must not reach into its text
        self.foot = self.top + 3 * self.ch + self.bar + (0 if mono else 2) + 6
        self.cols = (d.width - d.pad) // 6  # characters on the bottom line (scale 1)


class SpaceLunchScreen(Coupons, GameScreen):
    """What the solo and two-player screens share: grid, wheel, top and bottom lines."""

    def __init__(self, app, game):
        self.key = -1
        self.sel = 0  # cursor / wheel position
        self.coupon = None  # (kind, first cell, paid) while a beverage action is being set up
        self.options = None  # [(label, kind, paid)] while the action itself is being chosen
        self.hinted = -1  # the suggested option
        self.choices = []
        self.stops = []
        self.hint = None  # (key, suggested action, advice words, LED state)
        # the device deals the cards (nothing is typed) when the game was started so: its
        # record keeps the deal's seed
        self.seed = V.seed_of(game.params)
        self.dealing = self.seed != 0
        super().__init__(app, game)
        d = self.d
        lay = self.lay = Layout(d)
        self.bar = TitleBar(d, "")
        self.grid = FoodGrid(d, lay.left, lay.top, lay.cw, lay.ch, lay.scale, lay.bar)
        self.stat = []  # the panel's lines, made by the game's _panel()
        self.panel = self._panel(d, lay)
        self.wheel = Wheel(d, lay.panel, lay.top, d.width - lay.panel, lay.ch, lay.scale)
        self.footer = text(d, "", d.pad, lay.foot, d.FG, 1)
        for part in (self.bar.group, self.grid.group, self.panel, self.wheel.group,
                     self.footer):
            self.group.append(part)

    @property
    def e(self):
        return self.game.engine  # a new engine object after every undo (the log is replayed)

    # --- drawing ---------------------------------------------------------------------------

    def _line(self, s):
        s = fit(s, self.lay.cols)
        if self.footer.text != s:
            self.footer.text = s

    def _color(self, color):
        if self.footer.color != color:
            self.footer.color = color

    def _reset(self):
        """New game state (an action or an undo): the UI starts over from it."""
        e = self.e
        self.coupon = None
        self.options = None
        self.sel = 0
        self.choices = []
        if self.game.is_terminal():
            return
        if e.pending:
            self._wheel_for(e, self.key)
        elif self._automa_turn():
            if e.deck:
                a = e.copy()
                a.apply(AUTOMA)
                if not a.is_over() and a.pending:
                    self._wheel_for(a, self.key + 1)
        else:
            self.stops = V.stops(e)
            self._aim()

    def _aim(self):
        """The turn's cursor on the suggested action's stop, when there is a suggestion."""
        want = self._suggested()
        if want is not None:
            kind, c = decode(want)[:2]
            target = c if kind == "take" else V.COUPON
            if target in self.stops:
                self.sel = self.stops.index(target)

    def _wheel_for(self, e, n):
        """The food wheel for the card to enter in ``e`` (``n`` actions into the game); when
        the device deals, the one card it deals there (the same card every time it is asked,
        after an undo or a power cut too)."""
        if self.dealing:
            self.choices = [V.deal(e, self.seed, n)]
            self.sel = 0
            return
        self.choices = V.card_choices(e)
        self.sel = V.picker_start(self.choices, V.weights(e, self.choices))

    def _automa_turn(self):
        return False

    def _suggested(self):
        return None

    def _think(self):
        """Work out the hints of a new state (the solo screen has them)."""

    def _settle(self):
        """Finish hints left for after the board was drawn (the solo screen's coupon
        ratings); True when there were some."""
        return False

    def show(self):
        key = self.game.moves()
        if key != self.key:
            self.key = key
            # the hints first, from this shallow frame: their search's frames come on top of
            # the app's on CircuitPython's small Python stack (CIRCUITPY_PYSTACK_SIZE)
            self._think()
            self._reset()
        self.draw()
        self.changed()

    def _stats(self):
        """The panel's lines: each side's sets against what it needs (the game's own)."""
        raise NotImplementedError

    def wheel_or_panel(self, color_of=None):
        """The food wheel while a card is being chosen, else the sets panel; ``color_of(i)``,
        when given, is the colour of the panel's line i."""
        if self.choices and not self.e.is_over():
            self.wheel.show(self.choices, self.sel)
            self.panel.hidden = True
            return
        self.wheel.hide()
        self.panel.hidden = False
        for i, s in enumerate(self._stats()[:len(self.stat)]):
            lab = self.stat[i]
            if lab.text != s:
                lab.text = s
            if color_of is not None:
                color = color_of(i)
                if lab.color != color:
                    lab.color = color

    def draw_grid(self, cursor=-1, framed=-1):
        e = self.e
        for c in range(9):
            food = e.grid[c]
            mark = NONE
            shown = ""
            if c == framed:
                mark = MARK_AUTOMA
            if c in e.pending:
                mark = WAITING
                shown = "?"
            if c == cursor:
                mark = CURSOR
                if self.choices and e.pending and c == e.pending[0]:
                    food = self.choices[self.sel]
                    shown = ""
            self.grid.set(c, food, mark, shown)

    def entry_lines(self):
        """Top and bottom lines while a card is entered (typed) or placed (dealt)."""
        e = self.e
        if not self.dealing:
            return V.card_prompt(e), self.entry_help()
        food = self.choices[0]
        title = ("Put {} at {}".format(food, where(e.pending[0])),
                 "Put {} where shown".format(food))
        line = self.entry_help()
        if V.opening(e) and not self.d.mono:
            line = "card {} of 9: {}".format(37 - e.deck, line)
        return title, line

    def entry_help(self):
        if self.dealing:
            return "OK when it is there" if self.d.mono else "OK when the card is there"
        return "prev/next: food  OK: enter" if not self.d.mono else "</>: food OK: enter"

    # --- buttons ---------------------------------------------------------------------------

    def turn_wheel(self, button):
        n = len(self.choices)
        if n:
            self.sel = (self.sel + (1 if button == NEXT else -1)) % n
            self.draw()
            self.changed()

    def move(self, button, n):
        if n:
            self.sel = (self.sel + (1 if button == NEXT else -1)) % n
            self.draw()
            self.changed()

    def finished(self):
        """The end, shown on the table itself (who won in the top line, why at the bottom):
        a result screen on top would hold its widgets beside this one's at the moment the
        heap is fullest. The end stays saved and the record is kept once, as GameScreen
        does; OK is the same game again (entry.again), Back the menu, a long Back still
        undoes."""
        from companion.app.keeping import keep_record

        self.save()
        keep_record(self.app, self.game.to_bytes(), getattr(self, "resumed_end", False))
        self.show()

    def end_lines(self):
        head, why = self.result_lines()
        for more in ("  OK: new game", " OK: new", ""):
            if len(why) + len(more) <= self.lay.cols:
                return head, why + more
        return head, why

    def on_game_button(self, button, kind):
        # a press acts on the screen as it will be: with the hints left for later finished
        # (a quick OK takes the suggested card, as when the hints came at once)
        self._settle()
        if self.game.is_terminal():
            if button == OK and kind != LONG:
                leave(self.app, self.again())()
            elif button == BACK and kind != LONG:
                leave(self.app, self.app.home)()
            return
        if button == BACK and kind != LONG:
            if self.options is not None or self.coupon is not None:
                self.back_out()
            else:
                self.app.pop()  # to the menu: the game is saved
            return
        if kind == LONG:
            return
        e = self.e
        if e.pending or (self._automa_turn() and self.choices):
            if button in (PREV, NEXT):
                self.turn_wheel(button)
            elif button == OK:
                self.enter_card()
            return
        if self._automa_turn():
            if button == OK:
                self.act(AUTOMA)
            return
        self.turn_button(button)

    def enter_card(self):
        food = self.choices[self.sel]
        if self._automa_turn():
            if not self.act(AUTOMA) or self.game.is_terminal():
                return
        self.act(food)

    def turn_button(self, button):
        if self.options is not None:
            if button in (PREV, NEXT):
                self.move(button, len(self.options))
            elif button == OK:
                label, kind, paid = self.options[self.sel % len(self.options)]
                self.options = None
                self.start_coupon(kind, paid)
            return
        if self.coupon is not None:
            kind, first, paid = self.coupon
            cells = V.kind_cells(self.e, kind, first, paid)
            if button in (PREV, NEXT):
                self.move(button, len(cells))
            elif button == OK and cells:
                self.coupon_cell(cells[self.sel % len(cells)])
            return
        if button in (PREV, NEXT):
            self.move(button, len(self.stops))
        elif button == OK and self.stops:
            stop = self.stops[self.sel % len(self.stops)]
            if stop == V.COUPON:
                self.coupon_menu()
            else:
                self.act(TAKE + stop)

    def result_lines(self):
        return list(V.result(self.e))



