"""Let's Do Lunch: the computer opponent, three levels.

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
  ``depth`` counts placements searched; at 2 (HARD's) ``_hard`` does the search flat, with
  the same values as the general one (tests/test_ldl_ai_same_moves.py), in about a sixth of
  its time on CircuitPython (the general one is kept for MEDIUM and other depths). It beats
  a greedy one-ply player in about 62% of games (bench/lets_do_lunch_ceiling.py, 40,000
  games); a player rolling every position out thousands of times would add only a few points
  (docs/lets-do-lunch.md).

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


# The eight lines through a space, as steps between the 49 cells: (dx, dy) is dx + 7 * dy, and
# up and down wrap in the column, which is stepping modulo 49. For each space and line,
# ``_LEN`` is how many spaces the line has beyond it (6 up or down: the wrap stops short of the
# space itself; 0 when it is under 2, too short to close, or up and down the River, whose
# cannibals are never eaten); for each column and line, ``_RIV`` is where the River lies on
# it, counted from 0 at the first space beyond (7: not on it).
_STEPS = (1, -1, 7, -7, 8, -6, 6, -8)
_LEN = bytearray(392)
_RIV = bytearray(56)
for _i in range(392):
    _x = _i // 8 % 7
    _y = _i // 56
    _dx = (1, -1, 0, 0, 1, 1, -1, -1)[_i % 8]
    _dy = (0, 0, 1, -1, 1, -1, 1, -1)[_i % 8]
    _n = 6 if _dx == 0 else min(6 - _x if _dx > 0 else _x,
                                7 if _dy == 0 else (6 - _y if _dy > 0 else _y))
    if _n > 1 and (_dx or _x != 3):
        _LEN[_i] = _n
    if _i < 56:
        _x = _i // 8
        _RIV[_i] = (3 - _x) * _dx - 1 if _dx and (3 - _x) * _dx > 0 else 7
del _i, _x, _y, _dx, _dy, _n


def _hard(match):
    """``scores`` for HARD at depth 2, flat: the same values as the general search (the
    enemy's every roll and best capture after each placement, or HARD's own on a triple, then
    the positional term), but after each placement one walk from the cannibals on the board
    finds every capture either side could make next (a run of the other side's cannibals
    closed by an empty space) and HARD's exposed cannibals (such a run of one), with no list
    made per space. A Pico's move time is this one's (bench/cp_heap.py: "computer move")."""
    me = match.player
    col = match.column
    again = match.again
    cells = bytearray(match.board.cells)
    side = me + 1
    h_me = match.hands[me]
    h_en = match.hands[1 - me]
    steps = _STEPS
    lens = _LEN
    riv = _RIV
    weight = _COL_WEIGHT
    cnt = bytearray(98)  # what side 1 (then side 2) would eat at each space
    zero = bytes(98)
    most = bytearray(14)  # the most in each column, side 1's then side 2's
    free = bytearray(7)  # the empty spaces in each column
    for p in range(49):
        if not cells[p]:
            free[p % 7] += 1
    mine = me * 7  # ``me``'s columns in ``most``, the enemy's at ``theirs``
    theirs = 7 - mine
    out = []
    for y in range(7):
        i = y * 7 + col - 3
        if cells[i]:
            continue
        cells[i] = side
        eaten = eat(cells, i, side)
        for j in eaten:
            cells[j] = 0
        a = h_me - 1
        b = h_en + len(eaten)
        if a == 0:  # the winning placement: no search, no positional term
            v = _WIN + b
        else:
            free[col - 3] -= 1
            for j in eaten:
                free[j % 7] += 1
            exposed = 0
            for p in range(49):
                s = cells[p]
                if not s:
                    continue
                o = 3 - s
                k0 = p * 8
                for q in range(k0, k0 + 8):
                    n = lens[q]
                    if not n:
                        continue
                    step = steps[q - k0]
                    j = (p + step) % 49
                    if cells[j] != o:
                        continue
                    k = 1
                    while k < n:
                        j = (j + step) % 49
                        c = cells[j]
                        if c != o:
                            if not c:  # s eats k there (a River cannibal stays)
                                if riv[p % 7 * 8 + q - k0] < k:
                                    k -= 1
                                elif k == 1 and s != side:
                                    exposed += weight[j % 7]
                                at = (s - 1) * 49 + j
                                c = cnt[at] + k
                                cnt[at] = c
                                at = (s - 1) * 7 + j % 7
                                if c > most[at]:
                                    most[at] = c
                            break
                        k += 1
            cnt[:] = zero
            # each column: the enemy's roll (HARD's own after a triple), eating the most it
            # can, by material (6 in 27 a pass), and the threats for the positional term
            if b == 0:
                base = -_WIN - a
            else:
                base = 100 * (b - a)
            total = 6 * base
            t_me = 0
            t_en = 0
            for x in range(7):
                w = weight[x]
                if not free[x]:
                    total += w * base
                    continue
                m1 = most[mine + x]
                m2 = most[theirs + x]
                most[mine + x] = 0
                most[theirs + x] = 0
                t_me += w * m1
                t_en += w * m2
                if again:
                    if a == 1:
                        v = _WIN + b + m1
                    elif b + m1 == 0:
                        v = 1 - a - _WIN
                    else:
                        v = 100 * (b + m1 - a + 1)
                elif b == 1:
                    v = -_WIN - a - m2
                else:
                    v = 100 * (b - 1 - a - m2)
                total += w * v
            v = (total // 27 + H_MINE * t_me - H_THEIRS * exposed - H_ENEMY_THREATS * t_en
                 - H_OWN_NEIGHBOURS * _neighbours(cells, i, side))
            if y == 0 or y == 6:
                v += H_EDGE_ROW
            free[col - 3] += 1
            for j in eaten:
                free[j % 7] -= 1
        for j in eaten:
            cells[j] = 3 - side
        cells[i] = 0
        out.append((col * 10 + y + 1, v))
    return out


def scores(match, level=HARD, depth=HARD_DEPTH):
    """``[(action, value)]`` for each legal placement of the current player, by ``level``."""
    if match.phase != PLACE:
        raise ValueError("the computer chooses only where to place (phase {})".format(
            match.phase))
    if level == HARD:
        if depth == 2:
            return _hard(match)
        from shared_rules.lets_do_lunch.search import hard_scores  # other depths: benches

        return hard_scores(match, depth, (_exposure, _neighbours, (
            H_MINE, H_THEIRS, H_ENEMY_THREATS, H_OWN_NEIGHBOURS, H_EDGE_ROW)))
    me = match.player
    col = match.column
    side = me + 1
    cells = bytearray(match.board.cells)
    hands = [match.hands[0], match.hands[1]]
    out = []
    for row in match.board.empty_rows(col):
        i = (row - 1) * 7 + col - 3
        cells[i] = side
        eaten = eat(cells, i, side)
        if level == MEDIUM:  # the position after the placement, the next roller to roll
            for j in eaten:
                cells[j] = 0
            hands[me] -= 1
            hands[1 - me] += len(eaten)
            if hands[me] == 0:
                v = _WIN + hands[1 - me]
            else:
                v = evaluate(cells, hands, me, me if match.again else 1 - me)
            hands[me] += 1
            hands[1 - me] -= len(eaten)
            for j in eaten:
                cells[j] = 3 - side
        else:
            v = len(eaten)
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
