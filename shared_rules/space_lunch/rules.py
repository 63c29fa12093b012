"""Space Lunch: the solo game against the Automa, tracked card by card.

The device cannot see the cards, so the players enter them: the nine opening cards and every
refill are input actions (food types 1-12). The deck is only a count (27 after setup), except
that a card sent under it by Hot Drink is remembered, so when the deck runs down to it the
device knows (and insists on) what comes up.

Coordinates: columns 1-3 left to right, rows 1-3 top to bottom. Internally a cell is
``3 * (row - 1) + (col - 1)``. Actions are small ints (one byte each, space_lunch_actions).
Screens, saves, records and undo go through the protocol class (space_lunch_game, via
``games.new("space_lunch", mode)``), which keeps the actions and replays them; this engine only
holds the current state. The two-player game is in ``space_lunch_duel``; threat warnings and
hints in ``space_lunch_hints``.
"""

from shared_rules.space_lunch.actions import (  # noqa: F401 -- re-exported
    AUTOMA,
    AUTOMA_SEAT,
    BEVERAGES,
    CHILL,
    CHILL_JAR,
    CHILL_PAID,
    DIFFICULTIES,
    EASY,
    EXTREME,
    HARD,
    HOT,
    HOT_DRINK,
    HOT_PAID,
    HUMAN,
    JELLY,
    JELLY_BUBBLES,
    JELLY_PAID,
    MEDIUM,
    MODE_DUEL,
    MODE_SOLO,
    RETURN,
    SHARED,
    TAKE,
    _pair,
    _unpair,
    cell,
    chill_jar,
    count_sets,
    decode,
    describe,
    hot_drink,
    jelly_bubbles,
    take,
    where,
)


