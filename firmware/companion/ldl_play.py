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

from shared_rules import lets_do_lunch_ai as ai
from shared_rules.games import CHANCE, TABLE, TERMINAL
from shared_rules.lets_do_lunch import (
    ANNOUNCED,
    FORGOT,
    PLACE,
    START,
    eat,
    roll_action,
    roll_dice,
    roll_outcome,
)

from .core.buttons import BACK, OK, PREV, ticks_diff
from .core.ldl_turn import Dice, dice_line, move_words, roll_words, start_row, step_row
from .game import GameScreen
from .ldl_board import BoardWidget
from .ldl_panel import ASK, ENDED, HOLD, IDLE, PLACING, ROLLING, THINKING, TYPING, Panel, content

NEXT_GAME = 0
ROLL_MS = 600  # the roll animation (the issue allows about a second)
FRAME_MS = 75
LED_MS = 1500
LED_EAT = (255, 40, 20)
LED_LAST = (255, 200, 0)

class Setup:
    """What the record does not hold: the computer's seat (None: two players), its level, and
    whether the dice are typed in."""

    __slots__ = ("computer", "level", "typed")

    def __init__(self, computer=None, level=ai.HARD, typed=False):
        self.computer = computer
        self.level = level
        self.typed = typed


class PlayScreen(GameScreen):
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
        self.mode = self._decide()

    # ---- what the game asks for --------------------------------------------------------

    @property
    def m(self):
        return self.game.engine

    def is_computer(self, seat):
        return seat is not None and seat == self.setup.computer

    def name(self, seat):
        return "Computer" if self.is_computer(seat) else self.names[seat]

    def _decide(self):
        """The mode the game's state asks for (after an action, an undo, a resume)."""
        g = self.game
        cp = g.current_player()
        if cp == TERMINAL:
            return ENDED
        if cp == TABLE:
            return ENDED if g.ended is not None else ASK
        if cp == CHANCE:
            if self.setup.typed:
                self.dice = Dice()
                return TYPING
            return THINKING if self.is_computer(self.m.player) else IDLE
        if self.is_computer(cp):
            return THINKING
        free = self.m.board.empty_rows(self.m.column)
        self.row = start_row(free, [self._eats(r) for r in free])
        return PLACING

    def _eats(self, row):
        m = self.m
        i = (row - 1) * 7 + m.column - 3
        cells = m.board.cells
        cells[i] = m.player + 1
        n = len(eat(cells, i, m.player + 1))
        cells[i] = 0
        return n

    # ---- acting ----------------------------------------------------------------------

    def _roll(self, dice):
        m = self.m
        seat = m.player
        first = m.first_sum
        start = m.phase == START
        if not self.act(roll_action(dice)):
            return
        if self.setup.typed or not self.is_computer(seat):
            self.ghosts = []
        self.dline = dice_line(dice)
        col, again = roll_outcome(dice)
        self.note = ""
        if start:
            s = dice[0] + dice[1] + dice[2]
            if seat == 1 and m.phase != START:  # the dice line shows this roll
                # the starter rolls next and is named above the words, unless the computer's
                # roll is held on screen first
                self.note = "starts"
            if seat == 1:
                self.app.notify("{} to {}: {}".format(first, s, "tie, roll again" if
                                m.phase == START else self.name(m.player) + " starts"))
        else:
            word, sentence = roll_words(col, again, m.phase != PLACE)
            self.note = word
            if sentence:
                self.app.notify(sentence)
        self._after(seat)

    def _place(self, row):
        m = self.m
        seat = m.player
        col = m.column
        again = m.again
        if not self.act(col * 10 + row):
            return
        eaten = [] if self.game.ended is not None else m.last_eaten
        self.last = (row - 1) * 7 + col - 3
        # the crosses stay until a person acts: the human's captures are still shown while
        # the computer answers
        self.ghosts += [((r - 1) * 7 + c - 3, 1 - seat) for c, r in eaten]
        if self.is_computer(seat):
            self.note = move_words(col, row, len(eaten))
            if again and self.game.current_player() == CHANCE:
                self.app.notify("Triple: computer rolls again")
        else:
            self.note = "ate {}".format(len(eaten)) if eaten else ""
        if eaten:
            self._leds([LED_EAT] * len(eaten))
        self._after(seat, True)

    def _after(self, seat, placed=False):
        """The computer's moves, and a human's pass just before the computer rolls, stay on
        screen until OK; the last man is announced as the next roll comes up."""
        self.mode = self._decide()
        g = self.game
        nxt = self.m.player if g.current_player() == CHANCE else None
        if self.mode != ENDED and (
                (self.is_computer(seat) and (placed or self.mode != THINKING)) or (
                self.is_computer(nxt) and self.note == "pass" and not self.setup.typed)):
            self.mode = HOLD
            self.held = seat
            if self.note == "starts":
                self.note = self.name(self.m.player) + " starts"
        q = self.m.announcement()
        if q is not None and not self.m.strict and self.mode != HOLD:
            self.app.notify("{}: last man!".format(self.name(q)))
            self._leds([LED_LAST] * 8)
        if g.is_terminal():
            self.ghosts = []

    def _computer(self):
        if self.game.current_player() == CHANCE:
            self._start_roll()  # the computer's dice roll on screen too
        else:
            self._place(ai.choose(self.m, self.setup.level, self.rng) % 10)

    def _start_roll(self):
        self.rolled = roll_dice(self.rng)
        self.mode = ROLLING
        self.until = self.app.hw.clock() + ROLL_MS
        self.frame = 0
        self.show()

    def next_game(self):
        """A game of the match is over: keep its record, start the next game."""
        if hasattr(self.app, "keep_record"):
            self.keep_record()
        else:  # an app without keep_record: the same record; the save follows at once
            self.app.finish_game(self.game.to_bytes())
        self.ghosts = []
        self.last = None
        self.note = ""
        self.dline = ""
        self.mode = IDLE  # until the next game's state is known
        self.act(NEXT_GAME)
        self.mode = self._decide()
        self.show()

    # ---- buttons and time ---------------------------------------------------------------

    def on_game_button(self, button, kind):
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
            from .ldl_stats import StatsScreen

            self.app.push(StatsScreen(self.app, self))

    def tick(self, now):
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
            if self.setup.level == ai.HARD and self.frame != -1 and \
                    self.game.current_player() != CHANCE:
                self.frame = -1  # "thinking" is drawn on this pass; the search runs on the next
                self.show()
                return
            self.frame = 0
            self._computer()
            self.show()

    def undo(self):
        """Back to the last human decision: the computer's own steps go with it."""
        g = self.game
        if not g.can_undo():
            self.app.notify("Nothing to undo")
            return
        g.undo()
        while g.can_undo() and self._computer_step():
            g.undo()
        self.note = ""
        self.dline = ""
        self.ghosts = []
        self.last = None
        self.mode = self._decide()
        self.app.store.save_game(g.game_id, g.to_bytes())
        self.show()
        self.app.notify("Undone")

    def _computer_step(self):
        cp = self.game.current_player()
        if cp == CHANCE:
            return self.is_computer(self.m.player) and not self.setup.typed
        return cp >= 0 and self.is_computer(cp)

    def _leds(self, colors):
        self.app.leds.show(colors)
        self.led_until = self.app.hw.clock() + LED_MS

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
        self.board.show(cells, lit, self.last, self.ghosts, cursor, m.player)
        self.panel.show(*content(self))
        self.changed()

    def result_lines(self):
        """Two lines: the end dialog has room for two on either display."""
        m = self.m
        return ["{} wins!".format(self.name(m.winner())),
                "{}:{} in {} game{}".format(m.scores[0], m.scores[1], m.games,
                                            "s" if m.games > 1 else "")]
