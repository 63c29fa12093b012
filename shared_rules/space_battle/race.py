"""Space Battle Lunchtime at the table: the race to 21 (``players`` 2-5, ``first`` the seat
that starts, default 0) and the serve check.

The players keep their cards and dishes; the device keeps the score. Seats are numbered
clockwise; the start player plays first and closes each round. Every entry is one int:

    0-99     the seat's turn scored that many points and ends (0: a steal or a buy)
    100-199  that many points (minus 100) scored, the turn goes on (a judge's "serve a dish"
             or "upgrade": the difference between the two levels)
    200-221  at the end, for each seat tied on points in seat order: the total flavour
             quantity in hand (200 + 0..21), the rulebook's tie-break

Once a seat has 21 or more the round is played out (equal turns: the game ends when play comes
back to the start player). Still tied after the flavours: a shared win. The serve check is
``check_serve`` (serve_level) and ``best_for_dish`` (best_serve). Decisions: docs/scoring.md.
"""

from shared_rules._compat import const
from shared_rules.protocol import TABLE, TERMINAL, TableScore

FLAVORS = ("bitter", "savory", "sour", "spicy", "sweet")  # space_battle_lunchtime's order

TARGET = const(21)
MORE = const(100)
FLAVOUR = const(200)
MAX_FLAVOUR = const(21)  # seven cards of quantity 3 (the hand limit applies at turn's end)
MAX_POINTS = const(99)


def totals_cards(totals):
    """Per-flavour served quantities (5 ints, FLAVORS order) -> flavour cards with the same
    totals (serve_level counts only the totals)."""
    out = []
    for i in range(5):
        q = totals[i]
        while q > 0:
            c = 3 if q >= 3 else q
            out.append((FLAVORS[i], c))
            q -= c
    return out


def requirement(need):
    """5 ints (FLAVORS order) -> {flavor: amount}."""
    d = {}
    for i in range(5):
        if need[i]:
            d[FLAVORS[i]] = need[i]
    return d


def check_serve(need, served):
    """The level (0 gold, 1 silver, 2 bronze) or None for serving quantities ``served`` to a
    dish needing ``need`` (both 5 ints in FLAVORS order). The serving rules load only here:
    the race itself does not need them (a Pico's heap)."""
    from shared_rules.space_battle.rules import LEVELS, serve_level

    lv = serve_level(requirement(need), totals_cards(served))
    return None if lv is None else LEVELS.index(lv)


def best_for_dish(hand, need, points):
    """The best serve of ``hand`` (flavour cards) to one dish: ``(option, cards)`` with the
    ServeOption (level, points) and the cards it uses, or None if nothing serves."""
    from shared_rules.space_battle.rules import best_serve

    _, best = best_serve(hand, [(requirement(need), tuple(points))], best_only=True)
    if best is None:
        return None
    return best, [hand[i] for i in best.cards]


class BattleRace(TableScore):
    game_id = "battle_race"
    index = 6
    defaults = (2, 0)  # players; the start player (a seat). A record of one setting: seat 0
    seats = (2, 5, "Space Battle Lunchtime")

    def _check(self, params):
        if params[1] >= params[0]:
            raise ValueError("the start player is one of the {} players".format(params[0]))

    def _start(self):
        n = self.params[0]
        self.n = n
        self.first = self.params[1]
        self.points = [0] * n
        self.turn = self.first  # whose turn
        self.turns = [0] * n  # turns completed
        self.mid = False  # a turn under way (points added, the turn goes on)
        self.ties = [-1] * n  # the flavours in hand, the tie-break
        self.over = False

    def scored(self):
        return self.ended()

    def ended(self):
        """The race is run: someone has 21 and the round is complete."""
        return self.turn == self.first and not self.mid and self.turns[self.first] > 0 and \
            max(self.points) >= TARGET

    def current_player(self):
        if self.ended():
            return TABLE if self.asking() is not None else TERMINAL
        return self.turn

    def legal_actions(self):
        if self.ended():
            return [] if self.asking() is None else list(range(FLAVOUR, FLAVOUR + 22))
        return list(range(0, 200))

    def _do(self, a):
        if type(a) is not int or a < 0 or a > FLAVOUR + MAX_FLAVOUR:
            raise ValueError("that is not a Space Battle entry")
        if self.ended():
            s = self.asking()
            if s is None or a < FLAVOUR:
                raise ValueError("the race is over")
            self.ties[s] = a - FLAVOUR
            return
        if a >= FLAVOUR:
            raise ValueError("the flavour tie-break comes at the end")
        p = a if a < MORE else a - MORE
        self.points[self.turn] += p
        self.mid = a >= MORE
        if a < MORE:
            self.turns[self.turn] += 1
            self.turn = (self.turn + 1) % self.n

    def scores(self):
        return list(self.points)

    def leader_reached(self):
        """True once someone has reached 21 (the last round is being played out)."""
        return max(self.points) >= TARGET

    def describe(self, a):
        if a < MORE:
            return "scores {}, ends".format(a) if a else "no serve"
        if a < FLAVOUR:
            return "+{} (reward)".format(a - MORE)
        return "{} flavours".format(a - FLAVOUR)
