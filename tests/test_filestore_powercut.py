"""Power cuts under the file store, everywhere they can fall:

- on littlefs alone: an append to a file (what the store does to add a record to its batch)
  cut at every program and erase leaves the file as it was or with the whole new bytes (the
  claim the batch layout rests on: littlefs commits a file at close, copy-on-write);
- on littlefs itself (littlefs-python, the Pico's geometry): the flash frozen at every program
  and erase the store's writes cause, each program also cut half way (its first half
  programmed), then the image mounted again as the board would after the cut;
- on a CPython folder: the cut at every file system call (open, write, close, rename,
  remove, mkdir) of random sessions, the call not made or made half.

Each time the store mounts with the state before the interrupted operation or after it (never
a mix, never an exception, no .tmp left), and saves on from there."""

import random
import sys
from pathlib import Path

import littlefs
import pytest
from test_filestore import CutFs, PowerCut, fresh_root, state

from companion.store.filestore import FileStore
from companion.store.saveformat import MSG_BLANK

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import mp_records


class CutFlash(littlefs.UserContext):
    """The flash under littlefs: at device operation ``at`` (a program or an erase) the power
    goes. ``image`` is what the flash holds then (with ``half``, a program's first half put
    down); littlefs itself runs on, unaware, so the session's calls all return."""

    def __init__(self, buffer, at=None, half=False):
        super().__init__(buffer=buffer)
        self.at = at
        self.half = half
        self.n = 0
        self.image = None

    def _cut(self):
        n = self.n
        self.n += 1
        return n == self.at

    def prog(self, cfg, block, off, data):
        if self._cut():
            if self.half:
                super().prog(cfg, block, off, data[:len(data) // 2])
            self.image = bytearray(self.buffer)
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        if self._cut():
            self.image = bytearray(self.buffer)
        return super().erase(cfg, block)


BLOCKS = 40
GEOMETRY = dict(mp_records.GEOMETRY, block_count=BLOCKS)


def mount(buffer, ctx=None):
    ctx = ctx if ctx is not None else littlefs.UserContext(buffer=bytearray(buffer))
    return FileStore("/data", mp_records.LfsFs(littlefs.LittleFS(context=ctx, **GEOMETRY)))


def _long(i):
    return bytes((i + k) & 255 for k in range(1000))


SESSION = (
    lambda s: s.save_settings(b"alice bob"),
    lambda s: s.save_game("space_lunch", bytes(range(80))),
    lambda s: s.save_game("space_lunch", bytes(range(82))),
    lambda s: s.append_record(3, b"a finished game" * 8),  # appended to the batch of record 1
    lambda s: s.save_game("aqua_brunch", bytes(600)),  # over littlefs's inline size
    lambda s: s.append_record(2, b"crash"),
    lambda s: s.append_record(3, _long(4)),  # the batch outgrows its inline place: a block
    lambda s: s.append_record(3, _long(5)),  # appended in that block (copied to a new one)
    lambda s: s.append_record(3, _long(6)),
    lambda s: s.append_record(3, _long(7)),  # past BATCH_MAX: a new batch file, 00000007.rec
    lambda s: s.ack_records(1),  # hides record 1, removes no file
    lambda s: s.append_record(3, b"after the ack"),
    lambda s: s.ack_records(6),  # the first batch all acknowledged: removed
    lambda s: s.clear_game(),
    lambda s: s.save_settings(b"carol"),
)


def _base():
    """A formatted image with a few saves on it, and the states after each session step."""
    fs = littlefs.LittleFS(**GEOMETRY)
    s = FileStore("/data", mp_records.LfsFs(fs))
    s.save_game("space_lunch", bytes(50))
    s.append_record(3, b"an older game")
    base = bytearray(fs.context.buffer)
    states = [state(mount(base))]
    s = mount(base)
    buf = s.fs.lfs.context.buffer
    for step in SESSION:
        step(s)
        states.append(state(mount(buf)))
    return base, states


@pytest.mark.parametrize("half", [False, True])
def test_a_cut_at_every_program_and_erase_of_littlefs(half):
    base, states = _base()
    count = CutFlash(bytearray(base))
    s = mount(None, count)
    for step in SESSION:
        step(s)
    total = count.n
    assert total > 80
    assert sorted(s.fs.listdir("/data/rec")) == ["00000007.rec"]  # the batches were made
    seen = set()
    for at in range(total):
        ctx = CutFlash(bytearray(base), at, half)
        s = mount(None, ctx)
        done = None
        for i, step in enumerate(SESSION):
            step(s)
            if ctx.image is not None and done is None:
                done = i  # the step the power went in
        assert done is not None, at
        got = mount(ctx.image)
        assert got.status is None, (at, got.status)
        st = state(got)
        assert st in (states[done], states[done + 1]), (at, done, st)
        seen.add(done + (1 if st == states[done + 1] else 0))
        assert not [n for n in got.fs.listdir("/data") if n.endswith(".tmp")]
        got.save_game("lunch", b"after")
        assert state(mount(got.fs.lfs.context.buffer))[0] == ("lunch", b"after")
    # the cuts fell in every step: each state the session goes through was the one found
    assert seen >= set(range(len(SESSION)))


def _lfs(buffer):
    return littlefs.LittleFS(context=littlefs.UserContext(buffer=bytearray(buffer)),
                             **GEOMETRY)


@pytest.mark.parametrize("old,new", [(100, 150), (400, 300), (1500, 1000), (3000, 1000)],
                         ids=["inline", "inline-to-block", "in-block", "near-full-block"])
@pytest.mark.parametrize("half", [False, True])
def test_an_append_is_atomic_on_littlefs(old, new, half):
    """littlefs alone: a file of ``old`` bytes, opened "ab", ``new`` bytes written, closed; the
    power cut at each program and erase of that; the file after is the old or the new one."""
    fs = littlefs.LittleFS(**GEOMETRY)
    fs.mkdir("/rec")
    before = bytes((7 * k) & 255 for k in range(old))
    with fs.open("/rec/00000001.rec", "wb") as f:
        f.write(before)
    with fs.open("/rec/00000900.rec", "wb") as f:  # a neighbour in the same folder
        f.write(b"neighbour")
    base = bytearray(fs.context.buffer)
    more = bytes((3 * k + 1) & 255 for k in range(new))
    count = CutFlash(bytearray(base))
    lfs = littlefs.LittleFS(context=count, mount=True, **GEOMETRY)
    with lfs.open("/rec/00000001.rec", "ab") as f:
        f.write(more)
    assert count.n >= 1
    found = set()
    for at in range(count.n):
        ctx = CutFlash(bytearray(base), at, half)
        lfs = littlefs.LittleFS(context=ctx, mount=True, **GEOMETRY)
        with lfs.open("/rec/00000001.rec", "ab") as f:
            f.write(more)
        got = _lfs(ctx.image)
        with got.open("/rec/00000001.rec", "rb") as f:
            data = f.read()
        assert data in (before, before + more), (at, len(data))
        found.add(data == before + more)
        with got.open("/rec/00000900.rec", "rb") as f:
            assert f.read() == b"neighbour"
    assert False in found  # the cuts before the commit left the old file


def _random_session(rng, n):
    steps = []
    for _ in range(n):
        k = rng.randrange(6)
        size = rng.choice((0, 5, 120, 700, 1024))
        payload = bytes(rng.randrange(256) for _ in range(size))
        if k == 0:
            steps.append(lambda s, p=payload: s.save_game(rng.choice(("a", "space_lunch")), p))
        elif k == 1:
            steps.append(lambda s, p=payload: s.save_settings(p))
        elif k == 2:
            steps.append(lambda s, p=payload: s.append_record(rng.choice((1, 2, 3)), p))
        elif k == 3:
            steps.append(lambda s: s.clear_game())
        elif k == 4:
            u = rng.randrange(8)
            steps.append(lambda s, u=u: s.ack_records(u))
        else:
            steps.append(lambda s: s.kept(b""))
    return steps


@pytest.mark.parametrize("seed", range(6))
def test_a_cut_at_every_call_of_random_sessions_on_a_folder(seed):
    rng = random.Random(seed)
    steps = _random_session(rng, 12)

    def play(fs, root):
        rng.seed(seed)  # the steps' game ids and kinds: the same choices every run
        done = 0
        try:
            s = FileStore(root, fs)
            for step in steps:
                step(s)
                done += 1
        except PowerCut:
            pass
        return done

    root = fresh_root()
    states = [state(FileStore(root))]
    rng.seed(seed)
    s = FileStore(root)
    for step in steps:
        step(s)
        states.append(state(FileStore(root)))
    total = CutFs()
    play(total, fresh_root())
    assert total.n > 30
    for half in (False, True):
        for at in range(total.n):
            root = fresh_root()
            done = play(CutFs(at, half), root)
            got = FileStore(root)
            assert got.status in (None, MSG_BLANK), (at, got.status)
            assert state(got) in (states[done], states[done + 1]), (seed, at, half, done)
