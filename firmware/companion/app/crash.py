"""A crash: an exception no screen caught. It is printed (the serial console), recorded in the
nvm log (record kind 2, for `lunchbox pull`), and shown for a few seconds; then main.run starts
the app again at the menu with the saved game intact. Loaded only when it happens."""

from ..store.records import crash_payload
from ..store.store import KIND_CRASH
from .buttons import ticks_diff

CRASH_SHOW_MS = 3000


def crashed(hw, store, exc, where="start", record=True):
    """``where``: the class name of the screen on top when it happened."""
    name = type(exc).__name__
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

    from ..screen.ui import TextBlock, TitleBar

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
