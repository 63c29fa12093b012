"""Let's Do Lunch: the match screen. The board on the left, the panel on the right.

A human turn with the device's dice: OK rolls (a short animation), the rolled column lights,
the cursor stands on a free row of it (the one that eats the most, else the one nearest the
middle), prev/next move it over the free rows only, OK places; the eaten cannibals stay on the
board as crosses (and flash on the LEDs) until the next action. With typed dice the roller
sets three dice, one picker each (Back steps to the die before). A 1-2-3, a full column and a
triple are said in words (a message, and a word beside the dice).

The computer rolls and places by itself and then waits for OK ("c7 r4, eats 2") so the table
can move its pieces; that OK also rolls for the human who plays next. Before a Hard search
the panel says it is thinking. Prev/next (while not placing) open the match figures. Undo (a
long Back) goes back to the last human decision, the computer's steps with it.
"""

from companion.app.buttons import BACK, LONG, NEXT, OK, PREV, ticks_diff
from companion.screen.game import GameScreen
from shared_rules.lets_do_lunch.rules import ANNOUNCED, FORGOT, PLACE
from shared_rules.protocol import CHANCE

from .board import BoardWidget
from .moves import ROLL_MS, Moves
from .panel import ASK, ENDED, HOLD, IDLE, PLACING, ROLLING, THINKING, TYPING, Panel, content
from .stats import PAGES, page
from .turn import step_row

FRAME_MS = 75
HARD = 3


class Setup:
    """Who plays, which the record keeps in its last two params (ldl.setup_of): the computer's
    seat (None: two players), its level, and whether the dice are typed in."""

    __slots__ = ("computer", "level", "typed")

    def __init__(self, computer=None, level=HARD, typed=False):
        self.computer = computer
        self.level = level
        self.typed = typed


class PlayScreen(Moves, GameScreen):
    def __init__(self, app, game, setup, rng, names):
        super().__init__(app, game)
        self.setup = setup
        self.rng = rng
        self.names = names
        d = self.d
        self.board = BoardWidget(d)
        self.group.append(self.board.group)
        left = self.board.width + (2 if d.mono else 4)
        self.panel = Panel(d, left, self.board.sheet, self.board.grid.pixel_shader,
                           self.board.cell, (1, 2))
        self.group.append(self.panel.group)
        self.note = ""  # a word about what just happened ("pass", "eats 2!")
        self.dline = ""  # the dice line of the last roll
        self.ghosts = []  # (index, owner) eaten by the last placement
        self.last = None  # index placed last
        self.row = 0  # the cursor's row while placing
        self.dice = None  # the Dice picker while typing
        self.rolled = None  # the dice being animated
        self.until = 0
        self.frame = 0
        self.answer = 0  # ASK: 0 announced, 1 forgot
        self.led_until = None
        self.held = 0  # who acted, while HOLD shows it
        self.figures = None  # the page of match figures shown instead of the board
        self.mode = self._decide()

    # ---- what the game asks for --------------------------------------------------------

    @property
    def m(self):
        return self.game.engine

    def is_computer(self, seat):
        return seat is not None and seat == self.setup.computer

    def name(self, seat):
        return "Computer" if self.is_computer(seat) else self.names[seat]

    # ---- buttons and time ---------------------------------------------------------------

    def on_game_button(self, button, kind):
        if self.figures is not None:  # the match figures: prev/next turn pages, OK/Back close
            if button == PREV or button == NEXT:
                self.figures = (self.figures + (1 if button == NEXT else -1)) % PAGES
            elif kind != LONG:
                self.figures = None
            self.show()
            return
        mode = self.mode
        step = -1 if button == PREV else 1
        if mode == PLACING and button != BACK:
            if button == OK:
                self._place(self.row)
            else:
                self.row = step_row(self.m.board.empty_rows(self.m.column), self.row, step)
            self.show()
        elif mode == TYPING:
            if button == OK:
                dice = self.dice.ok()
                if dice is not None:
                    self._roll(dice)
            elif button == BACK:
                if not self.dice.back():
                    self.app.pop()
                    return
            else:
                self.dice.step(step)
            self.show()
        elif mode == ASK and button != BACK:
            if button == OK:
                self.act(FORGOT if self.answer else ANNOUNCED)
                self.answer = 0
                self.mode = self._decide()
            else:
                self.answer = 1 - self.answer
            self.show()
        elif button == OK:
            if mode == IDLE:
                self._start_roll()
            elif mode == HOLD:
                self.note = ""
                self.mode = self._decide()
                if self.mode == IDLE:
                    self._start_roll()  # the OK that ends the computer's move rolls too
                self.show()
            elif mode == ENDED and not self.game.is_terminal():
                self.next_game()
        elif button == BACK:
            self.app.pop()  # to the menu: the match is saved, "Resume" carries it on
        elif mode != ROLLING and mode != THINKING:
            self.figures = 0 if button != PREV else PAGES - 1  # the match figures, in place
            self.show()

    def tick(self, now):
        if self.game.is_terminal():
            GameScreen.tick(self, now)  # resumed on the match's end: its result, kept once
            return
        if self.led_until is not None and ticks_diff(now, self.led_until) >= 0:
            self.led_until = None
            self.app.leds.off()
        if self.mode == ROLLING:
            if ticks_diff(now, self.until) >= 0:
                self._roll(self.rolled)
                self.rolled = None
                self.show()
            elif ticks_diff(now, self.until - ROLL_MS + (self.frame + 1) * FRAME_MS) >= 0:
                self.frame += 1
                self.show()
        elif self.mode == THINKING:
            if self.setup.level == HARD and self.frame != -1 and \
                    self.game.current_player() != CHANCE:
                self.frame = -1  # "thinking" is drawn on this pass; the search runs on the next
                self.show()
                return
            self.frame = 0
            self._computer()
            self.show()

    def exit(self):
        self.app.leds.off()

    # ---- drawing ---------------------------------------------------------------------

    def show(self):
        m = self.m
        g = self.game
        mode = self.mode
        cells = m.board.cells
        lit = None
        cursor = None
        if g.ended is not None and mode == ENDED:
            cells = g.ended[2].cells  # the final position (the engine has cleared the board)
        elif m.phase == PLACE and mode in (PLACING, THINKING):
            lit = m.column
            if mode == PLACING:
                cursor = (self.row - 1) * 7 + m.column - 3
        wide = self.figures is not None
        self.board.group.hidden = wide
        if wide:
            title, lines = page(self, self.figures, self.panel.wide_cols)
            self.panel.show_page(title, lines)
        else:
            self.board.show(cells, lit, self.last, self.ghosts, cursor, m.player)
            self.panel.show(*content(self))
        self.changed()

    def result_lines(self):
        """Two lines: the end dialog has room for two on either display."""
        m = self.m
        return ["{} wins!".format(self.name(m.winner())),
                "{}:{} in {} game{}".format(m.scores[0], m.scores[1], m.games,
                                            "s" if m.games > 1 else "")]
