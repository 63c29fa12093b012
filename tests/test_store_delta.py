"""The store's diff saves (a game saved again as the prefix it keeps and a new tail), the room
made at a game's start, a compaction that finds no heap, and the notice for settings and
records lost together (docs/persistence.md). CPython; the power cuts at every byte of a diff
save are in tests/test_store_powercut.py and tests/test_store_powercut_table.py."""

import random

import pytest
from _flash import FlashNVM

from companion.store import mount, nvmlog, nvmscan, store
from companion.store.store import Store
from shared_rules import games


def snap(s):
    return (s.load_game(), s.load_settings(), tuple(s.records()))


def last_kind(nvm, s):
    """The kind of the last record appended (walks the log from the image's end)."""
    data = nvm.mem
    pos = (data[20] << 8) | data[21]
    kind = None
    while pos < s.stats()["used"]:
        kind = data[pos + 1]
        pos = nvmscan.step(data, pos, len(data))
    return kind


def test_a_move_is_saved_as_a_diff_and_mounts_back():
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_game("space_lunch", b"\x01" * 80 + b"\x10\x20")
    p = nvm.programmed
    s.save_game("space_lunch", b"\x01" * 80 + b"\x05\x10\x21")  # a move, a new checksum
    assert last_kind(nvm, s) == store.K_GAMEDIFF
    assert nvm.programmed - p == nvmlog.OVERHEAD + 2 + 3
    assert Store(nvm).load_game() == ("space_lunch", b"\x01" * 80 + b"\x05\x10\x21")
    # an undo: shorter, the prefix kept
    s.save_game("space_lunch", b"\x01" * 80 + b"\x11")
    assert last_kind(nvm, s) == store.K_GAMEDIFF
    assert Store(nvm).load_game() == ("space_lunch", b"\x01" * 80 + b"\x11")
    # back to a prefix of the saved payload: an empty tail
    s.save_game("space_lunch", b"\x01" * 80)
    assert Store(nvm).load_game() == ("space_lunch", b"\x01" * 80)
    # another game is written whole
    s.save_game("aqua_brunch", b"\x01" * 80)
    assert last_kind(nvm, s) == store.K_GAME
    assert Store(nvm).load_game() == ("aqua_brunch", b"\x01" * 80)
    # ... and so is the same game after a clear, or one with nothing in common but its id
    # when the diff would not be shorter (a one-byte id: 2 + n against 1 + 1 + n)
    s.clear_game()
    s.save_game("g", b"abc")
    s.save_game("g", b"xyz")
    assert last_kind(nvm, s) == store.K_GAME
    assert Store(nvm).load_game() == ("g", b"xyz")


def test_a_compaction_writes_the_game_whole():
    nvm = FlashNVM()
    s = Store(nvm)
    payload = b"\x07" * 60
    while s.stats()["compactions"] == 0:
        payload = payload + bytes((len(payload) % 251,))
        if len(payload) > 900:
            payload = b"\x07" * 60
        s.save_game("lunch", payload)
    data = nvm.mem
    assert data[store.BASE_SIZE + 1] == store.K_GAME
    assert data[8] == store.VERSION == 2
    assert Store(nvm).load_game() == ("lunch", payload)


def test_space_lunch_games_round_trip_and_write_less():
    """Real Space Lunch saves (the record grows by its actions, the checksum at its end):
    every save mounts back as it was, and a game appends a fraction of the whole saves."""
    rng = random.Random(4)
    written = {}
    for whole in (True, False):
        nvm = FlashNVM()
        s = Store(nvm)
        if whole:
            s._version = 1  # a version 1 sector: whole saves until its next compaction
        g = games.new("space_lunch", 1)
        total = 0
        while not g.is_terminal():
            if g.can_undo() and rng.random() < 0.05:
                g.undo()
            else:
                g.apply(rng.choice(g.legal_actions()))
            p = nvm.programmed
            if s.save_game("space_lunch", g.to_bytes()):
                total += nvm.programmed - p
            if not whole:
                assert Store(nvm).load_game() == ("space_lunch", g.to_bytes())
            if s.stats()["compactions"]:
                break
        written[whole] = total
    assert written[False] * 3 < written[True]


