"""Aqua Brunch on the game protocol (``players`` 3-7). The engine (aqua_brunch_engine) speaks
tuples; here every move is one int in its own range, so a record needs a byte an action:

    0-7   a predator card dealt (CARDS index)       chance
    8-15  pass that predator to the left            the passing seat
    16-22 Lunch called by seat 0-6                  the table
    23    nobody calls Lunch: pass again            the table
    24    "Aqua!": the asked seat draws             the asked seat
    25    no aqua card                              the asked seat
    26-29 the aqua card drawn (AQUA_VALUES index)   chance
    30-36 food card played (FOOD_VALUES index)      each seat
    37-43 take the food of that colour (seat)       the taker
"""

from shared_rules._compat import const
from shared_rules.aqua_brunch.rules import AQUA_VALUES, CARDS, FOOD_VALUES
from shared_rules.aqua_brunch.rules import LABELS as _LABELS
from shared_rules.protocol import EngineGame

DEAL = const(0)
PASS = const(8)
LUNCH = const(16)
AGAIN = const(23)
AQUA = const(24)
STOP = const(25)
DRAW = const(26)
FOOD = const(30)
TAKE = const(37)
_END = const(44)


def encode(t):
    """The engine's tuple -> the protocol int."""
    k = t[0]
    if k == "card":
        return DEAL + CARDS.index(t[1])
    if k == "pass":
        return PASS + CARDS.index(t[1])
    if k == "lunch":
        return LUNCH + t[1]
    if k == "again":
        return AGAIN
    if k == "stop":
        return STOP
    if k == "aqua":
        return AQUA if len(t) == 1 else DRAW + AQUA_VALUES.index(t[1])
    if k == "food":
        return FOOD + FOOD_VALUES.index(t[1])
    return TAKE + t[1]


def decode(a):
    """The protocol int -> the engine's tuple; ValueError for a number no move has."""
    if type(a) is not int or a < 0 or a >= _END:
        raise ValueError("no Aqua Brunch move {!r}".format(a))
    if a < PASS:
        return ("card", CARDS[a])
    if a < LUNCH:
        return ("pass", CARDS[a - PASS])
    if a < AGAIN:
        return ("lunch", a - LUNCH)
    if a == AGAIN:
        return ("again",)
    if a == AQUA:
        return ("aqua",)
    if a == STOP:
        return ("stop",)
    if a < FOOD:
        return ("aqua", AQUA_VALUES[a - DRAW])
    if a < TAKE:
        return ("food", FOOD_VALUES[a - FOOD])
    return ("take", a - TAKE)


class AquaBrunchGame(EngineGame):
    game_id = "aqua_brunch"
    index = 2
    defaults = (3,)
    seats = (3, 7, "Aqua Brunch")

    def _encode(self, t):
        return encode(t)

    def _start(self):
        from shared_rules.aqua_brunch.engine import AquaBrunch

        self.engine = AquaBrunch(self.params[0])

    def _do(self, action):
        try:
            t = decode(action)
        except ValueError:
            raise ValueError("that is not a move in this game") from None
        if t not in self.engine.legal_actions():
            raise ValueError(self._why(t))
        self.engine.apply(t)

    def _why(self, t):
        k = t[0]
        if k == "pass":
            return "that seat holds no " + _LABELS[CARDS.index(t[1])]
        if k == "food":
            return "that food card is not in the hand (played already?)"
        if k == "card":
            return "no {} left in the deck".format(_LABELS[CARDS.index(t[1])])
        if k == "take":
            return "that colour is not among the best food left"
        return "not now: " + self.describe(encode(t))

    def describe(self, action):
        t = decode(action)
        k = t[0]
        if k == "card":
            return "deal " + _LABELS[action - DEAL]
        if k == "pass":
            return "pass " + _LABELS[action - PASS]
        if k == "lunch":
            return "Lunch! by P{}".format(t[1] + 1)
        if k == "again":
            return "no Lunch: pass"
        if k == "stop":
            return "no aqua"
        if k == "aqua":
            return "Aqua!" if len(t) == 1 else "aqua card {}".format(t[1])
        if k == "food":
            return "food {}".format(t[1])
        return "take P{} colour".format(t[1] + 1)
