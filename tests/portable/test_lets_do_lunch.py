"""Let's Do Lunch: the contract, every capture example of the rulebook and the ARCHITECTURE
decisions on captures. Runs on CPython and in the MicroPython lane.

Boards are written as in the contract: line 1 = row 1 (top), character 1 = column 3, so the
River (column 6) is the 4th character of each line."""

from _harness import raises
from shared_rules.lets_do_lunch.rules import (
    Board,
    chi_square,
    chi_square_x100,
    dice_of,
    fairness,
    roll_action,
    roll_outcome,
)


def _board(*lines):
    return Board.from_text("\n".join(lines))


EMPTY = "......."


# -- dice --------------------------------------------------------------------------------------

def test_roll_outcome_sums_and_pass():
    assert roll_outcome((2, 2, 3)) == (7, False)  # the rulebook's example: column 7
    assert roll_outcome([1, 1, 2]) == (4, False)
    assert roll_outcome((1, 2, 3)) == (None, False)
    assert roll_outcome((3, 1, 2)) == (None, False)  # any order of 1-2-3 passes
    assert roll_outcome((2, 1, 3)) == (None, False)


def test_roll_outcome_triples_roll_again():
    assert roll_outcome((1, 1, 1)) == (3, True)
    assert roll_outcome((2, 2, 2)) == (6, True)
    assert roll_outcome((3, 3, 3)) == (9, True)


def test_every_roll_is_a_column():
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            for c in (1, 2, 3):
                col, again = roll_outcome((a, b, c))
                assert col is None or 3 <= col <= 9
                assert again == (a == b == c)


def test_roll_outcome_rejects_bad_dice():
    for bad in ((0, 1, 2), (1, 2, 4), (1, 2), (1, 2, 3, 1), (1, "2", 3), (1, 2.0, 3), 7, None,
                (True, 1, 1)):
        with raises(ValueError):
            roll_outcome(bad)


def test_roll_actions():
    assert roll_action((3, 2, 1)) == 123
    assert roll_action((2, 3, 2)) == 223
    assert dice_of(313) == (1, 3, 3)
    for bad in (110, 124, 400, 99, "111"):
        with raises(ValueError):
            dice_of(bad)


# -- board text and contract -------------------------------------------------------------------

def test_board_text_round_trip_and_orientation():
    text = "\n".join(["A......", "......B", EMPTY, "...A...", EMPTY, EMPTY, "B.....A"])
    b = Board.from_text(text)
    assert b.to_text() == text
    assert b.get(3, 1) == 0  # line 1 = row 1, character 1 = column 3
    assert b.get(9, 2) == 1
    assert b.get(6, 4) == 0  # the River is the 4th character
    assert b.get(3, 7) == 1 and b.get(9, 7) == 0
    assert b.get(4, 1) is None
    assert Board().to_text() == "\n".join([EMPTY] * 7)


def test_board_text_errors():
    with raises(ValueError, "7 lines"):
        Board.from_text("\n".join([EMPTY] * 6))
    with raises(ValueError, "7 characters"):
        Board.from_text("\n".join([EMPTY] * 6 + ["......"]))
    with raises(ValueError, "character"):
        Board.from_text("\n".join([EMPTY] * 6 + ["..C...."]))


