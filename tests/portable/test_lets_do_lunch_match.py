"""Let's Do Lunch: the game and match engine (turns, passes, triples, full columns, last man,
scoring, the match to 20, the 60-byte state), undo through the protocol, and a short seeded
game against the computer. Runs on CPython and in the MicroPython lane."""

from _harness import raises
from shared_rules import games
from shared_rules.lets_do_lunch.ai import EASY, HARD, MEDIUM, choose, greedy_action
from shared_rules.lets_do_lunch.match import SIZE, Match
from shared_rules.lets_do_lunch.rules import (
    ANNOUNCE,
    ANNOUNCED,
    FORGOT,
    PLACE,
    ROLL,
    START,
    roll_dice,
)
from shared_rules.rng import Rng

EMPTY = "......."


def _started(first=0):
    """A match where ``first`` won the starting roll."""
    m = Match()
    if first == 0:
        m.roll((3, 3, 2))
        m.roll((1, 1, 2))
    else:
        m.roll((1, 1, 2))
        m.roll((3, 3, 2))
    assert m.phase == ROLL and m.player == first
    return m


def _position(lines, player, **kw):
    m = Match(**kw)
    m.set_position("\n".join(lines), player)
    return m


def test_starting_roll_higher_sum_starts():
    m = Match()
    assert m.phase == START and m.is_chance() and m.current_player() == 0
    m.roll((1, 1, 1))
    assert m.phase == START and m.current_player() == 1
    m.roll((1, 2, 3))  # 6 beats 3; a 1-2-3 is just a sum here
    assert m.phase == ROLL and m.player == 1
    m = Match()
    m.roll((3, 3, 3))
    m.roll((2, 3, 3))
    assert m.phase == ROLL and m.player == 0


def test_starting_roll_ties_roll_again():
    m = Match()
    m.roll((1, 2, 2))
    m.roll((2, 2, 1))
    assert m.phase == START and m.current_player() == 0 and m.first_sum == 0
    m.roll((2, 2, 2))
    m.roll((1, 1, 1))
    assert m.phase == ROLL and m.player == 0


def test_roll_gives_a_column_and_only_its_empty_spaces():
    m = _started(0)
    assert sorted(m.legal_actions()) == [111, 112, 113, 122, 123, 133, 222, 223, 233, 333]
    assert sum(w for _, w in m.chance_outcomes()) == 27
    m.roll((2, 2, 3))
    assert m.phase == PLACE and m.column == 7 and not m.is_chance()
    assert m.legal_actions() == [71, 72, 73, 74, 75, 76, 77]
    m.apply(74)
    assert m.board.get(7, 4) == 0 and m.hands == [11, 12]
    assert m.phase == ROLL and m.player == 1
    m.roll((1, 2, 2))
    assert m.legal_actions() == [51, 52, 53, 54, 55, 56, 57]
    m.place(3)
    assert m.board.get(5, 3) == 1


def test_one_two_three_passes():
    m = _started(1)
    m.roll((3, 1, 2))
    assert m.phase == ROLL and m.player == 0
    assert m.board.count(0) + m.board.count(1) == 0


def test_triple_places_then_rolls_again():
    m = _started(0)
    m.roll((2, 2, 2))
    assert m.phase == PLACE and m.column == 6 and m.again
    m.place(1)
    assert m.phase == ROLL and m.player == 0  # rolls again
    m.roll((1, 1, 1))
    m.place(7)
    assert m.phase == ROLL and m.player == 0  # and again
    m.roll((1, 1, 2))
    m.place(7)
    assert m.phase == ROLL and m.player == 1
    assert m.hands == [9, 12]


def test_full_column_passes_but_a_triple_still_rolls_again():
    full = ["A......", "B......", "A......", "B......", "A......", "B......", "A......"]
    m = _position(full, 0)
    m.roll((1, 1, 1))  # column 3 is full: no placement, but a triple rolls again
    assert m.phase == ROLL and m.player == 0
    full9 = [line[:6] + line[0] for line in full]
    m = _position(full9, 1)
    m.roll((3, 3, 3))
    assert m.phase == ROLL and m.player == 1
    full4 = ["." + line[0] + "....." for line in full]
    m = _position(full4, 1)
    m.roll((1, 2, 1))  # column 4 full, not a triple: pass
    assert m.phase == ROLL and m.player == 0


def test_captures_in_the_game_go_back_to_the_hand():
    m = _position([EMPTY, EMPTY, EMPTY, "AB.....", EMPTY, EMPTY, EMPTY], 0)
    assert m.hands == [11, 11]
    m.roll((1, 1, 3))
    eaten = m.place(4)
    assert eaten == [(4, 4)] and m.last_eaten == [(4, 4)]
    assert m.hands == [10, 12]
    assert m.board.count(0) + m.hands[0] == 12 and m.board.count(1) + m.hands[1] == 12


