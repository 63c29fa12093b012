"""Small screens the table scoreboards open (docs/scoring.md): a chooser that closes before it
acts, a number picker likewise; and the saved game of a given id. The
counter and the read-only lines are in counters.py (each module small to compile on a Pico)."""

from ..app.buttons import LONG, OK
from .screens import ListScreen, NumberPicker


class Chooser(ListScreen):
    """Pick one of ``options``; it closes first, then ``then(index)`` runs (so ``then`` may
    open the next screen)."""

    def __init__(self, app, title, options, then, selected=0):
        self.options = options
        self.then = then
        super().__init__(app, title, selected)

    def items(self):
        return self.options

    def activate(self, index):
        self.app.pop()
        self.then(index)


class Number(NumberPicker):
    """A number picker that closes before ``on_done(value)`` runs (so it may open the next
    screen)."""

    def __init__(self, app, title, value, lo, hi, on_done):
        super().__init__(app, title, value, lo, hi, 1, on_done)

    def on_button(self, button, kind):
        if button == OK and kind != LONG:
            self.app.pop()
            self.on_done(self.value)
        else:
            super().on_button(button, kind)


def saved(app, game_id):
    """The saved bytes of ``game_id`` if it is the game kept for "Resume game?", else None."""
    kept = app.store.load_game()
    return kept[1] if kept is not None and kept[0] == game_id else None
