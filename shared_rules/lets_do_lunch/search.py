"""Let's Do Lunch: the computer's general expectimax, for HARD at a depth other than its own
(bench/lets_do_lunch_ai.py --depth). The device never loads it: HARD at depth 2 is
``ai._hard``, the same search done flat (tests/test_ldl_ai_same_moves.py checks the two
agree), and EASY and MEDIUM are one placement deep (ai.py). ai hands over the positional
term's parts (the rules import one way: ai imports this module, not back).

Everything works on the board's cells (0 empty, 1 player 0, 2 player 1), placing and taking back
in place.
"""

from shared_rules._compat import const
from shared_rules.lets_do_lunch.rules import eat

_WIN = const(100000)  # as ai's (a const named with _ stays in its module)
_COL_WEIGHT = (1, 3, 6, 1, 6, 3, 1)  # as ai's

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

def _material(hands, me):
    opp = 1 - me
    if hands[me] == 0:
        return _WIN + hands[opp]
    if hands[opp] == 0:
        return -_WIN - hands[me]
    return 100 * (hands[opp] - hands[me])


class _Search:
    """Expectimax over placements and rolls, placing and taking back in ``cells``; the leaves
    count material only (the positional part is added once, at the root, by
    ``hard_scores``)."""

    __slots__ = ("cells", "hands", "me", "nodes", "threats")

    def __init__(self, cells, hands, me):
        self.cells = cells
        self.hands = hands
        self.me = me
        self.nodes = 0
        # sum over the columns of (chance in 27) x (the most the last placer can eat there):
        # at depth 2 that is the enemy's threats after HARD's placement, which the positional
        # term needs, so the search hands it over instead of it being computed twice
        self.threats = 0

    def chance(self, mover, depth):
        """Expected value for ``me`` when ``mover`` is about to roll."""
        if depth == 0:
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
        if depth == 1:
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


def _positional_after(parts, cells, hands, me, i, enemy_threats=None):
    """HARD's positional term once ``me`` has placed at ``i`` (cells restored);
    ``enemy_threats`` is ``_threats`` for the enemy after it, if the search already knows."""
    side = me + 1
    cells[i] = side
    eaten = eat(cells, i, side)
    for j in eaten:
        cells[j] = 0
    v = 0
    if hands[me] > 1:  # not the winning placement
        exposure, neighbours, (mine, theirs, enemy, own, edge) = parts
        v = (mine * _threats(cells, side) - theirs * exposure(cells)[side]
             - enemy * (_threats(cells, 3 - side) if enemy_threats is None else enemy_threats)
             - own * neighbours(cells, i, side))
        y = i // 7
        if y == 0 or y == 6:
            v += edge
    for j in eaten:
        cells[j] = 3 - side
    cells[i] = 0
    return v



def hard_scores(match, depth, parts):
    """``[(action, value)]`` for each placement of the current player, HARD searching
    ``depth`` placements; ``parts``: ai's ``(_exposure, _neighbours, (H_MINE, H_THEIRS,
    H_ENEMY_THREATS, H_OWN_NEIGHBOURS, H_EDGE_ROW))`` for the positional term."""
    me = match.player
    col = match.column
    cells = bytearray(match.board.cells)
    hands = [match.hands[0], match.hands[1]]
    search = _Search(cells, hands, me)
    out = []
    for row in match.board.empty_rows(col):
        i = (row - 1) * 7 + col - 3
        search.threats = 0
        v = search.after(me, i, match.again, depth)
        # at depth 2 the enemy's every roll was searched right after this placement, unless
        # this was a triple (HARD rolls again) or the placement won
        known = search.threats if depth == 2 and not match.again else None
        v += _positional_after(parts, cells, hands, me, i, known)
        out.append((col * 10 + row, v))
    return out
