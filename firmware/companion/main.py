"""Start the app on a ``hw`` object and keep it running: an unexpected exception shows a crash
screen for a few seconds, is recorded in the nvm log (record kind 2), and the app starts again
at the menu with the saved game intact. The watchdog resets a hung app."""

from .app import App
from .core.buttons import ticks_diff
from .core.records import crash_payload
from .core.store import KIND_CRASH
from .menu import start

WATCHDOG_S = 8  # RP2040's maximum is about 8.3 s
CRASH_SHOW_MS = 3000
QUIET_AFTER = 3  # crashes in a row before any events: stop writing records (flash wear)


def run(hw, store=None):
    if store is None:
        from .core.store import Store

        store = Store(hw.nvm)  # mounting never raises: a bad log becomes store.status
    hw.watchdog.start(WATCHDOG_S)
    notice = store.status
    streak = 0
    while True:
        app = None
        try:
            app = App(hw, store, start, resume=streak < 2, notice=notice)
            notice = None
            app.run()
        except Exception as e:  # anything at all: show it, record it, restart
            if app is not None and app.handled:
                streak = 0
            streak += 1
            crashed(hw, store, e, app, record=streak <= QUIET_AFTER)


def crashed(hw, store, exc, app=None, record=True):
    name = type(exc).__name__
    where = "start"
    if app is not None and app.top is not None:
        where = type(app.top).__name__
    try:
        import traceback

        traceback.print_exception(exc)
    except Exception:  # printing must never stop the restart
        print("crash in", where, name, exc)
    if record:
        try:
            store.append_record(KIND_CRASH, crash_payload(name, str(exc), where))
        except Exception:
            pass
    try:
        show_crash(hw.display, "{}: {}".format(name, exc))
    except Exception:  # a broken display must not stop the restart either
        pass
    start = hw.clock()
    while ticks_diff(hw.clock(), start) < CRASH_SHOW_MS:
        hw.watchdog.feed()
        hw.idle()


def show_crash(d, message):
    import displayio

    from .ui import TextBlock, TitleBar

    root = d.root
    while len(root):
        root.pop()
    g = displayio.Group()
    bar = TitleBar(d, "Oops - restarting")
    g.append(bar.group)
    lines = (d.height - d.title_h - d.pad) // d.char_h
    block = TextBlock(d, d.title_h + d.pad, lines, d.FG)
    block.set(message)
    g.append(block.group)
    root.append(g)
    d.refresh()