# ---- versions -------------------------------------------------------------------------


def older_firmware(monkeypatch):
    """The firmware before diff saves: base version 1, as it writes and as it mounts (the
    mount module as the store will import it: a test that ran the app as on the device may
    have let the one imported above go)."""
    import importlib

    for module in (store, importlib.import_module("companion.store.mount")):
        monkeypatch.setattr(module, "VERSION", 1)


def v1_sector(monkeypatch):
    """A sector as the firmware before diff saves wrote it (base version 1)."""
    older_firmware(monkeypatch)
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann,Bob")
    s.append_record(store.KIND_GAME, b"R" * 40)
    s.save_game("lunch", b"\x02" * 70)
    s.save_game("lunch", b"\x02" * 70 + b"\x03")
    monkeypatch.undo()
    assert nvm.mem[8] == 1
    return nvm


def test_an_old_sector_mounts_and_gets_no_diff_until_its_compaction(monkeypatch):
    nvm = v1_sector(monkeypatch)
    s = Store(nvm)
    assert s.status is None and nvm.erases == 0
    assert snap(s)[:2] == (("lunch", b"\x02" * 70 + b"\x03"), b"names=Ann,Bob")
    assert [r[1:] for r in s.records()] == [(store.KIND_GAME, b"R" * 40)]
    s.save_game("lunch", b"\x02" * 70 + b"\x04")
    assert last_kind(nvm, s) == store.K_GAME  # older firmware still reads this sector
    assert nvm.mem[8] == 1
    s.make_room(4096)  # a compaction writes version 2
    assert nvm.mem[8] == 2
    s.save_game("lunch", b"\x02" * 70 + b"\x05")
    assert last_kind(nvm, s) == store.K_GAMEDIFF
    assert Store(nvm).load_game() == ("lunch", b"\x02" * 70 + b"\x05")


def test_older_firmware_calls_a_new_sector_newer(monkeypatch):
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_game("lunch", b"x" * 40)
    s.save_game("lunch", b"x" * 40 + b"y")
    older_firmware(monkeypatch)
    assert Store(nvm.copy()).status == store.MSG_VERSION


def test_a_diff_in_a_version_1_log_is_corrupt(monkeypatch):
    nvm = v1_sector(monkeypatch)
    s = Store(nvm)
    rec = nvmlog.encode(store.K_GAMEDIFF, s.stats()["seq"], b"\x00\x46z")
    pos = s.stats()["used"]
    nvm.mem[pos:pos + len(rec)] = rec
    r = Store(nvm)
    assert r.status == store.MSG_CORRUPT and snap(r) == (None, None, ())


@pytest.mark.parametrize("body,gone", [
    (b"\x00\x47z", False),  # keeps 71 bytes of a 70-byte game
    (b"\x00", False),  # no room for the prefix length
    (b"\x00\x10" + b"q" * 1100, False),  # longer than a payload may be
    (b"\x00\x01z", True),  # a good diff, but no game to apply it to
])
def test_a_bad_diff_is_corrupt(body, gone):
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"s")
    s.save_game("lunch", b"\x02" * 70)
    if gone:
        s.clear_game()
    pos = s.stats()["used"]
    rec = nvmlog.encode(store.K_GAMEDIFF, s.stats()["seq"], body[:nvmlog.MAX_BODY])
    nvm.mem[pos:pos + len(rec)] = rec
    r = Store(nvm)
    assert r.error is None
    assert r.status == store.MSG_CORRUPT and snap(r) == (None, None, ())


def test_a_diff_inside_the_image_is_corrupt():
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_game("lunch", b"\x02" * 70)
    s.make_room(4096)
    data = bytearray(nvm.mem)
    # turn the image's game record into a diff (CRC fixed): images hold whole games only
    pos = store.BASE_SIZE
    nxt = nvmscan.step(data, pos, 4096)
    rec = nvmlog.encode(store.K_GAMEDIFF, nvmscan.seq_of(data, pos), b"\x00\x00" + b"\x02" * 74)
    assert len(rec) == nxt - pos
    data[pos:nxt] = rec
    assert Store(FlashNVM(data=data)).status == store.MSG_CORRUPT


