"""The search as shared_rules/lets_do_lunch/ai.py had it at commit 00ecaae, before HARD got its
flat search: tests/test_ldl_ai_same_moves.py checks the new one values every placement the
same. Frozen: do not edit.

Let's Do Lunch: the computer opponent, three levels.

- EASY: places at random two times in three, otherwise takes the biggest capture: a beginner
  who looks for sandwiches beats it.
- MEDIUM: one ply: the best placement by ``evaluate`` (captures first, then the least exposed
  spot and the most threats), no look-ahead over the dice.
- HARD: expectimax over the dice: its placement, then every roll of the next player (the eight
  kinds of roll that matter, weighted out of 27: pass, triples that roll again, each column) and
  that player's best reply, valued by material (100 per cannibal of hand difference); plus, once
  per candidate, its own best capture on each column next time weighted by the chance of that
  column, less the enemy's waiting captures, a little for its exposed cannibals and for
  crowding its own, plus a little for the edge rows (weights tuned against greedy).
  ``depth`` counts placements searched; 2 keeps the worst move under 300 ms on a Pico
  (bench/lets_do_lunch_ai.py). It beats a greedy one-ply player in about 62% of games
  (bench/lets_do_lunch_ceiling.py, 40,000 games); a player rolling every position out
  thousands of times would add only a few points (docs/lets-do-lunch.md).

``evaluate`` (from one player's side): 100 per cannibal of hand difference, then, per cannibal
that could be sandwiched on the next placement, the chance (out of 27) of rolling the column
that does it: minus for one's own exposed cannibals, plus for the enemy's.

Everything works on the board's cells (0 empty, 1 player 0, 2 player 1), placing and taking back
in place, so a search allocates little.
"""

from shared_rules._compat import const
from shared_rules.lets_do_lunch.rules import PLACE, eat

EASY = const(1)
MEDIUM = const(2)
HARD = const(3)
HARD_DEPTH = const(2)

_WIN = const(100000)

# The rolls that matter, grouped: (column or None for the 1-2-3 pass, rolls again, weight/27).
_OUTCOMES = (
    (5, False, 6),
    (7, False, 6),
    (None, False, 6),
    (4, False, 3),
    (8, False, 3),
    (3, True, 1),
    (6, True, 1),
    (9, True, 1),
)
# Chance (out of 27) of rolling a column that lets a cannibal be placed there: sum 6 is a
# placement only on 2-2-2 (1-2-3 passes).
_COL_WEIGHT = (1, 3, 6, 1, 6, 3, 1)


def _exposure(cells):
    """How exposed each side's cannibals are, as [_, side 1, side 2]: for each cannibal outside
    the River with an enemy on one side and an empty space on the other (in a line, wrapping
    vertically), the chance in 27 that the enemy rolls the column of that empty space. Longer
    runs are left to the search. (Unrolled: this is the search's inner loop.)"""
    t1 = 0
    t2 = 0
    for x in (0, 1, 2, 4, 5, 6):
        wv = _COL_WEIGHT[x]
        sides = 0 < x < 6
        if sides:
            wl = _COL_WEIGHT[x - 1]
            wr = _COL_WEIGHT[x + 1]
        for y in range(7):
            i = y * 7 + x
            s = cells[i]
            if not s:
                continue
            o = 3 - s
            up = cells[i - 7] if y else cells[i + 42]
            dn = cells[i + 7] if y < 6 else cells[x]
            t = 0
            if (up == o and not dn) or (dn == o and not up):
                t = wv
            if sides:
                left = cells[i - 1]
                right = cells[i + 1]
                if right == o and not left:
                    t += wl
                elif left == o and not right:
                    t += wr
                if 0 < y < 6:
                    ul = cells[i - 8]
                    ur = cells[i - 6]
                    dl = cells[i + 6]
                    dr = cells[i + 8]
                    if ur == o and not dl:
                        t += wl
                    elif dl == o and not ur:
                        t += wr
                    if dr == o and not ul:
                        t += wl
                    elif ul == o and not dr:
                        t += wr
            if s == 1:
                t1 += t
            else:
                t2 += t
    return [0, t1, t2]


W_NEXT = 4
W_LATER = 1


