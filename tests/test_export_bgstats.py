"""The BG Stats file (`lunchbox export --format bgstats`) against BG Stats' import layout, field
by field, and against a hand-checked example (tests/data/bgstats-example.bgsplay).

The example: board 0A.. kept a Space Lunch Hard game (ANNA lost 2:3 to the Automa) and a Let's
Do Lunch game against the Hard computer (ANNA won by 4 cannibals: 4:-4); board 0B.., whose names
were never set, kept a Let's Do Lunch game (P2 won 5:-5) and an Aqua Brunch game with ANNA's
name pushed to seat 1 (ANNA 22, P2 18, P3 14; its clock was not set: dated at the pull).
Checked by hand: ANNA is one player on both boards, board 0B's P2 is one player in its two
games and nobody else's P2, the Automa and the computer are players, every winner is rank 1,
the scores are the board's, no bggId (the games' BoardGameGeek ids were not confirmed).
"""

import json
import time
from pathlib import Path

import linkloop
import pytest
import test_pull
from test_pull import play

from lunchbox import cli
from lunchbox.records import bgstats
from lunchbox.records import db as dbmod
from shared_rules import games

EXAMPLE = Path(__file__).parent / "data" / "bgstats-example.bgsplay"
T0 = 1767225600

# what BG Stats' own export (the file it imports) holds, as the issue and its layout list them
GAME_FIELDS = {"id", "uuid", "name", "highestWins", "noPoints", "cooperative", "usesTeams"}
GAME_OPTIONAL = {"bggId", "bggYear"}  # only where the game has one: never invented
PLAYER_FIELDS = {"id", "uuid", "name", "isAnonymous"}
LOCATION_FIELDS = {"id", "uuid", "name"}
PLAY_FIELDS = {"uuid", "gameRefId", "locationRefId", "playDate", "durationMin", "ignored",
               "manualWinner", "rounds", "playerScores"}
PLAY_OPTIONAL = {"comments"}
SCORE_FIELDS = {"playerRefId", "score", "winner", "rank", "seatOrder", "startPlayer",
                "newPlayer"}
NOT_IN_THE_FILE = {"sourceName", "sourceGameId", "sourcePlayId"}  # the push-by-URL format's


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def example_db(tmp_path, utc):
    path = tmp_path / "g.db"
    with dbmod.Database(path) as db:
        a = linkloop.Board(uid=b"\x0a" * 8)
        a.finish(play("space_lunch", 2, seed=1), ("ANNA",), unix=T0)
        a.finish(play("lets_do_lunch", 20, 0, 3 + 4, seed=2), ("ANNA", "BO"), unix=T0 + 600)
        test_pull.do_pull(a, db)
        b = linkloop.Board(uid=b"\x0b" * 8)
        b.finish(play("lets_do_lunch", seed=3), ("P1", "P2"), unix=T0 + 86400)
        b.finish(play("aqua_brunch", 3, seed=4), ("ANNA", "P2", "P3"), unix=0)
        test_pull.do_pull(b, db)
    return str(path)


