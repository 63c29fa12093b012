"""Let's Do Lunch on the device, through the buttons: the firmware App on the simulator's
hardware (real displayio through Blinka, the virtual clock, nvm), stepped press by press by
bench/lets_do_lunch_presses.py's Player, which decides like a person, checks every action the
screen applies against an independent engine, and checks every screen's layout (no text off
the screen, overlapping or cut)."""

import os
import sys
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from lets_do_lunch_presses import (  # after the SDL settings
    BACK,
    NEXT,
    OK,
    PREV,
    UNDO,
    Box,
    Player,
    setup,
)

try:  # until the GameScreen base is in and the menu opens the game
    import companion.screen.game  # noqa: F401
    from companion.app.loader import game_info

    if game_info("lets_do_lunch")[3] is None:
        raise ImportError("not in the menu yet")
except ImportError as e:
    pytest.skip("Let's Do Lunch screens not wired yet: {}".format(e), allow_module_level=True)


def shown(box):
    """Everything on the screen as one line (the panel's lines are one label)."""
    return " ".join(t.replace("\n", " ") for t in box.texts())


def screen_name(box):
    return type(box.top).__name__


def record_games(box):
    """The finished-game records kept in nvm, replayed."""
    from companion.store.records import open_envelope
    from shared_rules import games

    out = []
    for _seq, kind, payload in box.store.records():
        if kind in (1, 3):
            out.append(games.replay(open_envelope(kind, payload)[2]))
    return out


@pytest.mark.parametrize("computer,level,typed,target", [
    (None, 3, False, 10),  # two people at the table
    (1, 1, False, 5),  # against Easy, the computer plays B
    (0, 2, False, 5),  # against Medium, the computer plays A
    (1, 3, False, 5),  # against Hard
    (1, 3, True, 5),  # against Hard, the table rolls and types the dice
])
def test_complete_match_through_the_buttons(profile, computer, level, typed, target):
    box = Box(profile, dice_seed=11 + target + (computer or 0))
    try:
        setup(box, computer, level, typed, target=target)
        p = Player(box, 2, seed=5, check_layout=True)
        texts = p.play_match()
        assert p.problems == []
        joined = " ".join(texts)
        recs = record_games(box)
        last = recs[-1]
        w = last.winners()[0]
        name = "Computer" if w == computer else ("P1", "P2")[w]
        assert texts[0] == "Game over" and "{} wins!".format(name) in joined
        assert "{}:{} in".format(*last.match_scores()) in joined
        assert len(recs) == p.games + 1  # one record per game of the match
        total = [0, 0]
        for g in recs:
            assert g.ended is not None  # each record is one whole game
            assert g.params[:2] == (target, 0)
            total = g.match_scores()
        assert max(total) >= target  # the last record ends the match
        assert recs[-1].is_terminal()
        seen = {mode for name, mode in p.modes if name == "PlayScreen"}
        from companion.games.lets_do_lunch.panel import ENDED, PLACING

        assert PLACING in seen and (ENDED in seen or p.games == 0)
    finally:
        box.close()


def start(profile, computer=None, typed=False, seed=3, strict=False, nvm_path=None):
    box = Box(profile, dice_seed=seed, nvm_path=nvm_path)
    setup(box, computer, 3, typed, strict=strict)
    return box


def roll_to_placing(box):
    """Human rolls (device dice) until one of them has a column to place in."""
    from companion.games.lets_do_lunch.panel import PLACING

    for _ in range(40):
        box.settle()
        if box.top.mode == PLACING:
            return
        box.press(OK)
    raise AssertionError("no placement came up")


def test_setup_starts_a_match_against_hard_with_one_press(profile):
    box = Box(profile)
    try:
        box.press(NEXT)
        box.press(OK)
        assert screen_name(box) == "SetupScreen"
        t = box.texts()
        assert t[0] == "Let's Do Lunch" and "Start" in t
        setup = box.top  # who plays, in words: "Against computer" (or "a person"), and the
        # computer's pieces as the board draws them (seat B: brown, hollow on the OLED)
        side = "hollow" if profile == "pico-ssd1306-5btn" else "brown"
        assert (setup.items()[:3], setup.marks()[:3]) == (
            ["Against", "Computer", "Computer is"], ["computer", "Hard", side])
        box.press(OK)
        s = box.top
        assert screen_name(box) == "PlayScreen"
        assert s.setup.computer == 1 and s.setup.level == 3 and not s.setup.typed
        assert s.game.params[:2] == (20, 0)
        assert box.problems() == []
    finally:
        box.close()


