"""Let's Do Lunch records say the right thing about each game: matches played in the simulator
through its buttons (typed dice the table chooses, and the device's own dice), pulled over the
simulated data channel, then read by `lunchbox history` and `lunchbox replay --final`.

A reference engine (shared_rules' Match, fed every action the screen applies, the table's own
choices checked against them) gives each game's winner, points, final board and the match score
after it; each game's record must say the same, the screen must have announced it, and the seats
must carry their players' names ("Computer (Hard)" for the computer). Records written before the
device named its own seats (bytes kept below, as the code of that time wrote them) read the same.

The match's end dialog is not pressed: its "New game" / "Menu" is another fix's (the records are
all kept before it).
"""

import os
import re
import sys
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from lets_do_lunch_presses import NEXT, OK, PREV, Box, setup  # after the SDL settings

pytest.importorskip("pygame")

NAMES = ["ANNA", "BO", "CY", "DEE", "ED", "FAY", "GUS"]
LEVELS = ("Easy", "Medium", "Hard")


def board_text(board):
    return board.to_text()


class Table:
    """Plays the human seats (and types every roll when the dice are typed) by pressing buttons;
    follows the screen's game with its own Match and notes each game's result as it ends."""

    def __init__(self, box, seed):
        from shared_rules.rng import Rng

        self.box = box
        self.rng = Rng(seed)
        self.ref = None
        self.seen = 0
        self.bases = []  # each record's base, as the screen's game starts it
        self.results = []  # per game: winner, points, final board text, match score after
        self.announced = []  # per game: the screen's texts at the game's end
        self.expected = []  # actions the table chose, each checked where the screen applied it

    def follow(self, s):
        from shared_rules.lets_do_lunch.match import Match
        from shared_rules.lets_do_lunch.rules import PLACE

        g = s.game
        acts = g.actions()
        if self.ref is None:
            self.ref = Match.from_bytes(g.base) if g.base else Match(g.params[0],
                                                                     bool(g.params[1]))
            self.bases.append(g.base)
        elif len(acts) < self.seen or g.base != self.bases[-1]:  # the next game's record
            from shared_rules.lets_do_lunch import start

            # a later game's record starts from the short match start (record format 2)
            assert g.base == start.encode(self.ref), "the next game does not start where " \
                "the last one left the match"
            self.bases.append(g.base)
            self.seen = 0
        ref = self.ref
        for a in acts[self.seen:]:
            if self.expected:
                assert a == self.expected.pop(0), "the screen applied {} where the table " \
                    "chose otherwise".format(a)
            board = ref.board
            ending = ref.phase == PLACE and ref.hands[ref.player] == 1
            ref.apply(a)
            if ending:  # the engine deals a new Board: the old object keeps the final position
                w, points = ref.last_result
                self.results.append({"winner": w, "points": points, "board": board_text(board),
                                     "match": list(ref.scores)})
        self.seen = len(acts)
        assert bytes(ref.board.cells) == bytes(g.engine.board.cells)
        assert ref.scores == g.engine.scores and ref.phase == g.engine.phase

    def play(self, max_presses=20000):
        """Press until the match's end dialog; returns its texts."""
        from companion.games.lets_do_lunch.panel import ASK, ENDED, HOLD, IDLE, PLACING, TYPING
        from shared_rules.lets_do_lunch.rules import roll_action

        box = self.box
        play = None
        while box.presses < max_presses:
            box.settle()
            s = box.top
            if type(s).__name__ != "PlayScreen":
                self.follow(play)  # the last game's end: the screen has left the stack
                return box.texts()
            play = s
            self.follow(s)
            mode = s.mode
            if mode == PLACING:
                free = self.ref.board.empty_rows(self.ref.column)
                row = free[self.rng.randbelow(len(free))]
                for _ in range(len(free)):
                    if s.row == row:
                        break
                    box.press(NEXT)
                assert s.row == row
                self.expected.append(self.ref.column * 10 + row)
                box.press(OK)
            elif mode == TYPING:
                dice = [self.rng.randint(1, 3) for _ in range(3)]
                self.expected.append(roll_action(dice))
                for v in dice:
                    if v != 2:
                        box.press(PREV if v == 1 else NEXT)
                    box.press(OK)
            elif mode == ENDED:
                self.follow(s)
                self.announced.append(" ".join(t.replace("\n", " ") for t in box.texts()))
                assert len(self.announced) == len(self.results)
                box.press(OK)
            elif mode in (IDLE, HOLD, ASK):
                box.press(OK)
            else:
                raise AssertionError("unexpected mode {}".format(mode))
        raise AssertionError("the match did not end in {} presses".format(max_presses))


def write_names(nvm_path, names):
    """Names as a host pushes them (the link's SET_SETTINGS stores these bytes)."""
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from lunchbox.sim import hw as sim_hw

    Store(sim_hw.FileNvm(nvm_path)).save_settings(AppSettings(names=names).to_bytes())