# ---- room at a game's start -----------------------------------------------------------


def test_make_room_compacts_only_when_short_of_room():
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann")
    assert s.make_room(1800) is False and nvm.erases == 0
    for i in range(40):
        s.append_record(1, bytes((i,)) * 60)
    s.ack_records(s.records()[-1][0])
    s.save_game("lunch", b"\x05" * 90)
    before = snap(s)
    assert s.stats()["free"] < 1800
    assert s.make_room(1800) is True and nvm.erases == 1
    assert s.stats()["free"] >= 1800 and s.stats()["compactions"] == 1
    assert snap(s) == before and snap(Store(nvm)) == before
    assert s.make_room(1800) is False and nvm.erases == 1
    s.save_game("lunch", b"\x05" * 90 + b"\x01")
    assert last_kind(nvm, s) == store.K_GAMEDIFF
    assert Store(nvm).load_game() == ("lunch", b"\x05" * 90 + b"\x01")


def test_make_room_keeps_a_notice_not_seen_yet():
    nvm = FlashNVM(data=b"\x55" * 4096)
    s = Store(nvm)
    assert s.status == store.MSG_FOREIGN
    assert s.make_room(4096) is True
    assert Store(nvm).status == store.MSG_FOREIGN  # still shown until a save
    s.save_settings(b"x")
    assert Store(nvm).status is None


def test_make_room_never_raises(monkeypatch):
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_game("lunch", b"\x05" * 90)
    before = snap(s), s.stats()

    def no_heap(*args):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    monkeypatch.setattr(s, "_compact", no_heap)
    assert s.make_room(4096) is False
    assert isinstance(s.error, MemoryError)
    assert (snap(s), s.stats()) == before and nvm.erases == 0


def test_room_for_whole_space_lunch_games():
    """main.GAME_ROOM: the saves of a whole Space Lunch game (solo or two players), its
    record and the cleared save, appended without a compaction (bench/nvm_store.py)."""
    from companion.app.main import GAME_ROOM

    rng = random.Random(12)
    worst = 0
    for n in range(60):
        mode = (1, 2, 4)[n % 3]
        nvm = FlashNVM()
        s = Store(nvm)
        s.save_settings(b"names=Ann,Bob;bright=3")
        s.make_room(4096)
        used = s.stats()["used"]
        g = games.new("space_lunch", mode)
        while not g.is_terminal():
            if g.can_undo() and rng.random() < 0.03:
                g.undo()
            else:
                g.apply(rng.choice(g.legal_actions()))
            if not g.is_terminal():
                s.save_game("space_lunch", g.to_bytes())
        s.append_record(store.KIND_GAME, b"\x01" * 14 + g.to_bytes())
        s.clear_game()
        assert s.stats()["compactions"] == 1
        worst = max(worst, s.stats()["used"] - used)
    assert 1200 < worst <= GAME_ROOM


# ---- no heap for a compaction ---------------------------------------------------------


def full_sector():
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann")
    i = 0
    while s.stats()["free"] >= 400 + nvmlog.OVERHEAD + 81:
        s.append_record(1, bytes((i,)) * 80)
        i += 1
    s.save_game("lunch", b"\x06" * 150)
    assert 200 < s.stats()["free"] < 400
    return nvm


def test_a_compaction_retries_after_a_collect(monkeypatch):
    nvm = full_sector()
    s = Store(nvm)
    calls = []
    real = s._compact

    def fragmented(*args):
        calls.append(args)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
        return real(*args)

    monkeypatch.setattr(s, "_compact", fragmented)
    payload = b"\x06" * 150 + b"\x01" * 100
    while s.stats()["compactions"] == 0:
        payload += b"\x02" * 40
        assert s.save_game("lunch", payload) is True
    assert len(calls) == 2 and not s.unsaved
    assert Store(nvm).load_game() == ("lunch", payload)


