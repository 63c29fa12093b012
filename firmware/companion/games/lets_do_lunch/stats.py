"""Let's Do Lunch: the match at a glance, one press from the board (prev or next): both hands,
the score, then the roll history against fair dice and a verdict in words (a chi-square test
in integers: shared_rules.lets_do_lunch.fair). The match screen shows these pages in place of
the board, on its own labels (no screen on top: the board's moment is the heap's tightest).
"""

from companion.screen.text import wrap
from shared_rules.lets_do_lunch.fair import chi_text, rows, tenths, total, verdict

LINES = 4
PAGES = 4
TITLES = ("Match", "Rolled (fair)", "Rolled (fair)", "Dice")


def page(play, k, cols):
    """(title, lines) of page ``k`` for the PlayScreen ``play``; lines fit ``cols``."""
    m = play.m
    counts = m.counts
    name = play.name
    title = "{} {}/{}".format(TITLES[k], k + 1, PAGES)
    if k == 0:
        h = m.hands
        return title, ["In hand: A{} B{}".format(h[0], h[1]),
                       "{} {}, {} {}".format(name(0), m.scores[0], name(1), m.scores[1]),
                       "Target {}, game {}".format(m.target, m.games + 1),
                       "Last: " + (" ".join(str(s) for s in reversed(m.history[-6:])) or "-")]
    if k == 3:
        return title, wrap(verdict(counts)[1] + " " + chi_text(counts) + ".", cols, LINES)
    table = rows(counts)
    out = ["{}: {} ({})".format(t[0], t[1], tenths(t[2]))
           for t in (table[0:4] if k == 1 else table[4:7])]
    if k == 2:
        out.append("{} rolls: {}".format(total(counts), verdict(counts)[0]))
    return title, out
