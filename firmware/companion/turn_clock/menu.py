"""Settings > Clock and Clock bonus (the turn clock: clocks.py): off, counting up, or
a chess clock of so many minutes each, and the seconds a chess clock adds for each turn. A
game started after a change has the new clock; a game saved with a clock keeps its own."""

# Imported when one of the rows is opened and let go with Settings.

from ..screen.screens import ItemPicker
from .setting import BONUS_S, CHESS, CLOCK_MIN, COUNT_UP, make_setting, setting


def choose(app, bonus):
    """Open the picker of the Clock row (or of Clock bonus); the choice is saved at once."""
    s = app.settings
    mode, minutes, extra = setting(s.clock)
    times = sorted(CLOCK_MIN)
    if bonus:
        words = ["none"] + ["+{} s a turn".format(b) for b in BONUS_S[1:]]
        at = BONUS_S.index(extra)
    else:
        words = ["off", "count up"] + ["{} min each".format(m) for m in times]
        at = 2 + times.index(minutes) if mode == CHESS else mode

    def done(i):
        if bonus:
            s.clock = make_setting(mode, minutes, BONUS_S[i])
        elif i < 2:
            s.clock = make_setting(COUNT_UP if i else 0, minutes, extra)
        else:
            s.clock = make_setting(CHESS, times[i - 2], extra)
        app.save_settings()
        if s.clock & 3 and app.clock is None:
            from .clocks import Clocks

            Clocks(app)  # the next game has a clock (app/loop.py makes it at start-up too)

    app.push(ItemPicker(app, "Clock bonus" if bonus else "Turn clock", words, at, done))
