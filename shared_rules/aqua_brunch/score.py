"""Aqua Brunch at the table: the six-round scoreboard (``players`` 3-7, ``rules`` 0-1).

The players keep their cards; after each Lunch the table types in what every seat shows and the
device does the arithmetic (shared_rules.aqua_brunch.rules: strength, take_order, divide_catch).
Every entry is one int in its own range, so a record needs a byte an entry:

    0-7    a predator card of the seat being entered (CARDS index)     that seat
    9-23   the seat's aqua cards, 8 + a mask (bit i = AQUA_VALUES[i]), entered before the
           food card and only by a seat that drew some (none is the default)  that seat
    24-30  the seat's food card (FOOD_VALUES index)                    that seat
    31-37  Lunch was called by seat 0-6 (asked only when it breaks a tie)   the table
    38-44  the taker takes the food card of that colour (seat)             the table

When a taker faces equal-valued cards (the rulebook: "they take any one of them of their
choice"), ``rules`` says what is asked. 1 (CHOICE, new scoreboards): the table says which card
was taken whenever the choice changes an own-colour count (the taker's own card, a card whose
owner takes from the same cards later, or one of the rest); the default is the taker's own
colour. 0 (the records made before: a record without the setting replays so): the taker's
own colour is taken without a question; other colours are asked when two or more remain.

Seats are entered in order: three predators, the aqua cards if any, the food card. Checks a table
can make: at most the deck's copies of each predator in one round, each aqua card with one
seat, and each player's seven food cards (one of each value) played once each.
Decisions: docs/scoring.md.
"""

from shared_rules._compat import const
from shared_rules.aqua_brunch.rules import (
    AQUA_VALUES,
    CARDS,
    DECK_COUNTS,
    FOOD_NAMES,
    FOOD_VALUES,
    LABELS,
    strength,
    take_order,
)
from shared_rules.protocol import TABLE, TERMINAL, Game, leaders, tie_break_winners

AQUA = const(8)
FOOD = const(24)
LUNCH = const(31)
TAKE = const(38)
_END = const(45)
ROUNDS = const(6)
CHOICE = const(1)  # the rules setting of new scoreboards (the module's docstring)

# what the entry waits for
ENTRY = const(0)
ASK_LUNCH = const(1)
ASK_TAKE = const(2)
OVER = const(3)


def aqua_text(mask):
    vals = [str(AQUA_VALUES[i]) for i in range(4) if mask >> i & 1]
    return " ".join(vals) if vals else "none"


def choices(taker, cands, later):
    """The cards among ``cands`` (seats whose equal-valued food cards remain) that make a
    difference to the own-colour counts when ``taker`` takes one and ``later`` take the rest:
    the taker's own, each later taker's own, and one of the others (they are all alike)."""
    out = []
    rest = None
    for s in cands:
        if s == taker or s in later:
            out.append(s)
        elif rest is None:
            rest = s
    if rest is not None:
        out.append(rest)
    return out


