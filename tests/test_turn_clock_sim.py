"""The turn clock through the simulator, on both displays (its virtual clock moves with the
key script's waits): a 10-minute chess clock set in Settings for a two-player Space Lunch,
paused and resumed with a long OK, a power cut mid-game that finds both clocks where the last
save left them, the game played to its end, pulled, and each player's time in `lunchbox
history`, `stats`, the exports and BG Stats' durationMin."""

import json
import os
import sys
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lunchbox.sim import Simulator  # noqa: E402

SEED = 7  # the device's deal: every press below is an OK (ok_plan)
# Settings (menu row 6): Clock (row 7) -> "10 min each" (the picker's row 5: off, count up,
# 1, 3, 5, 10), then Lunch cards (row 4) -> dealt, back to the menu
SET_CLOCK = "wait:3000 next*6 ok next*7 ok next*5 ok prev*3 ok back "
DUEL = "wait:3000 ok next*4 ok ok "  # at power-on: Space Lunch, Two players, P1 starts
OPENING = "ok*9 "  # the nine opening cards (dealt: OK when each is on the table)


@pytest.fixture(autouse=True)
def deal_seed(monkeypatch):
    from companion.games.space_lunch import entry

    monkeypatch.setattr(entry, "DEAL_SEED", [SEED])


def ok_plan(seed):
    """The duel every press of OK plays (the dealt card, the first card of the Pick column,
    the first beverage to return), or None when a state needs another key."""
    from companion.games.space_lunch import view as V
    from shared_rules import games
    from shared_rules.space_lunch.actions import RETURN, TAKE

    g = games.new("space_lunch", 4, 0, *V.seed_params(seed))
    while not g.is_terminal():
        e = g.engine
        if e.pending:
            a = V.deal(e, seed, len(g.actions()))
        elif e.must_return():
            a = [RETURN + t for t in range(3) if e.drinks[e.turn][t]][0]
        else:
            st = V.stops(e)
            if not st or st[0] == V.COUPON:
                return None
            a = TAKE + st[0]
        g.apply(a)
    return g


def run(profile, script, nvm):
    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    sim.run_script(script)
    return sim


def saved(nvm):
    """``(clock, record)`` of the game saved in the nvm file (turn_clock/state.py)."""
    from companion.store.store import Store
    from companion.turn_clock.state import TurnClock, unwrap
    from lunchbox.sim.hw import FileNvm

    g = Store(FileNvm(nvm)).load_game()
    assert g is not None and g[0] == "space_lunch"
    state, record = unwrap(g[1])
    assert state is not None, "the save has no clock"
    return TurnClock.from_bytes(state, 0), record


def clock_text(sim):
    """The clock's text on screen (its own layer, between the screen and the toast)."""
    from companion.screen.ui import TitleBar

    view = TitleBar.clock
    assert view is not None, "no clock on screen"
    assert not view.lab.hidden and view.lab.text, "the clock is hidden"
    return view.lab.text


