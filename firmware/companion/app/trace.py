"""Heap and time trace on the console, for the real-CircuitPython test lane (tests/cplane.py)
and for anyone measuring a board: settings.toml ``LUNCHBOX_TRACE = 1`` turns it on, and
``LUNCHBOX_TRACE_HOLD = 24576`` holds that many bytes back from the start, so a flow that
still runs has at least that much to spare everywhere (docs/firmware.md, "Heap on the board").

After each pass of the main loop that handled an event or changed the top screen it prints

    LBX <handled> <top screen> free=<bytes> pre=<bytes> ms=<ms>

``free``: gc.mem_free() after a collect (what the screen keeps is the rest); ``pre``: the same
before the collect (what the pass left as garbage); ``ms``: the pass, press to refreshed
screen. That a flow runs at all with the bytes held back is what shows the margin: a pass
that needs more raises MemoryError there. Never imported unless the trace is on.

A part of a pass the code timed itself (``span("move", ms)``: the computer's move) follows
as `` move=<ms>``, and that pass is printed even if it handled no event. A pass that drew the
screen more than once (a press's board, then the advice worked out after it: Space Lunch's
coupon ratings) also gives `` first=<ms>``: the press to its first refreshed screen."""

import gc

# CircuitPython's gc has mem_free (CPython's, which type checkers read, has not)
_mem_free = gc.mem_free  # type: ignore[attr-defined]
_spans = []


def span(name, ms):
    _spans.append(" {}={}".format(name, ms))


def attach(app, clock):
    """Wrap ``app.step`` so each pass that did something is printed (an instance attribute:
    App itself is unchanged)."""
    step = app.step
    refresh = app.refresh
    seen_handled = [-1]
    seen_top = [""]
    drawn = [0, 0]  # the pass's refreshes, and when its first one ended

    def traced_refresh():
        n = app.refreshes
        refresh()
        if app.refreshes != n:
            drawn[0] += 1
            if drawn[0] == 1:
                drawn[1] = clock()

    def traced():
        # the pass runs under this frame: it holds only t0 (every frame here is taken from
        # CircuitPython's small Python stack, CIRCUITPY_PYSTACK_SIZE, under the app's own)
        t0 = clock()
        drawn[0] = 0
        step()
        if drawn[0] > 1:
            span("first", (drawn[1] - t0) % 0x20000000)
        report(t0)

    def report(t0):
        top = type(app.top).__name__ if app.top is not None else "-"
        if app.handled != seen_handled[0] or top != seen_top[0] or _spans:
            ms = (clock() - t0) % 0x20000000  # supervisor.ticks_ms wraps at 2**29
            pre = _mem_free()
            gc.collect()
            print("LBX {} {} free={} pre={} ms={}{}".format(app.handled, top, _mem_free(), pre,
                                                            ms, "".join(_spans)))
            del _spans[:]
            seen_handled[0] = app.handled
            seen_top[0] = top

    app.step = traced
    app.refresh = traced_refresh
