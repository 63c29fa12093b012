"""Each Let's Do Lunch game record speaks of its own game (winner, points, final board) with the
match beside it, and the envelope names the seats the device plays; on CPython and on real
MicroPython (the device's rules and envelope code)."""

from companion.store import records
from shared_rules import games
from shared_rules.rng import Rng


def _play_match(seed, target):
    """A seeded match to ``target``: the records of its games, in order."""
    g = games.new("lets_do_lunch", target, 0, 3 + 4, 0)
    rng = Rng(seed)
    out = []
    while not g.is_terminal():
        if g.current_player() == games.TABLE and g.ended is not None:
            out.append(g.to_bytes())
            g.apply(0)
            continue
        legal = g.legal_actions()
        g.apply(legal[rng.randbelow(len(legal))])
    out.append(g.to_bytes())
    return out


def test_each_record_has_its_games_winner_points_board_and_the_match_beside():
    recs = _play_match(5, 12)
    assert len(recs) >= 2
    total = [0, 0]
    for i in range(len(recs)):
        g = games.replay(recs[i])
        w = g.winners()
        assert len(w) == 1
        sc = g.scores()
        points = sc[w[0]]
        assert 1 <= points <= 12 and sc[1 - w[0]] == -points
        board = g.board()
        assert board.count(w[0]) == 12 and board.count(1 - w[0]) == 12 - points
        total = [total[0] + sc[0], total[1] + sc[1]]
        assert g.match_scores() == total and g.game_number() == i + 1
        assert g.is_terminal() == (i == len(recs) - 1)
    assert max(total) >= 12


def test_a_game_under_way_has_no_winner_and_no_points_yet():
    g = games.new("lets_do_lunch", 20)
    assert g.winners() == [] and g.scores() == [0, 0] and g.game_number() == 1
    g.apply(g.legal_actions()[0])
    assert g.winners() == [] and g.scores() == [0, 0] and g.board().count(0) == 0


def test_the_envelope_names_the_computer_and_the_automa():
    rec = games.new("lets_do_lunch", 20, 0, 2, 0).to_bytes()  # Medium plays A
    env = records.envelope(rec, 0, ["ANNA", "BO"])
    assert records.open_envelope(records.KIND_GAME, env) == (0, ["Computer (Medium)", "BO"], rec)
    rec = games.new("lets_do_lunch", 20, 0, 3 + 4, 0).to_bytes()  # Hard plays B
    assert records.open_envelope(3, records.envelope(rec, 0, ["P1", "P2"]))[1] == \
        ["P1", "Computer (Hard)"]
    solo = games.new("space_lunch", 1).to_bytes()
    assert records.open_envelope(3, records.envelope(solo, 0, ["ANNA"]))[1] == ["ANNA", "Automa"]
    assert records.seat_names(0, (4,), ["ANNA", "BO"]) == ["ANNA", "BO"]  # the duel: two people
    assert records.seat_names(2, (3,), ["ANNA"]) == ["ANNA", "P2", "P3"]
