"""The charts of `lunchbox stats --plot` (host/lunchbox/records/charts.py): the data behind
each, the bars, labels and ticks matplotlib drew (its artists, not pixels), names in the
titles, and the PNGs written read back for their size."""

import struct
import time

import pytest
import test_pull

from lunchbox.records import charts, gamerec, stats
from lunchbox.records.game_names import IDS

T0 = 1767225600
DAY = 86400


def ldl_row(seed, when):
    """A real Let's Do Lunch game, as a pull stores it (gamerec.summarize), seats named."""
    row = gamerec.summarize(seed, gamerec.KIND_RECORD, test_pull.play("lets_do_lunch", seed=seed),
                            when)
    row.update(players=["ANNA", "BO"], id=seed)
    return row


def row(gid, params, players, winners, scores, when):
    return {"game_id": gid, "params": params, "players": players, "winners": winners,
            "scores": scores, "played_at": when, "status": "ok"}


@pytest.fixture
def rows():
    """Hand-checked: the race ANNA 2 of 3, BO 1 of 3; Space Lunch solo Easy won 1 of 2, Hard
    lost; an Aqua Brunch scoreboard tied by ANNA and BO (CY 0 of 1); three Let's Do Lunch."""
    out = [
        row("battle_race", [2], ["ANNA", "BO"], [0], [21, 15], T0 + 3 * DAY),
        row("battle_race", [2], ["ANNA", "BO"], [1], [19, 21], T0 + 1 * DAY),
        row("battle_race", [2], ["ANNA", "BO"], [0], [22, 20], T0 + 2 * DAY),
        row("space_lunch", [0], ["ANNA", "Automa"], [0], [5, 3], T0),
        row("space_lunch", [0], ["ANNA", "Automa"], [1], [2, 4], T0 + 60),
        row("space_lunch", [2], ["ANNA", "Automa"], [1], [1, 6], T0 + 120),
        row("aqua_score", [3, 0], ["ANNA", "BO", "CY"], [0, 1], [30, 30, 12], T0),
    ]
    return out + [ldl_row(seed, T0 + seed * 600) for seed in (1, 2, 3)]


def by_kind(chart_list, kind):
    return [c for c in chart_list if c["kind"] == kind]


def ax_of(chart):
    return charts.figure(chart).axes[0]


def whole(ticks):
    """Ticks there are, all whole numbers."""
    return len(ticks) > 1 and all(float(t).is_integer() for t in ticks)


def test_the_charts_and_their_data(rows):
    made = stats.chart_list(rows)
    assert [c["file"] for c in made] == [
        "win-rate-space-lunch.png", "win-rate-lets-do-lunch.png",
        "win-rate-aqua-brunch-scoreboard.png", "win-rate-space-battle-race.png",
        "space-lunch-win-rate.png", "lets-do-lunch-rolls.png", "lets-do-lunch-margins.png",
        "scores-space-lunch.png", "scores-aqua-brunch-scoreboard.png",
        "scores-space-battle-race.png"]
    rates = {c["file"]: c["players"] for c in by_kind(made, "win_rate")}
    assert rates["win-rate-space-battle-race.png"] == [("ANNA", 3, 2), ("BO", 3, 1)]
    assert rates["win-rate-space-lunch.png"] == [("ANNA", 3, 1), ("Automa", 3, 2)]
    assert rates["win-rate-aqua-brunch-scoreboard.png"] == [("ANNA", 1, 1), ("BO", 1, 1),
                                                            ("CY", 1, 0)]
    (levels,) = by_kind(made, "levels")
    assert [lv[:3] for lv in levels["levels"]] == [("Easy", 2, 1), ("Hard", 1, 0)]
    (margins,) = by_kind(made, "margins")
    ldl = [r for r in rows if r["game_id"] == "lets_do_lunch"]
    assert margins["games"] == [(i + 1, r["players"][r["winners"][0]], r["scores"][r["winners"][0]])
                                for i, r in enumerate(ldl)]
    assert all(points == -min(r["scores"]) >= 0 for (_, _, points), r in zip(margins["games"], ldl))
    (race,) = [c for c in by_kind(made, "scores") if c["file"] == "scores-space-battle-race.png"]
    # oldest first, game numbers shared by the players at one table
    assert race["players"] == [("ANNA", [(1, 19), (2, 22), (3, 21)]),
                               ("BO", [(1, 21), (2, 20), (3, 15)])]
    day = [time.strftime("%Y-%m-%d", time.localtime(T0 + d * DAY)) for d in (1, 3)]
    assert race["title"] == "Space Battle race: scores over time ({} to {})".format(*day)
    (lunch,) = [c for c in by_kind(made, "scores") if c["file"] == "scores-space-lunch.png"]
    assert [p for p, _ in lunch["players"]] == ["ANNA"]  # not the Automa's score


