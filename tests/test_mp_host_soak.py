"""The whole path on a MicroPython board, from a bare Pico to games pulled (`make soak`): the
emulated Pico (tests/mpboard.py) in its UF2 bootloader, `lunchbox flash` (the real MicroPython
1.24.1 image), `lunchbox sync` of the real file set (then again: nothing to send), `doctor`
(no problem), finished games kept on the board by the firmware's own FileStore (run on the
board), `lunchbox pull`, `history`; and the board's littlefs left without the pulled records."""

import io
import threading

import pytest
from mpboard import PLAIN_UF2, EmulatedBoard
from test_mp_host import Direct, ListedPort, _seqs_on_board

from lunchbox import cli
from lunchbox.device import flash, ports
from lunchbox.records import db as dbmod

pytestmark = [pytest.mark.soak, pytest.mark.xdist_group("mpboard")]

PROFILE = "pico-ssd1306-5btn-mp"


def test_a_bare_pico_to_games_pulled(tmp_path, monkeypatch, capsys):
    import test_pull

    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    board = EmulatedBoard(tmp_path / "board.flash")
    board.show_bootloader(tmp_path / "media" / "RPI-RP2")
    waiter = threading.Thread(target=board.wait_flashed, daemon=True)
    waiter.start()
    try:
        env = flash.Env(roots=[str(tmp_path / "media")], err=io.StringIO(),
                        comports=lambda: [ListedPort(board.port, 0x2E8A, 0x0005)]
                        if board.running() else [])
        port = flash.flash(env, str(PLAIN_UF2), board="raspberry_pi_pico", chip="RP2040",
                           build="micropython")
        waiter.join(30)
        assert port.role == ports.MICROPYTHON
        p = port.device

        assert cli.main(["sync", "--port", p, "--profile", PROFILE]) == 0
        out = capsys.readouterr().out
        assert "modules ship as .mpy" in out and "wrote " in out
        assert cli.main(["sync", "--port", p]) == 0  # the profile is the board's now
        assert "up to date" in capsys.readouterr().out
        assert cli.main(["doctor", "--port", p]) == 0
        assert "no problems found" in capsys.readouterr().out

        # games finished on the board: kept by the firmware's own store, on its littlefs
        records = [r for r in test_pull.board_with_games(4).store.records()]
        with Direct(p) as d:
            d.run("from companion.store.filestore import FileStore\ns = FileStore()")
            for _seq, kind, payload in records:
                d.run("print(s.append_record({}, {!r}))".format(kind, bytes(payload)),
                      timeout=120)
        assert len(_seqs_on_board(p)) == len(records)

        db = str(tmp_path / "games.db")
        assert cli.main(["pull", "--port", p, "--db", db]) == 0
        out = capsys.readouterr().out
        assert "{} new records".format(len(records)) in out
        assert _seqs_on_board(p) == []
        with dbmod.Database(db) as gdb:
            assert len(gdb.games()) == len(records)
        assert cli.main(["history", "--db", db]) == 0
        assert "space_lunch" in capsys.readouterr().out.lower().replace(" ", "_")
        assert cli.main(["pull", "--port", p, "--db", db]) == 0
        assert "0 new records" in capsys.readouterr().out
    finally:
        board.stop()
