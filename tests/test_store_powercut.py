"""Power cuts at every byte of every kind of write the save store makes, on a fake RP2 flash
sector (tests/portable/_flash.py), plus corrupt and foreign memory. CPython only (thousands of
remounts). After a cut, remounting must give the last committed state (before or after the
interrupted write) or, with a status message, a clean start of what was lost: never an
exception, never a stale or mixed-up state."""

import copy
import random

import pytest
from _flash import FlashNVM, PowerCut

from companion.store import nvmlog, store
from companion.store.store import Store
from shared_rules.rng import Rng

LOST_GAME_MSGS = {store.MSG_CUT_GAME, store.MSG_CUT, store.MSG_BLANK, store.MSG_FOREIGN,
                  store.MSG_CORRUPT}
LOST_SETTINGS_MSGS = {store.MSG_CUT_SETTINGS, store.MSG_CUT_SETTINGS_RECORDS, store.MSG_CUT,
                      store.MSG_BLANK, store.MSG_FOREIGN, store.MSG_CORRUPT}


def snap(s):
    return (s.load_game(), s.load_settings(), tuple(s.records()))


def populated(size=4096, ring=8, log_games=5):
    """A sector with a game, settings, acknowledged and pending records, and some log."""
    nvm = FlashNVM(size)
    s = Store(nvm)
    s.save_settings(b"names=Ann,Bob;bright=3")
    for i in range(ring):
        s.append_record(1 + i % 2, bytes((65 + i,)) * (20 + 3 * i))
    s.ack_records(s.records()[2][0])
    for i in range(log_games):
        s.save_game("lunch", bytes((i,)) * 64)
    return nvm


def fill_until_full(nvm, needed):
    """Append game saves until fewer than ``needed`` bytes are free (no compaction)."""
    s = Store(nvm)
    i = 0
    while s.stats()["free"] >= needed + 80:
        s.save_game("lunch", bytes((i % 251,)) * 64)
        i += 1
    while s.stats()["free"] >= needed:
        n = min(8, s.stats()["free"] - 12)
        s.save_settings(bytes((i % 251,)) * n if n else bytes(i % 2))
        i += 1
    assert s.stats()["compactions"] == Store(nvm).stats()["compactions"]
    return nvm


OPS = {
    "game": lambda s: s.save_game("lunch", b"\xee" * 70),
    # the same game again: a diff record (its prefix kept, a tail), a move and an undo
    "move": lambda s: s.save_game("lunch", s.load_game()[1] + b"\x21\x22"),
    "undo": lambda s: s.save_game("lunch", s.load_game()[1][:-3] + b"\x09"),
    "other_game": lambda s: s.save_game("aqua", b"\x01\x02"),
    "settings": lambda s: s.save_settings(b"names=Cy,Di;bright=1"),
    "record": lambda s: s.append_record(store.KIND_FINISHED, b"R" * 50),
    "crash": lambda s: s.append_record(store.KIND_CRASH, b"ZeroDivisionError"),
    "ack": lambda s: s.ack_records(s.records()[-1][0]),
    "clear": lambda s: s.clear_game(),
}


def clone(mounted, nvm):
    """The store ``mounted`` as if mounted from ``nvm`` (a copy of its sector): saves remounting
    the same image thousands of times."""
    s = copy.copy(mounted)
    s._nvm = nvm
    s._ring = list(mounted._ring)
    return s


def check_outcome(before, after, got, status, where):
    if status is None:
        assert got in (before, after), where
        return
    game, settings, recs = got
    assert game in (before[0], after[0], None), where
    assert settings in (before[1], after[1], None), where
    assert set(recs) <= set(before[2]) | set(after[2]), where
    assert list(recs) == sorted(recs), where
    if game is None and before[0] is not None and after[0] is not None:
        assert status in LOST_GAME_MSGS, (where, status)
    if settings is None and before[1] is not None and after[1] is not None:
        assert status in LOST_SETTINGS_MSGS, (where, status)


