"""The turn clock's behaviour through the simulator (its virtual clock moves with the key
script's waits), and the host's view of the times: a scoreboard's clock passed on and paused
by holding OK, counting up, the LEDs in a chess clock's last minute and past it, a game's
clock kept when Settings turns the clock off, the screen going off saving it, nothing of the
clock loaded while it is off, and history / stats / exports over timed and untimed records."""

import os
import sys

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

AQUA_SCORE = "wait:3000 next next ok ok ok "  # Aqua Brunch, Scoreboard, 4 players (its start)
DUEL = "wait:3000 ok next*4 ok ok "  # Space Lunch, Two players, P1 starts
OPENING = "ok*9 "  # the dealt opening


@pytest.fixture(autouse=True)
def deal_seed(monkeypatch):
    from companion.games.space_lunch import entry

    monkeypatch.setattr(entry, "DEAL_SEED", [7])


def setup(nvm, clock, deal=True, off=300):
    """Settings as a host would push them: the clock's byte (turn_clock/setting.py)."""
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm

    Store(FileNvm(nvm)).save_settings(AppSettings(clock=clock, deal=deal, off=off).to_bytes())


def saved_clock(nvm):
    from companion.store.store import Store
    from companion.turn_clock.state import TurnClock, unwrap
    from lunchbox.sim.hw import FileNvm

    g = Store(FileNvm(nvm)).load_game()
    state = unwrap(g[1])[0] if g else None
    return TurnClock.from_bytes(state, 0) if state else None


def shown(sim):
    from companion.screen.ui import TitleBar

    view = TitleBar.clock
    return None if view is None or view.lab.hidden else view.lab.text


def ms(clock, seat):
    return clock.shown(seat, 0, lambda a, b: a - b)


def test_a_scoreboard_passes_its_clock_on_a_long_ok_and_pauses_held_on(profile, tmp_path, simulate):
    from companion.turn_clock.setting import COUNT_UP, make_setting

    nvm = str(tmp_path / "nvm.bin")
    setup(nvm, make_setting(COUNT_UP, 10, 0))
    # the first long OK starts P1's clock; 10 s; a long OK passes it to P2 (on the release);
    # 5 s; OK held on 2.5 s pauses it instead of passing; 20 s paused
    script = (AQUA_SCORE + "ok wait:3000 hold:ok:1000 wait:10000 hold:ok:1000 wait:5000 "
              "hold:ok:2500 wait:20000")
    sim = simulate(profile, script, nvm)
    assert shown(sim) in ("P2 ||0:07", "||0:07", "||7s")
    c = saved_clock(nvm)
    assert c is not None and c.seat == 1 and c.paused and c.turns == [1, 0, 0, 0]
    assert 10000 <= c.used[0] <= 11500 and 6000 <= c.used[1] <= 8000 and c.used[2:] == [0, 0]
    # a long OK goes on with the same player; the entries still go to the scoreboard
    sim = simulate(profile, "wait:3000 ok wait:3000 hold:ok:1000 wait:4000", nvm)
    c = saved_clock(nvm)
    assert c.seat == 1 and not c.paused and c.used[1] < 9000  # saved as it went on


def test_counting_up(profile, tmp_path, simulate):
    from companion.turn_clock.setting import COUNT_UP, make_setting

    nvm = str(tmp_path / "nvm.bin")
    setup(nvm, make_setting(COUNT_UP, 10, 0))
    sim = simulate(profile, DUEL + OPENING + "wait:72000", nvm)
    assert shown(sim) in ("1:12", "1:13")  # P1's time so far
    assert "P1" in sim.texts()[0]


def test_the_leds_in_the_last_minute_and_past_it(tmp_path, simulate):
    from companion.screen.ui import TitleBar
    from companion.turn_clock.setting import CHESS, make_setting

    nvm = str(tmp_path / "nvm.bin")
    setup(nvm, make_setting(CHESS, 1, 0))  # a minute each: the last minute from the start
    sim = simulate("pico-display-pack", DUEL + OPENING + "wait:20000", nvm)
    view = TitleBar.clock
    leds = view.app.leds
    now = view.now()
    seen = set()
    for step in range(4):  # the LEDs blink amber, a colour each half second
        view._warn(now + 500 * step)
        seen.add(None if leds.frame is None else leds.frame[0])
    assert seen == {None, (255, 110, 0)}
    assert sim.pixels is not None
    sim = simulate("pico-display-pack", "wait:3000 ok wait:2000 long:ok wait:70000", nvm)
    assert shown(sim).startswith("-")  # past its minute: "-0:1x", the game goes on
    assert all(p[0] > 0 and p[1] == 0 and p[2] == 0 for p in sim.pixels.shown)  # red
    sim = simulate("pico-display-pack", "wait:3000 ok wait:2000", nvm)  # resumed: paused
    assert all(p == (0, 0, 0) for p in sim.pixels.shown)  # a paused clock does not warn


