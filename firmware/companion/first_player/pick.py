"""Who starts: a fair pick among the players, with a short spin of the names and the LEDs
sweeping round to the seat. Where a rulebook says how the start player is found (Let's Do
Lunch's starting rolls, the solo Space Lunch), the game does that instead.

Loaded only while a pick is on screen, and dropped after (``release``): the main menu's
"First player" row (screen.py, its screen) and a scoreboard that takes a start player
(``TablePick``, in the scoreboard's own list: a stacked screen would cost it its widgets). The
two modules are apart so a scoreboard compiles only this one, while its heap is full.

The seat is drawn before the spin starts, from the device's own randomness (``rng``) through
the project's PRNG, uniform by rejection (shared_rules/_compat.py); the spin only shows it.
"""

from ..app.buttons import BACK, LONG, ticks_diff
from ..screen.text import fit

SEED = [None]  # tests set the picks' seed here; the device uses its own randomness
MIN_STEPS = 12  # the spin goes round at least this many seats, whatever the table
FIRST_MS = 40  # the first step; each later one slower, to LAST_MS
LAST_MS = 300
SWEEP = (255, 150, 0)  # the LED colours: moving, and the seat that starts
PICKED = (0, 255, 0)


def rng(app):
    """The device's fair random source: the chip's (os.urandom) seeds the PRNG, as the dice
    do (games/lets_do_lunch/entry.py); in the simulator the clock, so a headless run replays."""
    from shared_rules.rng import Rng

    seed = SEED[0]
    if seed is None:
        seed = app.hw.seed()
    return Rng(seed)


def release():
    """Drop the pick's modules, and their package, once no pick is on screen (on the
    device)."""
    from ..app.unload import forget

    forget("companion.first_player.screen", __name__, "companion.first_player")


class Spin:
    """One pick: ``seat`` is drawn at once; ``at``, the seat shown, moves on a seat each
    ``tick`` (whole laps, slowing) until it stops on ``seat``; the LEDs light its share."""

    def __init__(self, app, n, now, source):
        self.app = app
        self.n = n
        self.seat = source.randbelow(n)
        self.total = (MIN_STEPS + n - 1) // n * n + self.seat
        self.i = self.at = 0
        self.done = False
        self.due = now + FIRST_MS
        self.light(SWEEP)

    def tick(self, now):
        """Move on when the step is due: True when ``at`` changed."""
        if self.done or ticks_diff(now, self.due) < 0:
            return False
        i = self.i = self.i + 1
        self.at = i % self.n
        self.done = i >= self.total
        self.due = now + FIRST_MS + (LAST_MS - FIRST_MS) * i * i // (self.total * self.total)
        self.light(PICKED if self.done else SWEEP)
        return True

    def light(self, color):
        leds = self.app.leds
        k = leds.n
        if k:
            lo = self.at * k // self.n
            hi = max(lo + 1, (self.at + 1) * k // self.n)
            leds.show([(0, 0, 0)] * lo + [color] * (hi - lo))

    def stop(self):
        self.app.leds.off()


class TablePick:
    """Who starts, in a list screen's own list (a scoreboard's, tally.TallyScreen mode
    "first"; Space Lunch's two-player "Who starts?"): "Pick at random" and the players'
    names (the table may name the one its rulebook says); a random pick spins over the
    names, then OK on any of them starts. ``begin(seat)`` starts the game with that player
    (this module is let go first); Back steps back to the choice, then to the player count
    (mode "players"). The screen gives ``show()`` (it asks ``view`` again), ``menu`` and
    ``changed()``."""

    def __init__(self, screen, begin):
        self.screen = screen
        self.begin = begin
        self.spin = None
        self.n = 0

    def view(self, names):
        spin = self.spin
        self.n = len(names)
        if spin is None:
            rows = [("Pick at random", "", self.random)]
            return "Who starts?", "", rows + [(names[s], "", self.chosen(s))
                                             for s in range(len(names))], 0
        done = spin.done
        title = fit(names[spin.seat], 8) + " starts" if done else "Who starts?"
        return title, "", [(names[s], "starts" if done and s == spin.seat else "",
                            self.chosen(spin.seat) if done else None)
                           for s in range(len(names))], 0

    def chosen(self, seat):
        def start():
            self.stop()
            release()
            self.begin(seat)

        return start

    def random(self):
        scr = self.screen
        self.spin = Spin(scr.app, self.n, scr.app.hw.clock(), rng(scr.app))
        self._again()

    def _again(self):
        scr = self.screen
        scr.show()
        scr.menu.select(0)

    def tick(self, now):
        spin = self.spin
        if spin is not None and spin.tick(now):
            scr = self.screen
            if spin.done:
                scr.show()  # the name in the title; OK now starts
            scr.menu.select(spin.at)
            scr.changed()

    def button(self, button, kind):
        """True when the pick took the event: Back, and every button while it spins."""
        if button == BACK and kind != LONG:
            if self.spin is not None:
                self.stop()
                self._again()
            else:
                self.screen.set_mode("players")
            return True
        return self.spin is not None and not self.spin.done

    def stop(self):
        if self.spin is not None:
            self.spin.stop()
            self.spin = None
