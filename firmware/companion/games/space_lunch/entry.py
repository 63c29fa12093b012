"""Space Lunch on the device: the entry point, the new-game list (difficulty or two players,
the Hints and Cards switches, the same two as in Settings) and "Who starts?".

One screen shows the whole table: the grid by food with the Pick and Solo tokens, the
Automa's next card framed, both sides' sets against what they need, the deck and coupons, a
top line saying what to do and a bottom line with the hint. What the buttons do follows the
game's state (docs/space-lunch.md, "On the device"):

- a card to enter (the opening nine, every refill): prev/next turn the food wheel, OK enters;
- the human's turn: prev/next move a cursor over the cards that may be taken (and a "coupon"
  stop), OK takes; on the coupon stop OK lets prev/next choose the action, then the same
  cursor picks its card(s); Back steps out of a coupon;
- the Automa's turn: its card is framed; after moving it the player enters the refill on the
  same screen, so one OK does both (just OK when the deck is empty).
A long Back (or the fifth button) undoes one step at a time (GameScreen).
"""

from companion.screen.screens import ListScreen
from shared_rules import games
from shared_rules.space_lunch.actions import DIFFICULTIES

from .view import seed_of, seed_params  # noqa: F401 (the deal seed; kept here for callers)

GAME_ID = "space_lunch"
MODE_DUEL = 4
WHO = "companion.games.space_lunch.who"
DEAL_SEED = [None]  # tests set the seed of the next dealt game; the device uses os.urandom


def open(app, payload=None):  # the game-module entry point name (shadows open())
    # the hints' module first, while the heap is emptiest: compiling it on the Pico needs
    # ~29 KB free for a moment, more than is left once the game is on screen
    # (bench/firmware_memory.py); a saved game of two players has no hints: not loaded
    game = None if payload is None else games.from_bytes(payload)  # ValueError: the menu says
    if game is None or game.solo():
        import shared_rules.space_lunch.hints  # noqa: F401
    if game is None:
        app.push(SetupScreen(app))
        return
    if not game.actions():
        again(app, game)
        return
    app.push(screen_for(app, game))
    _let_go()


def again(app, game):
    """A game with no move yet (no save is one: GameScreen saves after a move) is "New game"
    at an end: the same difficulty with a new deal; two players say again who starts (the
    rulebook's question, asked each game)."""
    if game.solo():
        start(app, new(app, game.params[0]))
    else:
        who_starts(app)


def who_starts(app):
    """Two players: "Who starts?" (who.py, loaded only while that list is open)."""
    from .who import FirstPlayer

    app.push(FirstPlayer(app, lambda seat: start(app, new(app, MODE_DUEL, seat))))


def start(app, game):
    """The new-game lists give way to ``game``'s screen: they leave the stack first, and the
    screen is built once this press is handled (app.later), when nothing refers to the lists
    any more, so the heap they held is free for it (the screen's modules are imported then
    too: on a Pico the two together do not fit beside the lists)."""

    def build():
        app.push(screen_for(app, game))
        _let_go()

    _let_go(WHO)  # the Who starts? list's module goes with it (held by nothing then)
    app.home(lambda: app.later(build))


def _let_go(name=__name__):
    """The game's screen is up: this module (the lists before it) is not needed again until
    a new game, which imports it again (loader.open_game), so on the device it leaves the heap
    to the game. The function running now keeps it until it returns. (On a PC nothing is
    let go: tests set DEAL_SEED here.)"""
    from companion.app.unload import forget

    forget(name)


def screen_for(app, game):
    """The game's screen: solo (modes 0-3) or two players (mode 4)."""
    if game.solo():
        from .solo import SoloScreen

        return SoloScreen(app, game)
    _let_go("shared_rules.space_lunch.hints")  # the solo game's; two players have none
    from .duel import DuelScreen

    return DuelScreen(app, game)


def new(app, mode, first=0):
    """A new game. When the device deals the cards (Settings > Lunch cards), the deal's seed
    goes into the game's parameters, so the record can deal every card again."""
    if not app.settings.deal:
        return games.new(GAME_ID, mode, first)
    seed = DEAL_SEED[0]
    if seed is None:
        import os

        seed = int.from_bytes(os.urandom(4), "big")
    return games.new(GAME_ID, mode, first, *seed_params(seed or 1))


class SetupScreen(ListScreen):
    """New game: the four solo difficulties and the two-player game."""

    title = "Space Lunch"

    def items(self):
        return [row[0] for row in DIFFICULTIES] + ["Two players", "Hints", "Cards"]

    def marks(self):
        # no marks beside the difficulties: what each means (coupons, the pairs the Automa
        # needs) does not fit there in words; the game's first screen says it
        s = self.app.settings
        return ["", "", "", "", "", "on" if s.hints else "off", "dealt" if s.deal else "typed"]

    def activate(self, index):
        app = self.app
        if index >= 5:
            # the switches of Settings (kept there): one press flips one
            s = app.settings
            if index == 5:
                s.hints = not s.hints
            else:
                s.deal = not s.deal
            app.save_settings()
            self.refresh_items()
            return
        if index < 4:
            start(app, new(app, index))
            return
        who_starts(app)
