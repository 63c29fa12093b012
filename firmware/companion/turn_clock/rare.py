# What the turn clock of the game on screen (view.py) does now and then: a long OK (a
# pause, going on, a scoreboard's pass), the game's end and record, the game left. Imported
# for that and let go after (view.RARE), so a game's VM holds it only for the moment.

from ..app.buttons import OK, ticks_diff
from ..screen.ui import TitleBar
from .state import NONE

MSG_PAUSED = "Clock paused: hold OK to go on"


def press(view):
    # a long OK: pause or go on; a scoreboard's running clock waits for the release
    # (now_and_then: a pass) or for OK held on (a pause)
    tc = view.tc
    now = view.now()
    if tc.paused:
        tc.resume(now)
        view.app.notify("Clock goes on")
    elif view.table:
        view.hold = now
        return
    else:
        tc.pause(now, ticks_diff)
        view.app.notify(MSG_PAUSED)
    view._saved(now)


def now_and_then(view, now, hold_ms):
    # a tick's rare part: its game left, or over, or a scoreboard's OK held long
    app = view.app
    tc = view.tc
    if view.screen not in app.stack:
        leave(view)  # its game was left, or is over and its record kept
        return
    if tc.seat != NONE and view.screen.game.is_terminal():
        stop(view)  # over, shown on the game's own screen: nothing runs
    if view.hold is not None:
        if app.buttons._down[OK] is None:  # let go (app/buttons.py): the next player's
            view.hold = None
            tc.turn(tc.next_seat(), now, ticks_diff)
            app.notify("Clock: " + app.settings.names[tc.seat])
            view._saved(now)
        elif ticks_diff(now, view.hold) >= hold_ms:
            view.hold = None
            tc.pause(now, ticks_diff)
            app.notify(MSG_PAUSED)
            view._saved(now)


def stop(view):
    view.tc.stop(view.now(), ticks_diff)
    _unwarn(view)
    view._texts(view.now())


def record(view):
    # each seat's (seconds, turns) since the last record (at the end, the last turn complete
    # and nothing running)
    if view.screen.game.is_terminal():
        stop(view)
    else:
        view.follow()
    return view.tc.record(view.now(), ticks_diff)


def leave(view):
    # its game screen left the stack: saved as it stands, paused (unless over), and gone
    screen = view.screen
    tc = view.tc
    if not screen.ended:
        if tc.running():
            tc.pause(view.now(), ticks_diff)
        screen.suspend()
    view.app.d.root.remove(view.lab)
    _unwarn(view)
    screen.clock = None  # shown again, it takes its clock from the save
    if view.clocks.view is view:
        view.clocks.view = None
    if TitleBar.clock is view:
        TitleBar.clock = None
    bar = view.bar
    view.bar = None
    if bar is not None and bar is TitleBar.top:
        bar.relayout()  # the cells it kept go back to the title


def _unwarn(view):
    if view.warned is not None:
        view.warned = None
        leds = view.app.leds
        if leds.frame == view.lit:  # the clock's colour still on: the game's again
            leds.show(view.kept)
