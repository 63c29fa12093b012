"""Let's Do Lunch: a rules audit of the engine against the rulebook and the ARCHITECTURE.md
decisions. Captures are checked against an independent reference written from the decisions
(a line from the placed cannibal to the first own cannibal on it, everything between enemies),
on hand-made positions and on seeded random boards. Runs on CPython and in the MicroPython lane.

Boards: line 1 = row 1 (top), character 1 = column 3; the River is the 4th character."""

from shared_rules.lets_do_lunch.match import Match
from shared_rules.lets_do_lunch.rules import PLACE, ROLL, START, Board, roll_outcome
from shared_rules.rng import Rng

EMPTY = "......."


def _board(*lines):
    return Board.from_text("\n".join(lines))


def _reference_eaten(board, player, column, row):
    """What ``player`` placing at (column, row) eats, from the decisions, on the board before the
    placement. Walks each of 8 lines to the first non-enemy space; vertical lines wrap in the
    column and stop when back at the start; an own cannibal there closes the run."""
    me = player
    opp = 1 - player
    eaten = []
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        between = []
        c = column
        r = row
        while True:
            c += dc
            r += dr
            if dc == 0:
                r = (r - 1) % 7 + 1  # It's Cooked: row 7 is linked to row 1
                if r == row:
                    between = []  # came back to the placed cannibal: nothing
                    break
            elif c < 3 or c > 9 or r < 1 or r > 7:
                between = []  # off the board: no closer
                break
            v = board.get(c, r)
            if v == opp:
                between.append((c, r))
                continue
            if v != me:
                between = []  # an empty space breaks the line
            break
        for c, r in between:
            if c != 6:  # a River cannibal escapes
                eaten.append((c, r))
    return sorted(eaten)


def _check(board, player, column, row):
    want = _reference_eaten(board, player, column, row)
    # The contract does not fix the order of the eaten list.
    got = sorted(board.copy().place(player, column, row))
    assert got == want, (board.to_text(), player, column, row, got, want)
    return got


# -- dice -------------------------------------------------------------------------------------

def test_every_ordered_roll():
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            for c in (1, 2, 3):
                col, again = roll_outcome((a, b, c))
                if sorted((a, b, c)) == [1, 2, 3]:
                    assert col is None and again is False
                else:
                    assert col == a + b + c and 3 <= col <= 9
                    assert again == (a == b == c)


# -- captures ---------------------------------------------------------------------------------

def test_river_enemy_next_to_the_placed_cannibal_does_not_stop_the_run():
    # A places at column 5; B in the River (6) and column 7, A closes at column 8.
    b = _board(EMPTY, EMPTY, "...BBA.", EMPTY, EMPTY, EMPTY, EMPTY)
    assert _check(b, 0, 5, 3) == [(7, 3)]


def test_a_run_of_river_enemies_only_eats_nothing():
    b = _board(EMPTY, EMPTY, "...BA..", EMPTY, EMPTY, EMPTY, EMPTY)
    assert _check(b, 0, 5, 3) == []
    assert b.copy().place(0, 5, 3) == [] and b.get(6, 3) == 1