def pull(nvm_path, db_path, capsys):
    from test_pull_sim import RunningSim

    from lunchbox import cli

    with RunningSim(nvm_path) as rs:
        assert cli.main(["pull", "--port", rs.port, "--db", db_path]) == 0
    capsys.readouterr()


def shown_name(name):
    """The screen says "Computer"; the record "Computer (Hard)"."""
    return name.split(" (")[0]


@pytest.mark.parametrize("computer,level,typed,target,names,seed", [
    (None, 3, True, 10, NAMES, 4),  # two people, every die typed: the whole match known
    (1, 3, True, 20, None, 7),  # against Hard (it plays B), typed dice, default names
    (0, 1, False, 10, NAMES, 2),  # against Easy playing A, the device's dice
    (1, 2, False, 15, None, 5),  # against Medium, the device's dice
])
def test_each_game_of_a_match_has_its_own_record(tmp_path, capsys, computer, level, typed,
                                                 target, names, seed):
    from lunchbox import cli
    from lunchbox.records import db as dbmod
    from lunchbox.records import gamerec
    from shared_rules import games

    nvm = str(tmp_path / "nvm.bin")
    if names is not None:
        write_names(nvm, names)
    box = Box("pico-display-pack", nvm_path=nvm, dice_seed=seed)
    box.sim.hw.relaunch = None  # the game opens in this App (launch.py: an App built by hand)
    try:
        setup(box, computer, level, typed, target=target)
        table = Table(box, seed)
        end = table.play()
    finally:
        box.close()
    res = table.results
    assert len(res) >= 2, "a match of one game shows nothing about games 1-4"
    assert max(res[-1]["match"]) >= target and all(max(r["match"]) < target for r in res[:-1])

    people = names or ["P{}".format(i + 1) for i in range(7)]
    want_names = [people[0], people[1]]
    if computer is not None:
        want_names[computer] = "Computer ({})".format(LEVELS[level - 1])
    # the screen: each game's end, then the match's
    for r, said in zip(res, table.announced):
        assert "+{} points".format(r["points"]) in said, said
        assert shown_name(want_names[r["winner"]]) in said, said
    last = res[-1]
    end_text = " ".join(end)
    assert end[0] == "Game over" and "{}:{} in {} games".format(
        last["match"][0], last["match"][1], len(res)) in end_text, end
    assert "{} wins!".format(shown_name(want_names[last["winner"]])) in end_text

    db_path = str(tmp_path / "games.db")
    pull(nvm, db_path, capsys)
    with dbmod.Database(db_path) as db:
        rows = db.games()
    assert len(rows) == len(res)  # one record per game
    total = [0, 0]
    for i, (row, r) in enumerate(zip(rows, res)):
        w, p = r["winner"], r["points"]
        assert row["game_id"] == "lets_do_lunch" and row["players"] == want_names
        assert row["winners"] == [w], (i, row["winners"])
        assert row["scores"] == ([p, -p] if w == 0 else [-p, p])
        total = [total[0] + row["scores"][0], total[1] + row["scores"][1]]
        m = gamerec.match(row)
        assert m["scores"] == r["match"] == total and m["game"] == i + 1
        assert m["over"] == (i == len(res) - 1) and m["target"] == target
        assert gamerec.match_text(row) == "{}:{} (game {})".format(*r["match"], i + 1)
        g = games.replay(row["record"])
        assert games.parse(row["record"])[2] == table.bases[i]  # the match as the game began
        assert g.board().to_text() == r["board"]
        assert g.board().count(w) == 12  # the winner's whole tribe is on the final board
        # `lunchbox replay N --final`: that board, that winner and points, the match beside
        assert cli.main(["replay", str(row["id"]), "--final", "--db", db_path]) == 0
        out = capsys.readouterr().out
        drawn = ["  {} {}".format(k + 1, " ".join(line))
                 for k, line in enumerate(r["board"].splitlines())]
        assert "\n".join(drawn) in out, out
        assert "match {}:{} (game {})".format(*r["match"], i + 1) in out
        assert "end: winner {}, score {}:{}, match {}:{} (game {})".format(
            want_names[w], row["scores"][0], row["scores"][1], *r["match"], i + 1) in out, out
    # `lunchbox history`: every game has its winner and its own points
    assert cli.main(["history", "--db", db_path]) == 0
    out = capsys.readouterr().out.splitlines()
    for row in rows:
        [line] = [x for x in out if x.startswith("{} ".format(row["id"]))]
        cells = re.split(r"\s{2,}", line.strip())
        assert ", ".join(want_names) in cells
        pair = [want_names[row["winners"][0]], "{}:{}".format(*row["scores"])]
        assert any(cells[k:k + 2] == pair for k in range(len(cells))), line


