"""The host's table of game names (host/lunchbox/records/game_names.py): every registry row has a
name, the names agree with the board's menus, and `--game` finds a game by what a player
types."""


import pytest

from lunchbox.errors import UsageError
from lunchbox.records import game_names
from shared_rules import games


def menu_tables():
    """The menu's games ``(id, label, name, screens)`` and the scoreboards and tools opened
    from their lists ``(id, parent, screens)``, from the games' descriptors."""
    rows = game_names.descriptors()
    menu = [(r["id"], r["label"], r["name"], r["screens"]) for r in rows if not r.get("parent")]
    boards = [(r["id"], r["parent"], r["screens"]) for r in rows if r.get("parent")]
    return menu, boards


def test_every_registry_row_has_a_name():
    missing = [row[0] for row in games.ROWS if row[0] not in game_names.GAME_NAMES]
    assert not missing, "registry rows with no descriptor: {}".format(missing)


def test_every_game_the_menu_opens_has_a_name():
    menu_games, scoreboards = menu_tables()
    ids = [g[0] for g in menu_games] + [s[0] for s in scoreboards]
    assert sorted(ids) == sorted(game_names.IDS)


def test_names_follow_the_board_menus():
    """A game is named by the menu's title; a scoreboard by its game's menu name and what
    the board calls it (a player reads the same words on the box and on the computer)."""
    menu_games, scoreboards = menu_tables()
    label = {g[0]: g[1] for g in menu_games}
    for gid, _label, title, _module in menu_games:
        assert game_names.name(gid) == title
    for board, game, _module in scoreboards:
        shown = game_names.name(board)
        assert shown.startswith(label[game] + " ") and shown != game_names.name(game), board
    assert game_names.name("battle_race") == "Space Battle race"
    assert game_names.name("aqua_score") == "Aqua Brunch scoreboard"
    assert game_names.name("days_score") == "Space Days scoring"


def test_no_spelling_names_two_games():
    seen = {}
    for row in game_names.NAMES:
        for spelled in [row[0], row[1]] + list(row[2]):
            key = "".join(game_names.words(spelled))
            assert seen.setdefault(key, row[0]) == row[0], (spelled, seen[key])


@pytest.mark.parametrize("row", game_names.NAMES, ids=lambda r: r[0])
def test_each_id_and_name_in_any_case_finds_its_game(row):
    gid, shown, others = row
    for typed in (gid, gid.upper(), shown, shown.lower(), shown.upper(), " " + shown + " ") \
            + others:
        assert game_names.lookup(typed) == gid, typed


@pytest.mark.parametrize("typed,gid", [
    ("space battle race", "battle_race"), ("SPACE BATTLE", "space_battle"),
    ("battle race", "battle_race"), ("race", "battle_race"), ("lets do", "lets_do_lunch"),
    ("Let\u2019s Do Lunch", "lets_do_lunch"), ("aqua score", "aqua_score"),
    ("days scoring", "days_score"), ("space-days", "space_days"), ("strength", "aqua_calc"),
])
def test_a_part_that_fits_one_game(typed, gid):
    assert game_names.lookup(typed) == gid


def test_an_unknown_or_ambiguous_game_is_one_line_with_the_choices():
    with pytest.raises(UsageError) as e:
        game_names.lookup("chess")
    text = str(e.value)
    assert "\n" not in text and text.startswith("--game 'chess' is no game here")
    assert all("{} ({})".format(n[1], n[0]) in text for n in game_names.NAMES)
    with pytest.raises(UsageError) as e:
        game_names.lookup("aqua")
    text = str(e.value)
    assert "\n" not in text and text.startswith("--game 'aqua' could be any of: ")
    assert "Aqua Brunch (aqua_brunch)" in text and "Aqua Brunch scoreboard (aqua_score)" in text
    assert "Space" not in text
    for blank in ("", "  ", "'", "--"):
        with pytest.raises(UsageError) as e:
            game_names.lookup(blank)
        assert "names no game" in str(e.value)


def test_an_id_the_table_does_not_know_reads_as_itself():
    assert game_names.name("chess_club") == "chess_club"
    assert game_names.name(None) == "?"


@pytest.mark.parametrize("command", ["history", "stats", "export"])
def test_the_help_of_game_lists_the_names_players_say(command, capsys):
    from lunchbox import cli

    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for gid, name, _ in game_names.NAMES:
        if (game_names.about(gid) or {}).get("recorded", True):
            assert name in text, (command, name)
    assert "Aqua Brunch strength calculator" not in text  # it keeps no records


def test_every_menu_game_says_how_its_first_screen_opens():
    """The real-CircuitPython lane opens each menu game by its descriptor's ``first_screen``
    (tests/test_cp_lane.py): ``[keys after the menu row, the class then on top]``."""
    menu_games, _boards = menu_tables()
    for gid, _label, _name, _module in menu_games:
        got = game_names.about(gid).get("first_screen")
        assert isinstance(got, list) and len(got) == 2, gid
        keys, top = got
        assert isinstance(keys, str) and top.isidentifier() and top[:1].isupper(), (gid, got)


def test_a_games_tools_are_rows_of_its_list():
    """A descriptor's ``tools`` (the rows of its own list that keep no record, which the
    play-through tries: tests/playthrough.py) are row numbers, on main-menu rows only."""
    menu_games, _boards = menu_tables()
    on_menu = {g[0] for g in menu_games}
    for row in game_names.descriptors():
        tools = row.get("tools")
        if tools is None:
            continue
        assert row["id"] in on_menu, row["id"]
        assert tools and all(isinstance(t, int) and t > 0 for t in tools), row["id"]
    assert game_names.about("aqua_brunch")["tools"] == [1, 2]  # Strength, Pass advisor


def test_the_host_tools_name_no_game():
    """What a game's records mean, its screenshots and how the checks open it are read from
    its folder: no module of the host tool spells a registry id (docs/adding-a-game.md)."""
    import re
    from pathlib import Path

    host = Path(__file__).resolve().parents[1] / "host" / "lunchbox"
    ids = "|".join(re.escape(r[0]) for r in games.ROWS)
    spelled = re.compile(r"""["'](?:{})["']""".format(ids))
    found = [str(p.relative_to(host)) for p in sorted(host.rglob("*.py"))
             if spelled.search(p.read_text())]
    assert found == []