def test_chess_clock_pause_power_cut_and_history(profile, tmp_path, capsys):
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from companion.turn_clock.state import CHESS
    from lunchbox.sim.hw import FileNvm

    plan = ok_plan(SEED)
    assert plan is not None
    moves = len(plan.actions())
    nvm = str(tmp_path / "nvm.bin")

    # Settings: a 10-minute chess clock (and the device deals), kept in the settings
    sim = run(profile, SET_CLOCK, nvm)
    from companion.turn_clock.setting import setting

    s = AppSettings.from_bytes(Store(FileNvm(nvm)).load_settings())
    assert setting(s.clock) == (CHESS, 10, 0) and s.deal
    assert sim.texts()[0] == "Lunchbox"

    # the game: the opening, P1 thinks 20 s and takes (the refill is dealt: OK), P2 thinks 40
    # s, then a long OK pauses; a minute passes paused
    sim = run(profile, DUEL + OPENING + "wait:20000 ok ok wait:40000 long:ok wait:60000", nvm)
    clock, _ = saved(nvm)
    assert clock.mode == CHESS and clock.limit == 600 and clock.paused and clock.seat == 1
    assert 20000 <= clock.used[0] <= 21500 and clock.turns[0] == 1
    assert 40000 <= clock.used[1] <= 41500 and clock.turns[1] == 0
    p1 = clock.shown(0, 0, lambda a, b: a - b)
    p2 = clock.shown(1, 0, lambda a, b: a - b)
    shown = clock_text(sim)
    assert shown in ("||9:19", "||9:20"), shown  # P2's 10 minutes less the 40 s
    assert "P2" in sim.texts()[0]  # the title says whose turn: the clock is P2's
    assert sim.layout_problems() == []

    # a new run is a power-on: Resume, and the clock is as it was, paused; a long OK and it
    # goes on, 10 s run, then the power goes: the cut loses those 10 s only (nothing saved
    # since the resume), never the clock; the game comes back paused
    sim = run(profile, "wait:3000 ok wait:2000", nvm)
    assert clock_text(sim) == shown
    sim = run(profile, "wait:3000 ok wait:2000 long:ok wait:10000 reset wait:3000 ok wait:3000",
              nvm)
    clock, record = saved(nvm)
    assert not clock.paused and clock.seat == 1  # as saved at the resume: running
    assert clock.shown(0, 0, lambda a, b: a - b) == p1
    assert 0 <= p2 - clock.shown(1, 0, lambda a, b: a - b) <= 1500  # the resume's press
    assert clock_text(sim).startswith("||")  # back after the cut: paused
    assert sim.texts()[0].startswith("P2")  # the game itself as it was

    # a long OK and it goes on; played to the end (every press OK), then kept with the times
    sim = run(profile, "wait:3000 ok wait:2000 long:ok wait:5000 " + "ok " * (moves - 11) +
              "wait:3000", nvm)
    store = Store(FileNvm(nvm))
    end = store.load_game()  # the game is over: saved only while its end is shown
    assert end is None or end[1].endswith(plan.to_bytes())
    from companion.store.records import KIND_GAME, open_envelope
    from companion.turn_clock.envelope import untimed

    kept = [r for r in store.records() if r[1] == KIND_GAME]
    assert len(kept) == 1 and kept[0][2][0] == 2  # envelope format 2: with the times
    envelope, times = untimed(kept[0][2])
    unix, names, rec = open_envelope(KIND_GAME, envelope)
    assert rec == plan.to_bytes() and names == ["P1", "P2"]
    assert times is not None and len(times) == 2
    assert 20 <= times[0][0] <= 30 and 45 <= times[1][0] <= 60  # seconds on each clock
    assert times[0][1] + times[1][1] >= moves // 3  # turns completed, each player's

    # pulled, and each player's time in history, stats and the exports
    import linkloop
    import test_pull

    from lunchbox import cli
    from lunchbox.records import db as dbmod

    board = linkloop.Board(nvm=FileNvm(nvm))
    db_path = str(tmp_path / "games.db")
    with dbmod.Database(db_path) as db:
        test_pull.do_pull(board, db)
    capsys.readouterr()
    assert cli.main(["history", "--db", db_path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["ID", "DATE", "GAME", "PLAYERS", "WINNER", "SCORE", "TIME"]
    want = "{}:{:02d} {}:{:02d}".format(times[0][0] // 60, times[0][0] % 60,
                                       times[1][0] // 60, times[1][0] % 60)
    assert out[2].endswith(want), out
    assert cli.main(["stats", "--db", db_path]) == 0
    text = capsys.readouterr().out
    assert "Space Lunch: time per player (turn clock)" in text
    assert cli.main(["export", "--db", db_path, "--format", "json"]) == 0
    game = json.loads(capsys.readouterr().out)["games"][0]
    assert game["seconds"] == [times[0][0], times[1][0]]
    assert game["turns"] == [times[0][1], times[1][1]]
    assert cli.main(["export", "--db", db_path, "--format", "bgstats"]) == 0
    play = json.loads(capsys.readouterr().out)["plays"][0]
    assert play["durationMin"] == (times[0][0] + times[1][0] + 30) // 60 >= 1
