"""Figures for the nvm save store (firmware/companion/store/store.py) on a fake RP2 flash sector.

Prints bytes programmed per save, saves per compaction, erase cycles per 1000 saves of a typical
game state (40-100 bytes), the estimated life of the nvm sector in games, the bytes a whole
Space Lunch game appends with whole-game saves and with diff saves, and the heap the store
uses on MicroPython (the WebAssembly interpreter of the test lane).

    .venv/bin/python bench/nvm_store.py
"""

import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", "firmware", os.path.join("tests", "portable"), "tests"):
    sys.path.insert(0, os.path.join(ROOT, sub))

from _flash import FlashNVM  # noqa: E402

from companion.app.main import GAME_ROOM  # noqa: E402
from companion.store.store import KIND_FINISHED, KIND_GAME, Store  # noqa: E402
from shared_rules import games  # noqa: E402

ERASE_CYCLES = 100_000  # typical endurance of the RP2040's QSPI flash (W25Q16JV)
SAVES_PER_GAME = 60  # one save per handled move; a finished-game record at the end
RECORD_BYTES = 80  # a finished-game record


def play(games, host_pulls_every, seed=1):
    """Play ``games`` games of SAVES_PER_GAME saves of 40-100 bytes each, a finished record
    after each; the host pulls (acknowledges) every ``host_pulls_every`` games (0: never)."""
    rng = random.Random(seed)
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann,Bob,Cy,Di;bright=3;leds=1")
    start_prog, start_erase = nvm.programmed, nvm.erases
    saves = appended = 0
    for g in range(games):
        for _ in range(SAVES_PER_GAME):
            state = bytes(rng.randrange(256) for _ in range(rng.randrange(40, 101)))
            before = nvm.programmed
            erases = nvm.erases
            if s.save_game("lunch", state):
                saves += 1
                if nvm.erases == erases:
                    appended += nvm.programmed - before
        s.append_record(KIND_FINISHED, bytes(rng.randrange(256) for _ in range(RECORD_BYTES)))
        s.clear_game()
        if host_pulls_every and (g + 1) % host_pulls_every == 0 and s.records():
            s.ack_records(s.records()[-1][0])
    erases = nvm.erases - start_erase
    return {
        "saves": saves,
        "append_bytes": appended / max(1, saves - erases),
        "programmed_per_save": (nvm.programmed - start_prog) / saves,
        "erases": erases,
        "ring": len(s.records()),
    }


def host_figures():
    print("nvm sector: 4096 bytes, {} erase cycles assumed".format(ERASE_CYCLES))
    print("typical game: {} saves of 40-100 bytes + one {}-byte finished-game record".format(
        SAVES_PER_GAME, RECORD_BYTES))
    print()
    header = "{:<28} {:>10} {:>12} {:>10} {:>12} {:>14} {:>6}".format(
        "host pulls records", "B/append", "B/save(avg)", "saves/cmp", "erase/1000", "life (games)",
        "ring")
    print(header)
    print("-" * len(header))
    for label, every in (("after every game", 1), ("every 10 games", 10), ("never", 0)):
        games = 200
        f = play(games, every)
        per_1000 = 1000 * f["erases"] / f["saves"]
        life = ERASE_CYCLES * games / max(1, f["erases"])
        print("{:<28} {:>10.1f} {:>12.1f} {:>10.1f} {:>12.2f} {:>14,.0f} {:>6}".format(
            label, f["append_bytes"], f["programmed_per_save"], f["saves"] / max(1, f["erases"]),
            per_1000, life, f["ring"]))
    print()
    print("B/append: bytes programmed by a save that appends (record: 12 + 1 + id + state);")
    print("B/save(avg): including the 4096 bytes of each compaction; saves/cmp: saves per erase;")
    print("ring: records kept for the host at the end (the oldest are dropped when full).")


class WholeSaves(Store):
    """The store as it was before diff records: every save writes the whole game (a version 1
    sector gets no diff records)."""

    def __init__(self, nvm):
        super().__init__(nvm)
        self._version = 1

    def _compact(self, *args):
        super()._compact(*args)
        self._version = 1


def space_lunch_game(s, mode, rng):
    """One Space Lunch game as the app saves it: a save after every move that does not end
    the game (an undo now and then), then the finished game's record and the save cleared.
    Returns (saves, bytes appended by the saves, compactions)."""
    g = games.new("space_lunch", mode)
    saves = appended = 0
    c0 = s.stats()["compactions"]
    while not g.is_terminal():
        if g.can_undo() and rng.random() < 0.03:
            g.undo()
        else:
            g.apply(rng.choice(g.legal_actions()))
        if g.is_terminal():
            break
        used = s.stats()["used"]
        c = s.stats()["compactions"]
        if s.save_game("space_lunch", g.to_bytes()):
            saves += 1
            if s.stats()["compactions"] == c:
                appended += s.stats()["used"] - used
    s.append_record(KIND_GAME, b"\x01" * 14 + g.to_bytes())  # the envelope: date, names
    s.clear_game()
    return saves, appended, s.stats()["compactions"] - c0


