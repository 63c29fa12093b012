"""Counter's screens: one list, "Add 1" to "Add 3", under whose turn it is and the total.
``open(app, payload)`` is what the loader calls (payload: the saved game to carry on)."""

from companion.screen.tally import TallyScreen, resumed
from shared_rules.counter.game import CounterGame


def open(app, payload=None):  # the game-module entry point name
    game = resumed(payload) if payload else CounterGame()
    app.push(CounterScreen(app, game))


class CounterScreen(TallyScreen):
    rules = CounterGame

    def view(self):
        g = self.game
        rows = [("Add {}".format(a), "={}".format(g.total + a), a) for a in g.legal_actions()]
        if g.is_terminal():
            return "Counted", str(g.total), [], 0
        return "{}'s turn".format(self.names()[g.turn]), str(g.total), rows, 0
