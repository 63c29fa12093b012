"""Space Battle Lunchtime score race: 2-5 players, race to 21, equal turns, 7-card hand limit.

The engine tracks what decides the race: each hand (the players enter the cards they take),
each score pile, the spatulas and the turn order. The dish display and the larder stay on the
table: a serve names its dish (requirement and points), a steal or take names the card taken.
Seats are numbered clockwise from the start player. Screens, saves, records and undo go through
the protocol class (space_battle_game, via ``games.new("space_battle", players)``), which turns
each move into ints (a serve into a sequence of them) and keeps the log; this engine holds the
current state, and its state as bytes, ``to_bytes()`` (read back and checked by
space_battle_check, for the tests: the device never needs it). Its actions are tuples:

- setup (``current_player() == CHANCE``): ``("deal", flavor, qty)``, two starting cards each,
  dealt round-robin from seat 0.
- the player's one main action: ``("steal", flavor, qty)`` (larder or deck);
  ``("buy", flavor, qty)`` (discard that card, then take ``qty`` cards from the larder, each
  ``("take", flavor, qty)``); or ``("serve", need, points, cards)`` with ``need`` a
  ``{flavor: amount}`` or 5-tuple (FLAVORS order), ``points`` (gold, silver, bronze) and
  ``cards`` the (flavor, qty) cards served. ``legal_actions(dishes)`` lists the serves for the
  dishes given (the display), since the engine cannot know them.
- after a gold serve: ``("reward", kind)`` with kind ``steal`` (take one larder card),
  ``serve`` (serve another dish now), ``upgrade`` (then ``("upgrade", i)``: a dish of the score
  pile goes up one level) or ``other`` (a judge ability the engine does not track); or
  ``("skip",)``.
- any time in one's turn: ``("flip",)`` the spatula to its bonus side after serving the chef's
  favourite flavour in a dish that needs it, or ``("spatula",)`` to flip it back for a judge
  reward; at most one flip a turn.
- the end of the turn: ``("discard", flavor, qty)`` while over 7 cards, then ``("end",)``.
"""

from shared_rules._codec import checksum
from shared_rules._compat import const
from shared_rules.protocol import CHANCE, TERMINAL
from shared_rules.space_battle.rules import (
    MAX_HAND,
    _level,
    best_serve,
    card_code,
    code_card,
    dish_entry,
    flavor_index,
    need_vector,
)

VERSION = const(1)
TARGET = const(21)
# Cards held mid-turn: 7, a buy with a 3-quantity card (one out, three in: 9), a spatula
# steal (10). best_serve's limit is the same.
MAX_HELD = const(10)
MAX_PILE = const(40)  # there are 40 dish cards

# Phases (stored in to_bytes, read by space_battle_check).
SETUP = const(0)
TURN = const(1)
TAKE = const(2)  # taking cards from the larder (a buy, or a judge's steal)
JUDGE = const(3)  # choosing a judge reward
JSERVE = const(4)  # the judge's "serve a dish": serve now or skip
UPGRADE = const(5)
OVER = const(6)
_NONE = const(255)
_REWARDS = ("steal", "serve", "upgrade", "other")


def _card_action(kind, code):
    c = code_card(code)
    return (kind, c[0], c[1])


