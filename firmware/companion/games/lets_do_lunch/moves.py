"""Let's Do Lunch: what a turn does, for the match screen (ldl_play.PlayScreen mixes it in).

Each button that acts goes through GameScreen.act (logged, saved, undoable); these methods
then say in words what came of it and pick what the screen waits for next (``mode``): the
computer's moves and a human's pass before the computer rolls stay on screen until OK, the
last man is announced, eaten cannibals stay as crosses until a person acts. Undo goes back to
the last human decision, the computer's own steps with it.
"""

from companion.app.buttons import ticks_diff
from shared_rules.lets_do_lunch.rules import PLACE, START, eat, roll_action, roll_dice, roll_outcome
from shared_rules.protocol import CHANCE, TABLE, TERMINAL

from .panel import ASK, ENDED, HOLD, IDLE, PLACING, ROLLING, THINKING, TYPING
from .turn import Dice, dice_line, move_words, roll_words, start_row

NEXT_GAME = 0
ROLL_MS = 600  # the roll animation: a glance at the dice, well under a second
LED_MS = 1500
LED_EAT = (255, 40, 20)
LED_LAST = (255, 200, 0)


class Moves:
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
            if seat == 1 and m.phase != START:  # the starter rolls next, named above
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
            from shared_rules.lets_do_lunch.ai import choose  # only a computer needs it

            hw = self.app.hw
            t = hw.clock()
            action = choose(self.m, self.setup.level, self.rng)
            if getattr(hw, "trace", 0):  # the move's own time, for the lane (app/trace.py)
                from companion.app.trace import span

                span("move", ticks_diff(hw.clock(), t))
            self._place(action % 10)

    def _start_roll(self):
        self.rolled = roll_dice(self.rng)
        self.mode = ROLLING
        self.until = self.app.hw.clock() + ROLL_MS
        self.frame = 0
        self.show()

    def next_game(self):
        """A game of the match is over: keep its record, start the next game."""
        self.keep_record()
        self.ghosts = []
        self.last = None
        self.note = ""
        self.dline = ""
        self.mode = IDLE  # until the next game's state is known
        self.act(NEXT_GAME)
        self.mode = self._decide()
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
        self.save()
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