class AquaScore(Game):
    game_id = "aqua_score"
    index = 5
    defaults = (4, 0)  # rules 0: a record without the setting was made by those rules
    seats = (3, 7, "Aqua Brunch")

    def _check(self, params):
        if params[1] > CHOICE:
            raise ValueError("Aqua Brunch scoreboard rules {} unknown (0 or 1)".format(
                params[1]))

    def _start(self):
        n = self.params[0]
        self.n = n
        self.round = 0
        self.points = [0] * n
        self.own = [0] * n  # food cards of one's own colour collected (the tie-break)
        self.played = [0] * n  # bit i: FOOD_VALUES[i] already played
        self.history = []  # per finished round: (strengths, foods, takes, lunch or -1)
        self._new_round()

    def _new_round(self):
        n = self.n
        self.seat = 0
        self.hands = [[] for _ in range(n)]
        self.aqua = [-1] * n  # -1 until entered
        self.food = [-1] * n
        self.lunch = -1
        self.picks = []  # colours chosen by TAKE actions, in order
        self.state = ENTRY if self.round < ROUNDS else OVER

    # ---- the entry ----------------------------------------------------------------------

    def step(self):
        """0..2 the predator card being entered, 3 the food card (or first the aqua cards)."""
        h = len(self.hands[self.seat])
        return h if h < 3 else 3

    def remaining(self, kind):
        """Copies of a predator not yet entered this round."""
        used = 0
        for h in self.hands:
            for k in h:
                if k == kind:
                    used += 1
        return DECK_COUNTS[kind] - used

    def likely_card(self):
        """The predator with the most copies left this round (the picker starts there)."""
        best = 0
        for k in range(len(CARDS)):
            if self.remaining(k) > self.remaining(best):
                best = k
        return best

    def aqua_taken(self):
        """The mask of aqua cards already given to other seats this round."""
        m = 0
        for s in range(self.n):
            if s != self.seat and self.aqua[s] > 0:
                m |= self.aqua[s]
        return m

    def foods_left(self, seat):
        """FOOD_VALUES indexes the seat has not played yet."""
        return [i for i in range(7) if not self.played[seat] >> i & 1]

    def strengths(self):
        """This round's strengths (None for a seat not complete yet)."""
        out = []
        for s in range(self.n):
            h = self.hands[s]
            if len(h) < 3:
                out.append(None)
            else:
                aq = [AQUA_VALUES[i] for i in range(4) if self.aqua[s] > 0 and
                      self.aqua[s] >> i & 1]
                out.append(strength([CARDS[k] for k in h], aq))
        return out

    def _foods(self):
        return [FOOD_VALUES[i] for i in self.food]

    def needs_lunch(self):
        """Two seats equally strong that placed equal food: the Lunch caller decides."""
        st = self.strengths()
        for a in range(self.n):
            for b in range(a + 1, self.n):
                if st[a] == st[b] and self.food[a] == self.food[b]:
                    return True
        return False

    def division(self):
        """``(takes, pending)``: takes = [(taker, value, colour seat)] so far in taking order;
        pending = (taker, value, candidate colours) when the table must say which colour."""
        st = self.strengths()
        foods = self._foods()
        order = take_order(st, foods, self.lunch if self.lunch >= 0 else 0)
        left = list(range(self.n))  # the food cards on the table, by the seat that placed it
        values = sorted(foods, reverse=True)
        takes = []
        picks = list(self.picks)
        for i in range(self.n):
            t = order[i]
            v = values[i]
            cands = [s for s in left if foods[s] == v]
            if self.params[1] == CHOICE:
                # the cards taken after this one from the same value go to the next takers
                opts = choices(t, cands, order[i + 1:i + len(cands)])
            else:
                opts = [t] if t in cands else cands  # the records' first rules
            if len(opts) == 1:
                c = opts[0]
            elif picks:
                c = picks.pop(0)
            else:
                return takes, (t, v, cands)
            left.remove(c)
            takes.append((t, v, c))
        return takes, None

    def default_take(self):
        """The card the question starts on: the taker's own colour when it is among them
        (what a player keeps for the tie-break), else the first."""
        t, _, cands = self.pending_take()
        return t if t in cands else cands[0]

    def pending_take(self):
        return self.division()[1] if self.state == ASK_TAKE else None

    def _settle(self):
        """All seats entered: ask what is needed, else score the round."""
        if self.lunch < 0 and self.needs_lunch():
            self.state = ASK_LUNCH
            return
        takes, pending = self.division()
        if pending is not None:
            self.state = ASK_TAKE
            return
        got = [0] * self.n
        for t, v, c in takes:
            self.points[t] += v
            got[t] = v
            if c == t:
                self.own[t] += 1
        for s in range(self.n):
            self.played[s] |= 1 << self.food[s]
        self.history.append((self.strengths(), self._foods(), got, self.lunch))
        self.round += 1
        self._new_round()

    # ---- the protocol -------------------------------------------------------------------

    def current_player(self):
        if self.state == OVER:
            return TERMINAL
        if self.state == ENTRY:
            return self.seat
        return TABLE

    def legal_actions(self):
        if self.state == OVER:
            return []
        if self.state == ASK_LUNCH:
            return [LUNCH + s for s in range(self.n)]
        if self.state == ASK_TAKE:
            return [TAKE + s for s in self.pending_take()[2]]
        if self.step() < 3:
            return [k for k in range(len(CARDS)) if self.remaining(k) > 0]
        out = [FOOD + i for i in self.foods_left(self.seat)]
        if self.aqua[self.seat] < 0:
            taken = self.aqua_taken()
            out += [AQUA + m for m in range(1, 16) if not m & taken]
        return out

    def _do(self, a):
        if type(a) is not int or a < 0 or a >= _END:
            raise ValueError("that is not an Aqua Brunch entry")
        if a not in self.legal_actions():
            raise ValueError(self._why(a))
        if self.state == ASK_LUNCH:
            self.lunch = a - LUNCH
            self._settle()
        elif self.state == ASK_TAKE:
            self.picks.append(a - TAKE)
            self._settle()
        elif a < AQUA:
            self.hands[self.seat].append(a)
        elif a < FOOD:
            self.aqua[self.seat] = a - AQUA
        else:
            self.food[self.seat] = a - FOOD
            if self.aqua[self.seat] < 0:
                self.aqua[self.seat] = 0
            if self.seat + 1 < self.n:
                self.seat += 1
            else:
                self._settle()

    def _why(self, a):
        if self.state == OVER:
            return "the six rounds are over"
        if self.state == ASK_LUNCH:
            return "first say who called Lunch"
        if self.state == ASK_TAKE:
            return "say whose food card is taken"
        step = self.step()
        if step < 3:
            if a < AQUA:
                return "all {} {} cards are in this round".format(DECK_COUNTS[a], LABELS[a])
            return "enter predator card {} first".format(step + 1)
        if AQUA <= a < FOOD:
            if self.aqua[self.seat] >= 0:
                return "the aqua cards are in: undo to change them"
            if a == AQUA:
                return "no aqua card is the default: enter the food card"
            return "aqua {} is with another player".format(aqua_text(
                (a - AQUA) & self.aqua_taken()))
        if FOOD <= a < LUNCH:
            return "{} was played in an earlier round".format(FOOD_NAMES[a - FOOD])
        return "enter the food card first"

    def winners(self):
        if self.state != OVER:
            return []
        return tie_break_winners(leaders(self.points), self.own)  # then own-colour cards

    def scores(self):
        return list(self.points)

    def describe(self, a):
        if a < AQUA:
            return LABELS[a]
        if a < FOOD:
            return "aqua " + aqua_text(a - AQUA)
        if a < LUNCH:
            return "food {} {}".format(FOOD_VALUES[a - FOOD], FOOD_NAMES[a - FOOD])[:18]
        if a < TAKE:
            return "Lunch: seat {}".format(a - LUNCH + 1)
        return "takes seat {}'s".format(a - TAKE + 1)
