"""The README picture of `lunchbox stats --plot`: the Let's Do Lunch roll chart over 60 seeded
random games (the same code path as pulled games: gamerec.summarize, then stats.plots).

    .venv/bin/python bench/stats_picture.py [DIR]      # default: docs/img
"""

import os
import random
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from lunchbox.records import gamerec, stats  # noqa: E402
from shared_rules import games  # noqa: E402

T0 = 1767225600


def rows(n=60, seed=11):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        g = games.new("lets_do_lunch")
        while not g.is_terminal():
            if g.current_player() == games.CHANCE:  # dice as they fall, not every sum alike
                acts, weights = zip(*g.chance_outcomes())
                g.apply(rng.choices(acts, weights)[0])
            else:
                g.apply(rng.choice(g.legal_actions()))
        row = gamerec.summarize(i + 1, gamerec.KIND_RECORD, games.record(g), T0 + 3600 * i)
        row.update(board_id="DEMO", epoch=0)
        out.append(row)
    return out


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "img")
    with tempfile.TemporaryDirectory() as d:
        for path in stats.plots(rows(), d):
            if path.endswith("lets-do-lunch-rolls.png"):
                dest = os.path.join(target, "stats-lets-do-lunch-rolls.png")
                shutil.copy(path, dest)
                print(dest)
