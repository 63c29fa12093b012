"""Figures for game records (docs/records.md):

1. the size of finished-game records (envelope included) over random legal games of each kind,
   and how many fit in the 4 KB nvm log before the oldest one not yet pulled would be dropped;
2. bytes on the wire and time per record for `lunchbox pull` from the simulator over its
   pseudo-terminal (pyserial, the firmware's real link server, SQLite commits).

    .venv/bin/python bench/records_link.py
"""

import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", os.path.join("tests", "portable"), "tests"):
    sys.path.insert(0, os.path.join(ROOT, sub))
sys.path.append(os.path.join(ROOT, "firmware"))

from _flash import FlashNVM  # noqa: E402

from companion.store import records  # noqa: E402
from companion.store.appsettings import AppSettings  # noqa: E402
from companion.store.store import Store  # noqa: E402
from shared_rules import games  # noqa: E402

KINDS = (("Space Lunch solo", "space_lunch", (2,)), ("Space Lunch duel", "space_lunch", (4,)),
         ("Let's Do Lunch (one game)", "lets_do_lunch", ()),
         ("Aqua Brunch, 3 players", "aqua_brunch", (3,)),
         ("Aqua Brunch, 5 players", "aqua_brunch", (5,)),
         ("Space Battle, 2 players", "space_battle", (2,)),
         ("Space Days, 2 players", "space_days", (2,)))
NAMES = ["ANNA", "BO", "CY", "DEE", "ED", "P6", "P7"]


def random_record(game_id, params, rng, cap=5000):
    g = games.new(game_id, *params)
    n = 0
    while not g.is_terminal() and n < cap:
        acts = g.legal_actions()
        rng.shuffle(acts)
        for a in acts:
            try:
                g.apply(a)
                break
            except ValueError:
                continue
        else:
            return None
        n += 1
    return games.record(g) if g.is_terminal() else None


def fit(size):
    """Games of ``size`` bytes the log keeps before the oldest unpulled one is dropped, with
    settings saved and the game being played saved too (as on the board)."""
    store = Store(FlashNVM(4096))
    store.save_settings(AppSettings(names=NAMES).to_bytes())
    first = store.room(size)
    n = 0
    while True:
        store.save_game("lets_do_lunch", bytes(size))
        store.append_record(records.KIND_GAME, bytes(size))
        store.clear_game()
        n += 1
        if len(store.records()) < n:
            return first, n - 1


def sizes():
    rng = random.Random(2026)
    print("record sizes over 30 random legal games (envelope with the seats' names "
          "included), and how many fit in the nvm log")
    print("{:<28} {:>6} {:>6} {:>6} {:>10} {:>10}".format("game", "mean", "min", "max",
                                                         "warned at", "first drop"))
    for label, gid, params in KINDS:
        got = []
        for _ in range(30):
            try:
                rec = random_record(gid, params, rng)
            except Exception as e:  # an engine still being built
                print("{:<28} (no figures: {})".format(label, e))
                break
            if rec is not None:
                got.append(len(records.envelope(rec, 1767225600,
                                                NAMES[:records.seats(rec)])))
        if not got:
            continue
        mean = int(statistics.mean(got))
        if max(got) > 1024:
            print("{:<28} {:>6} {:>6} {:>6}   over the store's 1024-byte limit: not kept".format(
                label, mean, min(got), max(got)))
            continue
        room, dropped_after = fit(mean)
        print("{:<28} {:>6} {:>6} {:>6} {:>10} {:>10}".format(label, mean, min(got), max(got),
                                                             room, dropped_after + 1))


def wire(counts=(0, 4, 8, 12)):
    from test_pull_sim import RunningSim, finished_games

    from lunchbox.records import db as dbmod
    from lunchbox.records import link as hostlink
    from lunchbox.records import pull

    rng = random.Random(7)
    pool = [random_record("lets_do_lunch", (), rng) for _ in range(12)]
    print("\nlunchbox pull from the simulator over its pseudo-terminal (Let's Do Lunch records, "
          "mean {} bytes)".format(int(statistics.mean(len(r) for r in pool))))
    print("{:>8} {:>12} {:>10}".format("records", "bytes", "seconds"))
    rows = []
    for n in counts:
        with tempfile.TemporaryDirectory() as d:
            nvm = os.path.join(d, "nvm.bin")
            finished_games(nvm, pool[:n])
            with RunningSim(nvm) as rs, dbmod.Database(os.path.join(d, "g.db")) as db:
                time.sleep(0.3)
                link = hostlink.open_link(rs.port)
                t = time.monotonic()
                res = pull.pull_board(link, db)
                secs = time.monotonic() - t
                link.close()
        assert res.new == n
        rows.append((n, res.bytes, secs))
        print("{:>8} {:>12} {:>10.2f}".format(n, res.bytes, secs))
    (n0, b0, s0), (n1, b1, s1) = rows[0], rows[-1]
    print("per record: {:.0f} bytes on the wire, {:.0f} ms; a session's fixed cost: {} bytes, "
          "{:.0f} ms".format((b1 - b0) / (n1 - n0), 1000 * (s1 - s0) / (n1 - n0), b0, 1000 * s0))


if __name__ == "__main__":
    sizes()
    wire()
