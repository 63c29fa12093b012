"""`lunchbox pull` against the device's real link server and store (in memory, tests/linkloop.py):
records land once, the board is acknowledged only after the commit, a cut at any of 100+
points loses nothing and stores nothing twice, corrupt records are skipped by sequence number,
a wiped board and a second board do not mix with the first, and a host killed mid-pull leaves
a consistent database."""

import os
import random
import signal
import subprocess
import sys
import time

import linkloop
import pytest

from lunchbox.records import db as dbmod
from lunchbox.records import link as hostlink
from lunchbox.records import pull
from shared_rules import games

T0 = 1767225600  # 2026-01-01


def play(game_id, *params, seed=1, cap=4000):
    """A finished game's record, by random legal moves."""
    rng = random.Random(seed)
    g = games.new(game_id, *params)
    n = 0
    while not g.is_terminal() and n < cap:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    assert g.is_terminal()
    return games.record(g)


RECORDS = [play("space_lunch", 2, seed=1), play("lets_do_lunch", seed=2),
           play("aqua_brunch", 3, seed=3), play("space_lunch", 4, seed=4)]
# more games, all different (the same game kept twice is stored as a duplicate)
RECORDS += [play("space_lunch", k % 4, seed=10 + k) for k in range(8)]


def board_with_games(n=4, uid=linkloop.UID):
    b = linkloop.Board(uid)
    for i in range(n):
        b.finish(RECORDS[i % len(RECORDS)], unix=T0 + 3600 * i if i % 2 else 0)
    return b


def do_pull(board, db, **kw):
    link = board.link(**kw)
    return pull.pull_board(link, db, now=lambda: T0 + 86400)


def stored(db):
    return sorted((r["board_id"], r["epoch"], r["seq"], r["raw"]) for r in
                  db.conn.execute("SELECT * FROM records"))


def test_pull_stores_each_record_once_and_acknowledges(tmp_path):
    board = board_with_games(4)
    board.store.append_record(2, b"MenuScreen|ValueError: boom")
    expect = board.store.records()
    with dbmod.Database(tmp_path / "g.db") as db:
        res = do_pull(board, db)
        assert (res.new, res.already, res.waiting, res.crashes, res.corrupt) == (5, 0, 0, 1, [])
        assert board.store.records() == []  # acknowledged
        rows = db.games()
        assert sorted(r["seq"] for r in rows) == sorted(e[0] for e in expect[:4])
        lunch = {r["params"][0]: r["players"] for r in rows if r["game_id"] == "space_lunch"}
        assert lunch == {2: ["ANNA", "Automa"], 4: ["ANNA", "BO"]}
        for r in rows:
            g = games.replay(r["record"])
            assert r["winners"] == g.winners() and r["scores"] == g.scores()
            assert r["actions"] == len(g.actions()) and r["status"] == "ok"
        dated = {r["seq"]: (r["played_at"], r["date_source"]) for r in rows}
        assert dated[expect[1][0]] == (T0 + 3600, "board")
        assert dated[expect[0][0]] == (T0 + 86400, "pulled")
        assert db.crashes()[0]["error"] == "MenuScreen|ValueError: boom"
        assert board.server.clock is not None  # the pull set the board's clock
        again = do_pull(board, db)
        assert (again.new, again.already) == (0, 0) and db.count() == 5


def test_a_lost_acknowledgement_stores_nothing_twice(tmp_path):
    board = board_with_games(3)
    with dbmod.Database(tmp_path / "g.db") as db:
        link = board.link()
        link.ack = lambda seq: (_ for _ in ()).throw(hostlink.LinkError("cut before the ack"))
        with pytest.raises(hostlink.LinkError):
            pull.pull_board(link, db)
        assert db.count() == 3 and len(board.store.records()) == 3
        res = do_pull(board, db)
        assert (res.new, res.already, res.waiting) == (0, 3, 0)
        assert db.count() == 3 and board.store.records() == []


def full_pull_bytes():
    board = board_with_games(5)
    link = board.link()
    import tempfile

    with tempfile.TemporaryDirectory() as d, dbmod.Database(os.path.join(d, "g.db")) as db:
        pull.pull_board(link, db, batch=2)
    return link.sent, link.received


