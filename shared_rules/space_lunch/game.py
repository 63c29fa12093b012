"""Space Lunch on the game protocol: the solo game against the Automa (mode 0-3 = Easy..
Extreme) or the two-player game (mode 4, ``first`` = the seat that starts). The actions are the
engine's own one-byte codes (space_lunch_actions): 1-12 enter a card, then takes, coupons,
beverage actions; the engine is ``self.engine`` (a ``Solo`` or a ``Duel``)."""

from shared_rules._compat import const
from shared_rules.protocol import CHANCE, TERMINAL, Game
from shared_rules.space_lunch.actions import SHARED, decode, where
from shared_rules.space_lunch.actions import describe as _describe

MODE_DUEL = const(4)
_SHORT = ("Hot Drink", "Jelly", "Chill Jar")


class SpaceLunchGame(Game):
    game_id = "space_lunch"
    index = 0
    # mode (0-3 solo difficulty, 4 two players), first seat (two players), then four bytes
    # the rules never read: the seed of the device's deal (big-endian; 0: the cards are
    # typed), kept in the record so a dealt card comes up again after a power cut. A record
    # made before them (two parameters) replays with them at 0.
    defaults = (0, 0, 0, 0, 0, 0)

    def _check(self, params):
        if params[0] > MODE_DUEL:
            raise ValueError("Space Lunch mode is 0-3 (solo Easy..Extreme) or 4 (two players)")
        if params[1] > 1:
            raise ValueError("the first player is seat 0 or 1")

    def _start(self):
        if self.params[0] == MODE_DUEL:
            from shared_rules.space_lunch.duel import Duel

            self.engine = Duel(self.params[1])
        else:
            from shared_rules.space_lunch.rules import Solo

            self.engine = Solo(self.params[0])

    def solo(self):
        return self.params[0] != MODE_DUEL

    def _do(self, action):
        self.engine.apply(action)

    def current_player(self):
        e = self.engine
        if e.is_over():
            return TERMINAL
        if e.pending:
            return CHANCE
        return e.turn

    def legal_actions(self):
        return self.engine.legal_actions()

    def chance_outcomes(self):
        e = self.engine
        if e.is_over() or not e.pending:
            return []
        if e.bottom and e.deck == len(e.bottom):
            return [(e.bottom[0], 1)]  # the card put under the deck comes up now
        return [(t, 3 - e.known(t)) for t in e.refills()]

    def winners(self):
        w = self.engine.winner
        if w is None:
            return []
        return [0, 1] if w == SHARED else [w]

    def scores(self):
        """Pairs held by each seat (what the Automa needs; a triplet counts as one)."""
        e = self.engine
        return [e.pairs(0) + e.triplets(0), e.pairs(1) + e.triplets(1)]

    def describe(self, action):
        kind, a, _b, _paid = decode(action)
        if kind == "card":
            return "card {} to {}".format(a, where(self.engine.pending[0])) \
                if self.engine.pending else "card {}".format(a)
        if kind == "automa":
            c = self.engine.automa_cell() if hasattr(self.engine, "automa_cell") else -1
            return "Automa takes" if c < 0 else "Automa " + where(c)
        if kind == "return":
            return "return " + _SHORT[a]
        return _describe(action)  # a take or a coupon: the engine's own words
