"""Aqua Brunch game engine: 3-7 players, 6 rounds (rulebook + docs/rules-decisions.md).

Screens, saves, records and undo go through the protocol class (aqua_brunch_game, via
``games.new("aqua_brunch", players)``), which turns each move into one int and keeps the log.
This engine holds the current state: ``legal_actions()``, ``apply(action)`` (ValueError on an
illegal action, state unchanged), ``is_over()``, ``scores()``, ``winners()``, and its state
as bytes, ``to_bytes()`` (read back and checked by aqua_brunch_check, for the tests: the device
never needs it). Its actions are small tuples:

- chance (``current_player() == CHANCE``): ``("card", name)`` deals the next predator card
  (round-robin from seat 0, the third card of each player face down); ``("aqua", value)`` is
  the aqua card the asked player draws. ``chance_outcomes()`` gives the weights, and
  ``sample_chance(rng)`` picks one, so the device can deal or the table can type real cards in.
- seat ``current_player()`` passing: ``("pass", name)``, one card to the player on the left.
- the table (``current_player() == TABLE``) after each pass: ``("lunch", seat)`` or
  ``("again",)`` (nobody calls Lunch, pass again).
- after a Lunch, each other seat from the caller's left in turn: ``("aqua",)`` (draw an aqua card
  and play on) or ``("stop",)``. The first "Aqua!" ends the asking.
- phase 2, seats in order: ``("food", value)``; phase 3, a taker facing equal-valued cards of
  several colours: ``("take", colour)`` (colour = the seat that owned the food cards).
"""

from shared_rules._codec import checksum
from shared_rules._compat import const
from shared_rules.aqua_brunch.rules import (
    AQUA_VALUES,
    CARDS,
    DECK_COUNTS,
    FOOD_VALUES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    card_index,
    strength,
    take_order,
)
from shared_rules.protocol import CHANCE, TABLE, TERMINAL, leaders, tie_break_winners

VERSION = const(1)
ROUNDS = const(6)

# Phases (stored in to_bytes, read by aqua_brunch_check).
DEAL = const(0)
PASS = const(1)
LUNCH = const(2)
ASK = const(3)
DRAW = const(4)
FOOD = const(5)
TAKE = const(6)
OVER = const(7)
_NONE = const(255)
_ALL_AQUA = const(15)
_ALL_FOOD = const(127)
_KINDS = const(8)


