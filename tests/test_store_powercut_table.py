"""A power cut at every byte of the compaction a table's evening leads to (the play-through
harness found it: tests/playthrough.py, an Aqua Brunch scoreboard, its player names pushed from
the host). The sector holds those names, the scoreboard's save, and finished-game records not
yet pulled; the log is full, so the next save rewrites the sector.

On RP2 that rewrite erases the one 4 KB sector and programs it back from byte 0
(docs/persistence.md: "What a power cut can cost"): a cut after byte k keeps exactly the items
whose records were programmed by then and says which are gone. These tests pin that exactly,
for each kind of save that meets a full log; the appends before it lose nothing at any byte."""

import copy

import pytest
from _flash import FlashNVM, PowerCut

from companion.store import nvmlog, nvmscan, store
from companion.store.appsettings import AppSettings
from companion.store.store import Store

NAMES = ["ANNA", "BO", "CY", "DEE", "ED", "FAY", "GUS"]  # as tests/playthrough.py pushes them
SETTINGS = AppSettings(names=list(NAMES)).to_bytes()
GAME = "aqua_score"


def board(i):
    """A scoreboard save the size the harness saw (102 bytes), different each time."""
    return bytes((i * 7 + j) % 251 for j in range(102))


def snap(s):
    return (s.load_game(), s.load_settings(), tuple(s.records()))


def table_sector():
    """The names, two finished games waiting for the host, and scoreboard saves until the
    next one does not fit."""
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(SETTINGS)
    s.append_record(store.KIND_GAME, b"G1" * 40)
    s.append_record(store.KIND_GAME, b"G2" * 45)
    i = 0
    while s.stats()["free"] >= 2 * (nvmlog.OVERHEAD + 11 + 102):
        s.save_game(GAME, board(i))
        i += 1
    assert s.stats()["compactions"] == 0
    return nvm, i


OPS = {
    # the next entry on the scoreboard
    "game": lambda s, i: s.save_game(GAME, board(i)),
    # a move of the same game: its first 80 bytes kept, a new tail (a diff record)
    "move": lambda s, i: s.save_game(GAME, board(0)[:80] + bytes((i % 251, 7 * i % 251))),
    # a Settings round trip (another brightness each time), the names kept
    "settings": lambda s, i: s.save_settings(AppSettings(names=list(NAMES),
                                                         brightness=10 * (i % 10)).to_bytes()),
    # the game's end: its record (the app clears the save next)
    "record": lambda s, i: s.append_record(store.KIND_GAME, b"G3" * 50),
}


def ends(image):
    """Where each record of a compacted image ends: {"game"|"settings"|seq: end}."""
    out = {}
    image_len = (image[20] << 8) | image[21]
    pos = store.BASE_SIZE
    while pos < image_len:
        nxt = nvmscan.step(image, pos, image_len)
        kind = image[pos + 1]
        if kind == store.K_GAME:
            out["game"] = nxt
        elif kind == store.K_SETTINGS:
            out["settings"] = nxt
        else:
            out[nvmscan.seq_of(image, pos)] = nxt
        pos = nxt
    return out


def expected(after, where, k):
    """The state and status a mount must find after a cut at byte ``k`` of the compaction:
    an item is kept once its record is programmed but for its last byte (nvmscan.check: that
    byte's erased bits cover any value), else it is gone and named."""
    if k < store.BASE_SIZE - 1:
        return (None, None, ()), store.MSG_BLANK if k == 0 else store.MSG_CUT
    game, settings, recs = after
    kept = [r for r in recs if k >= where[r[0]] - 1]
    lost_game = game is not None and k < where["game"] - 1
    lost_settings = settings is not None and k < where["settings"] - 1
    state = (None if lost_game else game, None if lost_settings else settings, tuple(kept))
    if lost_game:
        status = store.MSG_CUT if lost_settings else store.MSG_CUT_GAME
    elif lost_settings:
        lost_recs = len(kept) < len(recs)
        status = store.MSG_CUT_SETTINGS_RECORDS if lost_recs else store.MSG_CUT_SETTINGS
    elif len(kept) < len(recs):
        status = store.MSG_CUT_RECORDS
    else:
        status = None
    return state, status


def clone(mounted, nvm):
    s = copy.copy(mounted)
    s._nvm = nvm
    s._ring = list(mounted._ring)
    return s


@pytest.mark.parametrize("name", sorted(OPS))
def test_a_cut_at_every_byte_of_the_full_logs_rewrite(name):
    nvm, i = table_sector()
    image = bytes(nvm.mem)
    # first the save that still fits: an append, nothing lost at any byte
    oracle = FlashNVM(data=image)
    s = Store(oracle)
    before = snap(s)
    p0 = oracle.programmed
    OPS[name](s, i)
    assert oracle.erases == 0
    appended = snap(s)
    for k in range(oracle.programmed - p0):
        cut = FlashNVM(data=image)
        cut.cut_after = k
        with pytest.raises(PowerCut):
            OPS[name](Store(cut), i)
        cut.power_on()
        r = Store(cut)
        assert (snap(r), r.status) in ((before, None), (appended, None)), k
    # then saves of the same kind until the next one does not fit: the rewrite
    while True:
        probe = FlashNVM(data=oracle.mem)
        OPS[name](Store(probe), i + 1)
        if probe.erases:
            break
        i += 1
        OPS[name](Store(oracle), i)
    full = bytes(oracle.mem)
    mounted = Store(FlashNVM(data=full))
    assert mounted.status is None
    oracle = FlashNVM(data=full)
    s = clone(mounted, oracle)
    OPS[name](s, i + 1)
    assert oracle.erases == 1 and oracle.programmed == 4096
    after = snap(s)
    assert after[0] is not None and after[1] is not None and len(after[2]) >= 2
    where = ends(bytes(oracle.mem))
    seen = {}
    for k in range(4096):
        cut = FlashNVM(data=full)
        s = clone(mounted, cut)
        cut.cut_after = k
        with pytest.raises(PowerCut):
            OPS[name](s, i + 1)
        cut.power_on()
        key = bytes(cut.mem)
        want = expected(after, where, k)
        if key in seen:
            assert seen[key] == want, k
            continue
        r = Store(cut)
        assert r.error is None, k
        assert (snap(r), r.status) == want, k
        seen[key] = want
        again = Store(cut)  # the repaired image keeps the notice until a save
        assert (snap(again), again.status) == want, k
    # the window: the names go with any cut before their record is programmed, and only then
    gone = [k for k in range(4096) if expected(after, where, k)[0][1] is None]
    assert gone == list(range(where["settings"] - 1))