class SpaceBattle:
    def __init__(self, players=2, favorites=None):
        if type(players) is not int or players < 2 or players > 5:
            raise ValueError("Space Battle Lunchtime is for 2 to 5 players, got {!r}".format(
                players))
        if favorites is None:
            favorites = [None] * players
        if not isinstance(favorites, (list, tuple)) or len(favorites) != players:
            raise ValueError("favorites needs one flavor (or None) per player, got {!r}".format(
                favorites))
        self.n = players
        # the chef's favourite flavour index per seat (None: not entered, no spatula bonus)
        self.favorite = [_NONE if f is None else flavor_index(f) for f in favorites]
        self.phase = SETUP
        self.cur = 0
        self.dealt = 0
        self.hands = [[] for _ in range(players)]  # sorted card codes
        self.piles = [[] for _ in range(players)]  # (gold, silver, bronze, level) per dish
        self.turns = [0] * players
        self.spatula = [0] * players  # 0 spatula side, 1 bonus side
        self.acted = False  # the turn's main action is done
        self.flipped = False  # the spatula was flipped this turn
        self.may_flip = False  # the favourite was served this turn
        self.pending = 0  # cards still to take in TAKE

    # ---- queries ---------------------------------------------------------------------------

    def current_player(self):
        if self.phase == SETUP:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.cur

    def is_over(self):
        return self.phase == OVER

    def is_chance(self):
        return self.phase == SETUP

    def hand(self, seat):
        return [code_card(c) for c in self.hands[seat]]

    def served(self):
        return sum(len(p) for p in self.piles)

    def scores(self):
        return [sum(d[d[3]] for d in self.piles[s]) for s in range(self.n)]

    def flavor_total(self, seat):
        """The sum of the quantities in the seat's hand (the tie-break)."""
        return sum(c % 3 + 1 for c in self.hands[seat])

    def winners(self):
        """Most points; then most flavour in hand; still tied, a shared win."""
        sc = self.scores()
        top = [s for s in range(self.n) if sc[s] == max(sc)]
        most = max(self.flavor_total(s) for s in top)
        return [s for s in top if self.flavor_total(s) == most]

    def chance_outcomes(self):
        """The flavour deck's make-up is not in the rulebook: every card counts as equally
        likely, and the players normally type the cards they were dealt."""
        if self.phase != SETUP:
            return []
        return [(_card_action("deal", c), 1) for c in range(15)]

    def sample_chance(self, rng):
        outs = self.chance_outcomes()
        if not outs:
            raise ValueError("no chance event is pending")
        return outs[rng.randbelow(len(outs))][0]

    def serve_actions(self, dishes):
        """The serve actions the current hand allows for the dishes given (display entries
        ``(requirement, (gold, silver, bronze))`` or None)."""
        if self.phase not in (TURN, JSERVE) or (self.phase == TURN and self.acted):
            return []
        if self.served() >= MAX_PILE:  # all 40 dish cards are in score piles
            return []
        hand = self.hands[self.cur]
        options, _ = best_serve([code_card(c) for c in hand], dishes)
        out = []
        for o in options:
            need, points = dish_entry(dishes[o.dish])
            a = ("serve", need, points, tuple(code_card(hand[i]) for i in o.cards))
            if a not in out:
                out.append(a)
        return out

    def legal_actions(self, dishes=()):
        p = self.phase
        if p == SETUP:
            return [a for a, _ in self.chance_outcomes()]
        if p == OVER:
            return []
        hand = self.hands[self.cur]
        out = []
        if p == TAKE:
            if len(hand) < MAX_HELD:
                out = [_card_action("take", c) for c in range(15)]
            return out or [("skip",)]
        if p == JUDGE:
            out = [("reward", "steal"), ("reward", "serve")]
            if any(d[3] > 0 for d in self.piles[self.cur]):
                out.append(("reward", "upgrade"))
            return out + [("reward", "other"), ("skip",)]
        if p == UPGRADE:
            return [("upgrade", i) for i in range(len(self.piles[self.cur]))
                    if self.piles[self.cur][i][3] > 0]
        if p == JSERVE:
            return self.serve_actions(dishes) + [("skip",)]
        # TURN
        if not self.acted:
            if len(hand) < MAX_HELD:
                out = [_card_action("steal", c) for c in range(15)]
            for c in hand:
                a = _card_action("buy", c)
                if a not in out:
                    out.append(a)
            out += self.serve_actions(dishes)
        if not self.flipped:
            if self.spatula[self.cur]:
                out.append(("spatula",))
            elif self.may_flip:
                out.append(("flip",))
        if self.acted:
            if len(hand) > MAX_HAND:
                for c in hand:
                    a = _card_action("discard", c)
                    if a not in out:
                        out.append(a)
            else:
                out.append(("end",))
        return out

    # ---- moves -----------------------------------------------------------------------------

    def apply(self, action):
        a = self._normal(action)
        if a[0] == "serve":
            if a not in self.serve_actions([(a[1], a[2])]):
                raise ValueError("cannot serve {!r} now".format(action))
        elif a not in self.legal_actions():
            raise ValueError("illegal action {!r} in this state".format(action))
        kind = a[0]
        seat = self.cur
        hand = self.hands[seat]
        if kind == "deal":
            s = self.dealt % self.n
            self._add(s, card_code(a[1:]))
            self.dealt += 1
            if self.dealt == 2 * self.n:
                self.phase = TURN
        elif kind == "steal":
            self._add(seat, card_code(a[1:]))
            self.acted = True
        elif kind == "buy":
            hand.remove(card_code(a[1:]))
            self.acted = True
            self.phase = TAKE
            self.pending = a[2]
        elif kind == "take":
            self._add(seat, card_code(a[1:]))
            self._took()
        elif kind == "serve":
            self._serve(seat, a)
        elif kind == "reward":
            r = a[1]
            if r == "steal":
                self.phase = TAKE
                self.pending = 1
            elif r == "serve":
                self.phase = JSERVE
            elif r == "upgrade":
                self.phase = UPGRADE
            else:
                self.phase = TURN
        elif kind == "upgrade":
            d = self.piles[seat][a[1]]
            self.piles[seat][a[1]] = (d[0], d[1], d[2], d[3] - 1)
            self.phase = TURN
        elif kind == "skip":
            if self.phase == TAKE:
                self._took(all_=True)
            else:
                self.phase = TURN
        elif kind == "flip":
            self.spatula[seat] = 1
            self.flipped = True
        elif kind == "spatula":
            self.spatula[seat] = 0
            self.flipped = True
            self.phase = JUDGE
        elif kind == "discard":
            hand.remove(card_code(a[1:]))
        else:  # end
            self._end_turn()

    def _normal(self, action):
        """The action as the engine lists it; ValueError for anything malformed."""
        if isinstance(action, list):
            action = tuple(action)
        if not isinstance(action, tuple) or not action or type(action[0]) is not str:
            raise ValueError("illegal action {!r}".format(action))
        if action[0] == "serve":
            if len(action) != 4 or not isinstance(action[3], (list, tuple)):
                raise ValueError("a serve is ('serve', need, points, cards), got {!r}".format(
                    action))
            need, points = dish_entry((action[1], action[2]))
            codes = sorted(card_code(c) for c in action[3])
            return ("serve", need_vector(need), points, tuple(code_card(c) for c in codes))
        for x in action:
            if type(x) is not int and type(x) is not str:
                raise ValueError("illegal action {!r}".format(action))
        return action

    def _add(self, seat, code):
        self.hands[seat].append(code)
        self.hands[seat].sort()

    def _took(self, all_=False):
        self.pending = 0 if all_ else self.pending - 1
        if self.pending == 0:
            self.phase = TURN

    def _serve(self, seat, a):
        need, points, cards = a[1], a[2], a[3]
        have = [0] * 5
        for c in cards:
            code = card_code(c)
            self.hands[seat].remove(code)
            have[code // 3] += c[1]
        lv = _level(need, have)
        self.piles[seat].append((points[0], points[1], points[2], lv))
        fav = self.favorite[seat]
        if fav != _NONE and need[fav] and have[fav]:
            self.may_flip = True
        if self.phase == TURN:
            self.acted = True
        self.phase = JUDGE if lv == 0 else TURN

    def _end_turn(self):
        self.turns[self.cur] += 1
        self.acted = self.flipped = self.may_flip = False
        self.cur = (self.cur + 1) % self.n
        # Everyone has had as many turns as the start player: the race may be over (or the
        # 40 dishes are all served, so nobody could score again).
        if self.cur == 0 and (max(self.scores()) >= TARGET or self.served() >= MAX_PILE):
            self.phase = OVER

    # ---- the state as bytes (read back by space_battle_check.from_bytes) ---------------------

    def to_bytes(self):
        flags = (1 if self.acted else 0) | (2 if self.flipped else 0) | (4 if self.may_flip
                                                                          else 0)
        b = [VERSION, self.n, self.phase, self.cur, self.dealt, flags, self.pending]
        for s in range(self.n):
            t = self.turns[s]
            b += [t >> 8, t & 255, self.favorite[s], self.spatula[s], len(self.hands[s])]
            b += self.hands[s]
            b.append(len(self.piles[s]))
            for d in self.piles[s]:
                b += d
        b = bytes(b)
        return b + checksum(b)
