"""The nvm save store: basics, compaction, the ring, a few power cuts and corrupt memories.
Runs on CPython and on MicroPython (the exhaustive power-cut tests are CPython-only, in
tests/test_store_powercut.py)."""

from _flash import FlashNVM, PowerCut

from _harness import raises
from companion.store import nvmlog, store
from companion.store.crc32 import CHECK, crc32, crc32_pure
from companion.store.store import Store
from shared_rules.rng import Rng


def fresh(size=4096):
    nvm = FlashNVM(size)
    s = Store(nvm)
    return nvm, s


def state(s):
    return (s.load_game(), s.load_settings(), s.records())


def test_crc32_check_values():
    assert crc32_pure(b"123456789") == CHECK
    assert crc32(b"123456789") == CHECK
    assert crc32_pure(b"") == 0
    assert crc32_pure(b"a") == 0xE8B7BE43
    data = bytes(range(256)) * 3
    assert crc32_pure(data, 5, 700) == crc32(data[5:700]) == crc32(data, 5, 700)


def test_blank_memory_is_formatted_once():
    nvm, s = fresh()
    assert s.status == store.MSG_BLANK
    assert s.load_game() is None and s.load_settings() is None and s.records() == []
    assert nvm.erases == 0  # formatting erased space only programs it
    again = Store(nvm)
    assert again.status == store.MSG_BLANK  # until something is saved
    again.save_settings(b"")
    assert Store(nvm).status is None


def test_game_round_trip_and_no_write_when_unchanged():
    nvm, s = fresh()
    assert s.save_game("aqua", b"\x01\x02\x03") is True
    written = nvm.programmed
    assert s.save_game("aqua", b"\x01\x02\x03") is False
    assert nvm.programmed == written
    assert s.save_game("aqua", bytearray(b"\x01\x02\x04")) is True
    assert s.save_game("lunch", b"\x01\x02\x04") is True  # another game, same bytes
    s2 = Store(nvm)
    assert s2.status is None
    assert s2.load_game() == ("lunch", b"\x01\x02\x04")
    assert s2.save_game("lunch", b"\x01\x02\x04") is False


def test_the_same_game_is_saved_as_a_diff():
    nvm, s = fresh()
    s.save_game("lunch", b"\x01" * 60 + b"ab")
    p = nvm.programmed
    s.save_game("lunch", b"\x01" * 60 + b"\x05ac")  # a move: prefix kept, tail written
    assert nvm.programmed - p == nvmlog.OVERHEAD + 2 + 3
    assert Store(nvm).load_game() == ("lunch", b"\x01" * 60 + b"\x05ac")
    s.save_game("lunch", b"\x01" * 59)  # an undo: shorter
    s.save_game("lunch", b"\x01" * 59 + b"z")
    r = Store(nvm)
    assert r.status is None and r.load_game() == ("lunch", b"\x01" * 59 + b"z")
    s.save_game("aqua", b"\x01" * 59 + b"z")  # another game: whole
    assert Store(nvm).load_game() == ("aqua", b"\x01" * 59 + b"z")


def test_one_slice_write_per_save():
    nvm, s = fresh()
    before = nvm.writes
    s.save_game("aqua", b"x" * 60)
    s.save_settings(b"s")
    s.append_record(1, b"r")
    assert nvm.writes == before + 3
    assert nvm.erases == 0


def test_clear_game():
    nvm, s = fresh()
    assert s.clear_game() is False
    s.save_game("g", b"1")
    assert s.clear_game() is True
    assert s.load_game() is None
    assert Store(nvm).load_game() is None
    assert s.clear_game() is False


def test_settings_round_trip():
    nvm, s = fresh()
    assert s.save_settings(b"bright=3") is True
    assert s.save_settings(b"bright=3") is False
    assert Store(nvm).load_settings() == b"bright=3"


def test_records_and_acks():
    nvm, s = fresh()
    a = s.append_record(store.KIND_FINISHED, b"game one")
    b = s.append_record(store.KIND_CRASH, b"boom")
    c = s.append_record(store.KIND_FINISHED, b"game two")
    assert a < b < c
    assert s.records() == [(a, 1, b"game one"), (b, 2, b"boom"), (c, 1, b"game two")]
    assert s.ack_records(b) is True
    assert s.ack_records(b) is False
    assert s.ack_records(a) is False
    assert s.records() == [(c, 1, b"game two")]
    assert len(s.records(acked=True)) == 3
    s2 = Store(nvm)
    assert s2.records() == [(c, 1, b"game two")]
    # acknowledging beyond the last record cannot hide the next one
    assert s2.ack_records(10 ** 6) is True
    written = nvm.programmed
    assert s2.ack_records(10 ** 6) is False  # nothing new to acknowledge: no write
    assert nvm.programmed == written
    d = s2.append_record(1, b"later")
    assert s2.records() == [(d, 1, b"later")]