def export(capsys, *argv):
    code = cli.main(["export", "--format", "bgstats", *argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def check_layout(doc):
    """Every field BG Stats needs, of the right type, every RefId resolving."""
    assert set(doc) == {"games", "players", "locations", "plays", "userInfo"}
    assert not NOT_IN_THE_FILE & set(json.dumps(doc).split('"'))
    ids = {}
    for table, need, optional in (("games", GAME_FIELDS, GAME_OPTIONAL),
                                  ("players", PLAYER_FIELDS, set()),
                                  ("locations", LOCATION_FIELDS, set())):
        for item in doc[table]:
            assert need <= set(item) <= need | optional, (table, item)
            assert isinstance(item["id"], int) and isinstance(item["name"], str)
        ids[table] = [item["id"] for item in doc[table]]
        assert len(set(ids[table])) == len(ids[table])
        assert len({item["uuid"] for item in doc[table]}) == len(doc[table])
    for g in doc["games"]:
        assert all(isinstance(g[k], bool) for k in GAME_FIELDS - {"id", "uuid", "name"})
    assert doc["userInfo"]["meRefId"] in ids["players"]
    for p in doc["plays"]:
        assert PLAY_FIELDS <= set(p) <= PLAY_FIELDS | PLAY_OPTIONAL, p
        assert p["gameRefId"] in ids["games"] and p["locationRefId"] in ids["locations"]
        time.strptime(p["playDate"], "%Y-%m-%d %H:%M:%S")
        assert isinstance(p["durationMin"], int) and isinstance(p["rounds"], int)
        assert p["ignored"] is False and p["manualWinner"] is False
        seats = [s["seatOrder"] for s in p["playerScores"]]
        assert seats == list(range(1, len(seats) + 1))
        assert sum(s["startPlayer"] for s in p["playerScores"]) <= 1
        assert any(s["winner"] for s in p["playerScores"])
        for s in p["playerScores"]:
            assert set(s) == SCORE_FIELDS, s
            assert s["playerRefId"] in ids["players"]
            int(s["score"])  # a number, as text (the app's own type)
            assert (s["rank"] == 1) == s["winner"]
    assert len({p["uuid"] for p in doc["plays"]}) == len(doc["plays"])


def test_the_file_matches_the_hand_checked_example(example_db, capsys):
    out = export(capsys, "--db", example_db)
    check_layout(json.loads(out))
    assert out == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_itself_has_the_layout():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    check_layout(doc)
    names = [p["name"] for p in doc["players"]]
    assert names == ["ANNA", "Automa", "Computer (Hard)", "P1 (board 0B0B0B0B)",
                     "P2 (board 0B0B0B0B)", "P3 (board 0B0B0B0B)"]
    by_name = {p["name"]: p["id"] for p in doc["players"]}
    anna = [p for p in doc["plays"]
            if any(s["playerRefId"] == by_name["ANNA"] for s in p["playerScores"])]
    assert {p["locationRefId"] for p in anna} == {1, 2}  # one person on both boards
    lunch = doc["plays"][0]["playerScores"]
    assert [(s["score"], s["winner"], s["rank"]) for s in lunch] == [("2", False, 2),
                                                                     ("3", True, 1)]
    ldl = doc["plays"][1]["playerScores"]
    assert [(s["score"], s["winner"]) for s in ldl] == [("4", True), ("-4", False)]
    assert doc["userInfo"]["meRefId"] == by_name["ANNA"]


def test_default_names_of_two_boards_are_two_people(tmp_path, capsys, utc):
    path = tmp_path / "g.db"
    with dbmod.Database(path) as db:
        for uid in (b"\x01" * 8, b"\x02" * 8):
            board = linkloop.Board(uid=uid)
            board.finish(play("lets_do_lunch", seed=5), ("P1", "P2"), unix=T0)
            board.finish(play("lets_do_lunch", seed=6), ("ANNA", "P2"), unix=T0 + 60)
            test_pull.do_pull(board, db)
    doc = json.loads(export(capsys, "--db", str(path)))
    check_layout(doc)
    names = sorted(p["name"] for p in doc["players"])
    assert names == ["ANNA", "P1 (board 01010101)", "P1 (board 02020202)",
                     "P2 (board 01010101)", "P2 (board 02020202)"]
    uuids = {p["name"]: p["uuid"] for p in doc["players"]}
    # the same person gets the same uuid in every export, whichever games are in it
    one = json.loads(export(capsys, "--db", str(path), "--board", "0101"))
    assert {p["name"]: p["uuid"] for p in one["players"]}.items() <= uuids.items()


def test_me_names_the_app_user(example_db, capsys):
    doc = json.loads(export(capsys, "--db", example_db, "--me", "p2 (board 0b0b0b0b)"))
    by_id = {p["id"]: p["name"] for p in doc["players"]}
    assert by_id[doc["userInfo"]["meRefId"]] == "P2 (board 0B0B0B0B)"
    code = cli.main(["export", "--format", "bgstats", "--db", example_db, "--me", "Automa"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("lunchbox export:") == 1 and "ANNA" in err


def test_ranks_and_start_seat():
    assert bgstats.ranks([5, 9, 9, 1], [1, 2]) == [3, 1, 1, 4]
    assert bgstats.ranks([-4, 4], [1]) == [2, 1]
    rec = play("space_lunch", 0, seed=2)
    first = bgstats.start_seat(rec)
    g = games.replay(rec, 0)
    for a in games.parse(rec)[3]:
        if g.current_player() >= 0:
            break
        g.apply(a)
    assert first == g.current_player() >= 0


def test_no_games_is_an_empty_file_not_an_error(example_db, capsys):
    doc = json.loads(export(capsys, "--db", example_db, "--game", "space battle"))
    assert doc == {"games": [], "players": [], "locations": [], "plays": [], "userInfo": {}}


def test_a_bgg_id_only_where_the_descriptor_gives_one(example_db, capsys, monkeypatch):
    # no descriptor gives one today: none is written (never invented)
    doc = json.loads(export(capsys, "--db", example_db))
    assert not any(k in g for g in doc["games"] for k in GAME_OPTIONAL)
    real = bgstats.about

    def about(game_id):
        d = dict(real(game_id) or {})
        if game_id == "lets_do_lunch":
            d["bgstats"] = dict(d.get("bgstats") or {}, bggId=123456, bggYear=2019)
        if game_id == "space_lunch":
            d["bgstats"] = dict(d.get("bgstats") or {}, bggId=0, bggYear="soon")
        return d
    monkeypatch.setattr(bgstats, "about", about)
    doc = json.loads(export(capsys, "--db", example_db))
    check_layout(doc)
    by_name = {g["name"]: g for g in doc["games"]}
    assert by_name["Let's Do Lunch"]["bggId"] == 123456
    assert by_name["Let's Do Lunch"]["bggYear"] == 2019
    # a value that is no id is left out, not guessed at
    assert not GAME_OPTIONAL & set(by_name["Space Lunch"])


def test_the_seats_the_board_plays_are_one_player_on_every_board(tmp_path, capsys, utc):
    path = tmp_path / "g.db"
    with dbmod.Database(path) as db:
        for n, uid in enumerate((b"\x03" * 8, b"\x04" * 8)):
            board = linkloop.Board(uid=uid)
            board.finish(play("space_lunch", 1, seed=7 + n), ("P1",), unix=T0 + n)
            board.finish(play("lets_do_lunch", 20, 0, 3 + 4, seed=9 + n), ("ANNA", "P2"),
                         unix=T0 + 60 + n)
            test_pull.do_pull(board, db)
    doc = json.loads(export(capsys, "--db", str(path)))
    check_layout(doc)
    names = [p["name"] for p in doc["players"]]
    assert names.count("Automa") == 1 and names.count("Computer (Hard)") == 1
    device = {p["id"] for p in doc["players"] if p["name"] in ("Automa", "Computer (Hard)")}
    seats = [s["playerRefId"] for p in doc["plays"] for s in p["playerScores"]]
    assert sum(1 for s in seats if s in device) == 4  # in each of the four plays
    # nobody is "me" but a person
    me = {p["id"]: p["name"] for p in doc["players"]}[doc["userInfo"]["meRefId"]]
    assert me == "ANNA"