class Table:
    """What both games share: the grid, the deck count, the Pick token, card entry, takes,
    Hot Drink / Jelly Bubbles checks and copies for the hints."""

    mode = MODE_SOLO  # MODE_SOLO or MODE_DUEL (the screens ask)
    fields = ()  # a subclass's own number fields, for copy()

    def __init__(self):
        self._reset()

    def _reset(self):
        self.grid = [0] * 9
        self.deck = 36
        self.bottom = []  # food types sent under the deck by Hot Drink, next-up first
        self.pending = list(range(9))  # cells waiting for a card to be entered
        self.taken = [[0] * 13, [0] * 13]
        self.pick = 0  # column index of the Pick token
        self.turn = 0
        self.acted = False  # a beverage action was done this turn
        self.winner = None
        self.reason = ""

    # --- queries -------------------------------------------------------------------------

    def is_over(self):
        return self.winner is not None

    def known(self, food):
        """Copies of a food type whose place is known: on the grid, taken, or under the deck."""
        n = self.taken[0][food] + self.taken[1][food]
        for t in self.grid:
            if t == food:
                n += 1
        for t in self.bottom:
            if t == food:
                n += 1
        return n

    def grid_cards(self):
        """Cards on the grid, counting a space waiting for its refill."""
        n = len(self.pending)
        for t in self.grid:
            if t:
                n += 1
        return n

    def refills(self):
        """The food types that may be entered now ([] when no card is expected)."""
        if not self.pending or self.is_over():
            return []
        if self.bottom and self.deck == len(self.bottom):
            return [self.bottom[0]]
        n = self.taken[0][:]
        mine = self.taken[1]
        for t in range(13):
            n[t] += mine[t]
        for t in self.grid:
            n[t] += 1
        for t in self.bottom:
            n[t] += 1
        out = []
        for t in range(1, 13):
            if n[t] < 3:
                out.append(t)
        return out

    def legal_actions(self):
        if self.is_over():
            return []
        if self.pending:
            return self.refills()
        return self._turn_actions()

    def triplets(self, seat):
        return count_sets(self.taken[seat], 3)

    def pairs(self, seat):
        return count_sets(self.taken[seat], 2)

    # CircuitPython runs Python frames on a small fixed stack (CIRCUITPY_PYSTACK_SIZE, 1.5 KB by
    # default) and the hints call the methods below from deep inside a search: they count sets
    # inline and call no helpers of their own (ARCHITECTURE.md, "CircuitPython facts").

    # --- applying --------------------------------------------------------------------------

    def apply(self, action):
        """Play one action. On a ValueError nothing has changed."""
        if self.winner is not None:
            raise ValueError("the game is over")
        if self.pending and not (isinstance(action, int) and 1 <= action <= 12):
            raise ValueError("enter the new card at {} first: a food type 1-12, not {!r}".format(
                where(self.pending[0]), action))
        kind, a, b, paid = decode(action)
        if kind == "card":
            self._enter(a)
        else:
            self._act(kind, a, b, paid)

    def _enter(self, food):
        if not self.pending:
            raise ValueError("no card is expected now")
        if self.bottom and self.deck == len(self.bottom):
            if food != self.bottom[0]:
                raise ValueError("the next card is the food {} put under the deck, not {}".format(
                    self.bottom[0], food))
            self.bottom.pop(0)
        else:
            n = self.taken[0][food] + self.taken[1][food]
            for t in self.grid:
                if t == food:
                    n += 1
            for t in self.bottom:
                if t == food:
                    n += 1
            if n >= 3:
                raise ValueError("all three food {} cards are already out".format(food))
        self.grid[self.pending.pop(0)] = food
        self.deck -= 1

    def _check_card(self, c):
        if not self.grid[c]:
            raise ValueError(where(c) + " is empty")

    def _check_take(self, c):
        if not self.grid[c]:
            raise ValueError(where(c) + " is empty")
        if c % 3 != self.pick:
            raise ValueError("take from column {} (the Pick token), not {}".format(
                self.pick + 1, where(c)))

    def _check_off_pick(self, c, what):
        self._check_card(c)
        if c % 3 == self.pick:
            raise ValueError("{} cannot use column {}: the Pick token is there".format(
                what, self.pick + 1))

    def _check_hot(self, c):
        self._check_card(c)
        if self.deck == 0:
            raise ValueError("Hot Drink needs cards in the deck")

    def _hot(self, c):
        self.bottom.append(self.grid[c])
        self.grid[c] = 0
        self.deck += 1  # under the deck; the refill takes one off the top again
        self.pending.append(c)

    def _jelly(self, a, b):
        self.grid[a], self.grid[b] = self.grid[b], self.grid[a]

    def _grab(self, seat, c):
        """Move the card at c to seat; True if that wins with three triplets."""
        food = self.grid[c]
        self.grid[c] = 0
        counts = self.taken[seat]
        counts[food] += 1
        n = 0
        for t in range(1, 13):
            if counts[t] == 3:
                n += 1
        if n >= 3:
            self.winner = seat
            self.reason = "triplets"
            self.pending = []
            return True
        if self.deck:
            self.pending.append(c)
        self.pick = (self.pick + 1) % 3
        return False

    def _win(self, seat, reason):
        self.winner = seat
        self.reason = reason
        self.pending = []

    # --- copy ------------------------------------------------------------------------------

    def copy(self):
        """An independent copy of the state (the hints try moves on copies): made without
        __init__, whose chain of calls would cost the pystack four frames."""
        g = object.__new__(self.__class__)
        g.grid = self.grid[:]
        g.deck = self.deck
        g.bottom = self.bottom[:]
        g.pending = self.pending[:]
        g.taken = [self.taken[0][:], self.taken[1][:]]
        g.pick = self.pick
        g.turn = self.turn
        g.acted = self.acted
        g.winner = self.winner
        g.reason = self.reason
        for name in self.fields:  # the subclass's own (numbers: nothing to copy deeper)
            setattr(g, name, getattr(self, name))
        return g


