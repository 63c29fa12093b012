"""history, export (csv, json, bgstats), replay and stats on a database filled by real pulls."""

import csv
import io
import json

import linkloop
import pytest
import test_pull
from test_pull import play

from lunchbox import cli
from lunchbox.records import db as dbmod
from lunchbox.records import gamerec, replay_cmd, stats
from shared_rules import games

T0 = 1767225600


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """Three pulls from two boards: solo Space Lunch at three levels, Let's Do Lunch, Aqua
    Brunch, a duel, the three table scoreboards; some with the board's date, some not; and a
    corrupt record."""
    path = tmp_path_factory.mktemp("db") / "games.db"
    plan = [("space_lunch", (0,), ("ANNA",)), ("space_lunch", (1,), ("ANNA",)),
            ("space_lunch", (2,), ("BO",)), ("lets_do_lunch", (), ("ANNA", "BO")),
            ("aqua_brunch", (3,), ("ANNA", "BO", "CY")), ("space_lunch", (4,), ("BO", "CY")),
            ("aqua_score", (3,), ("ANNA", "BO", "DAN")), ("battle_race", (2,), ("ANNA", "BO")),
            ("days_score", (2,), ("BO", "ANNA"))]
    recs = []
    with dbmod.Database(path) as db:
        for batch in range(3):
            board = linkloop.Board(uid=bytes((batch % 2,)) * 8)
            for i, (gid, params, names) in enumerate(plan):
                rec = play(gid, *params, seed=batch * 10 + i)
                recs.append(rec)
                board.finish(rec, names, unix=T0 + 86400 * batch + 600 * i if i % 3 else 0)
            if batch == 2:
                bad = bytearray(recs[0])
                bad[-2] ^= 1
                board.finish(bytes(bad))
            test_pull.do_pull(board, db)
    return str(path), recs


def run_cli(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_history_table_and_filters(filled, capsys):
    path, recs = filled
    code, out, _ = run_cli(capsys, "history", "--db", path)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "DATE", "GAME", "PLAYERS", "WINNER", "SCORE", "MATCH"]
    assert len(lines) == 2 + len(recs) + 1  # header, rule, games, the ~ note
    assert "Space Lunch (Hard)" in out and "ANNA, Automa" in out and "Let's Do Lunch (to 20)" in out
    assert lines[-1].startswith("~ the board's clock was not set")
    for shown in ("Aqua Brunch scoreboard (3 players)", "Space Battle race (2 players)",
                  "Space Days scoring (2 players)"):
        assert out.count(shown) == 3, shown
    for gid in ("aqua_score", "battle_race", "days_score"):
        assert gid not in out
    _, out, _ = run_cli(capsys, "history", "--db", path, "--game", "lets do")
    assert out.count("Let's Do Lunch") == 3 and "Aqua" not in out
    _, out, _ = run_cli(capsys, "history", "--db", path, "--player", "cy")
    games_shown = out.splitlines()[2:]
    assert len(games_shown) == 6 and all("CY" in line for line in games_shown)
    assert "Hard" not in out
    code, _, err = run_cli(capsys, "history", "--db", path, "--game", "chess")
    said = [line for line in err.splitlines() if line.startswith("lunchbox history:")]
    assert code == 2 and len(said) == 1 and "'chess' is no game here" in said[0]
    assert all(n in said[0] for n in ("Space Battle race (battle_race)", "Space Days scoring",
                                       "Aqua Brunch scoreboard", "Let's Do Lunch"))
    _, out, _ = run_cli(capsys, "history", "--db", path, "--corrupt")
    assert "corrupt record" in out and "checksum" in out
    for typed in ("space battle race", "Space Battle Race", "battle_race", "race"):
        _, out, _ = run_cli(capsys, "history", "--db", path, "--game", typed)
        assert out.count("Space Battle race (2 players)") == 3, typed
        assert len(out.splitlines()) == 2 + 3, typed  # header, rule, the three races
    code, _, err = run_cli(capsys, "history", "--db", path, "--game", "space")
    assert code == 2 and "--game 'space' could be any of: Space Lunch (space_lunch)," in err
    _, out, _ = run_cli(capsys, "history", "--db", path, "--game", "AQUA BRUNCH")
    assert out.count("Aqua Brunch (3 players)") == 3 and "Space" not in out