def test_a_turn_lights_the_column_and_the_cursor_stays_on_free_rows(profile):
    box = start(profile)
    try:
        roll_to_placing(box)
        s = box.top
        m = s.m
        col = m.column
        assert "= {}".format(col) in shown(box)  # the dice and the column
        # the lit column: every cell of it drawn lit (or the cursor)
        lit = [s.board.tiles[(r - 1) * 7 + col - 3] for r in range(1, 8)]
        assert all(v >= 14 for v in lit)
        free = m.board.empty_rows(col)
        seen = set()
        for button in (NEXT,) * 9 + (PREV,) * 9:
            box.press(button)
            assert s.row in free
            seen.add(s.row)
            cur = (s.row - 1) * 7 + col - 3
            assert s.board.tiles[cur] >= 21  # the cursor's picture
        assert seen == set(free)
        before = len(s.game.actions())
        row = s.row
        box.press(OK)
        assert s.game.actions()[before] == col * 10 + row
        assert m.board is not None and s.game.engine.board.get(col, row) == 0
        assert box.problems() == []
    finally:
        box.close()


def to_computers_placement(box):
    """OK pressed until the computer's placement is held for the table to see; the screen."""
    from companion.games.lets_do_lunch.panel import HOLD

    for _ in range(60):
        box.settle()
        s = box.top
        if s.mode == HOLD and s.is_computer(s.held) and s.note.startswith("row "):
            return s
        box.press(OK)
    raise AssertionError("the computer never placed")


