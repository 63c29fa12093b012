"""The finished-game envelope (companion/store/records.py). CPython and the MicroPython lane."""

from _harness import raises
from companion.store import records


def test_envelope_round_trip():
    rec = bytes((1, 1, 2, 20, 0, 0, 0, 5, 9, 0xAB, 0xCD))
    env = records.envelope(rec, 1767225600, ["ANNA", "BO"])
    assert records.open_envelope(records.KIND_GAME, env) == (1767225600, ["ANNA", "BO"], rec)
    assert records.open_envelope(records.KIND_GAME, records.envelope(rec)) == (0, [], rec)
    assert records.open_envelope(records.KIND_FINISHED, rec) == (0, [], rec)


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


def _store():
    from _flash import FlashNVM

    from companion.store.store import Store

    return Store(FlashNVM(4096))


def test_room_counts_down_to_a_drop_and_the_warning_says_so():
    from companion.app.catalog import about

    s = _store()
    rec = bytes(about("lets_do_lunch")["record_bytes"])  # a typical record, as measured
    start = s.room(len(rec))
    assert start > records.NEARLY_FULL and records.warning(s, 1) is None
    added = 0
    while s.room(len(rec)) > 0:
        before = s.room(len(rec))
        s.append_record(records.KIND_GAME, rec)
        added += 1
        assert s.room(len(rec)) == before - 1
    assert added == start
    # every record added so far is still there, whatever compactions happened
    assert s.waiting() == added and len(s.records()) == added
    msg = records.warning(s, 1)
    assert msg.startswith("Memory full: {} games not pulled".format(added))
    # the warned-about next game does push the oldest out (at the compaction)
    for _ in range(30):  # (the drop comes at the next compaction, when the sector is full)
        s.append_record(records.KIND_GAME, rec)
    assert s.waiting() < added + 30
    # a pull empties it again
    s.ack_records(s.records()[-1][0])
    assert records.warning(s, 1) is None


def test_nearly_full_message_and_crashes_do_not_count_as_games():
    s = _store()
    s.append_record(records.KIND_CRASH, b"x")
    assert s.waiting() == 0
    from companion.app.catalog import about

    size = about("aqua_brunch")["record_bytes"]
    while s.room(size) >= records.NEARLY_FULL:
        s.append_record(records.KIND_GAME, bytes(size))
    msg = records.warning(s, 2)
    assert msg.startswith("Memory nearly full:") and "room for" in msg


def test_a_full_store_warns_that_the_game_will_not_be_kept():
    """The nvm store pushes out the oldest record when full; the file store keeps what it has
    and refuses the new one: the warning before a game says which (store/records.warning)."""
    import test_filestore as fst

    from companion.store.filestore import FileStore

    root = fst.fresh_root()
    s = FileStore(root)
    s.append_record(3, b"kept")
    s.room = lambda size, game_size=None: 0  # as a full littlefs answers
    said = records.warning(s, 1)
    assert said.startswith("Memory full: 1 games not pulled. This game will not be kept."), said
    assert "push out" not in said
    fst.clean(root)
