"""What the table-side scoreboards share (Aqua Brunch, Space Battle, Space Days): a game screen
that is one list of choices under a title bar, rebuilt from the game after every entry. The
small pickers they open are in pickers.py (the pass advisor and the serve check need only
those).

A scoreboard gives ``view()`` -> ``(title, status, rows, start)``: rows are ``(text, mark,
what)``; OK on a row calls ``choose(what)``; the cursor starts on row ``start`` (the most
likely entry) each time the game changes, and stays where it is otherwise.
"""

from ..app.buttons import BACK, LONG, NEXT, OK, PREV
from .game import GameScreen
from .text import count
from .ui import ListMenu, TitleBar


def names(app, n):
    return [app.settings.names[s] for s in range(n)]


def resumed(payload):
    """The saved scoreboard in ``payload``. The registry (shared_rules.games) is loaded only
    here: a new scoreboard builds its rules class directly, and the heap is spared it."""
    from shared_rules import games

    return games.from_bytes(payload)


def resume(app, cls, payload, new):
    """Push a ``cls`` screen over the saved scoreboard; when the save cannot be read, say so,
    forget it and start a new one (``new()``), as the menu does for a game it resumes."""
    try:
        game = resumed(payload)
    except ValueError:
        app.store.clear_game()
        app.notify("Save unreadable - new game")
        new()
        return
    app.push(cls(app, game))


def ask_players(app, cls, title, lo, hi, start):
    """Push a new ``cls`` scoreboard that first asks the player count in its own list (a
    picker screen would be one more module and screen to load); Back leaves without a game."""
    scr = cls(app, cls.rules(start, *cls.rules_params))
    scr.asking = (title, lo, hi, start)
    scr.mode = "players"
    scr.mode_at = 0
    app.push(scr)


class TallyScreen(GameScreen):
    """One list for everything: the entry, and "modes" shown in the same list (a round's
    result, the scores, a tick list), because every stacked screen costs a Pico 13-16 KB of
    widgets. OK or Back leaves a mode; an undo leaves it too."""

    tie_words = "on the tie-break"
    rules = None  # the scoreboard's protocol class (ask_players starts a new one)
    rules_params = ()  # the settings after the player count a new one is started with

    def __init__(self, app, game):
        self.bar = None
        self.asking = None
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
        self.mode_at = self.game.moves()
        self.show()

    def leave_mode(self):
        self.set_mode(None)

    def state_key(self):
        """What the cursor's start depends on: the entries made and the mode shown."""
        return (self.game.moves(), self.mode)

    def show(self):
        if self.bar is None:
            return  # GameScreen's own setup, before the widgets exist
        if self.mode is not None and self.mode_at != self.game.moves():
            self.mode = None  # an undo (or an entry) leaves the mode
        key = self.state_key()
        fresh = key != self.key
        if fresh:
            self.reset_entry()
        if self.mode == "players":
            title, status, rows, start = self._players_view()
        else:
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
            if self.mode == "players":
                self.app.pop()  # no game was started
            elif self.mode is not None:
                self.leave_mode()
            else:
                self.app.pop()  # the game stays saved: the menu offers it again

    def _players_view(self):
        title, lo, hi, start = self.asking

        def pick(n):
            def chosen():
                self.game = self.rules(n, *self.rules_params)
                self.leave_mode()

            return chosen

        rows = [("{} players".format(n), "", pick(n)) for n in range(lo, hi + 1)]
        return title, "", rows, start - lo

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

    def beside(self, name, mark, short):
        """``mark`` beside ``name`` on a list row when both fit (a row's last cell is the
        scroll bar's), else ``short``: a name is never cut for a mark."""
        return mark if len(name) + len(mark) <= self.d.cols - 2 else short

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
        tail = count(sc[w[0]], "point")
        if len(w) == 1 and sc.count(sc[w[0]]) > 1:
            tail += " " + self.tie_words
        return [head, tail]