def cut_everywhere(image, op, tear_seed=None, follow=True, tear_page=False):
    """Run ``op`` on a store mounted from ``image`` with power cut after every possible number
    of programmed bytes; check every distinct outcome. Returns (cut points, erases in op)."""
    oracle = FlashNVM(data=image)
    s = Store(oracle)
    assert s.status is None
    mounted = clone(s, None)
    before = snap(s)
    p0, e0 = oracle.programmed, oracle.erases
    op(s)
    after = snap(s)
    total = oracle.programmed - p0
    assert snap(Store(oracle)) == after
    seen = set()
    for k in range(total + 1):
        nvm = FlashNVM(data=image)
        s = clone(mounted, nvm)
        nvm.cut_after = k
        if tear_seed is not None:
            nvm.tear = Rng(tear_seed + k)
            nvm.tear_page = tear_page
        if k < total:
            with pytest.raises(PowerCut):
                op(s)
        else:
            op(s)
        nvm.power_on()
        key = bytes(nvm.mem)
        if key in seen:
            continue
        seen.add(key)
        r = Store(nvm)
        assert r.error is None, (k, r.error)
        got = snap(r)
        check_outcome(before, after, got, r.status, k)
        again = Store(nvm)
        assert again.error is None
        assert again.status == r.status, k  # the message stays until the next save
        assert snap(again) == got, k
        if follow:
            again.save_game("next", bytes((k % 256,)) * 33)
            again.append_record(1, b"after cut")
            last = Store(nvm)
            assert last.status is None, k
            assert last.load_game() == ("next", bytes((k % 256,)) * 33), k
            assert last.records()[-1][1:] == (1, b"after cut"), k
    return total, oracle.erases - e0


@pytest.mark.parametrize("name", sorted(OPS))
def test_cut_at_every_byte_of_an_append(name):
    image = bytes(populated().mem)
    total, erases = cut_everywhere(image, OPS[name])
    assert erases == 0 and 0 < total < 200


def test_the_game_ops_append_diff_records():
    """Saves of the game already saved are diff records (the cuts above cut them), a save of
    another game a whole one."""
    for name, kind in (("game", store.K_GAMEDIFF), ("move", store.K_GAMEDIFF),
                       ("undo", store.K_GAMEDIFF), ("other_game", store.K_GAME)):
        nvm = populated()
        s = Store(nvm)
        pos = s.stats()["used"]
        OPS[name](s)
        assert nvm.mem[pos + 1] == kind, name


@pytest.mark.parametrize("name", sorted(OPS))
def test_cut_at_every_byte_of_a_compaction(name):
    nvm = fill_until_full(populated(), 16)
    image = bytes(nvm.mem)
    total, erases = cut_everywhere(image, OPS[name])
    if name == "clear":
        assert erases == 0 or total == 4096
    else:
        assert erases == 1 and total == 4096


@pytest.mark.parametrize("name", ["game", "move", "record", "settings"])
def test_cut_with_half_programmed_bytes(name):
    """A cut leaves the byte being programmed with only some of its bits."""
    image = bytes(populated().mem)
    cut_everywhere(image, OPS[name], tear_seed=1000, follow=False)
    full = bytes(fill_until_full(populated(), 16).mem)
    cut_everywhere(full, OPS[name], tear_seed=5000, follow=False)


@pytest.mark.parametrize("name", ["game", "move", "record"])
def test_cut_with_a_half_programmed_page(name):
    """Harsher: every byte from the cut to the end of its flash page keeps only some of its
    bits. An unfinished save may then look damaged: a message is fine, a wrong state is not."""
    image = bytes(populated().mem)
    cut_everywhere(image, OPS[name], tear_seed=300, follow=False, tear_page=True)
    full = bytes(fill_until_full(populated(), 16).mem)
    cut_everywhere(full, OPS[name], tear_seed=700, follow=False, tear_page=True)


