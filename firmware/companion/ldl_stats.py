"""Let's Do Lunch: the match at a glance, one press from the board (prev or next): both hands,
the score, then the roll history against fair dice and a verdict in words (a chi-square test
in integers: shared_rules.lets_do_lunch_fair). Prev/next turn the pages; OK or Back return.

One title bar and one multi-line label (pages, not a list with a message on top): this screen
sits on the board's screen, so it must stay light on the heap.
"""

import terminalio
from adafruit_display_text import label

from shared_rules.lets_do_lunch_fair import chi_text, rows, tenths, total, verdict

from .core.buttons import BACK, LONG, NEXT, OK, PREV
from .core.text import fit, wrap
from .screens import Screen
from .ui import TitleBar

LINES = 4
PAGES = 4


class StatsScreen(Screen):
    def __init__(self, app, play):
        super().__init__(app)
        d = self.d
        self.play = play
        self.page = 0
        self.bar = TitleBar(d, "Match")
        step = (d.height - d.title_h) // LINES
        self.body = label.Label(terminalio.FONT, text=" ", color=d.FG, scale=d.scale,
                                line_spacing=step / d.char_h, anchor_point=(0, 0),
                                anchored_position=(d.pad, d.title_h + (step - d.char_h) // 2))
        self.group.append(self.bar.group)
        self.group.append(self.body)

    def enter(self):
        self._show()

    def lines(self, page):
        m = self.play.m
        counts = m.counts
        n = total(counts)
        name = self.play.name
        if page == 0:
            h = m.hands
            return ["In hand: A{} B{}".format(h[0], h[1]),
                    "{} {}, {} {}".format(name(0), m.scores[0], name(1), m.scores[1]),
                    "Target {}, game {}".format(m.target, m.games + 1),
                    "Last: " + (" ".join(str(s) for s in reversed(m.history[-6:])) or "-")]
        if page == 3:
            sentence = verdict(counts)[1]
            return wrap(sentence + " " + chi_text(counts) + ".", self.d.cols, LINES)
        table = rows(counts)
        out = ["{}: {} ({})".format(t[0], t[1], tenths(t[2]))
               for t in (table[0:4] if page == 1 else table[4:7])]
        if page == 2:
            out.append("{} rolls: {}".format(n, verdict(counts)[0]))
        return out

    def _show(self):
        cols = self.d.cols
        title = ("Match", "Rolled (fair)", "Rolled (fair)", "Dice")[self.page]
        self.bar.set(title, "{}/{}".format(self.page + 1, PAGES))
        self.body.text = "\n".join(fit(s, cols) for s in self.lines(self.page))
        self.changed()

    def on_button(self, button, kind):
        if button == PREV or button == NEXT:
            self.page = (self.page + (1 if button == NEXT else -1)) % PAGES
            self._show()
        elif (button == OK or button == BACK) and kind != LONG:
            self.app.pop()