def test_own_river_cannibal_closes_a_diagonal_run():
    b = _board("...A...", "..B....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert _check(b, 0, 4, 3) == [(5, 2)]


def test_vertical_wrap_in_the_river_eats_nothing():
    b = _board("...A...", "...B...", EMPTY, EMPTY, EMPTY, EMPTY, "...B...")
    assert _check(b, 0, 6, 3) == []


def test_vertical_wrap_through_the_river_column_keeps_river_cannibals():
    # Column 6 top and bottom: A places at row 6, B at 7 and 1 (River), A closes at row 2.
    b = _board("...B...", "...A...", EMPTY, EMPTY, EMPTY, EMPTY, "...B...")
    assert _check(b, 0, 6, 6) == []


def test_wrap_of_a_full_column_of_enemies_eats_nothing():
    b = _board("..B....", "..B....", "..B....", "..B....", "..B....", "..B....", EMPTY)
    assert _check(b, 0, 5, 7) == []


def test_wrap_long_way_round_stops_at_first_own_cannibal():
    # Column 4: A places at row 1; going up wraps to rows 7, 6 (B, B) closed by A at 5.
    b = _board(EMPTY, ".B.....", ".A.....", EMPTY, ".A.....", ".B.....", ".B.....")
    assert _check(b, 0, 4, 1) == [(4, 2), (4, 6), (4, 7)]


def test_no_diagonal_or_horizontal_wrap():
    b = _board(EMPTY, EMPTY, ".....AB", EMPTY, EMPTY, EMPTY, EMPTY)
    assert _check(b, 0, 3, 3) == []  # column 9 is not linked to column 3
    b = _board(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, ".....A.", "......B")
    assert _check(b, 0, 3, 1) == []  # up-left from column 3 row 1 does not wrap


def test_only_the_mover_captures():
    b = _board(EMPTY, EMPTY, "..B.B..", EMPTY, EMPTY, EMPTY, EMPTY)
    assert _check(b, 0, 6, 3) == []
    assert _check(b, 1, 6, 3) == []


def test_random_boards_match_the_reference():
    rng = Rng(20261130)
    for _ in range(120):
        b = Board()
        for i in range(49):
            k = rng.randbelow(5)
            b.cells[i] = 1 if k < 2 else (2 if k < 4 else 0)
        empties = [i for i in range(49) if not b.cells[i]]
        if not empties:
            continue
        for _ in range(3):
            i = rng.choice(empties)
            _check(b, rng.randbelow(2), i % 7 + 3, i // 7 + 1)


# -- the game ---------------------------------------------------------------------------------

def test_starting_roll_one_two_three_is_a_sum_and_ties_repeat():
    m = Match()
    m.roll((1, 2, 3))  # player 0: 6
    m.roll((3, 1, 2))  # player 1: 6, a tie
    assert m.phase == START and m.player == 0
    m.roll((1, 1, 1))  # 3: a triple does not roll again here
    assert m.phase == START and m.player == 1
    m.roll((1, 1, 2))
    assert m.phase == ROLL and m.player == 1


def test_eaten_back_to_hand_and_placeable():
    m = Match()
    m.set_position("\n".join([EMPTY, EMPTY, "..AB...", EMPTY, EMPTY, EMPTY, EMPTY]), 1)
    # B places at column 4 row 3: A at column 5 is closed by B in the River.
    m.roll((1, 1, 2))
    assert m.phase == PLACE and m.column == 4
    eaten = m.place(3)
    assert eaten == [(5, 3)] and m.hands == [12, 10] and m.board.get(5, 3) is None


def test_triple_on_a_full_column_rolls_again_and_ordinary_roll_passes():
    full = "A......"
    m = Match()
    m.set_position("\n".join([full, "B......", full, "B......", full, "B......", full]), 0)
    m.roll((1, 1, 1))
    assert m.phase == ROLL and m.player == 0
    m.roll((1, 1, 2))
    m.place(1)
    assert m.phase == ROLL and m.player == 1
    m.roll((1, 1, 1))
    assert m.phase == ROLL and m.player == 1
    m.roll((1, 2, 3))
    assert m.phase == ROLL and m.player == 0


def test_last_placement_scores_the_loser_hand_after_captures():
    # A has 11 on the board; placing the 12th at column 5 row 4 also eats B at (5, 5) and (5, 6)
    lines = ["AAAA...", "AAAA...", "AA.....", EMPTY, "..B....", "..B....", "..A...."]
    m = Match()
    m.set_position("\n".join(lines), 0)
    assert m.hands == [1, 10]
    m.roll((1, 2, 2))
    m.place(4)
    assert m.scores == [12, -12] and m.last_result == (0, 12)


def test_strict_last_man_is_asked_before_the_opponent_rolls_not_on_a_triple():
    from shared_rules.lets_do_lunch.rules import ANNOUNCE, FORGOT

    lines = ["AAAA...", "AAAA...", "AA.....", EMPTY, EMPTY, EMPTY, EMPTY]
    m = Match(strict=True)
    m.set_position("\n".join(lines), 0)
    assert m.hands == [2, 12]
    m.roll((1, 1, 1))
    m.place(5)  # down to one; the triple rolls again: it is still player 0's own roll
    assert m.hands[0] == 1 and m.phase == ROLL and m.player == 0
    m.roll((2, 1, 3))  # pass: now player 1 is about to roll, so the table is asked
    assert m.phase == ANNOUNCE and m.player == 1 and m.current_player() == 0
    m.apply(FORGOT)
    m.roll((2, 2, 1))
    m.place(5)  # player 1 places; player 0 passes for forgetting
    assert m.phase == ROLL and m.player == 1