def test_a_game_keeps_its_clock_when_settings_turn_it_off(profile, tmp_path, simulate):
    from companion.turn_clock.setting import CHESS, make_setting

    nvm = str(tmp_path / "nvm.bin")
    setup(nvm, make_setting(CHESS, 10, 5))
    simulate(profile, DUEL + OPENING + "wait:10000 ok ok", nvm)  # P1 took: +5 s
    before = saved_clock(nvm)
    assert before.turns[0] == 1 and before.bonus == 5 and ms(before, 0) > 590000
    # Settings > Clock > off (the picker's first row), then the saved game again
    sim = simulate(profile, "wait:3000 back prev ok next*7 ok prev*5 ok back next ok wait:2000",
              nvm)
    assert shown(sim) is not None and shown(sim).startswith("||")  # its own clock, paused
    after = saved_clock(nvm)
    assert ms(after, 0) == ms(before, 0)


def test_the_screen_going_off_saves_the_clock(profile, tmp_path, monkeypatch, simulate):
    from companion.turn_clock import clocks as view
    from companion.turn_clock.setting import CHESS, make_setting

    nvm = str(tmp_path / "nvm.bin")
    setup(nvm, make_setting(CHESS, 10, 0), off=120)
    # P2 thinks: 25 s later nothing is saved since the move (the clock's own saves kept out of
    # it); the screen goes off 2 minutes after the last press: saved as it stands then
    monkeypatch.setattr(view, "SAVE_MS", 600000)
    simulate(profile, DUEL + OPENING + "wait:5000 ok ok wait:25000", nvm)
    assert saved_clock(nvm).used[1] < 1000
    nvm = str(tmp_path / "2.bin")
    setup(nvm, make_setting(CHESS, 10, 0), off=120)
    simulate(profile, DUEL + OPENING + "wait:5000 ok ok wait:125000", nvm)
    c = saved_clock(nvm)
    assert 119000 <= c.used[1] <= 121000


def test_nothing_of_the_clock_is_loaded_while_it_is_off(profile, tmp_path, monkeypatch, simulate):
    for name in ("companion.turn_clock.clocks", "companion.turn_clock.state",
                 "companion.turn_clock.setting"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    nvm = str(tmp_path / "nvm.bin")
    setup(nvm, 0)
    sim = simulate(profile, DUEL + OPENING + "wait:5000 ok ok long:ok", nvm)
    assert "P2" in sim.texts()[0]
    for name in ("companion.turn_clock.clocks", "companion.turn_clock.state",
                 "companion.turn_clock.setting"):
        assert name not in sys.modules, name
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm
    from shared_rules.protocol import FORMAT

    g = Store(FileNvm(nvm)).load_game()
    assert g[1][0] == FORMAT  # the save is the bare record (its format byte), as before the clock


def test_history_stats_and_exports_over_timed_and_untimed_records(tmp_path, capsys):
    import json
    import random

    import linkloop
    import test_pull

    from companion.store import records
    from companion.turn_clock.state import timed
    from lunchbox import cli
    from lunchbox.records import db as dbmod
    from lunchbox.records import gamerec
    from shared_rules import games

    def play(game_id, *params, seed):
        rng = random.Random(seed)
        g = games.new(game_id, *params)
        while not g.is_terminal():
            g.apply(rng.choice(g.legal_actions()))
        return games.record(g)

    board = linkloop.Board()
    duel = play("space_lunch", 4, seed=1)
    board.finish(duel, ("ANNA", "BO"), unix=1767225600)  # before the clock: format 1
    for i, t in enumerate(([(600, 20), (300, 20)], [(125, 5), (61, 4)])):
        rec = play("space_lunch", 4, seed=2 + i)
        env = timed(records.envelope(rec, 1767225600 + 600 * (i + 1), ["ANNA", "BO"]), t)
        board.store.append_record(records.KIND_GAME, env)
    env = timed(records.envelope(play("space_lunch", 4, seed=9), 1767229000, ["ANNA"]),
                [(1, 1)])
    board.store.append_record(records.KIND_GAME, env[:-12])  # cut: kept aside as corrupt
    db_path = str(tmp_path / "games.db")
    with dbmod.Database(db_path) as db:
        test_pull.do_pull(board, db)
        rows = db.games()
        assert [gamerec.times(r) for r in rows] == [None, [(600, 20), (300, 20)],
                                                    [(125, 5), (61, 4)]]
        assert len(db.games(include_bad=True)) == 4
    capsys.readouterr()
    assert cli.main(["history", "--db", db_path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[-1] == "TIME"
    assert out[2].rstrip().endswith(tuple(str(s) for s in range(10)))  # its score, no time
    assert out[3].endswith("10:00 5:00") and out[4].endswith("2:05 1:01")
    assert cli.main(["stats", "--db", db_path]) == 0
    text = capsys.readouterr().out
    i = text.index("Space Lunch: time per player (turn clock)")
    table = text[i:].splitlines()[1:5]
    assert table[0].split() == ["PLAYER", "GAMES", "TIME", "PER", "GAME", "TURNS", "PER",
                                "TURN"]
    assert table[2].split() == ["ANNA", "2", "12:05", "6:03", "25", "29", "s"]  # 725 s / 25
    assert table[3].split() == ["BO", "2", "6:01", "3:01", "24", "15", "s"]
    assert cli.main(["export", "--db", db_path, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines[0].split(",")
    assert head[-3:] == ["seconds", "turns", "lunchbox_export"]
    assert lines[1].endswith(",,,1") and lines[2].endswith(",600; 300,20; 20,1")
    assert cli.main(["export", "--db", db_path, "--format", "bgstats"]) == 0
    plays = json.loads(capsys.readouterr().out)["plays"]
    assert [p["durationMin"] for p in plays] == [0, 15, 3]