def test_bad_arguments():
    nvm, s = fresh(512)
    with raises(ValueError, "over"):
        s.save_game("g", b"x" * (s.max_payload + 1))
    with raises(ValueError, "game id"):
        s.save_game("", b"")
    with raises(ValueError, "game id"):
        s.save_game("x" * 33, b"")
    with raises(ValueError, "not bytes"):
        s.save_settings("text")
    with raises(ValueError, "kind"):
        s.append_record(0, b"")
    with raises(ValueError, "kind"):
        s.append_record(256, b"")
    with raises(ValueError, "sequence"):
        s.ack_records(-1)
    assert s.load_game() is None
    s.save_game("g", b"x" * s.max_payload)  # the limit itself is fine
    assert store.MAX_PAYLOAD == 1024
    assert Store(FlashNVM(4096)).max_payload == store.MAX_PAYLOAD


def test_compaction_keeps_live_state():
    nvm, s = fresh(512)
    s.save_settings(b"settings")
    r = s.append_record(1, b"finished")
    for i in range(40):
        s.save_game("g", bytes((i,)) * 30)
    assert s.stats()["compactions"] >= 3
    assert nvm.erases == s.stats()["compactions"]
    s2 = Store(nvm)
    assert s2.status is None
    assert s2.load_game() == ("g", bytes((39,)) * 30)
    assert s2.load_settings() == b"settings"
    assert s2.records() == [(r, 1, b"finished")]
    assert s2.stats() == s.stats()


def test_compaction_is_one_slice_write():
    nvm, s = fresh(512)
    while s.stats()["compactions"] == 0:
        w = nvm.writes
        s.save_game("g", bytes((nvm.writes % 256,)) * 40)
    assert nvm.writes == w + 1 and nvm.erases == 1


def test_ring_drops_oldest_never_game_or_settings():
    nvm, s = fresh(512)
    s.save_game("g", b"G" * 40)
    s.save_settings(b"S" * 20)
    seqs = [s.append_record(1, bytes((i,)) * 20) for i in range(30)]
    recs = s.records()
    assert recs[-1] == (seqs[-1], 1, bytes((29,)) * 20)
    assert len(recs) < 30
    # what is kept is the newest, in order, without gaps
    assert [r[0] for r in recs] == seqs[-len(recs):]
    s2 = Store(nvm)
    assert s2.load_game() == ("g", b"G" * 40)
    assert s2.load_settings() == b"S" * 20
    assert s2.records() == recs


def test_acked_records_dropped_at_compaction():
    nvm, s = fresh(512)
    a = s.append_record(1, b"a" * 10)
    s.ack_records(a)
    assert len(s.records(acked=True)) == 1
    while s.stats()["compactions"] == 0:
        s.save_game("g", bytes((s.stats()["seq"] % 256,)) * 40)
    assert s.records(acked=True) == []


def test_stats():
    nvm, s = fresh()
    st = s.stats()
    assert st["size"] == 4096 and st["used"] + st["free"] == 4096
    s.save_game("g", b"x" * 50)  # the first save also records that the notice was seen
    assert s.stats()["used"] == st["used"] + (50 + 12 + 2) + 12
    st = s.stats()
    s.save_game("g", b"y" * 50)
    assert s.stats()["used"] == st["used"] + 50 + 12 + 2


def test_torn_save_keeps_last_committed():
    for cut in (0, 1, 5, 11, 30, 70):
        nvm, s = fresh()
        s.save_game("g", b"old" * 20)
        nvm.cut_after = cut
        with raises(PowerCut):
            s.save_game("g", b"new" * 20)
        nvm.power_on()
        s2 = Store(nvm)
        assert s2.status is None, cut
        assert s2.load_game() == ("g", b"old" * 20), cut
        assert s2.save_game("g", b"next") is True
        s3 = Store(nvm)
        assert s3.status is None and s3.load_game() == ("g", b"next"), cut


