"""The data link, host side and both parsers under hypothesis: the host's Parser and the
device's FrameReader agree on any byte stream, however it is cut into pieces; neither ever
raises or holds more than one frame; the host's answer decoders raise only ProtocolError; and
the host's Link talks to the device's LinkServer (retries, stale answers, device errors)."""

import os

import linkloop
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.app import link as dev
from companion.store.appsettings import AppSettings
from lunchbox.records import link as hostlink
from lunchbox.records import linkproto as lp

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


frames_st = st.tuples(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=300))


@FAST
@given(frames_st)
def test_host_and_device_encode_the_same_frames(f):
    assert lp.encode(*f) == dev.frame(*f)


def chunks(data, cuts):
    points = sorted({c % (len(data) + 1) for c in cuts})
    out, last = [], 0
    for p in points + [len(data)]:
        out.append(data[last:p])
        last = p
    return out


stream_st = st.lists(
    st.one_of(
        frames_st.map(lambda f: lp.encode(*f)),
        st.binary(max_size=64),
        frames_st.map(lambda f: lp.encode(*f)[:-1]),  # cut short
        st.tuples(frames_st, st.integers(0, 10 ** 6)).map(  # a bit flipped
            lambda x: bytes(b ^ (1 << (x[1] % 8)) if i == x[1] % (len(lp.encode(*x[0])))
                            else b for i, b in enumerate(lp.encode(*x[0])))),
        st.just(b"\xa5\x5a"),
    ),
    max_size=12,
).map(b"".join)


@FAST
@given(stream_st, st.lists(st.integers(0, 10 ** 6), max_size=8))
def test_both_parsers_agree_on_any_stream_in_any_pieces(data, cuts):
    host = lp.Parser(max_payload=dev.RX_MAX)
    device = dev.FrameReader(timeout=0)
    whole = lp.Parser(max_payload=dev.RX_MAX).feed(data)
    got_h, got_d = [], []
    for piece in chunks(data, cuts):
        got_h += host.feed(piece)
        got_d += device.feed(piece, 0)
        assert len(host.buf) <= dev.RX_MAX + lp.OVERHEAD
        assert len(device.buf) <= dev.RX_MAX + lp.OVERHEAD
    assert got_h == got_d == whole
    assert host.dropped == device.bad


@FAST
@given(st.binary(max_size=400), frames_st.filter(lambda f: len(f[2]) <= dev.RX_MAX))
@example(b"\xa5\x5a", (0, 0x40, b""))  # the garbage's sync claims 64 bytes the frame lacks
@example(b"\x00\xa5\x5a\xa5", (1, 2, b"\xa5\x5a"))
def test_a_good_frame_after_any_garbage_is_found(garbage, f):
    good = lp.encode(*f)
    for parser in (lp.Parser(max_payload=dev.RX_MAX), dev.FrameReader(timeout=0)):
        got = parser.feed(garbage + good)
        assert got and got[-1] == f


@FAST
@given(st.binary(max_size=200))
def test_answer_decoders_raise_only_protocol_errors(p):
    for parse in (lp.parse_hello, lp.parse_list, lp.parse_get, lp.parse_ack, lp.parse_game):
        try:
            parse(p)
        except lp.ProtocolError:
            pass
    assert isinstance(lp.parse_error(p), lp.DeviceError)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 0x7F), st.binary(max_size=80)), max_size=6))
def test_device_answers_any_request_with_frames_and_keeps_its_memory(reqs):
    board = linkloop.Board()
    board.finish(b"\x01\x02\x00\x00\x00\x00\x00")
    before = bytes(board.nvm.mem)
    reqs = [r for r in reqs if r[0] not in (dev.ACK, dev.SET_SETTINGS, dev.TIME)]
    out = b""  # (those three may change state: tested on their own)
    for ftype, payload in reqs:
        out += board.server.feed(lp.encode(ftype, 1, payload), 0)
    got = lp.Parser().feed(out)
    assert sum(lp.OVERHEAD + len(f[2]) for f in got) == len(out) and len(got) == len(reqs)
    assert all(t == dev.ERROR or t == (r[0] | 0x80) for (t, _, _), r in zip(got, reqs))
    assert bytes(board.nvm.mem) == before


