"""Space Battle Lunchtime on the game protocol (``players`` 2-5). The engine speaks tuples;
here each move is one int, and a serve, which names its dish and cards, is a sequence of ints
as OpenSpiel decomposes moves: SERVE, the dish's five flavour amounts (AMOUNT + 0..9), its
gold, silver and bronze points (POINTS + 0..99), the cards served (PICK + card code), DONE.
Only DONE reaches the engine, which then checks the whole serve (ValueError, nothing changed).

    0-14 deal, 15-29 steal, 30-44 buy, 45-59 take, 60-74 discard (+ card code 0..14:
    flavour index * 3 + quantity - 1); 75-78 judge reward steal/serve/upgrade/other; 79 skip;
    80-119 upgrade the dish at that place in the score pile; 120 flip the spatula to its
    bonus side; 121 flip it back for a judge reward; 122 end the turn; 123 SERVE;
    124-133 AMOUNT; 134-233 POINTS; 234-248 PICK; 249 DONE (listed only when the engine
    takes that serve); 250 CANCEL (leave the serve being entered).
"""

from shared_rules._compat import const
from shared_rules.protocol import EngineGame
from shared_rules.space_battle.rules import MAX_AMOUNT, MAX_POINTS, card_code, code_card

DEAL = const(0)
STEAL = const(15)
BUY = const(30)
TAKE = const(45)
DISCARD = const(60)
REWARD = const(75)
SKIP = const(79)
UPGRADE = const(80)
FLIP = const(120)
SPATULA = const(121)
END = const(122)
SERVE = const(123)
AMOUNT = const(124)
POINTS = const(134)
PICK = const(234)
DONE = const(249)
CANCEL = const(250)
_REWARDS = ("steal", "serve", "upgrade", "other")
_CARD_KINDS = ("deal", "steal", "buy", "take", "discard")
_SIMPLE = (("skip", SKIP), ("flip", FLIP), ("spatula", SPATULA), ("end", END))


def encode(t):
    k = t[0]
    for i in range(5):
        if k == _CARD_KINDS[i]:
            return 15 * i + card_code(t[1:])
    if k == "reward":
        return REWARD + _REWARDS.index(t[1])
    if k == "upgrade":
        return UPGRADE + t[1]
    for name, a in _SIMPLE:
        if k == name:
            return a
    raise ValueError("no protocol code for {!r}".format(t))


def decode(a):
    """A simple move's tuple (not the serve parts); ValueError for anything else."""
    if type(a) is int and 0 <= a < REWARD:
        return (_CARD_KINDS[a // 15],) + code_card(a % 15)
    if type(a) is int and REWARD <= a < SKIP:
        return ("reward", _REWARDS[a - REWARD])
    if type(a) is int and UPGRADE <= a < FLIP:
        return ("upgrade", a - UPGRADE)
    for name, code in _SIMPLE:
        if a == code:
            return (name,)
    raise ValueError("that is not a Space Battle move")


def card_text(code):
    f, q = code_card(code)
    return "{} {}".format(f, q)


class SpaceBattleGame(EngineGame):
    game_id = "space_battle"
    index = 3
    defaults = (2,)
    seats = (2, 5, "Space Battle Lunchtime")

    def _encode(self, t):
        return encode(t)

    def _start(self):
        from shared_rules.space_battle.engine import SpaceBattle

        self.engine = SpaceBattle(self.params[0])
        self.serving = None  # the parts of a serve being entered, or None

    # ---- the serve being entered ------------------------------------------------------------

    def _serve_parts(self):
        """(need, points, cards) entered so far."""
        s = self.serving
        return s[0:5], s[5:8], s[8:]

    def _serve_options(self):
        s = self.serving
        if len(s) < 5:
            return [AMOUNT + v for v in range(MAX_AMOUNT + 1)] + [CANCEL]
        if len(s) < 8:
            return [POINTS + v for v in range(MAX_POINTS + 1)] + [CANCEL]
        left = list(self.engine.hands[self.engine.cur])
        for c in s[8:]:
            left.remove(c)
        out = []
        for c in left:
            if PICK + c not in out:
                out.append(PICK + c)
        dish = [(s[0:5], s[5:8])]
        if len(s) > 8 and sum(s[0:5]) and self._serve_tuple() in self.engine.serve_actions(dish):
            out.append(DONE)
        out.append(CANCEL)
        return out

    def _serve_tuple(self):
        from shared_rules.space_battle.rules import need_vector

        s = self.serving
        cards = sorted(s[8:])
        return ("serve", need_vector(tuple(s[0:5])), tuple(s[5:8]),
                tuple(code_card(c) for c in cards))

    def _serve_open(self):
        e = self.engine
        from shared_rules.space_battle.engine import JSERVE, MAX_PILE, TURN

        return (e.phase == JSERVE or (e.phase == TURN and not e.acted)) and \
            e.served() < MAX_PILE and len(e.hands[e.cur]) > 0

    # ---- the protocol -----------------------------------------------------------------------

    def _do(self, action):
        if type(action) is not int:
            raise ValueError("that is not a Space Battle move")
        if self.serving is not None:
            if action == CANCEL:
                self.serving = None
                return None
            if action not in self._serve_options():
                raise ValueError(self._serve_why(action))
            if action != DONE:
                if action < POINTS:
                    self.serving.append(action - AMOUNT)
                elif action < PICK:
                    self.serving.append(action - POINTS)
                else:
                    self.serving.append(action - PICK)
                return None
            need, points, cards = self._serve_parts()
            self.engine.apply(("serve", tuple(need), tuple(points), [code_card(c) for c in cards]))
            self.serving = None
            return None
        if action == SERVE:
            if not self._serve_open():
                raise ValueError("no serve now (one main action a turn)")
            self.serving = []
            return None
        t = decode(action)
        if t not in self.engine.legal_actions():
            raise ValueError("not now: " + self.describe(action))
        self.engine.apply(t)
        return None

    def _serve_why(self, action):
        if action == DONE:
            return "pick the cards to serve first"
        if PICK <= action < DONE:
            return "that card is not in the hand"
        return "enter the dish: amounts, then points, then cards"

    def legal_actions(self):
        if self.serving is not None:
            return self._serve_options()
        out = [encode(t) for t in self.engine.legal_actions()]
        if self._serve_open():
            out.append(SERVE)
            out.sort()
        return out

    def describe(self, action):
        if action == SERVE:
            return "serve a dish"
        if action == DONE:
            return "serve it"
        if action == CANCEL:
            return "cancel the serve"
        if AMOUNT <= action < POINTS:
            return "needs {}".format(action - AMOUNT)
        if POINTS <= action < PICK:
            return "{} points".format(action - POINTS)
        if PICK <= action < DONE:
            return "with " + card_text(action - PICK)
        t = decode(action)
        if len(t) == 3:
            return "{} {} {}".format(t[0], t[1], t[2])
        if t[0] == "reward":
            return "judge: " + t[1]
        if t[0] == "upgrade":
            return "upgrade dish {}".format(t[1] + 1)
        return {"skip": "skip", "flip": "flip spatula", "spatula": "spatula reward",
                "end": "end turn"}[t[0]]
