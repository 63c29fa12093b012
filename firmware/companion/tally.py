"""What the table-side scoreboards share (Aqua Brunch, Space Battle, Space Days): a game screen
that is one list of choices under a title bar, rebuilt from the game after every entry. The
small pickers they open are in pickers.py (the pass advisor and the serve check need only
those).

A scoreboard gives ``view()`` -> ``(title, status, rows, start)``: rows are ``(text, mark,
what)``; OK on a row calls ``choose(what)``; the cursor starts on row ``start`` (the most
likely entry) each time the game changes, and stays where it is otherwise.
"""

from .core.buttons import BACK, LONG, NEXT, OK, PREV
from .game import GameScreen
from .ui import ListMenu, TitleBar


def names(app, n):
    return [app.settings.names[s] for s in range(n)]


class TallyScreen(GameScreen):
    """One list for everything: the entry, and "modes" shown in the same list (a round's
    result, the scores, a tick list), because every stacked screen costs a Pico 13-16 KB of
    widgets. OK or Back leaves a mode; an undo leaves it too."""

    tie_words = "on the tie-break"

    def __init__(self, app, game):
        self.bar = None
        super().__init__(app, game)
        d = self.d
        self.bar = TitleBar(d, "")
        self.menu = ListMenu(d, [])
        self.group.append(self.bar.group)
        self.group.append(self.menu.group)
        self.key = None
        self.whats = []
        self.mode = None
        self.mode_at = -1

    def names(self):
        return names(self.app, self.game.n)

    def set_mode(self, mode):
        """Show ``mode`` (a name the subclass's view knows) in the list, or None: the entry."""
        self.mode = mode
        self.mode_at = len(self.game.actions())
        self.show()

    def leave_mode(self):
        self.set_mode(None)

    def state_key(self):
        """What the cursor's start depends on: the entries made and the mode shown."""
        return (len(self.game.actions()), self.mode)

    def show(self):
        if self.bar is None:
            return  # GameScreen's own setup, before the widgets exist
        if self.mode is not None and self.mode_at != len(self.game.actions()):
            self.mode = None  # an undo (or an entry) leaves the mode
        key = self.state_key()
        fresh = key != self.key
        if fresh:
            self.reset_entry()
        title, status, rows, start = self.view()
        self.whats = [r[2] for r in rows]
        self.menu.set_items([r[0] for r in rows], [r[1] for r in rows])
        if fresh:
            self.key = key
            self.menu.select(start)
        self.bar.set(title, status)
        self.changed()

    def on_game_button(self, button, kind):
        if button == PREV or button == NEXT:
            self.menu.move(-1 if button == PREV else 1, kind == 0)
            self.changed()
        elif button == OK and kind != LONG:
            if self.whats:
                self.choose(self.whats[self.menu.selected])
        elif button == BACK and kind != LONG:
            if self.mode is not None:
                self.leave_mode()
            else:
                self.app.pop()  # the game stays saved: the menu offers it again

    def reset_entry(self):
        """The game or the mode changed: forget any half-made entry kept on the screen."""

    def view(self):
        return "", "", [], 0

    def choose(self, what):
        if isinstance(what, int):
            self.act(what)
        elif what is not None:
            what()

    def lines(self, title, status, lines, marks):
        """A read-only mode's view: OK on any line goes back to the entry."""
        rows = [(lines[i], marks[i], self.leave_mode) for i in range(len(lines))]
        return title, status, rows, 0

    def result_lines(self):
        """Two lines, each within the screen's width (the end dialog has room for two): who
        won, and their points (and the tie-break when the top score was tied). Every score
        stays on the list under the dialog (Back shows it)."""
        g = self.game
        nm = self.names()
        w = g.winners()
        sc = g.scores()
        if len(w) == 1:
            head = nm[w[0]] + " wins"
        else:
            head = " & ".join([nm[s] for s in w]) + " win"
        if len(head) > self.d.cols:
            head = "{} share the win".format(len(w))
        tail = "{} pts".format(sc[w[0]])
        if len(w) == 1 and sc.count(sc[w[0]]) > 1:
            tail += " " + self.tie_words
        return [head, tail]