def test_link_against_the_device():
    board = linkloop.Board()
    seq = board.finish(b"\x01\x02\x01\x03\x00\x00\x00\x00")
    link = board.link()
    h = link.hello()
    assert (h.board_id, h.firmware, h.profile, h.waiting) == (
        "E66141040327522C", "0.1.0", "pico-display-pack", 1)
    assert not h.clock_set and h.size == 4096 and h.first == h.last == seq
    link.set_time(1767225600, -300)
    assert link.hello().clock_set and board.server.tz == -300
    [(s, kind, n, _crc)] = link.list()
    assert (s, kind) == (seq, 3)
    kind, payload = link.get(seq)
    assert len(payload) == n and kind == 3
    assert link.game() is None
    board.store.save_game("aqua_brunch", b"\x05")
    assert link.game() == ("aqua_brunch", b"\x05")
    raw = AppSettings(30, True, ["ANNA", "BO", "CY", "P4", "P5", "P6", "P7"]).to_bytes()
    link.set_settings(raw)
    assert link.get_settings() == raw == board.store.load_settings()
    with pytest.raises(lp.DeviceError, match="refused"):
        link.set_settings(raw[:-1])
    with pytest.raises(lp.DeviceError, match="not found"):
        link.get(seq + 100)
    assert link.ack(seq) == 0 and link.list() == []
    assert link.sent > 0 and link.received > 0


class Lossy:
    """Drops the first ``drop`` requests, answers late (stale frames) otherwise."""

    def __init__(self, board, drop=1):
        self.inner = board.stream()
        self.drop = drop

    def write(self, data):
        if self.drop:
            self.drop -= 1
            return
        self.inner.write(data)

    def read(self, n):
        return self.inner.read(n)


def test_lost_request_is_sent_again_and_late_answers_ignored():
    board = linkloop.Board()
    link = linkloop.host_link(Lossy(board, drop=2))  # the session's flush, then the first HELLO
    assert link.hello().waiting == 0 and link.tag == 2
    # a late answer to tag 2 is waiting when tag 3 is asked: it is skipped
    link.stream.inner.pending += dev.frame(dev.HELLO | 0x80, 2, b"junk")
    assert link.list() == []


def test_no_answer_at_all():
    board = linkloop.Board()
    link = linkloop.host_link(Lossy(board, drop=10))
    with pytest.raises(hostlink.LinkError, match="did not answer HELLO"):
        link.hello()


def test_a_cut_cable_is_a_link_error():
    board = linkloop.Board()
    link = board.link(cut_after=3)
    with pytest.raises(hostlink.LinkError, match="cut"):
        link.hello()


def test_not_a_lunchbox():
    class Echo:
        def __init__(self):
            self.buf = b""

        def write(self, data):
            for f in lp.Parser().feed(data):
                self.buf += lp.encode(f[0] | 0x80, f[1], b"LUNCHBOX 0.1.0")  # nonsense answer

        def read(self, n):
            out, self.buf = self.buf, b""
            return out

    with pytest.raises(hostlink.LinkError, match="does not look like a Lunchbox"):
        linkloop.host_link(Echo()).hello()


def test_which_ports(tmp_path, monkeypatch):
    from lunchbox.device import ports

    assert hostlink.data_ports("/dev/ttyX") == ["/dev/ttyX"]
    monkeypatch.setenv(hostlink.SIM_LINK_ENV, str(tmp_path / "sim-link"))
    with pytest.raises(hostlink.LinkError, match="no simulator"):
        hostlink.data_ports(sim=True)
    hostlink.announce_sim_link(os.devnull)
    assert hostlink.data_ports(sim=True) == [os.devnull]
    hostlink.forget_sim_link(os.devnull)
    assert not (tmp_path / "sim-link").exists()

    def lister(*found):
        return lambda: [ports.Port(d, 0x239A, 0x80F4, i) for d, i in found]

    two = lister(("/dev/a", "CircuitPython CDC control"), ("/dev/b", "CircuitPython CDC2 control"),
                 ("/dev/c", "CircuitPython CDC2 control"))
    assert hostlink.data_ports(list_ports=two) == ["/dev/b", "/dev/c"]
    with pytest.raises(hostlink.LinkError, match="no data channel"):
        hostlink.data_ports(list_ports=lister(("/dev/a", "CircuitPython CDC control")))
    with pytest.raises(hostlink.LinkError, match="no Lunchbox found"):
        hostlink.data_ports(list_ports=lister())