def test_the_automa_is_named_on_the_board_itself(tmp_path):
    """A Space Lunch solo game played by a key script: the envelope the board keeps names its
    seats "P1" (the person, as Settings has it) and "Automa"."""
    from companion.store import records
    from companion.store.store import Store
    from lunchbox.sim import Simulator
    from lunchbox.sim import hw as sim_hw

    nvm = str(tmp_path / "nvm.bin")
    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    try:
        sim.run_script("wait:3000 ok ok ok*59 wait:500")
    finally:
        sim.close()
    [(_seq, kind, payload)] = Store(sim_hw.FileNvm(nvm)).records()
    _unix, names, record = records.open_envelope(kind, payload)
    assert record[1] == 0 and names == ["P1", "Automa"]


def test_the_envelope_names_the_seats_the_device_plays():
    from companion.store import records
    from shared_rules import games

    # the record's third setting: the computer's level 1-3 + 4 * its seat (0: A, 1: B)
    for code, want in ((1, ["Computer (Easy)", "BO"]), (2, ["Computer (Medium)", "BO"]),
                       (3 + 4, ["ANNA", "Computer (Hard)"]), (2 + 4, ["ANNA", "Computer (Medium)"]),
                       (0, ["ANNA", "BO"])):
        rec = games.new("lets_do_lunch", 20, 0, code, 0).to_bytes()
        env = records.envelope(rec, 0, ["ANNA", "BO"])
        assert records.open_envelope(records.KIND_GAME, env) == (0, want, rec)
    solo = games.new("space_lunch", 2).to_bytes()
    duel = games.new("space_lunch", 4).to_bytes()
    assert records.open_envelope(3, records.envelope(solo, 0, ["ANNA"]))[1] == ["ANNA", "Automa"]
    assert records.open_envelope(3, records.envelope(duel, 0, ["ANNA", "BO"]))[1] == \
        ["ANNA", "BO"]
    assert records.open_envelope(3, records.envelope(solo, 0))[1] == []  # no names: none
    # a record from before the computer was in the settings (two of them) names no computer
    old = games.new("lets_do_lunch", 20, 0).to_bytes()[:3] + bytes([20, 0])
    assert records.seat_names(1, tuple(old[3:5]), ["ANNA", "BO"]) == ["ANNA", "BO"]


# Kept by the device before it named its own seats (the firmware of commit e86ef1a): the
# envelopes of games 1 and 5 of a match against Hard (the computer plays B, device dice), named
# "P1", "P2" from Settings. Played by `lunchbox sim --headless --erase-nvm --keys "wait:3000 next
# ok ok ok*553 wait:1000"`; the computer won the match 25 to -25.
OLD_GAME_1 = bytes.fromhex(
    "0100000000020250310250320101041400070000007a8501df014dde0140702c7b7b7139702bcd025b71337b"
    "7b7b702dde013f85014a7134df0149e901557bdf0147df014ae9015385014bde0141df014c85014ae9015219"
    "4d")
OLD_GAME_5 = bytes.fromhex(
    "01000000000202503102503201010414000700003c0100000000000000000000000000000000007ff0801014"
    "000401060f00040011000d0014001f000d0007204525643453745535356546256326525500cd02706f22702c"
    "70297b702f7b702ee90154cd025d7b7a36e9015771356f21de013f85014b6f207b6f217137df014adf014970"
    "2c7b7b7a34df014ae90155d80d")


def test_records_kept_before_the_device_named_its_seats_read_right():
    from companion.store import records
    from lunchbox.records import gamerec
    from shared_rules import games

    for payload in (OLD_GAME_1, OLD_GAME_5):
        assert records.open_envelope(3, payload)[1] == ["P1", "P2"]  # the old form, truly
    first = gamerec.summarize(54, 3, OLD_GAME_1, 0)
    assert first["status"] == "ok" and first["params"] == [20, 0, 7, 0]
    assert first["players"] == ["P1", "Computer (Hard)"]
    assert first["winners"] == [1] and first["scores"] == [-6, 6]
    assert gamerec.match(first) == {"scores": [-6, 6], "game": 1, "target": 20, "over": False}
    board = games.replay(first["record"]).board()
    assert board.count(1) == 12 and board.count(0) == 12 - 6  # the loser kept 6 in hand
    last = gamerec.summarize(260, 3, OLD_GAME_5, 0)
    assert last["players"] == ["P1", "Computer (Hard)"]
    assert last["winners"] == [1] and last["scores"] == [-9, 9]
    assert gamerec.match(last) == {"scores": [-25, 25], "game": 5, "target": 20, "over": True}
    assert gamerec.match_text(last) == "-25:25 (game 5)"
    board = games.replay(last["record"]).board()
    assert board.count(1) == 12 and board.count(0) == 12 - 9
