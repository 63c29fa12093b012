"""The device end of the data link: frames, every request, and bad input of every kind (a
seeded fuzz, since hypothesis does not run on MicroPython). Runs on CPython and in the
MicroPython lane; tests/test_link.py adds the hypothesis fuzz and the host side."""

from _flash import FlashNVM

from companion.app import link
from companion.app.link import FrameReader, LinkServer, frame
from companion.store.appsettings import AppSettings
from companion.store.store import Store
from shared_rules.rng import Rng

UID = b"\xe6\x61\x41\x04\x03\x2b\x52\x2c"


def server(nvm=None, records=3, **kw):
    nvm = nvm or FlashNVM(4096)
    store = Store(nvm)
    for i in range(records):
        store.append_record(3, bytes((1, 0, 0, 0, 0, 0)) + b"game" + bytes((i,)))
    return LinkServer(store, "0.1.0", "pico-display-pack", UID, **kw), store, nvm


def ask(srv, ftype, payload=b"", tag=7, now=0):
    """One request; returns (type, tag, payload) of the single answer."""
    out = srv.feed(frame(ftype, tag, payload), now)
    got = FrameReader(2000).feed(out)
    assert len(got) == 1, got
    return got[0]


def u32(n):
    return bytes(((n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255))


def test_frame_round_trip_in_pieces():
    data = frame(link.GET, 9, b"\x00\x01\x02") + frame(link.HELLO, 10)
    r = FrameReader()
    got = []
    for i in range(len(data)):  # one byte at a time
        got += r.feed(data[i:i + 1])
    assert got == [(link.GET, 9, b"\x00\x01\x02"), (link.HELLO, 10, b"")]
    assert r.buf == b"" and r.bad == 0


def test_hello_says_who_and_what_waits():
    srv, store, _ = server()
    t, tag, p = ask(srv, link.HELLO)
    assert (t, tag) == (link.HELLO | 0x80, 7)
    assert p[0] == link.PROTOCOL and (p[3] << 8 | p[4]) == 3
    first = store.records()[0][0]
    last = store.records()[-1][0]
    assert p[5:9] == u32(first) and p[9:13] == u32(last) and p[13] == 0  # clock not set
    assert (p[16] << 8 | p[17]) == 4096
    rest = p[18:]
    assert rest[0] == len(UID) and rest[1:1 + len(UID)] == UID
    rest = rest[1 + len(UID):]
    assert rest[1:1 + rest[0]] == b"0.1.0"
    rest = rest[1 + rest[0]:]
    assert rest[1:] == b"pico-display-pack"


def test_list_get_ack():
    srv, store, _ = server()
    recs = store.records()
    t, _, p = ask(srv, link.LIST, u32(0))
    assert t == link.LIST | 0x80 and p[0] == 0 and len(p) == 1 + 11 * 3
    assert p[1:5] == u32(recs[0][0]) and p[5] == 3 and (p[6] << 8 | p[7]) == len(recs[0][2])
    t, _, p = ask(srv, link.LIST, u32(recs[0][0]))  # after the first
    assert len(p) == 1 + 11 * 2
    t, _, p = ask(srv, link.GET, u32(recs[1][0]))
    assert t == link.GET | 0x80 and p == u32(recs[1][0]) + b"\x03" + recs[1][2]
    t, _, p = ask(srv, link.GET, u32(999))
    assert t == link.ERROR and p[0] == link.E_MISSING
    t, _, p = ask(srv, link.ACK, u32(recs[1][0]))
    assert t == link.ACK | 0x80 and p == b"\x00\x01"
    assert store.records() == recs[2:]
    # an acknowledged record can still be fetched until it is dropped
    t, _, p = ask(srv, link.GET, u32(recs[0][0]))
    assert t == link.GET | 0x80
    # acknowledging again changes nothing and writes nothing
    assert ask(srv, link.ACK, u32(recs[1][0]))[2] == b"\x00\x01"


def test_list_comes_in_pages():
    srv, store, _ = server(records=0)
    store.max_payload = 8
    for i in range(link.LIST_MAX + 5):
        store._ring.append((i + 1, 3, b"x"))  # more records than one answer holds
    t, _, p = ask(srv, link.LIST, u32(0))
    assert p[0] == 1 and len(p) == 1 + 11 * link.LIST_MAX
    t, _, p = ask(srv, link.LIST, u32(link.LIST_MAX))
    assert p[0] == 0 and len(p) == 1 + 11 * 5


def test_clock():
    srv, _, _ = server()
    assert srv.unix_now(0) == 0
    t, _, p = ask(srv, link.TIME, u32(1767225600) + b"\x00\x3c", now=5000)
    assert t == link.TIME | 0x80 and srv.tz == 60
    assert srv.unix_now(5000) == 1767225600
    assert srv.unix_now(7500) == 1767225602
    # across a wrap of ticks_ms (2**29): still counts on
    t = 7500
    while t < (1 << 29) + 40000:  # the app serves the link many times a second; days here
        t += 100000000
        srv.feed(b"", t & ((1 << 29) - 1))
    assert srv.unix_now(t & ((1 << 29) - 1)) == 1767225600 + (t - 5000) // 1000
    for bad in (u32(100) + b"\x00\x00", u32(1767225600) + b"\x7f\x00", b"\x00"):
        t, _, p = ask(srv, link.TIME, bad)
        assert t == link.ERROR and p[0] == link.E_REQUEST


def test_settings_push_uses_the_device_checks():
    pushed = []
    srv, store, nvm = server(on_settings=pushed.append)
    t, _, p = ask(srv, link.GET_SETTINGS)
    assert t == link.GET_SETTINGS | 0x80 and p == b""
    good = AppSettings(70, False, ["ANNA", "BO", "P3", "P4", "P5", "P6", "P7"]).to_bytes()
    t, _, p = ask(srv, link.SET_SETTINGS, good)
    assert t == link.SET_SETTINGS | 0x80 and pushed == [good]
    bad = bytearray(good)
    bad[1] = 55  # brightness 55: not a step of 10
    before = bytes(nvm.mem)
    t, _, p = ask(srv, link.SET_SETTINGS, bytes(bad))
    assert t == link.ERROR and p[0] == link.E_REFUSED and b"brightness" in p
    assert pushed == [good] and bytes(nvm.mem) == before
    srv2, store2, _ = server()  # without a hook the store saves them
    ask(srv2, link.SET_SETTINGS, good)
    assert store2.load_settings() == good
    assert ask(srv2, link.GET_SETTINGS)[2] == good


def test_game():
    srv, store, _ = server()
    assert ask(srv, link.GAME)[2] == b""
    store.save_game("aqua_brunch", b"\x01\x02")
    assert ask(srv, link.GAME)[2] == b"\x0baqua_brunch\x01\x02"


def test_bad_requests_answer_errors_and_change_nothing():
    srv, store, nvm = server()
    before = bytes(nvm.mem)
    for ftype, payload, code in ((0x55, b"", link.E_TYPE), (link.GET, b"\x01", link.E_REQUEST),
                                 (link.LIST, b"", link.E_REQUEST),
                                 (link.ACK, b"\x00" * 5, link.E_REQUEST)):
        t, tag, p = ask(srv, ftype, payload, tag=33)
        assert (t, tag, p[0]) == (link.ERROR, 33, code), (ftype, p)
    assert bytes(nvm.mem) == before


def test_damaged_frames_are_reported_and_skipped():
    srv, _, _ = server()
    good = frame(link.HELLO, 5)
    bad = bytearray(frame(link.GAME, 4))
    bad[-1] ^= 1
    out = FrameReader(2000).feed(srv.feed(bytes(bad) + good))
    assert [(t, tag) for t, tag, _ in out] == [(link.ERROR, 0), (link.HELLO | 0x80, 5)]
    assert out[0][2][0] == link.E_FRAME


def test_a_200k_line_and_garbage_cost_nothing():
    srv, _, nvm = server()
    before = bytes(nvm.mem)
    line = b"x" * 200000 + b"\n"
    assert srv.feed(line) == b""
    assert len(srv.reader.buf) <= link.RX_MAX + link.OVERHEAD
    rng = Rng(7)
    junk = bytes(rng.randbelow(256) for _ in range(20000))
    for i in range(0, len(junk), 500):
        srv.feed(junk[i:i + 500])
        assert len(srv.reader.buf) <= link.RX_MAX + link.OVERHEAD
    # after any garbage the next request is answered (the reader resyncs inside it)
    assert ask(srv, link.HELLO, tag=9)[:2] == (link.HELLO | 0x80, 9) or \
        FrameReader(2000).feed(srv.feed(frame(link.HELLO, 9)))[-1][:2] == (link.HELLO | 0x80, 9)
    assert bytes(nvm.mem) == before


def test_an_unplug_halfway_is_forgotten():
    srv, _, _ = server()
    whole = frame(link.GET, 3, u32(5))
    assert srv.feed(whole[:7], now=100) == b""  # the cable is pulled here
    # plugged in again later: the half frame has timed out
    out = FrameReader(2000).feed(srv.feed(frame(link.HELLO, 4), now=100 + link.TIMEOUT_MS + 1))
    assert [(t, tag) for t, tag, _ in out] == [(link.HELLO | 0x80, 4)]
    # and even straight away the reader finds the new frame inside the dead one
    srv.feed(whole[:9], now=0)
    out = FrameReader(2000).feed(srv.feed(frame(link.HELLO, 5) + b"\x00" * 20, now=1))
    assert out[-1][:2] == (link.HELLO | 0x80, 5)


def test_too_long_frames_are_dropped_without_waiting_for_them():
    r = FrameReader()
    head = b"\xa5\x5a\x01\x01\xff\xff"  # 65535 bytes announced
    assert r.feed(head + frame(link.HELLO, 2)) == [(link.HELLO, 2, b"")]
    assert r.take_bad() == 1


def test_seeded_fuzz_never_raises_and_never_writes():
    rng = Rng(2024)
    srv, store, nvm = server()
    before = bytes(nvm.mem)
    readonly = (link.HELLO, link.LIST, link.GET, link.GET_SETTINGS, link.GAME, 0, 9, 0x7F, 0xFF)
    answers = 0
    for i in range(300):
        choice = rng.randbelow(4)
        n = rng.randbelow(40)
        payload = bytes(rng.randbelow(256) for _ in range(n))
        if choice == 0:  # a well-formed frame of a read-only type, random payload
            data = frame(rng.choice(readonly), rng.randbelow(256), payload)
        elif choice == 1:  # a good frame with one byte flipped
            data = bytearray(frame(rng.choice(readonly), 1, payload))
            data[rng.randbelow(len(data))] ^= 1 << rng.randbelow(8)
            data = bytes(data)
        elif choice == 2:  # raw garbage, sometimes with syncs in it
            data = payload + (b"\xa5\x5a" if rng.randbelow(2) else b"") + payload
        else:  # a frame cut short
            data = frame(rng.choice(readonly), 2, payload)[:rng.randbelow(n + 10)]
        out = srv.feed(data, now=i * 10)
        frames = FrameReader(2000).feed(out)
        answers += len(frames)
        assert sum(link.OVERHEAD + len(f[2]) for f in frames) == len(out)  # only whole frames
        assert len(srv.reader.buf) <= link.RX_MAX + link.OVERHEAD
    assert answers > 50
    assert bytes(nvm.mem) == before
    # and it still works afterwards
    srv.feed(b"", now=10 ** 6)
    assert FrameReader(2000).feed(srv.feed(frame(link.HELLO, 77), now=10 ** 6))[-1][:2] == \
        (link.HELLO | 0x80, 77)