def test_cut_in_a_small_sector_with_a_full_ring():
    nvm = FlashNVM(512)
    s = Store(nvm)
    s.save_game("g", b"G" * 30)
    for i in range(12):
        s.append_record(1, bytes((i,)) * 25)
    image = bytes(nvm.mem)
    for name in ("record", "game", "ack"):
        cut_everywhere(image, OPS[name])


def test_cut_while_formatting_blank_memory():
    for k in range(store.BASE_SIZE + 2):
        nvm = FlashNVM()
        nvm.cut_after = k
        try:
            Store(nvm)
        except PowerCut:
            pass
        nvm.power_on()
        s = Store(nvm)
        assert snap(s) == (None, None, ())
        assert s.status is not None or k >= store.BASE_SIZE - 1  # last byte: see nvmlog
        assert Store(nvm).status in (None, s.status)
        s.save_settings(b"x")
        assert Store(nvm).status is None


def test_cut_while_repairing_after_a_cut():
    """The mount after a cut compaction rewrites what survived; cut that too, everywhere."""
    full = bytes(fill_until_full(populated(), 16).mem)
    oracle = FlashNVM(data=full)
    s = Store(oracle)
    before = snap(s)
    OPS["record"](s)
    after = snap(s)
    damaged = []
    for k in (30, 140, 300, 420):  # inside the game, the settings, the ring of the new image
        nvm = FlashNVM(data=full)
        s = Store(nvm)
        nvm.cut_after = k
        with pytest.raises(PowerCut):
            OPS["record"](s)
        nvm.power_on()
        damaged.append(bytes(nvm.mem))
    for image in damaged:
        probe = FlashNVM(data=image)
        p0 = probe.programmed
        assert Store(probe).status is not None
        total = probe.programmed - p0
        assert total == 4096
        # Past the repaired image the sector is programmed with 0xFF over 0xFF: every cut
        # there leaves the same bytes as a cut at its end (the last one is run too).
        used = Store(FlashNVM(data=probe.mem)).stats()["used"]
        for k in list(range(0, used + 2)) + [total - 1]:
            nvm = FlashNVM(data=image)
            nvm.cut_after = k
            with pytest.raises(PowerCut):
                Store(nvm)
            nvm.power_on()
            r = Store(nvm)
            check_outcome(before, after, snap(r), r.status, k)
            assert r.status is not None, k  # the first notice survives the cut repair
            r.save_settings(b"seen")
            assert Store(nvm).status is None


@pytest.mark.parametrize("seed", range(40))
def test_cut_during_the_erase(seed):
    """An erase cut part-way sets random bits all over the sector: a message, never a wrong
    state."""
    nvm = fill_until_full(populated(), 16)
    s = Store(nvm)
    before = snap(s)
    nvm.erase_cut = Rng(seed)
    with pytest.raises(PowerCut):
        OPS["game"](s)
    nvm.power_on()
    r = Store(nvm)
    check_outcome(before, before, snap(r), r.status, seed)
    assert r.status is not None