def test_bad_input_leaves_the_state_unchanged():
    m = _started(0)
    before = m.to_bytes()
    for bad in (110, 134, 444, 0, 99, -1, 1000, "111", None, 1.5):
        with raises(ValueError):
            m.apply(bad)
        assert m.to_bytes() == before
    for dice in ((0, 1, 1), (1, 1, 4), (1, 1)):
        with raises(ValueError):
            m.roll(dice)
        assert m.to_bytes() == before
    with raises(ValueError, "turn"):
        m.apply(111, player=1)  # the wrong player to move
    assert m.to_bytes() == before
    with raises(ValueError):
        m.place(1)  # nothing to place before the roll
    m.roll((1, 2, 2))  # column 5
    m.place(2)
    m.roll((1, 2, 2))
    before = m.to_bytes()
    for bad in (42, 62, 50, 58, 52, 111, ANNOUNCED):  # another column, off-board, occupied
        with raises(ValueError):
            m.apply(bad)
        assert m.to_bytes() == before
    with raises(ValueError, "occupied"):
        m.place(2)
    with raises(ValueError, "turn"):
        m.apply(53, player=0)
    assert m.to_bytes() == before
    m.apply(53, player=1)


def test_the_device_announces_the_last_man():
    lines = ["AAAA...", "AAAA...", "AAA....", EMPTY, EMPTY, EMPTY, EMPTY]
    m = _position(lines, 0)
    assert m.hands[0] == 1 and m.announcement() is None  # player 0 itself is to roll
    m.roll((1, 2, 3))  # pass: now player 1 rolls, and 0 has one cannibal left
    assert m.announcement() == 0
    assert m.phase == ROLL  # no strict table: the device just says so


def test_strict_table_forgotten_announcement_passes_the_turn():
    lines = ["AAAA...", "AAAA...", "AA.....", EMPTY, EMPTY, EMPTY, "B......"]
    m = _position(lines, 0, strict=True)
    m.roll((1, 1, 2))
    m.place(7)  # player 0 has one cannibal left
    assert m.hands[0] == 1
    assert m.phase == ANNOUNCE and m.current_player() == 0
    assert m.legal_actions() == [ANNOUNCED, FORGOT]
    before = m.to_bytes()
    with raises(ValueError):
        m.apply(111)
    assert m.to_bytes() == before
    m.apply(FORGOT)
    assert m.phase == ROLL and m.player == 1
    m.roll((1, 2, 3))  # player 1 passes; player 0's turn is skipped for forgetting
    assert m.phase == ROLL and m.player == 1
    m.roll((1, 2, 3))
    assert m.phase == ROLL and m.player == 0  # no second announcement, no second penalty
    assert Match.from_bytes(m.to_bytes()).to_bytes() == m.to_bytes()


def test_strict_table_announced():
    lines = ["AAAA...", "AAAA...", "AAA....", EMPTY, EMPTY, EMPTY, EMPTY]
    m = _position(lines, 1, strict=True)
    assert m.phase == ANNOUNCE
    m.apply(ANNOUNCED)
    assert m.phase == ROLL and m.player == 1
    m.roll((1, 2, 3))
    assert m.phase == ROLL and m.player == 0


def test_game_end_scores_and_next_game():
    lines = ["AAAA...", "AAAA...", "AAA....", "B......", EMPTY, EMPTY, EMPTY]
    m = _position(lines, 0)
    m.roll((2, 2, 3))
    m.place(5)
    # player 0 placed all twelve: +11 (player 1's hand), player 1 -11
    assert m.scores == [11, -11] and m.games == 1 and m.last_result == (0, 11)
    assert not m.is_over() and m.phase == START
    assert m.board.count(0) == 0 and m.hands == [12, 12]


def test_match_to_20():
    m = Match()
    m.scores = [15, -15]
    m.games = 3
    m.last_result = (0, 2)
    lines = ["AAAA...", "AAAA...", "AAA....", "BBB....", "BB.....", EMPTY, EMPTY]
    m.set_position("\n".join(lines), 0)
    m.roll((1, 1, 3))
    m.place(7)
    assert m.scores == [22, -22] and m.is_over() and m.winner() == 0
    assert m.legal_actions() == [] and m.current_player() is None
    with raises(ValueError, "over"):
        m.apply(111)
    assert Match.from_bytes(m.to_bytes()).winner() == 0


