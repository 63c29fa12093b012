"""Let's Do Lunch: the match's opening. The computer's search, the match screen's code and the
rules load, the game is made (or carried on), and the match screen goes on the stack.

A module of its own, small, that knows nothing of the setup screen: the setup's Start hands
the opening over (``Opening(...).run``) to run once its press is handled (app.later), so that
the setup screen, its widgets and its module (entry.py) are garbage before the match's code
loads. On the Display Pack's MicroPython that is the opening's peak, and with both at once it
found no room beside 24 KB held (tests/test_mp_lane.py)."""

GAME_ID = "lets_do_lunch"
SETUP = "companion.games.lets_do_lunch.entry"


class Opening:
    """``run()`` opens the match ``params`` (the game's: target, strict, computer, typed)
    with ``setup`` (computer's seat or None, level, typed); ``resume``: a game whose record
    did not say who plays, replayed under the players just chosen."""

    __slots__ = ("app", "params", "setup", "resume")

    def __init__(self, app, params, setup, resume=None):
        self.app = app
        self.params = params
        self.setup = setup
        self.resume = resume

    def run(self):
        from companion.unload import forget

        forget(SETUP)  # nothing refers to it now: the setup screen left the stack
        if self.setup[0] is not None:
            load_ai()
        from shared_rules.lets_do_lunch.game import LetsDoLunchGame

        game = LetsDoLunchGame(*self.params)  # the class itself: no registry to load and drop
        old = self.resume
        if old is not None:
            # the older record, replayed under the players just chosen, so that its next
            # save (and the game's record) keeps them
            if old.base:
                game.set_base(old.base)
            for a in old.actions():
                game.apply(a)
            self.resume = None
        play(self.app, game, self.setup)


def load_ai():
    """The computer's search, imported before the board is drawn: the largest of the game's
    modules, loaded while the most heap is free, and not beside the board at the first move."""
    import shared_rules.lets_do_lunch.ai  # noqa: F401


def new_rng(app):
    """The device's dice: seeded from the chip's randomness (os.urandom). In the simulator
    (CPython) from the clock instead, so a headless run (a test, a README picture) replays the
    same dice."""
    from shared_rules.rng import Rng

    return Rng(app.hw.seed())


def play(app, game, setup):
    """Push the match screen for ``game`` and save it."""
    names = list(app.settings.names[:2])
    _carry_on(app.store, game)
    from .play import PlayScreen, Setup

    app.push(PlayScreen(app, game, Setup(*setup), new_rng(app), names))
    app.store.save_game(GAME_ID, game.to_bytes())


def _carry_on(store, game):
    """A match resumed on a game's end whose record is kept already: the OK there keeps the
    record, then saves the next game (two writes, docs/persistence.md), and the power went
    between them. It goes on as that OK did, to the next game: kept twice (or undone and kept
    again, changed), the games' records would no longer add up to the match score."""
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