def random_op(rng, s):
    """An operation that changes something, with random sizes."""
    while True:
        pick = rng.randrange(7)
        n = rng.randrange(0, 110)
        tag = rng.randrange(256)
        if pick <= 2:
            gid = rng.choice(("lunch", "aqua"))
            return lambda t: t.save_game(gid, bytes((tag,)) * n)
        if pick == 3:
            return lambda t: t.save_settings(bytes((tag,)) * (n // 4))
        if pick == 4:
            return lambda t: t.append_record(1 + tag % 2, bytes((tag,)) * (n // 2))
        if pick == 5 and s.records():
            seq = rng.choice(s.records())[0]
            return lambda t: t.ack_records(seq)
        if pick == 6 and s.load_game() is not None:
            return lambda t: t.clear_game()


def test_random_operations_with_random_cuts():
    rng = random.Random(2026)
    nvm = FlashNVM(1024)
    s = Store(nvm)
    cuts = 0
    for step in range(2500):
        op = random_op(rng, s)
        if rng.random() < 0.1:
            image = FlashNVM(data=nvm.mem)
            oracle = clone(s, image)
            before = snap(oracle)
            p0 = image.programmed
            op(oracle)
            after = snap(oracle)
            nvm.cut_after = rng.randrange(max(1, image.programmed - p0))
            try:
                op(s)
            except PowerCut:
                cuts += 1
            nvm.power_on()
            s = Store(nvm)
            assert s.error is None, step
            check_outcome(before, after, snap(s), s.status, step)
        else:
            op(s)
            if rng.random() < 0.2:
                expect, shown = snap(s), s.status
                s = Store(nvm)
                assert snap(s) == expect and s.status in (None, shown), step
    assert cuts > 150


# ---- corrupt and foreign memory ------------------------------------------------------------


def foreign_images():
    rng = random.Random(5)
    yield "zeros", bytes(4096)
    yield "0x55", b"\x55" * 4096
    for i in range(30):
        yield "noise{}".format(i), bytes(rng.randrange(256) for _ in range(4096))
    yield "text", (b"print('hello')\n" * 300)[:4096]
    yield "short text", b"LUNCHBOX v0 settings" + b"\xff" * 4076
    yield "magic only", b"\xb7" + b"\xff" * 4095
    # another program's use of nvm: a few counters at the start
    yield "counters", bytes((1, 0, 0, 0, 42, 0, 7)) + b"\xff" * 4089


@pytest.mark.parametrize("name,image", list(foreign_images()))
def test_foreign_memory_is_reported_and_replaced(name, image):
    nvm = FlashNVM(data=image)
    s = Store(nvm)
    assert s.error is None
    assert s.status in (store.MSG_FOREIGN, store.MSG_CORRUPT, store.MSG_CUT), name
    assert snap(s) == (None, None, ())
    assert Store(nvm).status == s.status
    s.save_game("g", b"ok")
    assert Store(nvm).load_game() == ("g", b"ok")


def test_random_damage_never_gives_a_wrong_state():
    """Flip bytes or bits anywhere in a used sector: each mount gives the true state (the
    damage hit nothing live), a true subset of it with a message, a fresh start, or - damage
    to the very last record - the state before the last save, saying so."""
    rng = random.Random(11)
    base = populated()
    s = Store(base)
    truth = snap(s)
    previous = snap(Store(populated(log_games=4)))
    assert previous != truth
    image = bytes(base.mem)
    used = s.stats()["used"]
    outcomes = {"same": 0, "message": 0}
    for trial in range(3000):
        data = bytearray(image)
        for _ in range(rng.choice((1, 1, 1, 2, 5))):
            pos = rng.randrange(used + 16 if rng.random() < 0.9 else 4096)
            if rng.random() < 0.5:
                data[pos] ^= 1 << rng.randrange(8)
            else:
                data[pos] = rng.randrange(256)
        r = Store(FlashNVM(data=data))
        assert r.error is None, trial
        got = snap(r)
        if r.status is None:
            assert got == truth, trial
            outcomes["same"] += 1
        elif r.status == store.MSG_CUT_LAST:
            assert got in (truth, previous), trial
            outcomes["message"] += 1
        else:
            check_outcome(truth, truth, got, r.status, trial)
            outcomes["message"] += 1
    assert outcomes["message"] > 2500 and outcomes["same"] > 0


def test_truncated_and_oversized_records():
    nvm = populated()
    s = Store(nvm)
    truth = snap(s)
    pos = s.stats()["used"]
    # a record that claims more bytes than the sector has left
    rec = bytearray(nvmlog.encode(store.K_SETTINGS, s.stats()["seq"], b"x" * 10))
    rec[2:4] = (4096).to_bytes(2, "big")
    data = bytearray(nvm.mem)
    data[pos:pos + len(rec)] = rec
    r = Store(FlashNVM(data=data))
    assert r.status == store.MSG_CUT_LAST and snap(r) == truth
    # a record cut short (its tail still erased) at the end: an unfinished save
    rec = nvmlog.encode(store.K_SETTINGS, s.stats()["seq"], b"y" * 40)
    data = bytearray(nvm.mem)
    data[pos:pos + 30] = rec[:30]
    r = Store(FlashNVM(data=data))
    assert r.status is None and snap(r) == truth
    # the same with garbage after it: not a clean cut; reported, the state kept
    data[pos + 60] = 0
    r = Store(FlashNVM(data=data))
    assert r.status == store.MSG_CUT_LAST and snap(r) == truth
    # ... unless a good record follows the damage: then nothing after it can be trusted
    rec = nvmlog.encode(store.K_SETTINGS, s.stats()["seq"], b"z")
    data[pos + 100:pos + 100 + len(rec)] = rec
    r = Store(FlashNVM(data=data))
    assert r.status == store.MSG_CORRUPT and snap(r) == (None, None, ())


def test_sequence_wrap_and_gaps_are_reported():
    nvm = populated()
    s = Store(nvm)
    seq = s.stats()["seq"]
    pos = s.stats()["used"]
    for bad in (0, 1, seq - 1, seq + 1, 0xFFFFFFFF):
        data = bytearray(nvm.mem)
        rec = nvmlog.encode(store.K_SETTINGS, bad, b"z")
        data[pos:pos + len(rec)] = rec
        r = Store(FlashNVM(data=data))
        assert r.status == store.MSG_CORRUPT, bad
    data = bytearray(nvm.mem)
    rec = nvmlog.encode(store.K_SETTINGS, seq, b"z")
    data[pos:pos + len(rec)] = rec
    r = Store(FlashNVM(data=data))
    assert r.status is None and r.load_settings() == b"z"


def test_a_lost_record_in_the_middle_is_a_gap():
    """A record that rotted mid-log but happens to look unfinished is still caught: the next
    record's sequence number shows one is missing."""
    nvm = populated()
    s = Store(nvm)
    pos = s.stats()["used"]
    s.save_game("lunch", b"A" * 64)
    mid_end = s.stats()["used"]
    s.save_game("lunch", b"B" * 64)
    nvm.mem[mid_end - 1] = 0xFF  # the middle record now ends erased, like a torn one
    nvm.mem[pos + 20] = 0xFF
    r = Store(nvm)
    assert r.status == store.MSG_CORRUPT


# ---- wear ----------------------------------------------------------------------------------


def test_wear_of_typical_saves():
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann,Bob,Cy;bright=3;leds=1")
    rng = random.Random(3)
    for _game in range(20):
        for _move in range(50):
            s.save_game("lunch", bytes(rng.randrange(256) for _ in range(rng.randrange(40, 101))))
        s.append_record(store.KIND_FINISHED, bytes(rng.randrange(256) for _ in range(60)))
        s.clear_game()
    saves = 20 * 52
    assert nvm.erases == s.stats()["compactions"]
    assert saves / nvm.erases > 15  # at least 15 saves per erase with a busy ring
    assert Store(nvm).records() == s.records()


def test_compaction_keeps_half_the_sector_free():
    """A host that never pulls: the ring is capped so that every compaction leaves half the
    sector for the log (bounded wear), and it still keeps the newest records."""
    rng = random.Random(9)
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann,Bob;bright=3")
    checked = 0
    for game in range(120):
        for _move in range(10):
            n = s.stats()["compactions"]
            s.save_game("lunch", bytes(rng.randrange(256) for _ in range(60)))
            if s.stats()["compactions"] != n:
                assert s.stats()["free"] >= 2048
                checked += 1
        s.append_record(store.KIND_FINISHED, bytes((game,)) * 80)
    assert checked > 10
    kept = s.records()
    assert 15 <= len(kept) <= 25
    assert [r[2][0] for r in kept] == list(range(120 - len(kept), 120))
    assert nvm.erases <= 120 * 11 // 20
