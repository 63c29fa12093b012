"""Game record format 2 (docs/design.md, "The game protocol"): every game's records round-trip,
Let's Do Lunch's actions go two a byte and a later game of a match starts from a few bytes;
records and saves written in format 1 (tests/data/records/format1.json, made by the format 1
encoder) still load and give the same game, and a save resumed from them plays on; a corrupt or
oddly written record of either format is refused with a ValueError saying what is wrong. On
CPython and on real MicroPython (the data is at /tests/records there: tests/portable/records
is a link to tests/data/records)."""

import json
import sys

from _harness import raises
from shared_rules import games
from shared_rules._codec import checksum
from shared_rules.protocol import FORMAT, FORMAT_1
from shared_rules.registry import ROWS
from shared_rules.rng import Rng

ON_MP = sys.implementation.name != "cpython"
SEEDS = 2 if ON_MP else 4
STEPS = 150 if ON_MP else 400  # a record replayed whole after each of its first 60 actions,
EVERY = 9  # then after every ninth (each replay is the whole record again)


def _format1_rows():
    for path in ("/tests/records/format1.json", "tests/data/records/format1.json"):
        try:
            with open(path) as f:
                return json.load(f)["rows"]
        except OSError:
            pass
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "data", "records", "format1.json")) as f:
        return json.load(f)["rows"]


def choose(g, rng):
    if g.current_player() == games.CHANCE:
        return rng.weighted(g.chance_outcomes())
    legal = g.legal_actions()
    if g.game_id == "space_battle":
        from test_protocol import _space_battle_move

        a = _space_battle_move(g, legal)
        if a is not None:
            return a
    return rng.choice(legal)


def shown(g):
    """What the host and the device show of a game (as format1.json keeps it)."""
    out = {"actions": g.actions(), "player": g.current_player(), "legal": g.legal_actions(),
           "winners": g.winners(), "scores": g.scores(), "terminal": g.is_terminal(),
           "describe": [g.describe(a) for a in g.legal_actions()[:12]],
           "params": list(g.params), "game_id": g.game_id}
    if hasattr(g, "engine") and hasattr(g.engine, "to_bytes"):
        out["engine"] = bytes(g.engine.to_bytes()).hex()
    if g.game_id == "lets_do_lunch":
        out["match"] = [g.match_scores(), g.game_number(), g.engine.target]
        out["board"] = g.board().to_text()
        out["counts"] = list(g.engine.counts)
        out["history"] = list(g.engine.history[-6:])
    return out


def _same(row, g):
    got = shown(g)
    for k in got:
        assert got[k] == row[k], (row["name"], k, got[k], row[k])


def _match_records(seed, params=(20, 0, 0, 0)):
    g = games.new("lets_do_lunch", *params)
    rng = Rng(seed)
    out = []
    while not g.is_terminal():
        if g.current_player() == games.TABLE and g.ended is not None:
            out.append(g.to_bytes())
            g.apply(0)
            continue
        g.apply(choose(g, rng))
    out.append(g.to_bytes())
    return out


# ---- format 1 still reads -----------------------------------------------------------------

def test_format1_records_and_saves_load_as_the_same_game():
    rows = _format1_rows()
    assert len(rows) > 100
    kinds = set()
    for row in rows:
        data = bytes.fromhex(row["hex"])
        assert data[0] == FORMAT_1
        g = games.replay(data)
        _same(row, g)
        assert games.parse(data)[3] == row["actions"]  # what the host's stats read
        assert games.game_id_of(data) == row["game_id"]
        assert games.header(data) == (data[1], tuple(row["params"]))
        kinds.add((row["game_id"], row["kind"]))
    assert len([k for k in kinds if k[1] == "record"]) == len(ROWS)