def test_computer_shows_its_move_and_waits_for_ok(profile):
    from companion.games.lets_do_lunch.panel import HOLD

    box = start(profile, computer=1, seed=8)
    try:
        s = to_computers_placement(box)
        acts = s.game.actions()
        placed = [a for a in acts if 31 <= a <= 97][-1]
        t = shown(box)
        # the row in words; the column is the dice's sum on the line above it
        assert "Computer" in t and "row {}".format(placed % 10) in t
        assert "= {}".format(placed // 10) in t
        n = len(acts)
        box.wait(5000)
        assert s.mode == HOLD and len(s.game.actions()) == n  # it waits for the table
        box.press(OK)
        box.settle()
        assert s.mode != HOLD or s.is_computer(s.held)
    finally:
        box.close()


def test_hard_says_it_is_thinking_before_its_search(profile):
    from companion.games.lets_do_lunch.panel import THINKING

    box = start(profile, computer=1, seed=8)
    try:
        for _ in range(200):
            s = box.top
            if s.mode == THINKING and s.frame == -1:
                assert "thinking" in shown(box)
                return
            if s.mode in (0, 3, 5):
                box.press(OK)
            else:
                box.step()
        raise AssertionError("no search seen")
    finally:
        box.close()


def type_dice(box, dice):
    for v in dice:
        if v != 2:
            box.press(PREV if v == 1 else NEXT)
        box.press(OK)


def test_typed_dice_one_picker_each_and_undo_of_a_wrong_roll(profile):
    from companion.games.lets_do_lunch.panel import TYPING

    box = start(profile, typed=True)
    try:
        s = box.top
        assert s.mode == TYPING and "[2] 2 2" in shown(box)
        type_dice(box, (1, 2, 3))  # P1's starting roll: 6
        type_dice(box, (1, 1, 1))  # P2's: 3, so P1 starts
        assert s.m.player == 0 and s.mode == TYPING
        box.press(NEXT)
        assert "[3] 2 2" in shown(box)
        box.press(BACK)  # at the first die Back leaves to the menu; the match is saved
        assert screen_name(box) == "MainMenu"
    finally:
        box.close()


def test_undo_of_a_typed_roll_and_of_a_placement(profile, tmp_path):
    from companion.games.lets_do_lunch.panel import PLACING, TYPING

    box = start(profile, typed=True)
    try:
        s = box.top
        type_dice(box, (1, 2, 3))
        type_dice(box, (1, 1, 1))
        type_dice(box, (2, 2, 3))  # P1 rolls 7
        assert s.mode == PLACING and s.m.column == 7
        n = len(s.game.actions())
        box.press(UNDO)  # a wrongly typed roll: back to the picker
        assert s.mode == TYPING and len(s.game.actions()) == n - 1
        assert "Undone" in " ".join(box.texts())
        type_dice(box, (2, 2, 1))  # what was really rolled: 5
        assert s.mode == PLACING and s.m.column == 5
        row = s.row
        box.press(OK)
        assert s.game.engine.board.get(5, row) == 0
        box.press(UNDO)
        assert s.mode == PLACING and s.game.engine.board.get(5, row) is None
        box.press(NEXT)
        box.press(OK)
        assert s.game.engine.board.get(5, s.row) == 0
        assert box.problems() == []
    finally:
        box.close()


def test_undo_skips_the_computers_own_steps(profile):
    from companion.games.lets_do_lunch.panel import PLACING

    box = start(profile, computer=1, seed=8)
    try:
        to_computers_placement(box)
        box.press(OK)  # the OK after the computer's move also rolls for the human
        box.settle()
        roll_to_placing(box)
        s = box.top
        assert s.mode == PLACING and not s.is_computer(s.m.player)
        box.press(UNDO)  # back before the human's roll
        box.press(UNDO)  # and over the computer's roll and placement, to the human before
        box.settle()
        assert s.mode in (PLACING, 0) and not s.is_computer(s.m.player)
    finally:
        box.close()


def test_one_to_three_and_a_full_column_are_said_in_words(profile):
    """Column 4 filled without a capture, then a 1-1-2 on it, and a 1-2-3."""
    from itertools import permutations

    from shared_rules.lets_do_lunch.rules import Board

    order = None
    for rows in permutations(range(1, 8)):
        b = Board()
        if all(not b.place(k % 2, 4, rows[k]) for k in range(7)):
            order = rows
            break
    box = start(profile, typed=True)
    try:
        s = box.top
        type_dice(box, (1, 2, 3))
        type_dice(box, (1, 1, 1))  # P1 starts
        type_dice(box, (3, 2, 1))
        t = shown(box)
        assert "1-2-3: no move, the turn passes" in t and "pass" in t
        assert s.m.player == 1  # P2's turn now
        # P2 and P1 fill column 4 in turn (P2 first), then P2 rolls column 4 again
        for k in range(7):
            type_dice(box, (1, 1, 2))
            target = order[k]
            while s.row != target:
                box.press(NEXT)
            box.press(OK)
        assert s.m.board.column_full(4)
        type_dice(box, (1, 2, 1))
        t = shown(box)
        assert "Column 4 is full: the turn passes" in t
        assert box.problems() == []
    finally:
        box.close()


def test_match_figures_and_dice_fairness_one_press_away(profile):
    box = start(profile, seed=4)
    try:
        for _ in range(6):
            box.settle()
            box.press(OK)
        box.settle()
        from companion.games.lets_do_lunch.panel import PLACING

        if box.top.mode == PLACING:
            box.press(OK)
            box.settle()
        box.press(NEXT)
        s = box.top
        assert screen_name(box) == "PlayScreen" and s.figures == 0 and s.board.group.hidden
        t = shown(box)
        assert "Match 1/4" in t and "In hand: A" in t and "P1 0, P2 0" in t
        assert "Target 20" in t
        assert box.problems() == []
        box.press(NEXT)
        t = shown(box)
        assert "Rolled (fair) 2/4" in t and "3: " in t and "~" not in t
        assert box.problems() == []
        box.press(NEXT)
        assert "rolls: few rolls" in shown(box) and "9: " in shown(box)
        box.press(NEXT)  # the verdict
        t = shown(box)
        assert "Too few rolls to judge" in t and "chi2" in t
        assert box.problems() == [] and "~" not in t
        box.press(NEXT)
        assert "In hand" in shown(box)  # round again
        box.press(PREV)
        assert "Dice 4/4" in shown(box)
        box.press(OK)
        assert s.figures is None and not s.board.group.hidden
        assert screen_name(box) == "PlayScreen"
    finally:
        box.close()


def test_resume_after_a_power_cut_mid_turn(profile, tmp_path):
    """The record keeps who plays (the computer's level and seat, typed dice): a resumed
    match goes straight back to the board, the same players, nothing asked."""
    from companion.games.lets_do_lunch.panel import PLACING

    nvm = str(tmp_path / "nvm.bin")
    box = start(profile, computer=1, seed=6, nvm_path=nvm)
    roll_to_placing(box)
    s = box.top
    acts = s.game.actions()
    box.close()
    again = Box(profile, nvm_path=nvm)  # the power came back
    try:
        assert again.texts()[0] == "Resume game?" and "Let's Do Lunch" in again.texts()
        again.press(OK)
        s = again.top
        assert screen_name(again) == "PlayScreen"
        assert s.game.actions() == acts and s.mode == PLACING
        assert (s.setup.computer, s.setup.level, s.setup.typed) == (1, 3, False)
    finally:
        again.close()


@pytest.mark.parametrize("computer,level,typed", [(0, 2, True), (None, 3, False),
                                                  (1, 1, False)])
def test_a_resumed_match_keeps_who_plays(profile, tmp_path, computer, level, typed):
    from companion.games.lets_do_lunch.panel import TYPING

    nvm = str(tmp_path / "nvm.bin")
    box = Box(profile, dice_seed=4, nvm_path=nvm)
    setup(box, computer, level, typed)
    box.press(OK)  # a roll (typed: the first die)
    box.settle()
    acts = box.top.game.actions()
    params = box.top.game.params
    box.close()
    again = Box(profile, nvm_path=nvm)
    try:
        again.press(OK)  # "Resume"
        s = again.top
        assert screen_name(again) == "PlayScreen", again.texts()
        assert s.game.actions() == acts and s.game.params == params
        assert (s.setup.computer, s.setup.typed) == (computer, typed)
        if computer is not None:
            assert s.setup.level == level
        if typed:
            assert s.mode == TYPING
    finally:
        again.close()


def test_an_older_record_without_the_players_asks_who_plays(profile, tmp_path):
    """A save from before the record kept the players (target and strict only): the table is
    asked, the last row (Resume) selected and the usual answers set (against Hard, B)."""
    from companion.store.store import Store
    from lunchbox.sim import Simulator
    from shared_rules import games
    from shared_rules._codec import checksum
    from shared_rules.protocol import put_action

    # format 1, Let's Do Lunch, two params (target 10, strict off), no base, one roll: 333
    data = bytearray((1, 1, 2, 10, 0, 0, 0))
    put_action(data, 333)
    data = bytes(data) + checksum(data)
    assert games.from_bytes(data).actions() == [333]
    nvm = str(tmp_path / "nvm.bin")
    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    Store(sim.nvm).save_game("lets_do_lunch", data)
    sim.close()
    box = Box(profile, nvm_path=nvm)
    try:
        box.press(OK)  # "Resume"
        t = box.texts()
        assert screen_name(box) == "SetupScreen"
        assert t[0].startswith("Resume") and "Resume" in t
        box.press(OK)
        s = box.top
        assert screen_name(box) == "PlayScreen"
        assert s.game.actions() == [333] and s.game.params == (10, 0, 3 + 4 * 1, 0)
        assert (s.setup.computer, s.setup.level, s.setup.typed) == (1, 3, False)
        # saved with the players now: the next resume asks nothing
        assert games.from_bytes(box.store.load_game()[1]).params == (10, 0, 7, 0)
    finally:
        box.close()


def test_a_cut_at_random_points_of_a_save_resumes_to_the_last_action_or_earlier(profile):
    """Power fails part-way through the save of a placement (a flash that programs only the
    first k bytes): the box comes back with the game as it was before or after it."""
    import random

    from _flash import FlashNVM, PowerCut

    rnd = random.Random(14)
    flash = FlashNVM()
    box = Box(profile, nvm=flash, dice_seed=2)
    try:
        setup(box, 1, 3, False)
        for trial in range(8):
            roll_to_placing(box)
            old = box.top.game.actions()
            image = flash.copy()
            image.cut_after = rnd.randrange(1, 100)
            box.store._nvm = image  # the placement's save goes to a flash that loses power
            try:
                box.press(OK)
            except PowerCut:
                pass
            new = box.top.game.actions()[:len(old) + 1]
            box.close()
            image.power_on()
            flash = image
            box = Box(profile, nvm=flash, dice_seed=trial)  # the power comes back
            assert box.texts()[0] == "Resume game?", trial
            box.press(OK)
            assert screen_name(box) == "PlayScreen", trial  # the record says who plays
            got = box.top.game.actions()
            assert got in (old, new), (trial, len(old), len(got))
    finally:
        box.close()


def test_strict_table_asks_about_the_last_man(profile):
    """A strict table: the box asks whether the last man was announced; a forgotten one
    passes that player's next turn (the Player answers "forgot" about half the time)."""
    from companion.games.lets_do_lunch.panel import ASK

    box = Box(profile, dice_seed=31)
    try:
        setup(box, None, 3, False, strict=True, target=5)
        p = Player(box, 2, seed=9, forget_every=2, check_layout=True)
        p.play_match()
        assert p.problems == []
        assert ("PlayScreen", ASK) in p.modes
        recs = record_games(box)
        assert recs and all(g.params[:2] == (5, 1) for g in recs)
    finally:
        box.close()


def test_a_corrupt_save_says_so_and_starts_a_new_match(profile, tmp_path):
    from companion.store.store import Store
    from lunchbox.sim import Simulator

    nvm = str(tmp_path / "nvm.bin")
    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    Store(sim.nvm).save_game("lets_do_lunch", b"\x01\x01\x02\x14\x00\x00\x00junk")
    sim.close()
    box = Box(profile, nvm_path=nvm)
    try:
        assert box.texts()[0] == "Resume game?"
        box.press(OK)
        assert screen_name(box) == "SetupScreen"
        assert "Save unreadable" in shown(box)
        assert box.store.load_game() is None  # the unreadable save is gone, nothing else
    finally:
        box.close()