def test_empty_database_says_what_to_do(tmp_path, capsys):
    code, _, err = run_cli(capsys, "history", "--db", str(tmp_path / "none.db"))
    assert code == 1 and "no games pulled yet" in err and "lunchbox pull" in err


def test_export_csv_json_bgstats(filled, capsys, tmp_path):
    path, recs = filled
    _, out, _ = run_cli(capsys, "export", "--db", path, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(recs)
    assert sorted(bytes.fromhex(r["record_hex"]) for r in rows) == sorted(recs)
    assert {r["date_source"] for r in rows} == {"board", "pulled"}
    out_file = tmp_path / "g.json"
    code, _, err = run_cli(capsys, "export", "--db", path, "--format", "json", "-o",
                           str(out_file))
    assert code == 0 and "{} games written".format(len(recs)) in err
    data = json.loads(out_file.read_text())
    assert len(data["games"]) == len(recs)
    g = data["games"][0]
    assert g["date"].endswith("Z") and set(g["winners"]) <= set(g["players"])
    shown = {(x["game_id"], x["game"]) for x in data["games"]}
    assert ("days_score", "Space Days scoring (2 players)") in shown
    assert {r["game"] for r in rows if r["game_id"] == "aqua_score"} == {
        "Aqua Brunch scoreboard (3 players)"}
    _, out, _ = run_cli(capsys, "export", "--db", path, "--format", "bgstats", "--game",
                        "battle_race")
    bg = json.loads(out)
    assert [x["name"] for x in bg["games"]] == ["Space Battle race"] and len(bg["plays"]) == 3
    assert all("Space Battle race (2 players)" in p["comments"] for p in bg["plays"])
    _, out, _ = run_cli(capsys, "export", "--db", path, "--format", "bgstats", "--game",
                          "aqua brunch")
    bg = json.loads(out)
    assert [x["name"] for x in bg["games"]] == ["Aqua Brunch"] and len(bg["plays"]) == 3
    assert {p["name"] for p in bg["players"]} == {"ANNA", "BO", "CY"}
    play = bg["plays"][0]
    refs = {p["id"] for p in bg["players"]}
    assert all(s["playerRefId"] in refs for s in play["playerScores"])
    assert sum(s["winner"] for s in play["playerScores"]) >= 1
    assert len({p["uuid"] for p in bg["plays"]}) == 3  # stable, distinct uuids
    _, again, _ = run_cli(capsys, "export", "--db", path, "--format", "bgstats", "--game",
                          "aqua brunch")
    assert again == out
    _, solo, _ = run_cli(capsys, "export", "--db", path, "--format", "bgstats", "--game", "space")
    # (ambiguous: error, nothing written)
    assert solo == ""
    code, _, err = run_cli(capsys, "export", "--db", path, "-o", str(tmp_path / "no" / "x.csv"))
    assert code == 1 and "cannot write" in err


def test_replay_steps_through_and_ends_where_the_board_ended(filled, capsys):
    path, recs = filled
    with dbmod.Database(path) as db:
        ldl = db.games(game="lets_do_lunch")[0]
        lunch = db.games(game="space_lunch")[0]
    code, out, _ = run_cli(capsys, "replay", str(ldl["id"]), "--db", path)
    assert code == 0
    n = len(games.replay(ldl["record"]).actions())
    assert "{:>4}. ".format(n) in out and "roll " in out and "    3 4 5 6 7 8 9" in out
    assert out.rstrip().endswith("{} actions".format(n))
    code, out, _ = run_cli(capsys, "replay", str(lunch["id"]), "--db", path, "--final")
    assert code == 0 and "scores" in out and "  1. " not in out
    # the replayed final state is the board's (the record is its final state)
    final = None
    for _, _, _, g in replay_cmd.steps(ldl["record"]):
        final = g
    assert final.to_bytes() == games.replay(ldl["record"]).to_bytes() == ldl["record"]
    code, _, err = run_cli(capsys, "replay", "99999", "--db", path)
    assert code == 1 and "no game with ID 99999" in err


def test_replay_step_by_step_stops_on_q(filled, capsys):
    path, _ = filled
    with dbmod.Database(path) as db:
        row = db.games(game="aqua_brunch")[0]

    class Args:
        id = row["id"]
        db = path
        step = True
        final = False

    out = io.StringIO()
    assert replay_cmd.run(Args, stdin=io.StringIO("\n\nq\n"), out=out) == 0
    assert "   3. " in out.getvalue() and "   4. " not in out.getvalue()


def test_stats_text_and_plots(filled, capsys, tmp_path):
    path, recs = filled
    code, out, _ = run_cli(capsys, "stats", "--db", path, "--plot", str(tmp_path / "plots"))
    assert code == 0
    assert "Space Lunch solo: win rate" in out and "Easy" in out and "Hard" in out
    assert "Let's Do Lunch:" in out and "chi2" in out
    assert "Aqua Brunch: scores per player" in out
    for shown in ("Aqua Brunch scoreboard", "Space Battle race", "Space Days scoring"):
        assert "\n{}: scores per player".format(shown) in out
    assert not any(gid in out for gid in ("aqua_score", "battle_race", "days_score"))
    pngs = sorted(p.name for p in (tmp_path / "plots").iterdir())
    assert "space-lunch-win-rate.png" in pngs and "lets-do-lunch-rolls.png" in pngs
    assert "win-rate-space-battle-race.png" in pngs and "lets-do-lunch-margins.png" in pngs
    assert "wrote {}".format(tmp_path / "plots" / "scores-space-days-scoring.png") in out
    assert all((tmp_path / "plots" / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_wilson_interval():
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and 0.27 < hi < 0.28
    lo, hi = stats.wilson(5, 10)
    assert abs(lo - 0.2366) < 1e-3 and abs(hi - 0.7634) < 1e-3
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_roll_counts_come_from_the_record_actions():
    rec = play("lets_do_lunch", seed=3)
    counts = stats.dice_counts([{"game_id": "lets_do_lunch", "record": rec}], "lets_do_lunch")
    rolls = [a for a in games.parse(rec)[3] if a >= 111]
    assert sum(counts) == len(rolls) > 0


def test_seat_names():
    assert gamerec.seat_names("space_lunch", [2], ["ANNA"], 2) == ["ANNA", "Automa"]
    assert gamerec.seat_names("space_lunch", [4], ["ANNA"], 2) == ["ANNA", "P2"]
    assert gamerec.seat_names("aqua_brunch", [3], [], 3) == ["P1", "P2", "P3"]


def test_csv_and_json_follow_the_documented_versioned_schema(filled, capsys):
    """docs/records.md's table of the CSV and JSON fields is the exporter's, in its order, and
    the version it names is the one written."""
    import re
    from pathlib import Path

    from lunchbox.records import export

    doc = (Path(__file__).resolve().parents[1] / "docs" / "records.md").read_text()
    part = doc[doc.index("**CSV and JSON, schema version"):doc.index("**The BG Stats file**")]
    version = int(re.search(r"schema version (\d+)", part).group(1))
    documented = re.findall(r"^\| `(\w+)` \|", part, re.M)
    assert documented == list(export.FIELDS) and version == export.SCHEMA
    path, recs = filled
    _, out, _ = run_cli(capsys, "export", "--db", path, "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == documented
    assert {r[documented.index("lunchbox_export")] for r in rows[1:]} == {str(version)}
    _, out, _ = run_cli(capsys, "export", "--db", path, "--format", "json")
    data = json.loads(out)
    assert set(data) == {"lunchbox_export", "games"} and data["lunchbox_export"] == version
    assert all(list(g) == documented[:-1] for g in data["games"])
    g = data["games"][0]
    assert isinstance(g["params"], list) and isinstance(g["scores"], list)
    assert g["seconds"] is None and g["turns"] is None  # played without the turn clock


def test_board_is_the_start_of_an_id_not_a_pattern(filled, capsys):
    path, recs = filled
    _, out, _ = run_cli(capsys, "history", "--db", path, "--board", "0101")
    ones = len(out.splitlines()) - 2
    assert 0 < ones < len(recs)
    for pattern in ("%", "_", "0_0", "%01"):
        _, out, _ = run_cli(capsys, "history", "--db", path, "--board", pattern)
        assert out.strip() == "no games match", pattern
