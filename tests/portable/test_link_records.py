"""The finished-game envelope (companion/core/records.py). CPython and the MicroPython lane."""

from _harness import raises
from companion.core import records


def test_envelope_round_trip():
    rec = bytes((1, 1, 2, 20, 0, 0, 0, 5, 9, 0xAB, 0xCD))
    env = records.envelope(rec, 1767225600, ["ANNA", "BO"])
    assert records.open_envelope(records.KIND_GAME, env) == (1767225600, ["ANNA", "BO"], rec)
    assert records.open_envelope(records.KIND_GAME, records.envelope(rec)) == (0, [], rec)
    assert records.open_envelope(records.KIND_RECORD, rec) == (0, [], rec)


def test_bad_envelopes():
    env = records.envelope(b"\x01\x00\x00", 5, ["ANNA"])
    with raises(ValueError, "not a game"):
        records.open_envelope(records.KIND_CRASH, env)
    with raises(ValueError, "version"):
        records.open_envelope(records.KIND_GAME, b"\x02" + env[1:])
    with raises(ValueError, "names"):
        records.open_envelope(records.KIND_GAME, env[:8])
    for n in range(len(env)):
        try:
            records.open_envelope(records.KIND_GAME, env[:n])
        except ValueError:
            pass


def test_seats_from_the_record_header():
    assert records.seats(bytes((1, 0, 1, 2))) == 1  # Space Lunch, Hard
    assert records.seats(bytes((1, 0, 1, 4))) == 2  # Space Lunch duel
    assert records.seats(bytes((1, 1, 2, 20, 0))) == 2  # Let's Do Lunch
    assert records.seats(bytes((1, 2, 1, 5))) == 5  # Aqua Brunch, 5 players
    assert records.seats(bytes((1, 3, 0))) == 2  # Space Battle, default
    assert records.seats(b"\x01") == 0 and records.seats(bytes((1, 9, 0))) == 0