@pytest.mark.parametrize("direction", ["both", "out", "in"])
def test_cut_at_any_point_loses_nothing_and_stores_nothing_twice(tmp_path, direction):
    sent, received = full_pull_bytes()
    total = {"both": sent + received, "out": sent, "in": received}[direction]
    n = 120 if direction == "both" else 30  # each direction alone: a sample
    points = sorted({int(i * total / n) for i in range(n)} | set(range(0, n // 3)))
    assert len(points) >= (100 if direction == "both" else 30)
    for k, cut in enumerate(points):
        board = board_with_games(5)
        want = sorted(r[2] for r in board.store.records())
        with dbmod.Database(":memory:") as db:  # durability is the kill test's business
            try:
                res = pull.pull_board(board.link(cut_after=cut, cut_dir=direction), db,
                                      batch=2)
            except hostlink.LinkError:
                res = None
            # nothing acknowledged that is not committed
            on_board = {r[0] for r in board.store.records()}
            in_db = {r["seq"] for r in db.conn.execute("SELECT seq FROM records")}
            all_seqs = {r[0] for r in board.store.records(acked=True)}
            assert all_seqs - on_board <= in_db, cut
            if k % 3 == 0:
                board.boot()  # sometimes the board restarts too (an unplug without battery)
            res = do_pull(board, db)
            assert res.waiting == 0 and board.store.records() == []
            assert sorted(r["raw"] for r in db.games()) == sorted(want), cut
            assert db.count() == 5 and db.check() == "ok"


def test_corrupt_record_is_reported_by_sequence_and_skipped(tmp_path):
    board = board_with_games(2)
    bad = bytearray(RECORDS[1])
    bad[-1] ^= 0x55  # fails the game record's checksum
    seq_bad = board.finish(bytes(bad))
    board.finish(RECORDS[2])
    with dbmod.Database(tmp_path / "g.db") as db:
        res = do_pull(board, db)
        assert [s for s, _ in res.corrupt] == [seq_bad] and "checksum" in res.corrupt[0][1]
        assert res.new == 4 and res.waiting == 0
        assert len(db.games()) == 3 and len(db.games(include_bad=True)) == 4
        assert "record {} is corrupt".format(seq_bad) in pull.summary("/dev/x", res)
        kept = db.games(include_bad=True)
        assert [r for r in kept if r["seq"] == seq_bad][0]["raw"][6 + 8:] == bytes(bad)


def test_a_wiped_board_opens_a_new_epoch(tmp_path):
    board = board_with_games(3)
    with dbmod.Database(tmp_path / "g.db") as db:
        do_pull(board, db)
        old = stored(db)
        fresh = board_with_games(0)  # same uid, memory wiped: sequence numbers start again
        fresh.finish(RECORDS[3])
        fresh.finish(RECORDS[5])
        res = do_pull(fresh, db)
        assert res.new_epoch and res.new == 2 and db.count() == 5
        assert stored(db)[:3] == old and {r[1] for r in stored(db)[3:]} == {1}
        assert do_pull(fresh, db).new == 0


def test_two_boards_do_not_mix(tmp_path):
    a = board_with_games(3)
    b = board_with_games(2, uid=b"\x01\x02\x03\x04\x05\x06\x07\x08")
    with dbmod.Database(tmp_path / "g.db") as db:
        do_pull(a, db)
        do_pull(b, db)
        boards = {r["board_id"] for r in db.games()}
        assert boards == {"E66141040327522C", "0102030405060708"} and db.count() == 5
        assert len(db.games(board="0102")) == 2


def test_database_from_the_environment_and_bad_files(tmp_path, monkeypatch):
    monkeypatch.setenv(dbmod.DB_ENV, str(tmp_path / "env.db"))
    assert dbmod.default_path() == tmp_path / "env.db"
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(dbmod.LunchboxError, match="cannot open the games database"):
        dbmod.Database(junk)


KILLED = r"""
import sys, time
sys.path[:0] = [{tests!r}, {portable!r}]
sys.path.append({firmware!r})
import linkloop
from _flash import FlashNVM
from lunchbox.records import db as dbmod, link as hostlink, pull
board = linkloop.Board(nvm=FlashNVM(data=open({nvm!r}, "rb").read()))
class Slow(linkloop.Stream):
    def read(self, n):
        time.sleep(0.002)
        return super().read(n)
db = dbmod.Database({db!r})
print("go", flush=True)
while True:
    pull.pull_board(hostlink.Link(Slow(board)), db, batch=1)
    board = linkloop.Board(nvm=FlashNVM(data=open({nvm!r}, "rb").read()))
"""


def test_host_killed_mid_pull_leaves_the_database_consistent(tmp_path):
    board = board_with_games(12)
    nvm = tmp_path / "nvm.bin"
    nvm.write_bytes(bytes(board.nvm.mem))
    path = tmp_path / "g.db"
    here = os.path.dirname(__file__)
    code = KILLED.format(tests=here, portable=os.path.join(here, "portable"),
                         firmware=os.path.join(here, "..", "firmware"), nvm=str(nvm), db=str(path))
    rng = random.Random(5)
    for _ in range(4):
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
        assert proc.stdout.readline().strip() == b"go"
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with dbmod.Database(path) as db:
            assert db.check() == "ok"
            rows = list(db.conn.execute("SELECT * FROM records"))
            assert len(rows) == len({r["seq"] for r in rows}) <= 12
            assert all(r["status"] == "ok" and r["players"] for r in rows)
    with dbmod.Database(path) as db:
        res = do_pull(board, db)  # the real board was never acknowledged by the killed hosts
        assert res.new + res.already == 12 and db.count() == 12 and res.waiting == 0


def test_the_command_pulls_every_board_and_reports_one_that_fails(tmp_path, monkeypatch, capsys):
    from lunchbox import cli

    boards = {"/dev/a": board_with_games(2), "/dev/b": board_with_games(3, uid=b"B" * 8),
              "/dev/c": None}

    def open_link(device):
        if boards[device] is None:
            raise hostlink.LinkError("cannot open {}".format(device))
        return boards[device].link()

    monkeypatch.setattr(pull, "data_ports", lambda port, sim: sorted(boards))
    monkeypatch.setattr(pull, "open_link", open_link)
    code = cli.main(["pull", "--db", str(tmp_path / "g.db")])
    out, err = capsys.readouterr()
    assert code == 1 and "/dev/c: cannot open /dev/c" in err
    assert "/dev/a (board E66141040327522C" in out and "/dev/b (board 4242424242424242" in out
    assert "5 games in" in out


def test_host_and_board_agree_on_the_record_kinds():
    from companion.store import store
    from lunchbox.records import gamerec

    assert (gamerec.KIND_RECORD, gamerec.KIND_CRASH, gamerec.KIND_GAME) == (
        store.KIND_FINISHED, store.KIND_CRASH, store.KIND_GAME)


def test_the_same_game_kept_twice_is_stored_once_as_a_game(tmp_path):
    """A power cut between keeping a record and forgetting the saved game makes the board keep
    the same game again when its last move is replayed: the second is marked a duplicate, so
    history and stats count the game once (it is still stored, so it is acknowledged)."""
    b = linkloop.Board()
    b.finish(RECORDS[0])
    b.finish(RECORDS[1])
    b.finish(RECORDS[0])
    db = dbmod.Database(str(tmp_path / "g.db"))
    do_pull(b, db)
    statuses = [r["status"] for r in db.conn.execute("SELECT status FROM records ORDER BY seq")]
    assert statuses == ["ok", "ok", "duplicate"]
    assert [g["record"] for g in db.games()] == [RECORDS[0], RECORDS[1]]
    assert b.store.records() == []  # all three acknowledged


def test_names_and_crash_texts_a_terminal_would_act_on_are_shown_as_question_marks(
        tmp_path, capsys):
    # a device's bytes: ESC sequences and other control characters never reach the terminal
    from lunchbox import cli

    board = linkloop.Board()
    board.finish(RECORDS[1], ("\x1b[2JEVE", "BO\x07\u202e"), unix=T0)
    board.store.append_record(2, b"main|Error: \x1b]0;owned\x07 boom")
    path = str(tmp_path / "g.db")
    with dbmod.Database(path) as db:
        do_pull(board, db)
    for argv in (["history"], ["history", "--crashes"], ["stats"], ["export"],
                 ["replay", "1"]):
        assert cli.main(argv + ["--db", path]) == 0
        out = capsys.readouterr().out
        assert not any(not c.isprintable() and c not in "\n" for c in out), (argv, repr(out))
    with dbmod.Database(path) as db:
        (game,) = db.games()
        assert game["players"] == ["?[2JEVE", "BO??"]
        (crash,) = db.crashes()
        assert crash["error"] == "main|Error: ?]0;owned? boom"
        # the bytes as the board kept them are kept too
        assert b"\x1b[2JEVE" in game["raw"]


def test_a_message_quoting_a_device_is_printed_without_its_control_characters(
        monkeypatch, capsys):
    from lunchbox import cli
    from lunchbox.records import linkproto

    def refused(args):
        raise linkproto.parse_error(b"\x05bad \x1b[31mred\x1b[0m\nname")
    monkeypatch.setattr(pull, "run", refused)
    monkeypatch.setattr(cli, "COMMANDS", tuple(c for c in cli.COMMANDS if c[0] == "pull"))
    assert cli.main(["pull"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "bad ?[31mred?[0m\nname" in err