def test_place_and_get_errors_leave_board_unchanged():
    b = _board("A......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    before = b.to_text()
    for args in ((0, 3, 1), (0, 2, 1), (0, 10, 1), (0, 3, 0), (0, 3, 8), (2, 4, 4), (-1, 4, 4),
                 (0, "4", 4)):
        with raises(ValueError):
            b.place(*args)
        assert b.to_text() == before
    with raises(ValueError, "occupied"):
        b.place(1, 3, 1)
    for args in ((2, 1), (3, 0), (10, 7), (3, 8)):
        with raises(ValueError):
            b.get(*args)
    assert b.place(1, 4, 1) == []
    assert b.get(4, 1) == 1


# -- the rulebook's capture examples -----------------------------------------------------------

def test_example_1_horizontal():
    b = _board(EMPTY, EMPTY, EMPTY, "AB.....", EMPTY, EMPTY, EMPTY)
    assert b.place(0, 5, 4) == [(4, 4)]
    assert b.get(4, 4) is None and b.get(5, 4) == 0 and b.get(3, 4) == 0


def test_example_2_vertical():
    b = _board(EMPTY, ".A.....", ".B.....", EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 4, 4) == [(4, 3)]
    assert b.get(4, 3) is None


def test_example_3_diagonal():
    b = _board("A......", ".B.....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 5, 3) == [(4, 2)]
    # and the other diagonal, upward to the right
    b = _board(EMPTY, EMPTY, EMPTY, "....A..", "...B...", EMPTY, EMPTY)
    assert b.place(0, 5, 6) == []  # (6,5) is in the River: never eaten
    b = _board(EMPTY, EMPTY, EMPTY, ".....A.", "....B..", EMPTY, EMPTY)
    assert b.place(0, 6, 6) == [(7, 5)]


def test_several_cannibals_in_several_directions():
    # "4 Jusqualos trap 4 Sang-Zaretes": the placed one at (5,4) and three others.
    b = _board("..A....",
               "A.B....",
               ".BB....",
               "AB.....",
               EMPTY, EMPTY, EMPTY)
    eaten = b.place(0, 5, 4)
    assert eaten == [(5, 2), (4, 3), (5, 3), (4, 4)]  # sorted by row, then column
    assert b.count(1) == 0 and b.count(0) == 4


def test_every_direction_at_once():
    b = _board("A.A.A..",
               ".BBB...",
               "AB.BA..",
               ".BBB...",
               "A.A.A..",
               EMPTY, EMPTY)
    eaten = b.place(0, 5, 3)
    # the (6, *) ones are in the River and stay
    assert eaten == [(4, 2), (5, 2), (4, 3), (4, 4), (5, 4)]
    assert b.count(1) == 3


def test_a_long_run():
    b = _board(EMPTY, "ABBBB..", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 8, 2) == [(4, 2), (5, 2), (7, 2)]
    assert b.get(6, 2) == 1  # the River cannibal in the run escapes


def test_player_b_captures_too():
    b = _board(EMPTY, EMPTY, "BA.....", EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(1, 5, 3) == [(4, 3)]


def test_no_capture_without_closer_or_through_a_gap():
    b = _board("AB.....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 6, 1) == []  # A B . A: the gap breaks the line
    b = _board(".B.....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 5, 1) == []  # nothing closes the run
    b = _board(".......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "B......")
    assert b.place(0, 3, 6) == []  # the enemy run runs off the board


def test_its_cooked_5a():
    # A Jusqualos placed on the top row (space "A") eats the Sang-Zarete on the bottom row,
    # closed by a Jusqualos above it: the last row is linked to the first.
    b = _board(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "....A..", "....B..")
    assert b.place(0, 7, 1) == [(7, 7)]


def test_its_cooked_5b():
    # A Sang-Zarete placed on the bottom row (space "B") eats the Jusqualos on the top row.
    b = _board(".A.....", ".B.....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(1, 4, 7) == [(4, 1)]


def test_its_cooked_longer_wrap():
    b = _board("..B....", "..B....", "..A....", EMPTY, EMPTY, "..A....", EMPTY)
    assert b.place(0, 5, 7) == [(5, 1), (5, 2)]


def test_its_cooked_not_diagonally_nor_across_the_sides():
    # Column 9 is not linked to column 3.
    b = _board(EMPTY, EMPTY, EMPTY, ".....AB", EMPTY, EMPTY, EMPTY)
    assert b.place(0, 3, 4) == []
    # Diagonals do not wrap top to bottom.
    b = _board(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, ".A.....", "..B....")
    assert b.place(0, 6, 1) == []
    assert b.get(5, 7) == 1


def test_a_wrap_back_to_the_placed_cannibal_eats_nothing():
    b = _board(EMPTY, ".B.....", ".B.....", ".B.....", ".B.....", ".B.....", ".B.....")
    assert b.place(0, 4, 1) == []
    assert b.count(1) == 6


def test_river_cannibal_traps_column_5():
    # The Jusqualos in the River traps the Sang-Zarete in column 5.
    b = _board(EMPTY, EMPTY, ".A.....", EMPTY, EMPTY, EMPTY, EMPTY)
    b.place(1, 5, 3)  # B walks in: safe, only the mover captures
    assert b.place(0, 6, 3) == [(5, 3)]
    # and a River cannibal already there closes a run too
    b = _board(EMPTY, EMPTY, "..BA...", EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 4, 3) == [(5, 3)]


def test_river_cannibal_in_a_trapped_group_escapes():
    # The Sang-Zarete in column 7 is eaten, the one in the River escapes.
    b = _board(EMPTY, EMPTY, EMPTY, "..ABB..", EMPTY, EMPTY, EMPTY)
    assert b.place(0, 8, 4) == [(7, 4)]
    assert b.get(6, 4) == 1


def test_river_cannibal_is_never_eaten():
    b = _board("...A...", "...B...", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 6, 3) == []  # vertically in the River
    b = _board(EMPTY, "..A....", "...B...", EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 7, 4) == []  # diagonally
    assert b.get(6, 3) == 1
    b = _board(EMPTY, EMPTY, "..ABA..", EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 5, 4) == []
    b = _board(EMPTY, EMPTY, "..AB...", EMPTY, EMPTY, EMPTY, EMPTY)
    assert b.place(0, 7, 3) == []  # a run of River cannibals only: nothing to eat


def test_safe_zones():
    # Example 8a: between two enemies on a line, in complete safety.
    b = _board(EMPTY, EMPTY, EMPTY, "B.B....", EMPTY, EMPTY, EMPTY)
    assert b.place(0, 4, 4) == []
    assert b.get(4, 4) == 0 and b.count(1) == 2
    # Example 8b: between enemies on a diagonal and in a column at once.
    b = _board(EMPTY, "B.B.B..", EMPTY, "B.B.B..", EMPTY, EMPTY, EMPTY)
    assert b.place(0, 4, 3) == []
    assert b.place(0, 6, 3) == []
    assert b.count(0) == 2 and b.count(1) == 6


def test_placement_between_enemies_is_only_safe_for_the_mover():
    b = _board(EMPTY, EMPTY, EMPTY, "B.B....", EMPTY, EMPTY, EMPTY)
    b.place(0, 4, 4)
    # B playing elsewhere does not retroactively eat it
    assert b.place(1, 9, 7) == []
    assert b.get(4, 4) == 0


# -- roll statistics ---------------------------------------------------------------------------

def test_chi_square_exact():
    assert chi_square([0] * 7) == (0, 1)
    assert chi_square([1, 3, 6, 7, 6, 3, 1]) == (0, 27 * 27 * 42)  # a perfect table
    # 27 rolls all 9s: (27*27 - 27)^2 * 42 / (27*27*42) + the rest
    num, den = chi_square([0, 0, 0, 0, 0, 0, 27])
    # exact value: sum over k of (27*O - 27*w)^2 * (42/w) / (27*27*42) = 26 * 27 = 702
    assert num == 702 * den
    assert chi_square_x100([0, 0, 0, 0, 0, 0, 27]) == 70200
    with raises(ValueError):
        chi_square([1, 2, 3])
    with raises(ValueError):
        chi_square([1, 2, 3, 4, 5, 6, -7])


def test_fairness_verdicts():
    assert fairness([1, 3, 6, 7, 6, 3, 1]) == "few rolls"
    assert fairness([10, 30, 60, 70, 60, 30, 10]) == "fair"
    assert fairness([10, 30, 60, 70, 60, 30, 40]) == "unfair"
    # just over the 5% point but under the 1% one
    counts = [10, 30, 60, 70, 60, 30, 10]
    verdicts = []
    for extra in range(30):
        counts[6] = 10 + extra
        verdicts.append(fairness(counts))
    assert "doubtful" in verdicts
    assert verdicts.index("doubtful") < verdicts.index("unfair")
