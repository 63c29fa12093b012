"""Let's Do Lunch on the device: the words and small decisions of a turn (portable, no display).

- ``roll_words``: what a roll means, in words (a 1-2-3, a full column, a triple);
- ``dice_line``: the dice and their column ("2 2 3 = 7");
- ``start_row`` / ``step_row``: the placement cursor, over the free rows of the column only;
- ``move_words``: the computer's placement as the table reads it ("row 4, eats 2");
- ``Dice``: three dice typed in, one picker each.
"""

from shared_rules._compat import const

MIDDLE_ROW = const(4)


def roll_words(column, again, full):
    """(word, sentence) for what a roll means, ("", "") for an ordinary roll: ``column`` None
    for a 1-2-3; ``full`` when that column has no free row; ``again`` for a triple. The word
    goes on the panel beside the dice; the sentence (<= 36 characters) in a message."""
    if column is None:
        return "pass", "1-2-3: no move, the turn passes"
    if full:
        if again:
            return "again", "Column {} full; triple: roll again".format(column)
        return "pass", "Column {} is full: the turn passes".format(column)
    if again:
        return "again", "Triple: place, then roll again"
    return "", ""


def dice_line(dice):
    """"2 2 3 = 7"; a 1-2-3 is just its dice."""
    a, b, c = dice
    s = "{} {} {}".format(a, b, c)
    if sorted(dice) == [1, 2, 3]:
        return s
    return s + " = {}".format(a + b + c)


def start_row(free, gains):
    """Where the cursor starts among the ``free`` rows (ascending): on the row that eats the
    most (the device sees every trap), else the free row nearest the middle. ``gains[k]``:
    cannibals eaten by placing on ``free[k]``."""
    best = 0
    for k in range(1, len(free)):
        if gains[k] > gains[best] or (gains[k] == gains[best] and abs(free[k] - MIDDLE_ROW)
                                      < abs(free[best] - MIDDLE_ROW)):
            best = k
    return free[best]


def step_row(free, row, step):
    """The next free row after ``row`` in direction ``step`` (+1 down, -1 up), wrapping."""
    n = len(free)
    for k in range(n):
        if free[k] == row:
            return free[(k + step) % n]
    return free[0]


def presses_to(free, start, target):
    """Cursor presses from ``start`` to ``target`` (prev and next both move, with the wrap)."""
    n = len(free)
    i = free.index(start)
    j = free.index(target)
    d = (j - i) % n
    return min(d, n - d)


def move_words(column, row, eaten):
    """The computer's placement, in a player's words: "row 4" (counted from the top; the
    column is the dice's sum on the line above, and the board shows the piece) and ", eats 2"
    when it ate. ``column`` is not said: "c7 r4" was a code to decode."""
    s = "row {}".format(row)
    if eaten:
        s += ", eats {}".format(eaten)
    return s


class Dice:
    """Three dice typed in: ``pos`` is the die being set (0..2); each starts at 2 (1 and 3 are
    then one press away). ``step(+1/-1)`` changes it, ``ok()`` goes on and returns the three
    dice after the third, ``back()`` returns to the previous die (False at the first)."""

    __slots__ = ("values", "pos")

    def __init__(self):
        self.values = [2, 2, 2]
        self.pos = 0

    def step(self, step):
        self.values[self.pos] = (self.values[self.pos] - 1 + step) % 3 + 1

    def ok(self):
        if self.pos < 2:
            self.pos += 1
            return None
        return (self.values[0], self.values[1], self.values[2])

    def back(self):
        if self.pos == 0:
            return False
        self.pos -= 1
        return True

    def presses(self, dice):
        """Presses to type ``dice`` from a fresh picker: one move for a 1 or a 3, then OK."""
        n = 0
        for v in dice:
            n += 1 if v != 2 else 0
        return n + 3
