"""Let's Do Lunch: the match engine ("the Digestif", first to 20 points).

``Match`` holds the current state of a match: ``legal_actions()``, ``apply(action)``
(ValueError on an illegal action, state unchanged), ``is_over()``, ``winner()``, ``to_bytes()``
/ ``Match.from_bytes()`` (the 60-byte state, save.py). Rolls are chance actions (see
rules.py for the action codes); placements are ``10*column + row``. Screens, saves, records
and undo go through the protocol class (game.py, via
``games.new("lets_do_lunch", target, strict)``): each game of a match is a record whose base is
the match as that game starts (start.py; this 60-byte state in records written before record
format 2), and undo replays the record's actions from it.

A game ends when a player has placed all twelve cannibals; the winner scores the cannibals left
in the loser's hand, the loser the same negative, and the next game starts with a new starting
roll until a player reaches the target (20).
"""

from shared_rules.lets_do_lunch.rules import (
    ANNOUNCE,
    ANNOUNCED,
    CANNIBALS,
    FORGOT,
    OVER,
    PLACE,
    ROLL,
    ROLL_WEIGHTS,
    ROLLS,
    START,
    TARGET,
    Board,
    dice_of,
    roll_action,
    roll_outcome,
)
from shared_rules.lets_do_lunch.save import FIELDS, HISTORY, SIZE, VERSION, decode, encode

__all__ = ("Match", "SIZE", "VERSION")