def evaluate(cells, hands, me, to_roll):
    """The value of a position for ``me`` (0 or 1), ``to_roll`` rolling next; hands as
    [player 0, player 1]. The roller's threats count more: it tries them first."""
    opp = 1 - me
    if hands[me] == 0:
        return _WIN + hands[opp]
    if hands[opp] == 0:
        return -_WIN - hands[me]
    exposed = _exposure(cells)
    mine = exposed[opp + 1]  # what I threaten
    theirs = exposed[me + 1]
    if to_roll == me:
        return 100 * (hands[opp] - hands[me]) + W_NEXT * mine - W_LATER * theirs
    return 100 * (hands[opp] - hands[me]) + W_LATER * mine - W_NEXT * theirs


def _material(hands, me):
    opp = 1 - me
    if hands[me] == 0:
        return _WIN + hands[opp]
    if hands[opp] == 0:
        return -_WIN - hands[me]
    return 100 * (hands[opp] - hands[me])


class _Search:
    """Expectimax over placements and rolls, placing and taking back in ``cells``. With
    ``full`` False the leaves count material only (the positional part is added once, at the
    root, by ``scores``: the evaluation is most of a search's time on a Pico)."""

    __slots__ = ("cells", "hands", "me", "full", "nodes", "threats")

    def __init__(self, cells, hands, me, full=True):
        self.cells = cells
        self.hands = hands
        self.me = me
        self.full = full
        self.nodes = 0
        # sum over the columns of (chance in 27) x (the most the last placer can eat there):
        # at depth 2 that is the enemy's threats after HARD's placement, which the positional
        # term needs, so the search hands it over instead of it being computed twice
        self.threats = 0

    def chance(self, mover, depth):
        """Expected value for ``me`` when ``mover`` is about to roll."""
        if depth == 0:
            if self.full:
                return evaluate(self.cells, self.hands, self.me, mover)
            return _material(self.hands, self.me)
        total = 0
        for col, again, w in _OUTCOMES:
            if col is None:
                v = self.chance(1 - mover, depth - 1)
            else:
                v = self.decide(mover, col, again, depth)
            total += w * v
        return total // 27

    def decide(self, mover, col, again, depth):
        """Value for ``me`` of ``mover`` choosing best in ``col``."""
        cells = self.cells
        x = col - 3
        if depth == 1 and not self.full:
            # The last placement with material-only leaves: whoever places takes the most it
            # can eat, and nothing needs placing (``eat`` does not read the origin cell).
            most = -1
            for i in range(x, 49, 7):
                if not cells[i]:
                    n = len(eat(cells, i, mover + 1))
                    if n > most:
                        most = n
            if most >= 0:
                self.threats += _COL_WEIGHT[x] * most
                self.nodes += 1
                hands = self.hands
                hands[mover] -= 1
                hands[1 - mover] += most
                v = _material(hands, self.me)
                hands[mover] += 1
                hands[1 - mover] -= most
                return v
            return self.chance(mover if again else 1 - mover, 0)
        best = None
        maximize = mover == self.me
        for y in range(7):
            i = y * 7 + x
            if cells[i]:
                continue
            v = self.after(mover, i, again, depth)
            if best is None or (v > best if maximize else v < best):
                best = v
        if best is None:  # full column: pass, or roll again on a triple
            return self.chance(mover if again else 1 - mover, depth - 1)
        return best

    def after(self, mover, i, again, depth):
        """Value for ``me`` after ``mover`` places at ``i`` (then taken back)."""
        self.nodes += 1
        cells = self.cells
        hands = self.hands
        side = mover + 1
        cells[i] = side
        eaten = eat(cells, i, side)
        for j in eaten:
            cells[j] = 0
        hands[mover] -= 1
        hands[1 - mover] += len(eaten)
        if hands[mover] == 0:
            v = _material(hands, self.me)
        else:
            v = self.chance(mover if again else 1 - mover, depth - 1)
        hands[mover] += 1
        hands[1 - mover] -= len(eaten)
        other = 2 - mover
        for j in eaten:
            cells[j] = other
        cells[i] = 0
        return v


def _pick(options, rng):
    if rng is None or len(options) == 1:
        return options[0]
    return options[rng.randbelow(len(options))]


# HARD's positional term after its own placement: its own best capture on each column it
# might roll next, weighted by the chance of that column; less a little for its exposed
# cannibals, for the enemy's captures waiting on the board (the search already counts the
# enemy's very next roll; these threats stay for the rolls after it) and for each of its own
# cannibals next to the new one (a group gives the enemy longer runs to close); plus a
# little for the top and bottom rows (one diagonal direction instead of two). The weights were
# tuned by playing greedy: docs/lets-do-lunch.md.
H_MINE = 4
H_THEIRS = 1
H_ENEMY_THREATS = 2
H_OWN_NEIGHBOURS = 2
H_EDGE_ROW = 4


