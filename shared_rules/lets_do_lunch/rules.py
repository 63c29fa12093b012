"""Let's Do Lunch: the board, dice, captures, the action codes and the fairness figure.

The match engine is ``lets_do_lunch_match.Match`` (its 60-byte state in ``lets_do_lunch_save``);
screens, saves, records and undo go through the protocol class ``lets_do_lunch_game`` (via
``games.new("lets_do_lunch", target, strict)``).

Board geometry (ARCHITECTURE.md): columns 3..9, rows 1..7 (row 1 on top), the River is column 6.
Players are 0 (``A``) and 1 (``B``). Cells are kept in a ``bytearray`` of 49: 0 empty, 1 player 0,
2 player 1, index ``(row - 1) * 7 + (column - 3)``.

The dice are a chance action: the device rolls them with ``roll_dice(Rng)`` or the players type in
the dice they rolled; both are the same action, so any roll can be forced.

Action codes (ints, readable on a log line):
- a roll: ``100*a + 10*b + c`` for dice a <= b <= c in 1..3 (``ROLLS``; the engine also takes
  the dice in any order, e.g. 321, but the protocol and so every record takes them sorted);
- a placement: ``10*column + row`` (e.g. 53 = column 5, row 3);
- strict-table last-man check: ``ANNOUNCED`` (1) or ``FORGOT`` (2).
"""

from shared_rules._compat import const

try:
    from typing import List, Optional, Tuple  # noqa: F401
except ImportError:
    pass

COLUMNS = (3, 4, 5, 6, 7, 8, 9)
ROWS = (1, 2, 3, 4, 5, 6, 7)
RIVER = const(6)
CANNIBALS = const(12)
TARGET = const(20)

_RIVER_X = const(3)  # the River's index among the seven columns

# Phases of a Match.
START = const(0)  # the starting roll: player 0 rolls, then player 1; ties roll again
ROLL = const(1)  # ``player`` rolls the dice
PLACE = const(2)  # ``player`` places a cannibal in ``column``
ANNOUNCE = const(3)  # strict table only: did the last man get announced before this roll?
OVER = const(4)  # the match is won

ANNOUNCED = const(1)
FORGOT = const(2)

# The ten distinct rolls (sorted dice) and how many of the 27 ordered outcomes give each.
ROLLS = (111, 112, 113, 122, 123, 133, 222, 223, 233, 333)
ROLL_WEIGHTS = (1, 3, 3, 3, 6, 3, 1, 3, 3, 1)
# 3d3 sums 3..9 out of 27.
SUM_WEIGHTS = (1, 3, 6, 7, 6, 3, 1)

# (dx, dy) in board indices: x = column - 3, y = row - 1.
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _check_dice(dice):
    try:
        n = len(dice)
    except TypeError:
        raise ValueError("dice must be three values in 1..3, got {!r}".format(dice)) from None
    if n != 3:
        raise ValueError("dice must be three values in 1..3, got {!r}".format(dice))
    for d in dice:
        if type(d) is not int or d < 1 or d > 3:
            raise ValueError("a die shows 1, 2 or 3, got {!r}".format(d))


def roll_outcome(dice):
    """``(column, roll_again)`` for three dice: column is the sum, or None for 1-2-3 (a pass);
    roll_again is True for a triple."""
    _check_dice(dice)
    a, b, c = sorted(dice)
    if (a, b, c) == (1, 2, 3):
        return None, False
    return a + b + c, a == c


def roll_dice(rng):
    """Three dice rolled with the project's PRNG (``shared_rules.rng.Rng``)."""
    return (rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3))


def roll_action(dice):
    """The action code for a roll of these dice (sorted: the order they were typed in is moot)."""
    _check_dice(dice)
    a, b, c = sorted(dice)
    return 100 * a + 10 * b + c