class Match:
    """A match of Let's Do Lunch games. ``strict=True`` plays the rulebook's last-man penalty
    (the table says whether the announcement was made); otherwise the device announces."""

    def __init__(self, target=TARGET, strict=False):
        if type(target) is not int or target < 1 or target > 255:
            raise ValueError("target must be 1..255 points, got {!r}".format(target))
        self.target = target
        self.strict = bool(strict)
        self.scores = [0, 0]
        self.games = 0
        self.last_result = None  # (winner, points) of the last finished game
        self.counts = [0] * 7  # how often each sum 3..9 was rolled, for the fairness figure
        self.history = []  # the last HISTORY sums
        self.last_dice = None
        self.last_eaten = []  # (column, row) eaten by the last placement (not saved)
        self._new_game()

    def _new_game(self):
        self.board = Board()
        self.hands = [CANNIBALS, CANNIBALS]
        self.phase = START
        self.player = 0
        self.column = 0
        self.again = False
        self.first_sum = 0  # player 0's starting roll, while player 1 rolls
        self.announced = [False, False]
        self.skip = [False, False]

    # -- queries --------------------------------------------------------------------------

    def is_over(self):
        return self.phase == OVER

    def winner(self):
        """The match winner, or None while it goes on."""
        if self.phase != OVER:
            return None
        return 0 if self.scores[0] >= self.target else 1

    def is_chance(self):
        return self.phase == START or self.phase == ROLL

    def current_player(self):
        """Who acts: the roller in START/ROLL, the placer in PLACE, in ANNOUNCE the player whose
        last man was due to be announced; None when the match is over."""
        if self.phase == OVER:
            return None
        if self.phase == ANNOUNCE:
            return 1 - self.player
        return self.player

    def chance_outcomes(self):
        """``[(action, weight)]`` over the ten distinct rolls; the weights add up to 27."""
        if not self.is_chance():
            return []
        return [(ROLLS[k], ROLL_WEIGHTS[k]) for k in range(10)]

    def legal_actions(self):
        if self.phase == START or self.phase == ROLL:
            return list(ROLLS)
        if self.phase == PLACE:
            return [self.column * 10 + r for r in self.board.empty_rows(self.column)]
        if self.phase == ANNOUNCE:
            return [ANNOUNCED, FORGOT]
        return []

    def announcement(self):
        """The player whose last man must be announced before this roll, or None. The device
        shows it itself (in strict mode the table answers with ANNOUNCED or FORGOT)."""
        if self.phase == ROLL or self.phase == ANNOUNCE:
            q = 1 - self.player
            if self.hands[q] == 1:
                return q
        return None

    # -- actions --------------------------------------------------------------------------

    def roll(self, dice):
        """Apply a roll given as three dice (typed in or from ``roll_dice``)."""
        return self.apply(roll_action(dice))

    def place(self, row):
        """Place in the rolled column at ``row``."""
        if self.phase != PLACE:
            raise ValueError("nothing to place now (phase {})".format(self.phase))
        return self.apply(self.column * 10 + row)

    def apply(self, action, player=None):
        """Apply one action; ValueError (state unchanged) if it is not legal now. ``player``,
        when given, must be the one whose turn it is (a button pressed on the wrong side)."""
        if type(action) is not int:
            raise ValueError("an action is an int, got {!r}".format(action))
        phase = self.phase
        if phase == OVER:
            raise ValueError("the match is over")
        if player is not None and player != self.current_player():
            raise ValueError("it is player {}'s turn, not {!r}'s".format(
                self.current_player(), player))
        if phase == START or phase == ROLL:
            dice = dice_of(action)
            col, again = roll_outcome(dice)
            self._roll(dice, col, again)
            return None
        if phase == PLACE:
            column = action // 10
            row = action % 10
            if column != self.column:
                raise ValueError(
                    "the dice gave column {}, not {!r}".format(self.column, action))
            if row < 1 or row > 7:
                raise ValueError("row must be 1..7, got {!r}".format(action))
            if self.board.get(column, row) is not None:
                raise ValueError("column {} row {} is occupied".format(column, row))
            self._place(row)
            return self.last_eaten
        # ANNOUNCE
        if action != ANNOUNCED and action != FORGOT:
            raise ValueError("answer ANNOUNCED (1) or FORGOT (2), got {!r}".format(action))
        q = 1 - self.player
        self.announced[q] = True
        if action == FORGOT:
            self.skip[q] = True
        self.phase = ROLL
        return None

    def set_position(self, board, player):
        """Continue a game already on the table: ``board`` (a Board, or its text), ``player`` to
        roll next. The hands follow from the board (12 each, less what is placed)."""
        if not isinstance(board, Board):
            board = Board.from_text(board)
        if player != 0 and player != 1:
            raise ValueError("player must be 0 or 1, got {!r}".format(player))
        on = (board.count(0), board.count(1))
        if on[0] >= CANNIBALS or on[1] >= CANNIBALS:
            raise ValueError("a tribe with all 12 on the board has already won")
        if self.phase == OVER:
            raise ValueError("the match is over")
        self.board = board.copy()
        self.hands = [CANNIBALS - on[0], CANNIBALS - on[1]]
        self.first_sum = 0
        self.announced = [False, False]
        self.skip = [False, False]
        self.last_eaten = []
        self._turn(player)

    def _record(self, dice):
        s = dice[0] + dice[1] + dice[2]
        self.counts[s - 3] += 1
        self.history.append(s)
        if len(self.history) > HISTORY:
            self.history.pop(0)
        self.last_dice = dice

    def _roll(self, dice, col, again):
        self._record(dice)
        self.last_eaten = []
        p = self.player
        if self.phase == START:
            s = dice[0] + dice[1] + dice[2]
            if p == 0:
                self.first_sum = s
                self.player = 1
            elif s == self.first_sum:
                self.first_sum = 0  # a tie: both roll again
                self.player = 0
            else:
                starter = 0 if self.first_sum > s else 1
                self.first_sum = 0
                self._turn(starter)
            return
        if col is None:
            self._turn(1 - p)  # 1-2-3: pass
        elif self.board.column_full(col):
            if not again:
                self._turn(1 - p)  # full column: pass; a triple still rolls again
        else:
            self.phase = PLACE
            self.column = col
            self.again = again

    def _turn(self, p):
        """It is ``p``'s turn to roll (unless p forgot to announce and so passes)."""
        if self.skip[p]:
            self.skip[p] = False
            p = 1 - p
        self.player = p
        self.column = 0
        self.again = False
        q = 1 - p
        if self.strict and self.hands[q] == 1 and not self.announced[q]:
            self.phase = ANNOUNCE
        else:
            self.phase = ROLL

    def _place(self, row):
        p = self.player
        q = 1 - p
        eaten = self.board.place(p, self.column, row)
        self.last_eaten = eaten
        self.hands[p] -= 1
        if eaten:
            self.hands[q] += len(eaten)
            if self.hands[q] > 1:
                self.announced[q] = False
        if self.hands[p] == 0:
            self._end_game(p)
        elif self.again:
            self.phase = ROLL
            self.column = 0
            self.again = False
        else:
            self._turn(q)

    def _end_game(self, p):
        points = self.hands[1 - p]
        self.scores[p] += points
        self.scores[1 - p] -= points
        self.games += 1
        self.last_result = (p, points)
        if self.scores[p] >= self.target:
            self.phase = OVER  # the final board stays for the display
            self.column = 0
            self.again = False
        else:
            self._new_game()

    # -- persistence ----------------------------------------------------------------------

    def to_bytes(self):
        """The whole match in SIZE (60) bytes, first byte the format version."""
        return encode(self)

    @classmethod
    def from_bytes(cls, data):
        """A match from its SIZE-byte state, or from a record's match start (start.py, version
        2: a new game's starting roll, what a record of format 2 starts from)."""
        if isinstance(data, (bytes, bytearray)) and len(data) and data[0] & 127 == 2:
            from shared_rules.lets_do_lunch import start

            return start.decode(data, cls)
        m = cls()
        m._load(data)
        return m

    def _load(self, data):
        """Validate everything first, then set: a corrupt save raises ValueError and leaves
        this object as it was."""
        fields = decode(data)
        for name in FIELDS:
            setattr(self, name, fields[name])
