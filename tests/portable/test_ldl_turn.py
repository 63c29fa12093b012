"""Let's Do Lunch on the device: the turn helpers (companion.games.lets_do_lunch.turn) and the roll
history verdict (shared_rules.lets_do_lunch.fair). CPython and MicroPython."""

from companion.games.lets_do_lunch.turn import (
    Dice,
    dice_line,
    move_words,
    presses_to,
    roll_words,
    start_row,
    step_row,
)
from shared_rules.lets_do_lunch.fair import chi_text, rows, tenths, total, verdict
from shared_rules.lets_do_lunch.rules import SUM_WEIGHTS


def test_roll_words_explain_each_case():
    assert roll_words(7, False, False) == ("", "")
    assert roll_words(None, False, False) == ("pass", "1-2-3: no move, the turn passes")
    assert roll_words(7, False, True) == ("pass", "Column 7 is full: the turn passes")
    assert roll_words(9, True, True) == ("again", "Column 9 full; triple: roll again")
    assert roll_words(3, True, False) == ("again", "Triple: place, then roll again")
    for col, again, full in ((None, 0, 0), (9, 1, 1), (9, 0, 1), (3, 1, 0)):
        assert len(roll_words(col, again, full)[1]) <= 36  # a two-line message on either display
    assert dice_line((2, 3, 2)) == "2 3 2 = 7"
    assert dice_line((3, 1, 2)) == "3 1 2"


def test_cursor_starts_on_the_biggest_capture_else_near_the_middle():
    assert start_row([1, 2, 6, 7], [0, 0, 0, 0]) in (2, 6)
    assert start_row([1, 2, 6, 7], [0, 0, 0, 0]) == 2  # the first of two equally near
    assert start_row([1, 2, 6, 7], [0, 1, 0, 2]) == 7
    assert start_row([3, 4, 5], [1, 0, 1]) == 3
    assert start_row([5], [0]) == 5


def test_cursor_steps_over_free_rows_and_wraps():
    free = [1, 3, 4, 7]
    assert step_row(free, 3, 1) == 4
    assert step_row(free, 4, 1) == 7
    assert step_row(free, 7, 1) == 1  # wraps
    assert step_row(free, 1, -1) == 7
    assert step_row(free, 2, 1) == 1  # not a free row (cannot happen): the first one
    assert presses_to(free, 1, 7) == 1  # one press back over the wrap
    assert presses_to(free, 1, 4) == 2
    assert presses_to([1, 2, 3, 4, 5, 6, 7], 4, 1) == 3


def test_move_words():
    assert move_words(7, 4, 2) == "row 4, eats 2"
    assert move_words(3, 1, 0) == "row 1"


def test_dice_picker():
    d = Dice()
    assert d.values == [2, 2, 2] and d.pos == 0
    d.step(1)
    assert d.values[0] == 3
    d.step(1)
    assert d.values[0] == 1  # wraps 3 -> 1
    assert d.ok() is None and d.pos == 1
    d.step(-1)
    assert d.values[1] == 1
    assert d.back() and d.pos == 0
    assert not d.back()
    assert d.ok() is None and d.ok() is None
    assert d.ok() == (1, 1, 2)
    assert Dice().presses((2, 2, 2)) == 3 and Dice().presses((1, 3, 2)) == 5


def test_roll_table_against_fair_dice():
    counts = [1, 3, 6, 7, 6, 3, 1]
    assert total(counts) == 27
    r = rows(counts)
    assert [x[0] for x in r] == [3, 4, 5, 6, 7, 8, 9]
    assert [x[2] for x in r] == [10, 30, 60, 70, 60, 30, 10]  # expected, in tenths
    assert [x[3] for x in r] == list(SUM_WEIGHTS)
    assert rows([0, 0, 0, 1, 0, 0, 0])[3][2] == 3  # 7/27 = 0.26 -> 0.3
    assert tenths(123) == "12.3" and tenths(5) == "0.5"


def test_verdicts_in_words():
    assert verdict([0] * 7)[0] == "few rolls"
    assert "0 of 135" in verdict([0] * 7)[1]
    fair = [w * 10 for w in SUM_WEIGHTS]  # exactly as expected: 270 rolls
    assert verdict(fair) == ("fair", "The dice look fair.")
    assert chi_text(fair) == "chi2 0.00 (6 df)"
    # sevens far too often
    skewed = [10, 30, 60, 70, 100, 30, 10]
    word, sentence = verdict(skewed)
    assert word == "unfair" and "1 time in 100" in sentence
    # a little off: chi-square between the 5% (12.59) and 1% (16.81) points
    odd = [10, 30, 60, 70, 60, 30, 22]
    assert verdict(odd)[0] == "doubtful"