def test_no_heap_for_a_compaction_keeps_the_last_save(monkeypatch):
    nvm = full_sector()
    s = Store(nvm)
    payload = b"\x06" * 150
    while True:  # moves until the next one does not fit
        probe = Store(nvm.copy())
        probe.save_game("lunch", payload + b"\x03" * 40)
        if probe.stats()["compactions"] > s.stats()["compactions"]:
            break
        payload += b"\x03" * 40
        s.save_game("lunch", payload)
    before = snap(s), s.stats()
    image = bytes(nvm.mem)
    real = s._compact

    def no_heap(*args):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    monkeypatch.setattr(s, "_compact", no_heap)
    assert s.save_game("lunch", payload + b"\x03" * 40) is False
    assert s.unsaved is True
    assert (snap(s), s.stats()) == before and bytes(nvm.mem) == image
    assert snap(Store(nvm.copy())) == before[0]
    # the next save tries again, and writes the game as it is then
    monkeypatch.setattr(s, "_compact", real)
    assert s.save_game("lunch", payload + b"\x03" * 80) is True
    assert s.unsaved is False
    assert Store(nvm).load_game() == ("lunch", payload + b"\x03" * 80)


def test_other_writes_still_raise_when_no_heap(monkeypatch):
    nvm = full_sector()
    s = Store(nvm)
    before = snap(s)

    def no_heap(*args):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    monkeypatch.setattr(s, "_compact", no_heap)
    with pytest.raises(MemoryError):
        while True:
            s.append_record(1, b"z" * 200)
    assert snap(Store(nvm)) == snap(s)
    assert snap(s)[0] == before[0] and snap(s)[1] == before[1]


# ---- what a cut rewrite lost ----------------------------------------------------------


def test_settings_and_records_lost_together_are_both_named():
    assert mount._combine(store.MSG_CUT_SETTINGS, store.MSG_CUT_RECORDS) \
        == store.MSG_CUT_SETTINGS_RECORDS
    assert mount._combine(store.MSG_CUT_RECORDS, store.MSG_CUT_SETTINGS) \
        == store.MSG_CUT_SETTINGS_RECORDS
    assert mount._combine(store.MSG_CUT_SETTINGS_RECORDS, store.MSG_CUT_GAME) == store.MSG_CUT
    assert mount._combine(store.MSG_CUT_GAME, store.MSG_CUT_RECORDS) == store.MSG_CUT_GAME
    # the index on flash of every earlier notice is unchanged
    assert mount._NOTICES[:11] == (None, store.MSG_CUT_GAME, store.MSG_CUT_SETTINGS,
                                   store.MSG_CUT_RECORDS, store.MSG_CUT, store.MSG_CORRUPT,
                                   store.MSG_FOREIGN, store.MSG_VERSION, store.MSG_ERROR,
                                   store.MSG_BLANK, store.MSG_CUT_LAST)
    assert mount._NOTICES[11] == store.MSG_CUT_SETTINGS_RECORDS


def test_a_rewrite_cut_inside_the_settings_names_the_records_too():
    from _flash import PowerCut

    nvm = full_sector()
    s = Store(nvm)
    assert s.stats()["free"] < nvmlog.OVERHEAD + 2 + 300
    game_end = store.BASE_SIZE + nvmlog.OVERHEAD + 1 + 5 + 300
    nvm.cut_after = game_end + 5  # the game (with the save) programmed, the settings not
    with pytest.raises(PowerCut):
        s.save_game("lunch", b"\x07" * 300)  # does not fit: the sector is rewritten
    nvm.power_on()
    r = Store(nvm)
    assert r.status == store.MSG_CUT_SETTINGS_RECORDS
    assert snap(r) == (("lunch", b"\x07" * 300), None, ())
    assert Store(nvm).status == store.MSG_CUT_SETTINGS_RECORDS  # kept on flash (notice 11)
    r.save_settings(b"names=Ann")
    assert Store(nvm).status is None