def space_lunch_figures(games_played=100):
    print()
    print("Space Lunch, {} random games of each kind (a save per move, an undo in 30 moves),"
          .format(games_played))
    print("saved whole (as before diff records) and as diffs:")
    header = "{:<13} {:<7} {:>11} {:>8} {:>10} {:>7} {:>16} {:>10}".format(
        "game", "saves", "saves/game", "B/game", "B/game max", "B/save", "compactions/game",
        "with room")
    print(header)
    print("-" * len(header))
    for label, mode in (("solo (Hard)", 2), ("two players", 4)):
        for how, cls in (("whole", WholeSaves), ("diff", Store)):
            # bytes: each game on a sector too big to fill (no compaction hides a save)
            rng = random.Random(7)
            saves = total = worst = 0
            for _ in range(games_played):
                s = cls(FlashNVM(0xFFFF))
                n, appended, _c = space_lunch_game(s, mode, rng)
                saves += n
                total += appended
                worst = max(worst, appended)
            # compactions: the games one after another on a 4 KB sector, the host pulling
            # after each, no room made at the games' starts
            cmps = []
            for room in (0, GAME_ROOM):
                rng = random.Random(7)
                s = cls(FlashNVM())
                s.save_settings(b"names=Ann,Bob,Cy,Di;bright=3;leds=1")
                mid = 0
                for _ in range(games_played):
                    if room:
                        s.make_room(room)
                    mid += space_lunch_game(s, mode, rng)[2]
                    s.ack_records(s.records()[-1][0])
                cmps.append("{:.2f}".format(s.stats()["compactions"] / games_played))
                if room:
                    cmps[-1] += " ({:.2f})".format(mid / games_played)
            print("{:<13} {:<7} {:>11.0f} {:>8.0f} {:>10} {:>7.1f} {:>16} {:>10}".format(
                label, how, saves / games_played, total / games_played, worst,
                total / max(1, saves), cmps[0], cmps[1]))
    print("B/game: bytes the saves of a game append (its end adds the finished-game record,")
    print("~130 bytes, and 12 for the cleared save); a compaction programs all 4096 bytes.")
    print("compactions/game: on a 4 KB sector, the host pulling after every game; with room:")
    print("make_room({}) at each game's start (main.GAME_ROOM), (those mid-game)".format(
        GAME_ROOM))


# The WebAssembly port's gc.collect() frees nothing while a script runs (checked: a dropped
# 20 KB bytearray stays counted), so what can be measured is what each step allocates, with
# the collector off: an upper bound of its peak; most of it is garbage a Pico collects.
MP_CODE = r"""
import gc
gc.collect()
gc.disable()
a0 = gc.mem_alloc()
from companion.store.store import Store
a1 = gc.mem_alloc()
nvm = bytearray(IMAGE)  # reads copy, writes go in place: like microcontroller.nvm
a2 = gc.mem_alloc()
s = Store(nvm)
a3 = gc.mem_alloc()
s.save_game("lunch", b"\x42" * 70)
a4 = gc.mem_alloc()
n = 0
while s.stats()["compactions"] == 0:
    a5 = gc.mem_alloc()
    n += 1
    s.save_game("lunch", bytes((n & 255,)) * 70)
    a6 = gc.mem_alloc()
print("@@HEAP", a1 - a0, a3 - a2, a4 - a3, a6 - a5, s.stats()["compactions"], len(s.records()))
"""


def micropython_figures():
    try:
        import mplane
    except ImportError as exc:
        print("MicroPython heap: skipped ({})".format(exc))
        return
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"names=Ann,Bob,Cy,Di;bright=3;leds=1")
    for i in range(8):
        s.append_record(KIND_FINISHED, bytes((i,)) * RECORD_BYTES)
    while s.stats()["free"] > 1200:
        s.save_game("lunch", bytes((s.stats()["seq"] & 255,)) * 70)
    code = "IMAGE = {!r}\n".format(bytes(nvm.mem)) + MP_CODE
    try:
        res = mplane.run(code=code, timeout=120)
    except Exception as exc:  # no node: say so, keep the other figures
        print("MicroPython heap: skipped ({})".format(exc))
        return
    line = [x for x in res.output.splitlines() if x.startswith("@@HEAP")]
    if not line:
        print("MicroPython heap: failed\n" + res.output)
        sys.exit(1)
    imp, mount, save, compaction, cmps, recs = (int(x) for x in line[0].split()[1:])
    print()
    print("MicroPython 1.27 (WebAssembly), heap allocated with the collector off (an upper")
    print("bound of the peak; most of it is garbage), a 4 KB sector holding a {}-byte log"
          .format(s.stats()["used"]))
    print("with settings and {} finished-game records:".format(recs))
    print("  import store (+ nvmlog, crc32; compiling .py):   {:>6} bytes".format(imp))
    print("  mount (reads the 4 KB sector once)               {:>6} bytes".format(mount))
    print("  one save of 70 bytes (append)                    {:>6} bytes".format(save))
    print("  one save of 70 bytes that compacts the sector    {:>6} bytes".format(compaction))


if __name__ == "__main__":
    host_figures()
    space_lunch_figures()
    micropython_figures()
