"""Counter on the game protocol (``target`` 5-30, default 10). Seats 0 and 1 take turns; an
action is the number added, 1-3, and the total never passes the target: who reaches it wins.
Each seat's score is what it added."""

from shared_rules.protocol import TERMINAL, Game


class CounterGame(Game):
    game_id = "counter"
    index = 8  # its line's position in shared_rules/registry.py
    defaults = (10,)

    def _check(self, params):
        if not 5 <= params[0] <= 30:
            raise ValueError("Counter counts to 5..30")

    def _start(self):
        self.n = 2
        self.total = 0
        self.added = [0, 0]
        self.turn = 0

    def current_player(self):
        return TERMINAL if self.total >= self.params[0] else self.turn

    def legal_actions(self):
        if self.total >= self.params[0]:
            return []
        return list(range(1, min(3, self.params[0] - self.total) + 1))

    def _do(self, action):
        if action not in self.legal_actions():
            raise ValueError("add 1, 2 or 3, up to {}".format(self.params[0]))
        self.total += action
        self.added[self.turn] += action
        if self.total < self.params[0]:
            self.turn = 1 - self.turn

    def winners(self):
        return [self.turn] if self.total >= self.params[0] else []

    def scores(self):
        return list(self.added)

    def describe(self, action):
        return "add {}".format(action)