def _threats(cells, side):
    """Sum over the columns of (chance in 27 of rolling that column) x (the most ``side``
    could eat by placing there now)."""
    total = 0
    for x in range(7):
        best = 0
        for e in range(x, 49, 7):
            if not cells[e]:
                n = len(eat(cells, e, side))
                if n > best:
                    best = n
        total += _COL_WEIGHT[x] * best
    return total


def _neighbours(cells, i, side):
    """How many of the eight spaces around ``i`` hold ``side``: straight up and down wrap in
    the column (It's Cooked!), nothing else wraps."""
    x = i % 7
    y = i // 7
    n = (cells[i - 7 if y else i + 42] == side) + (cells[i + 7 if y < 6 else x] == side)
    for dx in (-1, 1):
        if 0 <= x + dx <= 6:
            j = i + dx
            n += cells[j] == side
            if y:
                n += cells[j - 7] == side
            if y < 6:
                n += cells[j + 7] == side
    return n


def _positional_after(cells, hands, me, i, enemy_threats=None):
    """HARD's positional term once ``me`` has placed at ``i`` (cells restored);
    ``enemy_threats`` is ``_threats`` for the enemy after it, if the search already knows."""
    side = me + 1
    cells[i] = side
    eaten = eat(cells, i, side)
    for j in eaten:
        cells[j] = 0
    v = 0
    if hands[me] > 1:  # not the winning placement
        v = (H_MINE * _threats(cells, side) - H_THEIRS * _exposure(cells)[side]
             - H_ENEMY_THREATS * (_threats(cells, 3 - side) if enemy_threats is None
                                  else enemy_threats)
             - H_OWN_NEIGHBOURS * _neighbours(cells, i, side))
        y = i // 7
        if y == 0 or y == 6:
            v += H_EDGE_ROW
    for j in eaten:
        cells[j] = 3 - side
    cells[i] = 0
    return v


def scores(match, level=HARD, depth=HARD_DEPTH):
    """``[(action, value)]`` for each legal placement of the current player, by ``level``."""
    if match.phase != PLACE:
        raise ValueError("the computer chooses only where to place (phase {})".format(
            match.phase))
    me = match.player
    col = match.column
    cells = bytearray(match.board.cells)
    hands = [match.hands[0], match.hands[1]]
    search = _Search(cells, hands, me, level != HARD)
    out = []
    for row in match.board.empty_rows(col):
        i = (row - 1) * 7 + col - 3
        if level == HARD:
            search.threats = 0
            v = search.after(me, i, match.again, depth)
            # at depth 2 the enemy's every roll was searched right after this placement, unless
            # this was a triple (HARD rolls again) or the placement won
            known = search.threats if depth == 2 and not match.again else None
            v += _positional_after(cells, hands, me, i, known)
        elif level == MEDIUM:
            v = search.after(me, i, match.again, 1)
        else:
            cells[i] = me + 1
            v = len(eat(cells, i, me + 1))
            cells[i] = 0
        out.append((col * 10 + row, v))
    return out


def greedy_action(match, rng=None):
    """The baseline: the placement that eats the most now, ties at random."""
    return _best(scores(match, EASY), rng)


def _best(scored, rng):
    top = max(v for _, v in scored)
    return _pick([a for a, v in scored if v == top], rng)


def choose(match, level=HARD, rng=None, depth=HARD_DEPTH):
    """The computer's action for the current decision. Rolls are not decisions (the caller
    rolls with ``roll_dice``); in a strict-table ANNOUNCE the computer always announced."""
    if level not in (EASY, MEDIUM, HARD):
        raise ValueError("level must be 1, 2 or 3, got {!r}".format(level))
    if match.is_chance() or match.is_over():
        raise ValueError("no decision to make now")
    if match.phase != PLACE:
        return 1  # ANNOUNCED
    if level == EASY:
        scored = scores(match, EASY)
        if rng is not None and rng.randbelow(3):
            return _pick([a for a, _ in scored], rng)  # two times in three: anywhere
        return _best(scored, rng)
    return _best(scores(match, level, depth), rng)