def test_undo_restores_rolls_and_placements():
    game = games.new("lets_do_lunch")
    for roll in (233, 112):  # 8 beats 4: player 0 starts
        game.apply(roll)
    start = game.engine.to_bytes()
    for a in (122, 54, 233):  # column 5 row 4, then an 8
        game.apply(a)
    for _ in range(3):
        game.undo()
    assert game.engine.to_bytes() == start
    assert game.engine.counts == [0, 1, 0, 0, 0, 1, 0]  # the undone 5 and 8 no longer count
    with raises(ValueError, "undo"):
        games.new("lets_do_lunch").undo()


def test_bytes_budget_and_round_trip():
    m = _started(1)
    data = m.to_bytes()
    assert len(data) == SIZE and SIZE < 100
    assert data[0] == 1 and data[59] == 0  # the format version; the last byte is written 0
    m.roll((1, 3, 3))
    m.place(6)
    back = Match.from_bytes(m.to_bytes())
    assert back.to_bytes() == m.to_bytes()
    assert back.board == m.board and back.hands == m.hands and back.history == m.history


def test_from_bytes_rejects_corruption():
    m = _started(0)
    m.roll((1, 2, 2))
    m.place(4)
    data = m.to_bytes()
    for bad in (b"", data[:-1], data + b"\x00", b"\x02" + data[1:], "text", None, 60):
        with raises(ValueError):
            Match.from_bytes(bad)
    # every single-byte change either gives a consistent state or a ValueError
    for k in range(SIZE):
        for v in (0, 1, 3, 7, 16, 128, 255):
            if v == data[k]:
                continue
            bad = data[:k] + bytes((v,)) + data[k + 1:]
            try:
                back = Match.from_bytes(bad)
            except ValueError:
                continue
            assert back.to_bytes() == bad


def test_roll_history_and_counts():
    m = _started(0)
    assert m.counts == [0, 1, 0, 0, 0, 1, 0]  # the starting rolls, 8 and 4, count too
    rng = Rng(3)
    n = 2
    while n < 40:
        if m.is_chance():
            m.roll(roll_dice(rng))
            n += 1
        else:
            m.apply(m.legal_actions()[0])
    assert sum(m.counts) == 40
    assert len(m.history) == 32
    assert m.history[-1] == sum(m.last_dice)


def test_computer_levels_choose_legal_placements():
    m = _position([EMPTY, EMPTY, "B......", "AB.....", EMPTY, EMPTY, EMPTY], 0)
    m.roll((1, 1, 3))  # column 5: row 4 eats (4, 4)
    for level in (EASY, MEDIUM, HARD):
        a = choose(m, level)
        assert a in m.legal_actions()
    assert choose(m, HARD) == 54 and choose(m, MEDIUM) == 54
    assert greedy_action(m) == 54
    with raises(ValueError):
        choose(m, 4)
    m.apply(54)
    with raises(ValueError):
        choose(m, HARD)  # a roll is not the computer's decision


def test_computer_avoids_an_exposed_space():
    # Column 5 rolled, an enemy at (5, 1): rows 2 and 7 (by the wrap) would sit next to it with
    # an empty space beyond, for the enemy to close on a roll of 5.
    m = _position(["..B....", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], 0)
    m.roll((1, 2, 2))
    for level in (MEDIUM, HARD):
        for seed in range(4):
            assert choose(m, level, Rng(seed)) not in (52, 57)


def test_hard_prefers_the_capture_that_is_not_eaten_back():
    # Rows 4 and 6 each eat one; row 4 would leave the new cannibal between B at (5, 3) and
    # the empty (5, 5), for B to eat back on a roll of 5.
    m = _position([EMPTY, EMPTY, "..B....", "AB.....", EMPTY, "AB.....", EMPTY], 0)
    m.roll((1, 1, 3))
    for seed in range(4):
        assert choose(m, HARD, Rng(seed)) == 56
    assert greedy_action(m, Rng(0)) in (54, 56)


def test_short_seeded_game_against_the_computer():
    m = Match(target=1)
    dice = Rng(2026)
    rng = Rng(7)
    steps = 0
    while not m.is_over():
        if m.is_chance():
            m.roll(roll_dice(dice))
        else:
            level = MEDIUM if m.current_player() == 0 else EASY
            m.apply(choose(m, level, rng))
        steps += 1
        assert m.board.count(0) + m.hands[0] == 12
        assert m.board.count(1) + m.hands[1] == 12
        if steps % 5 == 0:
            assert Match.from_bytes(m.to_bytes()).to_bytes() == m.to_bytes()
        assert steps < 400
    w = m.winner()
    assert m.hands[w] == 0 and m.scores[w] == m.hands[1 - w] > 0
    assert m.scores[0] + m.scores[1] == 0
