"""Let's Do Lunch: the game module the main menu opens (``open(app, payload)``), and the new
match setup: two players at the table or one against the computer (Easy, Medium, Hard; the
computer plays A or B), the target score, a strict table, and who rolls the dice (the device,
or the players, who type them in). "Start" is selected first: the usual match is one press.
"""

# Only the setup's code loads with this module: the rules and the match screen load when the
# match starts (play), once the setup screen is gone, and the computer's search only when a
# computer plays. The main menu unloads all of it (loader.forget_other_games) when another game
# opens; this module itself is let go once the match runs (_forget_setup).
from companion.app.buttons import LONG, OK
from companion.screen.screens import ItemPicker, ListScreen, NumberPicker
from companion.store.records import (
    COMPUTER_LEVELS as LEVELS,  # the one list: records name the computer
)

GAME_ID = "lets_do_lunch"
# params 3 and 4 keep who plays (computer: 0 none, level + 4 * seat; typed); records saved
# before the rules kept them have only the first two
_SETUP_PARAMS = 4
HARD = 3
# Who plays is passed on as a tuple (computer's seat or None, level, typed): a class defined
# here would keep this whole module alive beside the match (a function's globals are its
# module's), so ldl_play.Setup holds it once the match runs.


def new_rng(app):
    """The device's dice: seeded from the chip's randomness (os.urandom). In the simulator
    (CPython) from the clock instead, so a headless run (a test, a README picture) replays the
    same dice."""
    from shared_rules.rng import Rng

    seed = app.hw.seed()
    return Rng(seed)