def test_a_format1_save_resumes_undoes_and_plays_on_in_format2():
    rng = Rng(11)
    n = 0
    for row in _format1_rows():
        if row["kind"] != "save" or row["terminal"]:
            continue
        if ON_MP and row["game_id"] not in ("lets_do_lunch", "space_lunch"):
            continue
        data = bytes.fromhex(row["hex"])
        g = games.from_bytes(data)  # a box updated with this game saved resumes it
        _same(row, g)
        new = g.to_bytes()
        assert new[0] == FORMAT and new != data
        again = games.replay(new)  # the next save, in format 2: the same game
        _same(row, again)
        assert again.base == g.base  # an old base is kept as it was (its own version)
        if g.can_undo():  # undo goes back within the old record's base
            g.undo()
            assert g.actions() == row["actions"][:-1]
            g.apply(row["actions"][-1])
        _same(row, g)
        for _ in range(5):  # and plays on
            if g.is_terminal() or (g.game_id == "lets_do_lunch" and g.ended is not None):
                break
            g.apply(choose(g, rng))
            assert games.replay(g.to_bytes()).actions() == g.actions()
        n += 1
    assert n >= 20


def test_format1_games_rewritten_in_format2_show_the_same_at_every_step():
    """Each format 1 record's game, written again in format 2 (a later Let's Do Lunch game
    from the small match start), replays to what the host shows of it at every step: the
    actions and their words, the winners and scores, the board, the match beside."""
    from shared_rules.lets_do_lunch import start

    n = 0
    for row in _format1_rows():
        if row["kind"] != "record" or (ON_MP and row["game_id"] != "lets_do_lunch"):
            continue
        data = bytes.fromhex(row["hex"])
        old = games.replay(data)
        g = games.new(row["game_id"], *row["params"])
        if old.base:
            g.set_base(start.encode(games.replay(data, 0).engine))
            assert len(g.base) < len(old.base)
        for a in row["actions"]:
            g.apply(a)
        new = g.to_bytes()
        assert new[0] == FORMAT and len(new) <= len(data)
        x = games.replay(data, 0)
        y = games.replay(new, 0)
        for k in range(len(row["actions"]) + 1):
            if k:
                x.apply(row["actions"][k - 1])
                y.apply(row["actions"][k - 1])
            a = shown(x)
            b = shown(y)
            a.pop("engine", None)  # the 60-byte state: its longer roll history differs
            b.pop("engine", None)
            assert a == b, (row["name"], k)
        assert shown(games.replay(new)) == shown(y)
        n += 1
    assert n >= 30


def test_format1_is_read_only_in_its_one_written_form():
    row = [r for r in _format1_rows() if r["game_id"] == "space_lunch"][0]
    data = bytes.fromhex(row["hex"])
    body = data[:-2]
    k = body[2]
    at = 5 + k  # format, game, count, parameters, two bytes of base length
    odd = body[:at] + bytes([0x80 | body[at], 0x00]) + body[at + 1:]  # a first action in two
    with raises(ValueError, "written form"):
        games.replay(odd + checksum(odd))
    with raises(ValueError, "checksum"):
        games.replay(body + bytes([data[-2] ^ 1, data[-1]]))


# ---- format 2 ------------------------------------------------------------------------------