class Solo(Table):
    """The solo game: the human (seat 0) against the Automa (seat 1). The human plays first."""

    mode = MODE_SOLO
    fields = ("difficulty", "coupons", "solo")

    def __init__(self, difficulty=EASY):
        if not (isinstance(difficulty, int) and 0 <= difficulty < 4):
            raise ValueError("difficulty must be 0-3 (Easy..Extreme), got {!r}".format(difficulty))
        self.difficulty = difficulty
        Table.__init__(self)

    def _reset(self):
        Table._reset(self)
        self.coupons = DIFFICULTIES[self.difficulty][1]
        self.solo = 2  # the Solo token starts at the bottom row

    def pairs_needed(self):
        return DIFFICULTIES[self.difficulty][2]

    def automa_cell(self, col=None):
        """The cell the Automa takes in column ``col`` (default: the Pick column) from the Solo
        row, going up (wrapping) past empty spaces; -1 if the column is empty."""
        if col is None:
            col = self.pick
        r = self.solo
        for _ in range(3):
            c = 3 * r + col
            if self.grid[c] or c in self.pending:
                return c
            r = (r + 2) % 3
        return -1

    def _turn_actions(self):
        if self.turn == AUTOMA_SEAT:
            return [AUTOMA]
        acts = [TAKE + c for c in range(self.pick, 9, 3) if self.grid[c]]
        if self.acted or not self.coupons:
            return acts
        full = [c for c in range(9) if self.grid[c]]
        off = [c for c in full if c % 3 != self.pick]
        if self.deck:
            acts += [HOT + c for c in full]
        acts += [CHILL + c for c in off]
        for i in range(len(off)):
            for j in range(i + 1, len(off)):
                acts.append(JELLY + _pair(off[i], off[j]))
        acts.sort()
        return acts

    def _act(self, kind, a, b, paid):
        if kind == "automa":
            if self.turn != AUTOMA_SEAT:
                raise ValueError("it is your turn, not the Automa's")
            self._automa()
            return
        if kind == "return" or paid:
            raise ValueError("the solo game has no beverage cards")
        if self.turn != HUMAN:
            raise ValueError("it is the Automa's turn")
        if kind == "take":
            self._check_take(a)
            self._end_human_turn(a)
            return
        if self.acted:
            raise ValueError("only one coupon per turn")
        if not self.coupons:
            raise ValueError("no coupon left")
        if kind == "hot":
            self._check_hot(a)
            self._hot(a)
        elif kind == "jelly":
            self._check_off_pick(a, "Jelly Bubbles")
            self._check_off_pick(b, "Jelly Bubbles")
            self._jelly(a, b)
        else:
            self._check_off_pick(a, "Chill Jar")
            self.coupons -= 1
            self.acted = True
            self._end_human_turn(a)
            return
        self.coupons -= 1
        self.acted = True

    def _end_human_turn(self, c):
        # Table._grab(HUMAN, c) inline: the hint search calls this, and a frame less counts
        food = self.grid[c]
        self.grid[c] = 0
        counts = self.taken[HUMAN]
        counts[food] += 1
        n = 0
        for t in range(1, 13):
            if counts[t] == 3:
                n += 1
        if n >= 3:
            self.winner, self.reason, self.pending = HUMAN, "triplets", []
            return
        if self.deck:
            self.pending.append(c)
        self.pick = (self.pick + 1) % 3
        n = len(self.pending)  # the cards on the grid (grid_cards)
        for t in self.grid:
            if t:
                n += 1
        if n <= 6:
            self.winner, self.reason, self.pending = AUTOMA_SEAT, "persistence", []
            return
        self.turn = AUTOMA_SEAT
        self.acted = False

    def _automa(self):
        # automa_cell() and _win() inline, as in _end_human_turn
        r = self.solo
        for _ in range(3):
            c = 3 * r + self.pick
            if self.grid[c] or c in self.pending:
                break
            r = (r + 2) % 3
        else:
            c = -1
        food = self.grid[c]
        self.grid[c] = 0
        counts = self.taken[AUTOMA_SEAT]
        counts[food] += 1
        n = 0
        for t in range(1, 13):
            if counts[t] == 2:
                n += 1
        if n >= DIFFICULTIES[self.difficulty][2]:
            self.winner, self.reason, self.pending = AUTOMA_SEAT, "pairs", []
            return
        if self.deck:
            self.pending.append(c)
        self.pick = (self.pick + 1) % 3
        self.solo = (self.solo + 2) % 3  # up one row; the top row wraps to the bottom
        n = len(self.pending)  # the cards on the grid (grid_cards)
        for t in self.grid:
            if t:
                n += 1
        if n <= 6:
            self.winner, self.reason, self.pending = AUTOMA_SEAT, "persistence", []
            return
        self.turn = HUMAN