def test_win_rate_bars_carry_their_counts(rows):
    (chart,) = [c for c in stats.chart_list(rows)
                if c["file"] == "win-rate-aqua-brunch-scoreboard.png"]
    ax = ax_of(chart)
    (bars,) = ax.containers
    assert [b.get_height() for b in bars] == [1.0, 1.0, 0.0]
    assert [t.get_text() for t in ax.texts] == ["1 of 1", "1 of 1", "0 of 1"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ANNA", "BO", "CY"]
    assert ax.get_title() == "Aqua Brunch scoreboard: win rate per player"
    (chart,) = [c for c in stats.chart_list(rows) if c["file"] == "win-rate-space-battle-race.png"]
    ax = ax_of(chart)
    assert [round(b.get_height(), 6) for b in ax.containers[0]] == [round(2 / 3, 6),
                                                                     round(1 / 3, 6)]
    assert [t.get_text() for t in ax.texts] == ["2 of 3", "1 of 3"]
    assert ax.get_title() == "Space Battle race: win rate per player"


def test_space_lunch_by_difficulty_stacks_won_and_lost(rows):
    (chart,) = by_kind(stats.chart_list(rows), "levels")
    ax = ax_of(chart)
    won, lost = ax.containers
    assert [b.get_height() for b in won] == [1, 0] and [b.get_height() for b in lost] == [1, 1]
    assert [b.get_y() for b in lost] == [1, 0]  # lost sits on won
    assert [t.get_text() for t in ax.texts] == ["1", "", "1", "1"]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[0].startswith("Easy\n50% (") and ticks[1].startswith("Hard\n0% (")
    assert whole(ax.get_yticks())


def test_margins_and_rolls(rows):
    made = stats.chart_list(rows)
    (margins,) = by_kind(made, "margins")
    ax = ax_of(margins)
    drawn = sorted((int(b.get_x() + b.get_width() / 2 + 0.5), b.get_height())
                   for bars in ax.containers for b in bars)
    assert drawn == [(g, p) for g, _, p in margins["games"]]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["{} won".format(w) for w in sorted({w for _, w, _ in margins["games"]})]
    assert sorted(t.get_text() for t in ax.texts) == sorted(str(p) for _, _, p in
                                                            margins["games"])
    (rolls,) = by_kind(made, "rolls")
    ax = ax_of(rolls)
    counts = stats.dice_counts(rows, "lets_do_lunch")
    assert [b.get_height() for b in ax.containers[0]] == counts and sum(counts) > 0
    assert whole(ax.get_yticks()) and whole(ax.get_xticks())


def test_count_axes_have_whole_ticks_and_titles_names(rows):
    for chart in stats.chart_list(rows):
        ax = ax_of(chart)
        title = ax.get_title()
        assert not any(gid in title for gid in IDS), title
        if chart["kind"] in ("levels", "rolls", "margins", "scores"):
            assert whole(ax.get_yticks()), chart["file"]
        if chart["kind"] in ("rolls", "margins", "scores"):
            assert whole(ax.get_xticks()), chart["file"]


def test_the_pngs_written_are_the_charts_at_their_size(rows, tmp_path):
    paths = stats.plots(rows, str(tmp_path))
    made = stats.chart_list(rows)
    assert [p.rsplit("/", 1)[1] for p in paths] == [c["file"] for c in made]
    want = (int(charts.SIZE[0] * charts.DPI), int(charts.SIZE[1] * charts.DPI))
    for path in paths:
        data = open(path, "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
        assert struct.unpack(">II", data[16:24]) == want, path
        assert len(data) > 5000, path  # drawn, not blank


def test_no_rows_no_charts(tmp_path):
    assert stats.chart_list([]) == []
    assert stats.plots([], str(tmp_path / "empty")) == []


def test_two_boards_default_names_are_two_players(rows):
    # the same rule as the BG Stats file (people.py): "P1" of two boards are two players, a
    # pushed name one player everywhere; one board's tables keep the short "P1"
    def race(board, players, winners, scores, when):
        r = row("battle_race", [2], players, winners, scores, when)
        r["board_id"] = board
        return r
    two = [race("0A" * 8, ["P1", "ANNA"], [0], [21, 9], T0),
           race("0B" * 8, ["P1", "ANNA"], [1], [8, 21], T0 + DAY),
           race("0B" * 8, ["P1", "P2"], [1], [8, 21], T0 + 2 * DAY)]
    rates = dict(((p, (n, w)) for p, n, w in charts.win_rates(two)["battle_race"]))
    assert rates == {"P1 (board 0A0A0A0A)": (1, 1), "P1 (board 0B0B0B0B)": (2, 0),
                     "ANNA": (2, 1), "P2": (1, 1)}
    scores = stats.scores_over_time(two)["battle_race"]
    assert sorted(scores) == ["ANNA", "P1 (board 0A0A0A0A)", "P1 (board 0B0B0B0B)", "P2"]
    assert "P1 (board 0B0B0B0B)  2" in stats.report(two)
    one = [r for r in two if r["board_id"] == "0B" * 8]
    assert {p for p, _, _ in charts.win_rates(one)["battle_race"]} == {"P1", "P2", "ANNA"}


def test_the_report_lists_games_in_the_registry_order(rows):
    text = stats.report(rows)
    heads = [line.split(":")[0] for line in text.splitlines() if line.endswith(
        ": scores per player, and how often each won")]
    order = [IDS.index(g) for g in IDS if any(h == charts.name(g) for h in heads)]
    assert order == sorted(order) and len(heads) == 4


def test_the_report_gives_win_rates_as_rates_with_their_counts(rows):
    text = stats.report(rows)
    lines = text.splitlines()
    head = lines.index("Space Battle race: scores per player, and how often each won")
    assert lines[head + 1].split() == ["PLAYER", "GAMES", "WINS", "WIN", "RATE", "MEAN", "MIN",
                                       "MAX", "LAST"]
    anna, bo = lines[head + 3].split(), lines[head + 4].split()  # under the head's rule
    assert anna[:4] == ["ANNA", "3", "2", "67%"] and bo[:4] == ["BO", "3", "1", "33%"]
    head = lines.index("Aqua Brunch scoreboard: scores per player, and how often each won")
    # a tie is a win for each winner
    assert [ln.split()[:4] for ln in lines[head + 3:head + 6]] == [
        ["ANNA", "1", "1", "100%"], ["BO", "1", "1", "100%"], ["CY", "1", "0", "0%"]]
    head = lines.index("Space Lunch solo: win rate against the Automa (95% interval)")
    assert lines[head + 3].split()[:4] == ["Easy", "2", "1", "50%"]
    assert stats.rate(0, 0) == "-" and stats.rate(1, 3) == "33%"


def meanings(chart_list):
    """``{(colour, look): {meanings}}`` read off the drawn artists of every chart: what a
    bar or a line of that colour stands for, by its tick label or legend label."""
    from matplotlib.colors import to_hex

    seen = {}

    def saw(colour, look, meaning):
        seen.setdefault((to_hex(colour), look), set()).add(meaning)

    for chart in chart_list:
        ax = ax_of(chart)
        kind = chart["kind"]
        if kind == "win_rate":
            ticks = [t.get_text() for t in ax.get_xticklabels()]
            for bar, player in zip(ax.containers[0], ticks):
                saw(bar.get_facecolor(), bar.get_hatch() or "", player)
        elif kind in ("levels", "rolls", "margins"):
            for bars in ax.containers:
                label = bars.get_label()
                meaning = label[:-len(" won")] if label.endswith(" won") else label
                for bar in bars:
                    saw(bar.get_facecolor(), bar.get_hatch() or "", meaning)
            for line in ax.get_lines():
                saw(line.get_markeredgecolor(), "", line.get_label())
        elif kind == "scores":
            for line in ax.get_lines():
                saw(line.get_color(), line.get_linestyle(), line.get_label())
    return seen


def test_one_colour_is_one_meaning_in_every_chart(rows):
    """The margins' "Computer won" and a player's line or bar elsewhere never share a
    colour; a player is the same colour in the win rates, the margins and the scores; won,
    lost, rolled and fair dice are colours no player has."""
    vs = gamerec.summarize(9, gamerec.KIND_RECORD, test_pull.play("lets_do_lunch", seed=9),
                           T0 + DAY)
    vs.update(players=["ANNA", "Computer"], id=9)
    everything = rows + [vs]
    made = stats.chart_list(everything)
    seen = meanings(made)
    assert {m for ms in seen.values() for m in ms} >= {
        "ANNA", "BO", "CY", "Automa", "Computer", "won", "lost", "rolled", "fair dice"}
    by_colour = {}
    for (colour, _), ms in seen.items():
        by_colour.setdefault(colour, set()).update(ms)
    assert all(len(ms) == 1 for ms in by_colour.values()), by_colour
    by_meaning = {}
    for (colour, _), ms in seen.items():
        for m in ms:
            by_meaning.setdefault(m, set()).add(colour)
    assert all(len(cs) == 1 for cs in by_meaning.values()), by_meaning
    # the Let's Do Lunch margins colour each game by its winner, as the win rates do: the
    # computer's win is there, so its colour was checked against its win-rate bar above
    (margins,) = by_kind(made, "margins")
    assert "Computer" in {w for _, w, _ in margins["games"]}
    assert "Computer won" in [c.get_label() for c in ax_of(margins).containers]


def test_more_players_than_colours_still_look_apart():
    many = ["P{}".format(i) for i in range(1, 8)] + ["ANNA", "BO", "CY"]
    races = [row("battle_race", [2], [a, b], [0], [21, 10], T0 + i)
             for i, (a, b) in enumerate(zip(many, many[1:] + many[:1]))]
    made = stats.chart_list(races)
    seen = meanings(made)
    players = {m for ms in seen.values() for m in ms}
    assert players == set(many)
    assert all(len(ms) == 1 for ms in seen.values()), seen  # colour and hatch/line: one player
    looks = charts.player_colours(races)
    assert len(set(looks.values())) == len(many) > len(charts.PLAYER_COLOURS)
    fixed = {charts.WON, charts.LOST, charts.ROLLED, charts.FAIR, charts.TIE}
    assert not fixed & set(charts.PLAYER_COLOURS)


def test_every_descriptors_statistics_are_kinds_the_host_knows():
    """Each game's declared statistics (about.json "stats") pass the check `stats` makes;
    the games that declare some still do (their tables and charts are above)."""
    for gid in IDS:
        for stat in stats.declared(gid):
            assert stat["kind"] in stats.KINDS and stat["kind"] in stats.MAKERS, gid
    assert [s["kind"] for s in stats.declared("space_lunch")] == ["rate_by"]
    assert [s["kind"] for s in stats.declared("lets_do_lunch")] == ["dice", "margins"]


@pytest.mark.parametrize("bad, said", [
    ({"kind": "median"}, "no statistic of kind 'median' here (the kinds: dice, margins, "
                         "rate_by)"),
    ({"kind": "rate_by", "by": "level"}, "its rate_by statistic needs 'title' as str"),
    ({"kind": "rate_by", "by": "level", "title": "T", "seat": "0"},
     "its rate_by statistic needs 'seat' as int"),
    ({"kind": "rate_by", "by": "level", "title": "T", "seat": True},
     "its rate_by statistic needs 'seat' as int"),
    ({"kind": "margins", "colour": "red"}, "its margins statistic has no field 'colour'"),
    ({"kind": "dice", "module": "nothere", "actions": [111, 333]},
     "its dice statistic names shared_rules.lets_do_lunch.nothere"),
    ("dice", "no statistic of kind None here"),
    ({"kind": "rate_by", "by": "level", "title": "T", "values": [0, "1"]},
     "its rate_by statistic's values are not all whole numbers"),
    ({"kind": "dice", "module": "fair", "actions": [111]}, "its dice statistic's actions are"),
    ({"kind": "dice", "module": "fair", "actions": [11, 333]}, "its dice statistic's actions are"),
    ({"kind": "dice", "module": "fair", "actions": [101, 333]},
     "its dice statistic's actions are"),
])
def test_a_wrong_declaration_is_one_message_naming_its_file(rows, monkeypatch, tmp_path, bad,
                                                            said):
    """A descriptor's statistic that is not right stops `stats` with one message naming the
    game's about.json, before any chart is written."""
    from lunchbox.errors import LunchboxError

    real = stats.about

    def about(gid):
        row = dict(real(gid) or {})
        if gid == "lets_do_lunch":
            row["stats"] = [bad]
        return row

    monkeypatch.setattr(stats, "about", about)
    for make in (stats.report, lambda r: stats.plots(r, str(tmp_path / "plots"))):
        with pytest.raises(LunchboxError) as e:
            make(rows)
        text = str(e.value)
        assert text.startswith("Let's Do Lunch (shared_rules/lets_do_lunch/about.json): "), text
        assert said in text and "docs/adding-a-game.md" in e.value.hint
    assert not (tmp_path / "plots").exists()


def test_rate_by_a_seat_and_setting_of_its_own():
    """A rate_by's seat and setting as declared: seat 1's wins alone at each value of setting
    1 played, by number (the variant words another setting), a shared win no win alone."""
    races = [row("battle_race", [2, 7], ["ANNA", "BO"], [1], [9, 21], T0),
             row("battle_race", [2, 7], ["ANNA", "BO"], [0, 1], [21, 21], T0 + 1),
             row("battle_race", [3, 5], ["ANNA", "BO", "CY"], [1], [9, 21, 4], T0 + 2),
             row("battle_race", [2], ["ANNA", "BO"], [1], [9, 21], T0 + 3)]  # no setting 1
    got = stats.rates_by(races, "battle_race", {"seat": 1, "param": 1})
    assert [g[:3] for g in got] == [("5", 1, 1), ("7", 2, 1)]
    assert got[1][3:] == stats.wilson(1, 2)
    # setting 0 is the variant's: its words ("2 players"); only the values declared, in order
    got = stats.rates_by(races, "battle_race", {"seat": 1, "values": [3, 2]})
    assert [g[:3] for g in got] == [("3 players", 1, 1), ("2 players", 3, 2)]
