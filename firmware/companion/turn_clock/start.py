# Starting a game's turn clock (clocks.py): imported when a game's screen first
# comes on top, and let go (with the catalog and Settings' byte) once the clock is made: what
# runs is in view.py.

from .saves import let_go


def attach(clocks, screen, had):
    # Give a game screen its clock: the one saved with its game, else a new one as Settings
    # say; none (screen.clock False) when the clock is off, or for a screen that is no
    # recorded game (the strength calculator keeps an Aqua Brunch id and is no registry game).
    # ``had``: the modules loaded before (clocks.py), kept; the others let go as
    # soon as they are done with, so that the clock's own code comes into the most room.
    from ..app.catalog import about, index

    app = screen.app
    game = screen.game
    screen.clock = False
    row = about(game.game_id) if index(game.game_id) == getattr(game, "index", -1) else None
    table = row is not None and bool(row.get("parent"))  # a scoreboard: passed on by hand
    off = row is None or row.get("recorded") is False
    del about, index, row
    let_go("companion.app.catalog", had)  # the game plays on without it
    if off:
        return
    from .state import NONE, TurnClock
    from .view import Clock, _seats

    now = app.hw.clock()
    tc = None
    state = app.store.clock_of(game.game_id, game.to_bytes())
    if state:
        try:
            tc = TurnClock.from_bytes(state, now)
            tc.paused = True  # resumed: it goes on when the players are back
        except ValueError:
            app.notify("Clock unreadable - a new one")
        let_go("companion.turn_clock.statebytes", had)  # (what read it: again at the game's end)
    fresh = tc is None
    if fresh:
        from .setting import setting

        mode, minutes, bonus = setting(app.settings.clock)
        del setting
        let_go("companion.turn_clock.setting", had)
        if not mode:
            return
        tc = TurnClock(mode, minutes * 60, bonus, _seats(game))
    view = screen.clock = Clock(clocks, screen, tc, table, now)
    if not fresh:
        if tc.seat != NONE:
            from .rare import MSG_PAUSED  # (let go after: clocks.py)

            app.notify(MSG_PAUSED)
    elif view.table:
        app.notify("Clock: hold OK to pass it on")
    else:
        view.follow()
        app.notify("Clock on: hold OK to pause")
