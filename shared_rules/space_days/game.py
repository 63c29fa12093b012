"""Space Days on the game protocol (``players`` 2-7, ``first`` seat, ``start_hand`` cards
dealt at the start). The engine's 6-field action ``(op, kind, board, day, i, j)`` packs into one
int, the fields most often used in the low bits so a draw or a card takes one or two bytes:

    a = op + 8 * (kind + 32 * (board + 8 * (day + 8 * (i + 16 * j))))
"""

from shared_rules.protocol import EngineGame
from shared_rules.space_days.cards import CARDS, DAYS, KINDS, MAX_PLAYERS, MIN_PLAYERS
from shared_rules.space_days.legal import CARD, DRAW, OPS, PASS, REPLY


def encode(t):
    op, kind, b, day, i, j = t
    if i > 15 or j > 15:
        raise ValueError("a stack position over 15")  # seven days of a few cards never get here
    return op + 8 * (kind + 32 * (b + 8 * (day + 8 * (i + 16 * j))))


def decode(a):
    if type(a) is not int or a < 0:
        raise ValueError("no Space Days move {!r}".format(a))
    op = a & 7
    a >>= 3
    kind = a & 31
    a >>= 5
    b = a & 7
    a >>= 3
    day = a & 7
    a >>= 3
    i = a & 15
    j = a >> 4
    if op >= len(OPS) or kind >= KINDS or day >= 7 or j > 15:
        raise ValueError("that is not a Space Days move")
    return (op, kind, b, day, i, j)


def card_name(kind):
    return CARDS[kind][0].replace("_", " ")


class SpaceDaysGame(EngineGame):
    game_id = "space_days"
    index = 4
    defaults = (2, 0, 0)  # players, first seat, start hand
    seats = (MIN_PLAYERS, MAX_PLAYERS, "Space Days")

    def _encode(self, t):
        return encode(t)

    def _check(self, params):
        if params[1] >= params[0]:
            raise ValueError("the first player must be one of the seats")

    def _start(self):
        from shared_rules.space_days.rules import SpaceDays

        p = self.params
        self.engine = SpaceDays(p[0], p[1], start_hand=p[2])

    def _do(self, action):
        t = decode(action)
        self.engine.apply(t)  # ValueError with the rule's reason, nothing changed

    def describe(self, action):
        op, kind, b, day, i, j = decode(action)
        if op == DRAW or op == PASS:
            return OPS[op]
        if op == CARD:
            return "card " + card_name(kind)[:13]
        d = DAYS[day][:3]
        if op == REPLY:
            return "web reply {} {}/{}".format(d, i, j)
        tail = " P{} {}".format(b + 1, d)
        return card_name(kind)[:18 - len(tail)] + tail
