"""The base of every game screen: it owns the game (a shared_rules protocol object), applies
each action the player chooses, saves after every action (one nvm write), undoes on a long
Back, and at the end writes the game record and shows the result.

A game screen subclasses ``GameScreen`` and gives ``show()`` (draw everything from
``self.game``, then ``self.changed()``), ``on_game_button(button, kind)`` (every event but
UNDO) and optionally ``result_lines()``. It changes the game only through
``self.act(action)``, so every change is logged, saved and undoable.
"""

from ..app.buttons import UNDO
from .screens import ConfirmDialog, Screen

MSG_UNDONE = "Undone"
MSG_NO_UNDO = "Nothing to undo"
MSG_TOO_LONG = "Game too long to save"
MSG_FULL = "Memory full: pull games"  # the next game's record pushes out the oldest


class GameScreen(Screen):
    def __init__(self, app, game):
        super().__init__(app)
        self.game = game
        self.result = None  # what the last action returned (e.g. the cannibals eaten)
        self.ended = False  # finished() has run (the record is kept)
        self.confirmed = False  # the player agreed to replace another game's save

    # ---- what a game screen gives --------------------------------------------------------

    def show(self):
        self.changed()

    def on_game_button(self, button, kind):
        Screen.on_button(self, button, kind)  # Back leaves (the game stays saved)

    def result_lines(self):
        """The end screen's text: who won and the scores, in words."""
        names = self.app.settings.names
        w = self.game.winners()
        sc = self.game.scores()
        who = " and ".join([names[s] if s < len(names) else "P{}".format(s + 1) for s in w])
        lines = ["{} {}".format(who, "win" if len(w) > 1 else "wins") if w else "No winner"]
        lines.append("Scores: " + " ".join([str(s) for s in sc]))
        return lines

    # ---- the mechanism -------------------------------------------------------------------

    def enter(self):
        self.show()

    def on_button(self, button, kind):
        if button == UNDO:
            self.undo()
        else:
            self.on_game_button(button, kind)

    def act(self, action):
        """Apply ``action``: True when it was legal. An illegal one shows its reason and changes
        nothing (the rules engine leaves the state as it was). The first move of a new game
        asks first when another game is saved: there is one save, and it is never lost
        without a word."""
        if self._other_save():
            self._ask_to_replace(action)
            return False
        try:
            self.result = self.game.apply(action)
        except ValueError as e:
            self.app.notify(str(e))
            return False
        if self.game.is_terminal():
            self.show()
            self.ended = True
            self.finished()  # keeps the record; the end stays saved until it is left
        else:
            self.save()
            self.show()
        return True

    def _other_save(self):
        if self.confirmed or self.game.can_undo():
            return False
        saved = self.app.store.load_game()
        return saved is not None and saved[0] != self.game.game_id

    def _ask_to_replace(self, action):
        from ..app.loader import game_info

        info = game_info(self.app.store.load_game()[0])
        name = info[2] if info else "other"

        def yes():
            self.confirmed = True
            self.act(action)

        self.app.push(ConfirmDialog(self.app, "Saved game", "Your saved {} game will be "
                                    "lost. Start this one?".format(name), yes, None,
                                    "Start", "Keep it"))

    def tick(self, now):
        if not self.ended and self.game.is_terminal():
            self.ended = True  # resumed at the end: the power went on the end screen,
            self.resumed_end = True  # or before its record was kept: keep it once
            self.finished()

    def save(self):
        try:
            self.app.store.save_game(self.game.game_id, self.game.to_bytes())
        except ValueError:
            # longer than the store takes: the last save stands; the game plays on
            self.app.notify(MSG_TOO_LONG)

    def suspend(self):
        """The screen is going off (app/loop.py): the save must be the game as played. It is after
        every action already, and the store writes nothing for a save that is current; a game
        with no move yet is not saved (another game's save would go without a word)."""
        if self.ended or not self.game.actions():
            return
        saved = self.app.store.load_game()
        if self.confirmed or (saved is not None and saved[0] == self.game.game_id):
            self.save()

    def undo(self):
        if not self.game.can_undo():
            self.app.notify(MSG_NO_UNDO)
            return
        self.game.undo()
        self.save()
        self.show()
        self.app.notify(MSG_UNDONE)

    def keep_record(self):
        """Keep the game's record for the host (a Let's Do Lunch game inside a match). The
        memory warning before a match counts one record; a match keeps one a game, so when
        the next would push out a game not pulled yet, say so now."""
        from ..app.keeping import keep_record

        record = self.game.to_bytes()
        keep_record(self.app, record)
        if self.app.store.room(len(record)) == 0:
            self.app.warn(MSG_FULL)

    def finished(self):
        """The game is over: keep its record and put the result in this screen's place. The
        end stays saved until the player leaves the result (a power cut shows it again:
        menu.resume_prompt); the record is kept once. The screen leaves the stack first and
        the dialog is built once this event is handled (app.later), when nothing refers to
        the board any more: the end is when the heap is fullest. "New game" starts this
        game again with the same players and settings (``again``); "Menu" and Back go to
        the main menu."""
        app = self.app
        text = "\n".join(self.result_lines())
        record = self.game.to_bytes()
        again = self.again()
        self.save()  # the end, so that a cut before the record is kept resumes at the end
        while self in app.stack and len(app.stack) > 1:
            app.pop()  # this screen, and a picker over it that made the last move
        from ..app.keeping import keep_record

        keep_record(app, record, getattr(self, "resumed_end", False))
        app.later(lambda: app.push(ConfirmDialog(app, "Game over", text, leave(app, again),
                                                 leave(app, app.home), "New game", "Menu")))

    def again(self):
        """What "New game" on the end screen runs: this game again, with the same players
        and settings (its parameters), on a game with no move yet. Made at the end, so the
        end screen holds a few bytes, not the game."""
        from shared_rules.protocol import encode

        app = self.app
        game_id = self.game.game_id
        fresh = encode(self.game.index, self.game.params, b"", ())
        return lambda: new_game(app, game_id, fresh)


def leave(app, then):
    """A way out of a game's end screen: the end's save goes first (it was kept so that a
    power cut shows the result again), then ``then()``."""

    def go():
        app.store.clear_game()
        then()

    return go


def new_game(app, game_id, fresh=None):
    """Open ``game_id`` over the menu (the door, in a game's VM): its new-game screen, or
    ``fresh`` (a game's bytes with no move yet: the same settings again). The game opens once
    this press is handled (app.later): not under the frames of the end screen's dialog, which
    would leave its screens too little of CircuitPython's small Python stack
    (CIRCUITPY_PYSTACK_SIZE, tests/test_pystack_app.py), and the old game's screens are free."""
    from ..app.loader import open_game

    def go():
        open_game(app, game_id, fresh)
        if fresh is not None:  # the loader warns before a new game only when it makes it
            from ..app.loader import _warn_if_memory_is_full

            # over the game's screen, which some games build once this press is handled
            app.later(lambda: _warn_if_memory_is_full(app, game_id))

    app.home(lambda: app.later(go))
