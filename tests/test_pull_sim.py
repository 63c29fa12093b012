"""End to end: the real firmware in the simulator, its data channel a pseudo-terminal, and the
`lunchbox` commands talking to it through pyserial exactly as to a Pico.

The finished games are written onto the simulator's nvm before it boots, the way
keeping.keep_record writes them (an envelope with the seats' names); once the game screens are in
the menu a key script can play them instead.
"""

import threading
import time

import pytest

from lunchbox import cli
from lunchbox.records import db as dbmod
from lunchbox.records import link as hostlink
from lunchbox.records import pull


def finished_games(nvm_path, records, names=("ANNA", "BO", "CY")):
    """Finish ``records`` the way the app does (envelope, seat names), on the nvm file."""
    from companion.store import records as envelopes
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from lunchbox.sim import hw as sim_hw

    nvm = sim_hw.FileNvm(nvm_path)
    store = Store(nvm)
    s = AppSettings(names=list(names) + ["P4", "P5", "P6", "P7"])
    store.save_settings(s.to_bytes())
    for rec in records:
        store.append_record(envelopes.KIND_GAME,
                            envelopes.envelope(rec, 0, s.names[:envelopes.seats(rec)]))
    return store


class RunningSim:
    """The simulator running headless in a thread, in real time, until ``stop()``."""

    def __init__(self, nvm_path):
        from lunchbox.sim import Simulator
        from lunchbox.sim import hw as sim_hw

        self.sim = Simulator("pico-display-pack", nvm_path=nvm_path, mode="headless",
                             link=True)
        self.sim.hw.uid = b"SIMTEST1"
        self.stopping = threading.Event()
        original = self.sim._idle

        def idle():
            time.sleep(0.001)
            if self.stopping.is_set():
                raise sim_hw.SimStop()
            original()

        self.sim._idle = idle
        self.thread = threading.Thread(target=self.sim.run_script,
                                       args=("wait:600000 wait:600000 wait:500000",),
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join(10)
        self.sim.close()

    @property
    def port(self):
        return self.sim.link.path


@pytest.fixture
def played(nvm):
    import test_pull

    finished_games(nvm, test_pull.RECORDS[:4])
    return nvm, test_pull.RECORDS[:4]


def test_pull_from_the_simulator_over_its_pty(played, tmp_path, capsys):
    nvm, recs = played
    db_path = str(tmp_path / "games.db")
    with RunningSim(nvm) as rs:
        assert cli.main(["pull", "--port", rs.port, "--db", db_path]) == 0
        out = capsys.readouterr().out
        assert "4 new records, 0 already stored, 0 left on the board" in out
        assert "board 53494D5445535431" in out  # "SIMTEST1"
        assert cli.main(["pull", "--port", rs.port, "--db", db_path]) == 0
        assert "0 new records" in capsys.readouterr().out
        # the figures for docs/records.md: bytes on the wire and time per record
        link = hostlink.open_link(rs.port)
        try:
            h = link.hello()
            assert h.waiting == 0 and h.clock_set  # the pull set the clock
        finally:
            link.close()
    with dbmod.Database(db_path) as db:
        rows = db.games()
        assert sorted(r["record"] for r in rows) == sorted(recs)
        assert {tuple(r["players"]) for r in rows} >= {("ANNA", "Automa"), ("ANNA", "BO", "CY")}


def test_a_pull_cut_halfway_over_the_pty(played, tmp_path):
    """An unplug (the port closed) at a few points of a pull, then a full pull: every record
    once (the in-memory test covers 100+ cut points; this one is the real serial path)."""
    nvm, recs = played
    with RunningSim(nvm) as rs, dbmod.Database(tmp_path / "g.db") as db:
        for cut_at in (0, 1, 1):  # before the first record, then after one, twice
            link = hostlink.open_link(rs.port)
            got = []
            original = link.get

            def get(seq, original=original, got=got, cut_at=cut_at, link=link):
                if len(got) == cut_at:
                    link.stream.close()  # the cable is pulled
                got.append(seq)
                return original(seq)

            link.get = get
            with pytest.raises(hostlink.LinkError):
                pull.pull_board(link, db, batch=1)
            link.close()
        link = hostlink.open_link(rs.port)
        try:
            res = pull.pull_board(link, db)
        finally:
            link.close()
        assert res.waiting == 0 and db.count() == 4 and res.already + res.new == 2
        assert sorted(r["record"] for r in db.games()) == sorted(recs)


def test_a_headless_simulator_serves_lunchbox_pull_sim_until_stopped(played, tmp_path,
                                                                     run_lunchbox):
    """`lunchbox sim --headless --link` (the real command, in its own process) plays its key
    script, then serves its data channel in real time: it writes its pty's path where
    `lunchbox pull --sim` looks, a real `lunchbox pull --sim` (another process) copies the
    games off it, and SIGTERM stops it cleanly (exit 0, the link file removed)."""
    import signal
    import subprocess

    nvm, recs = played
    link_file = tmp_path / "sim-link"
    env = {hostlink.SIM_LINK_ENV: str(link_file)}
    db = str(tmp_path / "g.db")
    proc = run_lunchbox.popen("sim", "--headless", "--link", "--nvm", nvm, "--keys",
                              "wait:3000", env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not link_file.exists() and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        assert link_file.exists()
        # the 3 s script is long over (virtual time) when the pull starts: it still answers
        r = run_lunchbox("pull", "--sim", "--db", db, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        assert "4 new records, 0 already stored, 0 left on the board" in r.stdout
        time.sleep(1.0)  # a second later, in real time, it is still there
        assert proc.poll() is None
        r = run_lunchbox("pull", "--sim", "--db", db, env=env, timeout=120)
        assert r.returncode == 0 and "0 new records" in r.stdout, r.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "serving the data channel until Ctrl-C or SIGTERM" in err
    assert "stopped by SIGTERM" in err and "Traceback" not in err
    assert not link_file.exists()
    with dbmod.Database(db) as d:
        assert sorted(r["record"] for r in d.games()) == sorted(recs)


def test_a_headless_simulator_without_link_still_ends_with_its_script(nvm, run_lunchbox):
    r = run_lunchbox("sim", "--headless", "--nvm", nvm, "--keys", "wait:3000",
                     "--print-screen", timeout=120)
    assert r.returncode == 0 and "serving" not in r.stderr, r.stderr
    assert r.stdout.strip()  # the final screen's texts, then it ended by itself


def test_ctrl_c_stops_a_serving_simulator_after_its_screenshot(nvm, tmp_path, run_lunchbox):
    """--screenshot and --print-screen are taken when the script ends, before the serving."""
    import signal
    import subprocess

    shot = tmp_path / "menu.png"
    env = {hostlink.SIM_LINK_ENV: str(tmp_path / "sim-link")}
    proc = run_lunchbox.popen("sim", "--headless", "--link", "--nvm", nvm, "--keys",
                              "wait:3000", "--screenshot", str(shot), "--print-screen", env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not shot.exists() and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        assert shot.exists()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "stopped by Ctrl-C" in err, err
    assert "Space Lunch" in out  # the menu's texts


def test_push_names_to_the_simulated_board(capsys, nvm, nvm_store):
    with RunningSim(nvm) as rs:
        assert cli.main(["push", "--port", rs.port, "--names", "anna,bo", "--brightness",
                         "30", "--clock"]) == 0
        out = capsys.readouterr().out
        assert "clock set" in out and "brightness 30%" in out and "ANNA, BO, P3" in out
        assert cli.main(["push", "--port", rs.port, "--brightness", "35"]) == 2
        assert "brightness" in capsys.readouterr().err
    from companion.store.appsettings import AppSettings

    s = AppSettings.from_bytes(nvm_store(nvm).load_settings())
    assert s.names[:2] == ["ANNA", "BO"] and s.brightness == 30


def test_the_app_keeps_finished_games_with_date_and_names(simulate, nvm):
    """keep_record (what a game screen calls at its end): the record in its envelope, the
    date from the clock a host set over the link, the seats' names from Settings; and settings
    pushed over the link are applied by the app."""
    import test_pull

    from companion.app.keeping import keep_record
    from companion.app.loop import App
    from companion.store import records as envelopes
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from lunchbox.records import linkproto as lp

    sim = simulate("pico-display-pack", None, nvm, link=True)
    sim.hw.uid = hostlink.sim_uid(nvm)
    store = Store(sim.nvm)
    from companion.app.menu import start

    app = App(sim.hw, store, start, resume=False)
    names = AppSettings(60, True, ["ANNA", "BO", "CY", "P4", "P5", "P6", "P7"]).to_bytes()
    out = app.link_server().feed(lp.encode(lp.TIME, 1, lp.time_request(1767225600, 60))
                                 + lp.encode(lp.SET_SETTINGS, 2, names), sim.clock())
    assert [f[0] for f in lp.Parser().feed(out)] == [0x85, 0x87]
    assert app.settings.names[:3] == ["ANNA", "BO", "CY"] and app.settings.brightness == 60
    assert store.load_settings() == names
    rec = test_pull.RECORDS[2]  # Aqua Brunch, 3 players
    store.save_game("aqua_brunch", rec)
    sim.clock.advance(5000)
    keep_record(app, rec)
    [(seq, kind, payload)] = store.records()
    assert kind == envelopes.KIND_GAME
    assert envelopes.open_envelope(kind, payload) == (1767225605, ["ANNA", "BO", "CY"], rec)
    answer = app.link_server().feed(lp.encode(lp.HELLO, 3), sim.clock())
    hello = lp.parse_hello(lp.Parser().feed(answer)[0][2])
    assert hello.board_id.startswith("53494D") and hello.waiting == 1  # "SIM..."


def test_a_game_played_by_key_script_then_pull_history_replay_stats_export(tmp_path, capsys,
                                                                            simulate, nvm):
    """The whole way: a Space Lunch solo game played on the simulated board by a key script
    (OK on everything), pulled over the pty, then every command on it."""
    from shared_rules import games

    screen = simulate("pico-display-pack", "wait:3000 ok ok ok*59 wait:500", nvm).texts()
    assert "Automa wins" in screen or "You win" in screen, screen  # the end, on the table
    db_path = str(tmp_path / "g.db")
    with RunningSim(nvm) as rs:
        assert cli.main(["pull", "--port", rs.port, "--db", db_path]) == 0
        assert "1 new record," in capsys.readouterr().out
    with dbmod.Database(db_path) as db:
        [row] = db.games()
    final = games.replay(row["record"])
    assert final.is_terminal() and row["record"] == final.to_bytes()  # the board's end state
    winner = "Automa wins" if row["winners"] == [1] else "You win"
    assert any(winner in line for line in screen), screen
    assert cli.main(["history", "--db", db_path]) == 0
    out = capsys.readouterr().out
    assert "Space Lunch (Easy)" in out and "P1, Automa" in out and "~" in out
    assert cli.main(["replay", str(row["id"]), "--db", db_path]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("{} actions".format(len(final.actions())))
    # on the simulated board's own screen: the last step shows what the board showed
    assert cli.main(["replay", str(row["id"]), "--db", db_path, "--sim"]) == 0
    out = capsys.readouterr().out
    last = out[out.rindex("{:>4}. ".format(len(final.actions()))):]
    assert winner in last
    shots = tmp_path / "shots"
    assert cli.main(["replay", str(row["id"]), "--db", db_path, "--sim", "--shots",
                     str(shots), "--upto", "3"]) == 0
    assert sorted(p.name for p in shots.iterdir()) == ["001.png", "002.png", "003.png"]
    assert "   4. " not in capsys.readouterr().out
    assert cli.main(["stats", "--db", db_path]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 game\n") and "\nEasy   1      " in out
    assert cli.main(["export", "--db", db_path, "--format", "json"]) == 0
    assert '"game_id": "space_lunch"' in capsys.readouterr().out