def test_every_game_round_trips_in_format2_at_every_step():
    for game_id, _, _ in ROWS:
        for seed in range(SEEDS):
            rng = Rng(300 + seed)
            g = games.new(game_id)
            for step in range(STEPS):
                if g.is_terminal():
                    break
                g.apply(choose(g, rng))
                if step > 60 and step % EVERY:
                    continue
                data = g.to_bytes()
                assert data[0] == FORMAT
                r = games.replay(data)
                assert r.to_bytes() == data and r.actions() == g.actions()
                assert games.parse(data)[3] == g.actions()
                assert games.header(data) == (data[1], g.params)
                assert games.game_id_of(data) == game_id
            if seed == 0 and g.actions():  # and from any step of it
                data = g.to_bytes()
                n = len(g.actions())
                for k in (0, n // 3, n - 1):
                    assert games.replay(data, k).actions() == g.actions()[:k]


def test_lets_do_lunch_writes_two_actions_a_byte_and_a_small_base():
    for seed in range(2 if ON_MP else 5):
        recs = _match_records(seed)
        for i in range(len(recs)):
            data = recs[i]
            _, params, base, actions = games.parse(data)  # parse replays it
            # format, game, 4 settings and their count, the base's length, the base, the
            # actions two a byte, the checksum
            assert len(data) == 7 + 1 + len(base) + (len(actions) + 1) // 2 + 2
            if i == 0:
                assert base == b""
            else:  # version 2, target, A's score, games, 7 roll counts, <= 6 sums
                assert base[0] == 2 and base[1] == 20 and 11 <= len(base) <= 25, base
        # each later game starts where the one before left the match
        for i in range(1, len(recs)):
            before = games.replay(recs[i - 1]).engine
            start = games.replay(recs[i], 0).engine
            assert start.scores == before.scores and start.games == before.games
            assert start.counts == before.counts
            assert start.history == before.history[-6:]
            assert start.target == before.target and start.strict == before.strict


def test_a_match_start_reads_alone_and_as_the_match_it_was():
    from shared_rules.lets_do_lunch import start
    from shared_rules.lets_do_lunch.match import Match

    recs = _match_records(4, (15, 1, 2, 1))
    for data in recs[1:]:
        base = games.parse(data)[2]
        m = Match.from_bytes(base)  # the record's base is a saved match on its own
        assert m.target == 15 and m.strict and m.phase == 0 and start.encode(m) == base
        assert base[0] == 2 + 128  # the strict table


def test_corrupt_format2_records_are_refused_with_a_reason():
    recs = _match_records(6)
    data = recs[1]  # a base and an odd or even number of actions
    body = data[:-2]

    def bad(b, words):
        with raises(ValueError, words):
            games.replay(bytes(b) + checksum(bytes(b)))

    bad(bytes([3]) + body[1:], "unknown game record format 3")
    bad(body[:1] + bytes([99]) + body[2:], "unknown game")
    bad(body[:7] + bytes([0xFF, 0xFF, 0x7F]), "base state cut short")
    bad(body[:7] + bytes([100]) + body[8:], "base state cut short")
    n = body[7]
    bad(body[:7] + bytes([n | 0x80, 0]) + body[8:], "written form")  # its length in two
    base = body[8:8 + n]
    rest = body[8 + n:]
    bad(body[:8] + bytes([4]) + base[1:] + rest, "not a match start")
    bad(body[:8] + base[:1] + bytes([25]) + base[2:] + rest, "settings")  # another target
    # A's score in two groups of 7 bits (the base one byte longer)
    bad(body[:7] + bytes([n + 1]) + base[:2] + bytes([0x80 | base[2], 0]) + base[3:] + rest,
        "written form")
    bad(body[:7] + bytes([2]) + bytes([2, 20]) + rest, "cut short")
    # the actions: a pad (15) anywhere but last, a roll beyond the ten
    bad(body[:8 + n] + bytes([0xF0]) + rest, "padding")
    bad(body + bytes([0x1F, 0x00]), "padding")
    bad(body[:8 + n] + bytes([0xC0 | (rest[0] & 15)]) + rest[1:], "stands for no action")
    # every one byte changed anywhere is caught
    for i in range(len(data)):
        for flip in (1, 0x10, 0x80):
            b = bytearray(data)
            b[i] ^= flip
            with raises(ValueError):
                games.replay(bytes(b))


def test_packed_symbols_are_written_only_as_nibbles():
    from shared_rules.games import read_packed

    g = games.new("lets_do_lunch")
    for a in (112, 333, 123):  # 1-1-2 and 3-3-3 to start (B begins), 1-2-3 passes
        g.apply(a)
    assert g.to_bytes()[-4:-2] == bytes([0x19, 0x4F])  # symbols 1, 9, 4 and the pad
    g.undo()
    assert g.to_bytes()[-3:-2] == bytes([0x19])
    assert read_packed(bytes([0x12, 0x3F]), 0, 2) == [1, 2, 3]
    for s in (15, 16, -1, None):  # a symbol no nibble holds is refused, the game unchanged
        before = g.to_bytes()
        g._symbol = lambda action, s=s: s
        with raises(ValueError, "cannot be recorded"):
            g.apply(123)
        del g._symbol
        assert g.to_bytes() == before and g.actions() == [112, 333]
    for raw in (bytes([0xF1]), bytes([0x1F, 0x23]), bytes([0xFF])):
        with raises(ValueError, "padding"):
            read_packed(raw, 0, len(raw))
