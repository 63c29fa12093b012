"""Where the turn clock shows, measured: every game and scoreboard played with random presses
in the simulator with the clock on, on both displays, looked at after every press. The clock
never covers anything the screen draws (its box against every visible text, and against the
tile grids too in a corner), it never cuts what the title bar says (the title and status read
as they would without it), and how often it shows while a seat's clock runs is printed
(``-s``) and held above a floor for each game: docs/records.md, "The turn clock"."""

import os
import random

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from lunchbox.sim import Simulator
from lunchbox.sim.inspect import walk

LONG_NAMES = ["MARGARET", "BARTHOLO", "CHRISTIN", "DOMINIKA", "EMMANUEL", "FREDERIK",
              "GUINEVER"]  # 8 letters: the most a name has
# (game, the presses that open it at power-on, the words its random play draws from)
GAMES = (
    ("Space Lunch duel", "ok next*4 ok ok", ("ok",) * 4 + ("next", "prev")),
    ("Space Lunch solo", "ok ok", ("ok",) * 4 + ("next", "prev")),
    ("Let's Do Lunch", "next ok long:ok", ("ok",) * 3 + ("next", "prev", "wait:1500")),
    ("Aqua Brunch scoreboard", "next next ok ok ok", ("ok", "next", "prev", "hold:ok:1000")),
    ("Space Battle race", "next*3 ok ok ok", ("ok", "next", "prev", "hold:ok:1000")),
    ("Space Days scoring", "next*4 ok ok", ("ok", "next", "prev", "hold:ok:1000")),
)
# how often it must show while a seat's clock runs: with the board's own names nearly always;
# with names of 8 letters in every title, less (measured: 47% at the least, the Aqua Brunch
# scoreboard on the colour display, whose titles and status then fill its bar)
FLOOR = {"P1..P7": 0.9, "8 letters": 0.4}
SEEN = {}  # (game, profile, names) -> [steps a clock ran, shown, in the title bar]


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Watch(Simulator):
    """Looks at the screen at every shot: word of the script."""

    def __init__(self, *a, key=None, **kw):
        super().__init__(*a, **kw)
        self.key = key
        self.problems = []

    def capture(self, path):
        from companion.screen.text import fit
        from companion.screen.ui import TitleBar

        view = TitleBar.clock
        seen = SEEN.setdefault(self.key, [0, 0, 0])
        if view is None or view.tc.seat == 255 or view.screen.ended:
            return {}
        seen[0] += 1
        d = self.display
        bar = TitleBar.top
        if isinstance(bar, TitleBar):  # the title and status as they would be without it
            cols = d.title_cols - (TitleBar.reserve if TitleBar.gauge is not None and
                                   not TitleBar.gauge.hidden else 0)
            right = fit(bar.right, cols // 2)
            # a title of several phrasings (longest first) may say a shorter one beside the
            # clock, whole; the clock cuts none of them
            say = bar.title if isinstance(bar.title, tuple) else (bar.title,)
            title = fit(say[-1], cols - (len(right) + 1 if right else 0))
            if bar._title.text in say[:-1]:
                title = bar._title.text
            if (bar._title.text, bar._right.text) != (title, right):
                self.problems.append("the bar reads {!r} {!r}, not {!r} {!r}".format(
                    bar._title.text, bar._right.text, title, right))
        lab = view.lab
        if lab.hidden or not lab.text:
            return {}
        seen[1] += 1
        in_bar = view.bar is not None
        seen[2] += in_bar
        (_, _, box), = walk(lab)
        if box[0] < 0 or box[1] < 0 or box[2] > d.width or box[3] > d.height:
            self.problems.append("the clock {!r} at {} is off the screen".format(lab.text, box))
        for kind, text, other in walk(d.root[0]):
            if (kind == "text" or not in_bar) and overlaps(box, other):
                self.problems.append("the clock {!r} {} covers {} {!r} {} ({})".format(
                    lab.text, box, kind, text, other, type(self_top(self)).__name__))
        return {}


def self_top(sim):
    from companion.screen.ui import TitleBar

    return TitleBar.clock.app.top


@pytest.mark.parametrize("names", ("P1..P7", "8 letters"))
@pytest.mark.parametrize("game,start,words", GAMES, ids=[g[0] for g in GAMES])
def test_the_clock_covers_nothing_and_cuts_nothing(game, start, words, profile, names,
                                                     tmp_path):
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from companion.turn_clock.setting import COUNT_UP, make_setting
    from lunchbox.sim.hw import FileNvm

    nvm = str(tmp_path / "nvm.bin")
    Store(FileNvm(nvm)).save_settings(AppSettings(
        names=LONG_NAMES if names == "8 letters" else None,
        clock=make_setting(COUNT_UP, 10, 0)).to_bytes())
    rng = random.Random(game + profile)
    script = [rng.choice(words) for _ in range(150)]
    key = (game, profile, names)
    sim = Watch(profile, nvm_path=nvm, mode="headless", key=key)
    sim.run_script("wait:3000 " + start + " " + " ".join(
        w + " shot:x.png" for w in script))
    assert sim.problems == [], sim.problems[:5]
    runs, shown, in_bar = SEEN[key]
    print("\n{} on {}, names {}: the clock ran at {} presses, shown at {} ({:.0%}), {} in the "
          "title bar, {} in a corner".format(game, profile, names, runs, shown,
                                             shown / max(1, runs), in_bar, shown - in_bar))
    assert runs > 20  # the game was played, with a seat's clock running
    assert shown >= FLOOR[names] * runs