def setup_of(game):
    """Who plays, as a game's params hold it: (computer's seat or None, level, typed), or None
    when the rules do not keep it (a record saved before they did, with two params, is asked
    about in ``open``)."""
    p = game.params
    if len(p) < _SETUP_PARAMS:
        return None
    code = p[2]
    if not code:
        return (None, 0, bool(p[3]))
    return (code // 4, code % 4, bool(p[3]))


def open(app, payload=None):  # the game-module entry point name
    if payload is None:
        app.push(SetupScreen(app))
        return
    from shared_rules import games

    # ValueError (a corrupt save): the menu says so and starts afresh
    # as saved (a record older than the players has two), read without replaying the game
    params = games.header(payload)[1]
    if len(params) >= _SETUP_PARAMS and params[2]:
        _load_ai()  # the biggest compile first, while the most heap is free
    game = games.from_bytes(payload)
    if game.game_id != GAME_ID:
        raise ValueError("not a Let's Do Lunch game")
    del games  # this frame's hold on the registry too, or forgetting it frees nothing
    _forget_games()
    setup = setup_of(game) if len(params) >= _SETUP_PARAMS else None
    if setup is None:
        app.push(SetupScreen(app, game))  # the players say again who plays
    else:
        play(app, game, setup)


def _load_ai():
    """The computer's search, imported before the board is drawn (its compile is the largest
    of the game's; the first move would otherwise compile it beside the board)."""
    import shared_rules.lets_do_lunch.ai  # noqa: F401


def _forget_games():
    """The registry is needed only to make or read the game: on the device, let it go (its
    ~4 KB)."""
    from companion.app.unload import forget

    forget("shared_rules.games")


def play(app, game, setup, replace=False):
    names = list(app.settings.names[:2])
    if replace:
        app.pop()  # the setup's widgets go before the match's code loads
    _carry_on(app.store, game)
    from .play import PlayScreen, Setup

    app.push(PlayScreen(app, game, Setup(*setup), new_rng(app), names))
    app.store.save_game(GAME_ID, game.to_bytes())
    _forget_setup()


def _carry_on(store, game):
    """A match resumed on a game's end whose record is kept already: the OK there keeps the
    record, then saves the next game (two writes, docs/persistence.md), and the power went
    between them. It goes on as that OK did, to the next game: kept twice (or undone and kept
    again, changed), the games' records would no longer add up to the match score. Here, not
    in the match screen: this module is let go once the match runs."""
    if game.ended is None or game.is_terminal():
        return
    rec = game.to_bytes()
    last = None
    for r in store.records(True):
        if r[1] == 1 or r[1] == 3:  # a game's record, bare or in its envelope (records.py)
            last = r[2]
    if last is not None and last[len(last) - len(rec):] == rec:
        from shared_rules.lets_do_lunch.game import NEXT_GAME

        game.apply(NEXT_GAME)


def _forget_setup():
    """The setup's code is not needed while the match runs (the end dialog's "New game"
    imports it again): on the device, let it go (~3 KB of heap)."""
    from companion.app.unload import forget

    forget(__name__)


class SetupScreen(ListScreen):
    """The new match (or, resuming a game whose record does not say, who plays)."""

    title = "Let's Do Lunch"

    def __init__(self, app, resume=None):
        self.resume = resume
        self.vs = True  # against the computer
        self.level = HARD  # the rules' levels are 1..3; the AI loads only when it plays
        self.seat = 1  # the computer plays B
        self.target = 20
        self.strict = False
        self.typed = False
        if resume is not None:
            self.title = "Resume: who plays?"
        super().__init__(app)
        self.menu.select(len(self._rows()) - 1)

    def _rows(self):
        rows = ["players"]
        if self.vs:
            rows += ["level", "seat"]
        if self.resume is None:
            rows += ["target", "strict"]
        rows += ["dice", "start"]
        return rows

    def items(self):
        names = {"players": "Against", "level": "Computer", "seat": "Computer is",
                 "target": "Target", "strict": "Strict table", "dice": "Dice",
                 "start": "Start" if self.resume is None else "Resume"}
        return [names[r] for r in self._rows()]

    def marks(self):
        # "Against computer" / "Against a person": "Players vs computer" would not fit
        vals = {"players": "computer" if self.vs else "a person",
                "level": LEVELS[self.level - 1], "seat": self._side(),
                "target": str(self.target), "strict": "on" if self.strict else "off",
                "dice": "typed" if self.typed else "device", "start": ""}
        return [vals[r] for r in self._rows()]

    def _side(self):
        """The computer's pieces as the board draws them (seat A or B)."""
        if self.d.mono:
            return "hollow" if self.seat else "filled"
        return "brown" if self.seat else "beige"

    def activate(self, index):
        row = self._rows()[index]
        app = self.app
        if row == "players":
            self.vs = not self.vs  # the rows below change; the selection stays on this one
            self.menu.select(0)
        elif row == "level":
            def chosen(i):
                self.level = i + 1

            app.push(ItemPicker(app, "Computer", list(LEVELS), self.level - 1, chosen))
        elif row == "seat":
            self.seat = 1 - self.seat
        elif row == "target":
            def done(v):
                self.target = v

            app.push(NumberPicker(app, "Target", self.target, 5, 100, 5, done))
        elif row == "strict":
            self.strict = not self.strict
        elif row == "dice":
            self.typed = not self.typed
        else:
            self.start()
            return
        self.refresh_items()

    def start(self):
        setup = (self.seat if self.vs else None, self.level, self.typed)
        if self.vs:
            _load_ai()
        old = self.resume
        if old is None:
            params = [self.target, 1 if self.strict else 0]
        else:
            params = list(old.params[:2])
        params += [(self.level + 4 * self.seat) if self.vs else 0, 1 if self.typed else 0]
        from shared_rules import games

        game = games.new(GAME_ID, *params)
        if old is not None:
            # the older record, replayed under the players just chosen, so that its next
            # save (and the game's record) keeps them
            if old.base:
                game.set_base(old.base)
            for a in old.actions():
                game.apply(a)
        del games  # this frame's hold on the registry too, or forgetting it frees nothing
        _forget_games()
        play(self.app, game, setup, replace=True)

    def on_button(self, button, kind):
        if button == OK and kind == LONG:
            self.start()  # a long OK starts at once, whatever row is selected
            return
        super().on_button(button, kind)
