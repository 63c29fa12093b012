"""companion/core/catalog.py reads a game's descriptor (its about.json) when asked; opening a
game asks for the same row several times (the loader's family checks, its label, the turn
clock), and on the board each read is a file from flash parsed as JSON. The last row found is
kept while the module is, and only that one."""

from companion.core import catalog


def test_the_same_row_is_read_once_and_another_is_read_again(monkeypatch):
    reads = []
    rows_of = catalog.rows_of

    def counted(name):
        reads.append(name)
        return rows_of(name)

    monkeypatch.setattr(catalog, "rows_of", counted)
    monkeypatch.setattr(catalog, "_last", [None, None])
    first = catalog.about("space_lunch")
    assert first["name"] == "Space Lunch" and reads == ["space_lunch"]
    assert catalog.about("space_lunch") is first and reads == ["space_lunch"]
    assert catalog.family("space_lunch") == "space_lunch" and reads == ["space_lunch"]
    # a scoreboard, then its parent: each its own read, the parent's found again afterwards
    assert catalog.about("aqua_score")["parent"] == "aqua_brunch"
    assert catalog.about("aqua_brunch")["id"] == "aqua_brunch"
    assert reads == ["space_lunch", "aqua_brunch", "aqua_brunch"]
    assert catalog.about("space_lunch") == first and reads[-1] == "space_lunch"


def test_an_unknown_id_is_not_kept(monkeypatch):
    monkeypatch.setattr(catalog, "_last", [None, None])
    assert catalog.about("no_such_game") is None
    assert catalog._last == [None, None]