def dice_of(action):
    """The sorted dice of a roll action code, or ValueError."""
    if type(action) is not int or action < 111 or action > 333:
        raise ValueError("not a roll action: {!r}".format(action))
    dice = (action // 100, action // 10 % 10, action % 10)
    _check_dice(dice)
    return tuple(sorted(dice))


def _index(column, row):
    if type(column) is not int or column < 3 or column > 9:
        raise ValueError("column must be 3..9, got {!r}".format(column))
    if type(row) is not int or row < 1 or row > 7:
        raise ValueError("row must be 1..7, got {!r}".format(row))
    return (row - 1) * 7 + column - 3


def eat(cells, i, me):
    """Indices of the enemy cannibals eaten by ``me`` (1 or 2) having just placed at ``i``.

    Othello lines in 8 directions: a run of enemies closed by one of ``me``'s cannibals.
    Vertical lines wrap within the column; a wrap back to ``i`` eats nothing. River cannibals
    neither break nor stop a run, and are never eaten. The cells are not changed."""
    opp = 3 - me
    x0 = i % 7
    y0 = i // 7
    eaten = []
    # Most spaces touch no enemy at all: check the neighbours first (the AI asks a lot).
    near = cells[i - 7 if y0 else i + 42] == opp or cells[i + 7 if y0 < 6 else x0] == opp
    if not near and x0 > 0:
        near = (cells[i - 1] == opp or (y0 > 0 and cells[i - 8] == opp)
                or (y0 < 6 and cells[i + 6] == opp))
    if not near and x0 < 6:
        near = (cells[i + 1] == opp or (y0 > 0 and cells[i - 6] == opp)
                or (y0 < 6 and cells[i + 8] == opp))
    if not near:
        return eaten
    for dx, dy in _DIRS:
        x = x0 + dx
        y = y0 + dy
        run = []
        while True:
            if dx == 0:
                y %= 7
                if y == y0:
                    break
            elif x < 0 or x > 6 or y < 0 or y > 6:
                break
            j = y * 7 + x
            v = cells[j]
            if v == opp:
                if x != _RIVER_X:
                    run.append(j)
            else:
                if v == me and run:
                    eaten.extend(run)
                break
            x += dx
            y += dy
    return eaten


class Board:
    """The 7 x 7 board. ``get`` and ``place`` use (column, row) as printed on the board."""

    __slots__ = ("cells",)

    def __init__(self):
        self.cells = bytearray(49)

    @classmethod
    def from_text(cls, text):
        """7 lines of 7 characters: ``.`` empty, ``A`` player 0, ``B`` player 1; line 1 = row 1,
        character 1 = column 3. Surrounding blank lines and spaces are ignored."""
        lines = [line.strip() for line in str(text).strip().split("\n")]
        if len(lines) != 7:
            raise ValueError("a board is 7 lines, got {}".format(len(lines)))
        board = cls()
        for y in range(7):
            line = lines[y]
            if len(line) != 7:
                raise ValueError("board line {} must be 7 characters: {!r}".format(y + 1, line))
            for x in range(7):
                ch = line[x]
                if ch == "A":
                    board.cells[y * 7 + x] = 1
                elif ch == "B":
                    board.cells[y * 7 + x] = 2
                elif ch != ".":
                    raise ValueError("bad board character {!r} on line {}".format(ch, y + 1))
        return board

    def to_text(self):
        out = []
        for y in range(7):
            out.append("".join(".AB"[v] for v in self.cells[y * 7 : y * 7 + 7]))
        return "\n".join(out)

    def copy(self):
        b = Board()
        b.cells[:] = self.cells
        return b

    def __eq__(self, other):
        return isinstance(other, Board) and self.cells == other.cells

    def get(self, column, row):
        """None for an empty space, else the owner (0 or 1)."""
        v = self.cells[_index(column, row)]
        return None if v == 0 else v - 1

    def place(self, player, column, row):
        """Put ``player``'s cannibal on (column, row); remove and return the eaten ones as a list
        of (column, row). An occupied or off-board space raises ValueError, board unchanged."""
        if player != 0 and player != 1:
            raise ValueError("player must be 0 or 1, got {!r}".format(player))
        i = _index(column, row)
        if self.cells[i]:
            raise ValueError("column {} row {} is occupied".format(column, row))
        me = player + 1
        self.cells[i] = me
        eaten = eat(self.cells, i, me)
        for j in eaten:
            self.cells[j] = 0
        return [(j % 7 + 3, j // 7 + 1) for j in sorted(eaten)]

    def count(self, player):
        n = 0
        me = player + 1
        for v in self.cells:
            if v == me:
                n += 1
        return n

    def empty_rows(self, column):
        x = _index(column, 1)
        return [y + 1 for y in range(7) if not self.cells[y * 7 + x]]

    def column_full(self, column):
        return not self.empty_rows(column)


def chi_square(counts):
    """Pearson's chi-square of the sum counts for 3..9 against 3d3 (1,3,6,7,6,3,1 out of 27),
    exact: ``(numerator, denominator)``. No rolls → (0, 1)."""
    if len(counts) != 7:
        raise ValueError("need 7 counts (sums 3..9), got {}".format(len(counts)))
    n = 0
    for c in counts:
        if type(c) is not int or c < 0:
            raise ValueError("bad count {!r}".format(c))
        n += c
    if n == 0:
        return 0, 1
    # sum (O - nw/27)^2 / (nw/27) = sum (27*O - n*w)^2 * (42/w) / (27 * n * 42); 42 = lcm(w).
    num = 0
    for k in range(7):
        w = SUM_WEIGHTS[k]
        d = 27 * counts[k] - n * w
        num += d * d * (42 // w)
    den = 27 * n * 42
    return num, den


# Upper 5% and 1% points of chi-square with 6 degrees of freedom, times 1000.
_CHI2_5 = const(12592)
_CHI2_1 = const(16812)


def fairness(counts):
    """A verdict for the table: ``"few rolls"`` (under 135, when the rarest sums are expected
    fewer than 5 times and the test means little), ``"fair"``, ``"doubtful"`` (above the 5%
    point) or ``"unfair"`` (above the 1% point)."""
    num, den = chi_square(counts)
    if sum(counts) < 135:
        return "few rolls"
    if num * 1000 > _CHI2_1 * den:
        return "unfair"
    if num * 1000 > _CHI2_5 * den:
        return "doubtful"
    return "fair"


def chi_square_x100(counts):
    """Chi-square times 100, rounded, for display without floats."""
    num, den = chi_square(counts)
    return (200 * num + den) // (2 * den)