class AquaBrunch:
    """The whole table's state; the device sees every card the players enter."""

    def __init__(self, players=3):
        if type(players) is not int or players < MIN_PLAYERS or players > MAX_PLAYERS:
            raise ValueError("Aqua Brunch is for 3 to 7 players, got {!r}".format(players))
        self.n = players
        self.round = 0  # 0..5
        self.phase = DEAL
        self.deck = list(DECK_COUNTS)
        self.discard = [0] * _KINDS
        self.hands = [[] for _ in range(players)]  # sorted kind indices
        self.passing = [_NONE] * players  # kind passed this pass, not yet received
        self.dealt = 0  # cards dealt this round
        self.lunch = _NONE  # the seat whose Lunch call is current
        self.ask = _NONE  # ASK: the seat asked; DRAW: the seat drawing
        self.aqua_left = _ALL_AQUA  # bit i: AQUA_VALUES[i] still in the stack
        self.aqua = [0] * players  # bit masks of aqua cards drawn this round
        self.food = [_ALL_FOOD] * players  # bit i: FOOD_VALUES[i] of own colour in hand
        self.played = [_NONE] * players  # food index placed this round
        self.taken = [[] for _ in range(players)]  # colour * 7 + food index, collected
        self.take_pos = 0

    # ---- queries ---------------------------------------------------------------------------

    def current_player(self):
        p = self.phase
        if p == DEAL or p == DRAW:
            return CHANCE
        if p == LUNCH:
            return TABLE
        if p == PASS:
            return self.passing.index(_NONE)
        if p == ASK:
            return self.ask
        if p == FOOD:
            return self.played.index(_NONE)
        if p == TAKE:
            return self._order()[self.take_pos]
        return TERMINAL

    def is_over(self):
        return self.phase == OVER

    def is_chance(self):
        return self.phase == DEAL or self.phase == DRAW

    def hand(self, seat):
        return [CARDS[k] for k in self.hands[seat]]

    def aqua_cards(self, seat):
        return [AQUA_VALUES[i] for i in range(4) if self.aqua[seat] >> i & 1]

    def food_hand(self, seat):
        return [FOOD_VALUES[i] for i in range(7) if self.food[seat] >> i & 1]

    def strengths(self):
        """Each seat's strength with its aqua cards (meaningful from phase 2 on)."""
        return [strength(self.hand(s), self.aqua_cards(s)) for s in range(self.n)]

    def collected(self, seat):
        """``(colour, value)`` of the food cards the seat has won."""
        return [(t // 7, FOOD_VALUES[t % 7]) for t in self.taken[seat]]

    def scores(self):
        return [sum(FOOD_VALUES[t % 7] for t in self.taken[s]) for s in range(self.n)]

    def own_colour(self, seat):
        return sum(1 for t in self.taken[seat] if t // 7 == seat)

    def winners(self):
        """Seats with the most points, then the most cards of their own colour (a shared
        victory if still tied). Only meaningful once ``is_over()``."""
        own = [self.own_colour(s) for s in range(self.n)]
        return tie_break_winners(leaders(self.scores()), own)

    def _order(self):
        foods = [FOOD_VALUES[self.played[s]] for s in range(self.n)]
        return take_order(self.strengths(), foods, self.lunch)

    def _table(self):
        """The food cards still on the table in TAKE, as colour * 7 + index."""
        order = self._order()
        done = [self.taken[order[i]][-1] for i in range(self.take_pos)]
        return [s * 7 + self.played[s] for s in range(self.n) if s * 7 + self.played[s] not in done]

    def chance_outcomes(self):
        """``[(action, weight)]``: the card or aqua value drawn, weighted by copies left."""
        if self.phase == DEAL:
            return [(("card", CARDS[k]), self.deck[k]) for k in range(_KINDS) if self.deck[k]]
        if self.phase == DRAW:
            return [(("aqua", AQUA_VALUES[i]), 1) for i in range(4) if self.aqua_left >> i & 1]
        return []

    def sample_chance(self, rng):
        """A chance action drawn with the project's PRNG (``rng.Rng``)."""
        outs = self.chance_outcomes()
        if not outs:
            raise ValueError("no chance event is pending")
        return rng.weighted(outs)

    def legal_actions(self):
        p = self.phase
        if p == DEAL or p == DRAW:
            return [a for a, _ in self.chance_outcomes()]
        if p == PASS:
            seat = self.passing.index(_NONE)
            out = []
            for k in self.hands[seat]:
                a = ("pass", CARDS[k])
                if a not in out:
                    out.append(a)
            return out
        if p == LUNCH:
            return [("lunch", s) for s in range(self.n)] + [("again",)]
        if p == ASK:
            return [("aqua",), ("stop",)]
        if p == FOOD:
            return [("food", v) for v in self.food_hand(self.played.index(_NONE))]
        if p == TAKE:
            return [("take", c) for c in self._choices()]
        return []

    def _choices(self):
        table = self._table()
        top = max(t % 7 for t in table)
        return [t // 7 for t in table if t % 7 == top]

    # ---- moves -----------------------------------------------------------------------------

    def apply(self, action):
        if isinstance(action, list):
            action = tuple(action)
        # Exact types only: True or 2.0 would otherwise compare equal to a legal 1 or 2.
        if not isinstance(action, tuple) or any(type(x) is not int and type(x) is not str
                                                for x in action):
            raise ValueError("illegal action {!r}".format(action))
        if action not in self.legal_actions():
            raise ValueError("illegal action {!r} in this state".format(action))
        kind = action[0]
        if kind == "card":
            self._deal(card_index(action[1]))
        elif kind == "pass":
            self._pass(card_index(action[1]))
        elif kind == "again":
            self.phase = PASS
        elif kind == "lunch":
            self.lunch = action[1]
            if self.aqua_left:
                self.phase = ASK
                self.ask = (self.lunch + 1) % self.n
            else:  # no aqua card left when Lunch is called: phase 1 ends
                self.phase = FOOD
        elif kind == "stop":
            self.ask = (self.ask + 1) % self.n
            if self.ask == self.lunch:  # nobody said Aqua
                self.ask = _NONE
                self.phase = FOOD
        elif kind == "aqua" and len(action) == 1:
            self.phase = DRAW
        elif kind == "aqua":
            bit = 1 << AQUA_VALUES.index(action[1])
            self.aqua_left &= ~bit
            self.aqua[self.ask] |= bit
            self.ask = _NONE
            self.phase = PASS
        elif kind == "food":
            seat = self.played.index(_NONE)
            i = FOOD_VALUES.index(action[1])
            self.food[seat] &= ~(1 << i)
            self.played[seat] = i
            if _NONE not in self.played:
                self.phase = TAKE
                self.take_pos = 0
                self._settle()
        else:  # take
            self._take(action[1])
            self._settle()

    def _deal(self, k):
        self.deck[k] -= 1
        seat = self.dealt % self.n
        self.hands[seat].append(k)
        self.hands[seat].sort()
        self.dealt += 1
        self._refill()
        if self.dealt == 3 * self.n:
            self.phase = PASS

    def _refill(self):
        # The deck ran out: the discard pile is shuffled into a new deck (the shuffle itself
        # is the uniform draw of each later chance action).
        if sum(self.deck) == 0:
            self.deck = self.discard
            self.discard = [0] * _KINDS

    def _pass(self, k):
        seat = self.passing.index(_NONE)
        self.hands[seat].remove(k)
        self.passing[seat] = k
        if _NONE in self.passing:
            return
        for s in range(self.n):
            left = (s + 1) % self.n
            self.hands[left].append(self.passing[s])
            self.hands[left].sort()
        self.passing = [_NONE] * self.n
        self.phase = LUNCH

    def _take(self, colour):
        seat = self._order()[self.take_pos]
        table = self._table()
        top = max(t % 7 for t in table)
        self.taken[seat].append(colour * 7 + top)
        self.take_pos += 1

    def _settle(self):
        """Take automatically while there is no real choice; end the round after the last."""
        while self.take_pos < self.n:
            ch = self._choices()
            if len(ch) > 1:
                return
            self._take(ch[0])
        # Round end: predators to the discard pile, aqua cards reshuffled into the stack.
        for s in range(self.n):
            for k in self.hands[s]:
                self.discard[k] += 1
            self.hands[s] = []
        self.played = [_NONE] * self.n
        self.aqua = [0] * self.n
        self.aqua_left = _ALL_AQUA
        self.lunch = _NONE
        self.take_pos = 0
        self.dealt = 0
        self.round += 1
        if self.round == ROUNDS:
            self.round = ROUNDS - 1
            self.phase = OVER
            self.food = [0] * self.n  # each player's unused food card is discarded
        else:
            self.phase = DEAL
            self._refill()

    # ---- the state as bytes (read back by aqua_brunch_check.from_bytes) ----------------------

    def to_bytes(self):
        n = self.n
        b = [VERSION, n, self.round, self.phase, self.dealt, self.lunch, self.ask,
             self.aqua_left, self.take_pos] + self.deck + self.discard
        pad = [_NONE] * ROUNDS
        for s in range(n):
            h = self.hands[s]
            t = self.taken[s]
            b += h
            b += pad[:3 - len(h)]
            b += [self.passing[s], self.aqua[s], self.food[s], self.played[s], len(t)]
            b += t
            b += pad[:ROUNDS - len(t)]
        b = bytes(b)
        return b + checksum(b)