def test_half_programmed_page_keeps_state_and_says_so():
    for cut in (0, 3, 20, 60):
        nvm, s = fresh()
        s.save_game("g", b"old" * 20)
        nvm.cut_after = cut
        nvm.tear = Rng(cut + 1)
        nvm.tear_page = True  # every byte from the cut to the page end gets some bits
        with raises(PowerCut):
            s.save_game("g", b"new" * 20)
        nvm.power_on()
        s2 = Store(nvm)
        assert s2.load_game() == ("g", b"old" * 20), cut
        assert s2.status in (None, store.MSG_CUT_LAST), cut
        s2.save_game("g", b"next")
        s3 = Store(nvm)
        assert s3.status is None and s3.load_game() == ("g", b"next"), cut


def test_torn_compaction_never_wrong():
    nvm, s = fresh(512)
    s.save_settings(b"S")
    while s.stats()["free"] > 60:
        s.save_game("g", bytes((s.stats()["seq"],)) * 30)
    old = state(s)
    image = nvm.mem[:]
    for cut in (0, 3, 30, 60, 200, 511):
        nvm = FlashNVM(data=image)
        s = Store(nvm)
        nvm.cut_after = cut
        with raises(PowerCut):
            s.save_game("g", b"N" * 30)
        nvm.power_on()
        s2 = Store(nvm)
        got = state(s2)
        if s2.status is None:
            assert got in (old, (("g", b"N" * 30), old[1], old[2])), cut
        else:
            assert got[0] in (None, old[0], ("g", b"N" * 30)), cut
            assert got[1] in (None, old[1]), cut
        s3 = Store(nvm)
        assert s3.status == s2.status, cut  # a notice stays until the next save
        s3.save_settings(b"seen")
        assert Store(nvm).status is None, cut


def test_corrupt_or_foreign_memory_starts_fresh():
    rng = Rng(7)
    noise = bytearray(512)
    for i in range(512):
        noise[i] = rng.next32() & 0xFF
    cases = [bytes(512), noise, b"\xb7" + b"\xff" * 511, b"hello world" + b"\xff" * 501]
    for data in cases:
        nvm = FlashNVM(data=data)
        s = Store(nvm)
        assert s.status is not None
        assert state(s) == (None, None, [])
        s.save_game("g", b"1")
        s2 = Store(nvm)
        assert s2.status is None and s2.load_game() == ("g", b"1")


def test_bad_crc_in_the_middle_is_reported():
    nvm, s = fresh()
    s.save_game("g", b"a" * 20)
    pos = s.stats()["used"]
    s.save_game("g", b"b" * 20)
    s.save_game("g", b"c" * 20)
    nvm.mem[pos + 10] ^= 0x01
    s2 = Store(nvm)
    assert s2.status == store.MSG_CORRUPT
    assert s2.load_game() is None


def test_sequence_going_back_is_reported():
    nvm, s = fresh()
    s.save_game("g", b"a")
    pos = s.stats()["used"]
    # a well-formed record whose sequence number is lower than the one before it
    rec = nvmlog.encode(store.K_SETTINGS, 1, b"x")
    nvm[pos:pos + len(rec)] = rec
    assert Store(nvm).status == store.MSG_CORRUPT


def test_newer_version_is_reported():
    nvm, s = fresh()
    body = bytearray(store.BASE_BODY)
    body[0] = store.VERSION + 1
    body[12:14] = store.BASE_SIZE.to_bytes(2, "big")
    data = bytearray(b"\xff" * 4096)
    data[0:store.BASE_SIZE] = nvmlog.encode(store.K_BASE, 5, body)
    assert Store(FlashNVM(data=data)).status == store.MSG_VERSION


def test_no_usable_nvm_keeps_working_in_memory():
    for nvm in (None, bytearray(16)):
        s = Store(nvm)
        assert s.status == store.MSG_NO_NVM
        assert s.save_game("g", b"1") is True
        assert s.load_game() == ("g", b"1")
        assert s.save_game("g", b"1") is False
        assert s.append_record(1, b"r") >= 1


def test_sequence_numbers_renumber_before_wrapping():
    nvm, s = fresh(512)
    s.save_settings(b"S")
    s._seq = store.SEQ_LIMIT - 3
    s.save_game("g", b"1")
    s.append_record(1, b"r")
    for i in range(5):
        s.save_game("g", bytes((i,)) * 20)
    assert s.stats()["seq"] < 100
    s2 = Store(nvm)
    assert s2.status is None
    assert state(s2) == state(s)
    assert [r[2] for r in s2.records()] == [b"r"]
