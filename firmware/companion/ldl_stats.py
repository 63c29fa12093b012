"""Let's Do Lunch: the match at a glance, one press from the board (prev or next): both hands,
the score, and the roll history against fair dice with a verdict in words (a chi-square test
in integers: shared_rules.lets_do_lunch_fair). OK on the verdict says it in full."""

from shared_rules.lets_do_lunch_fair import chi_text, rows, tenths, total, verdict

from .screens import ListScreen, MessageScreen

VERDICT_ROW = 3


class StatsScreen(ListScreen):
    title = "Match"

    def __init__(self, app, play):
        self.play = play
        super().__init__(app)

    def status(self):
        m = self.play.m
        return "game {}".format(m.games + 1)

    def items(self):
        return (["In hand", "Score", "Rolls", "Dice"] +
                ["Sum {}".format(r[0]) for r in rows(self.play.m.counts)] + ["Last"])

    def marks(self):
        m = self.play.m
        counts = m.counts
        out = ["A{} B{}".format(m.hands[0], m.hands[1]),
               "{}:{} to {}".format(m.scores[0], m.scores[1], m.target),
               str(total(counts)),
               verdict(counts)[0]]
        for _s, n, exp10, _w in rows(counts):
            out.append("{} / {}".format(n, tenths(exp10)))
        out.append(" ".join(str(s) for s in reversed(m.history[-8:])) or "-")
        return out

    def activate(self, index):
        counts = self.play.m.counts
        if index == VERDICT_ROW:
            word, sentence = verdict(counts)
            self.app.push(MessageScreen(self.app, "Dice: " + word,
                                        sentence + " " + chi_text(counts) +
                                        ". Rows: rolled / fair."))
