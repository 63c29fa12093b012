"""MicroPython's side of tests/mp/render/figures.py: draw times (``times``) and, one
interpreter call a step (``step``, through mp_step.py), the heap the renderer holds."""

import gc
import time

import scenes


def _clear(drv):
    """Forget everything the renderer made from the tree: the next refresh makes it again
    (as the first refresh of a screen does)."""
    import terminalio

    todo = [drv.root_group]
    while todo:
        node = todo.pop()
        if node is None:
            continue
        for name in ("pixel_shader", "_palette"):
            p = getattr(node, name, None)
            if p is not None:
                p._p = None
        bm = getattr(node, "bitmap", None)
        if bm is not None:
            bm._tc = None
        try:
            todo.extend(list(node))
        except TypeError:
            pass
    terminalio.FONT.bitmap._tc = None
    drv._plans = {}


def times(n=40):
    """The mean draw (framebuf work, not the send) of each scene, warm (what it made kept)
    and cold (made again each time), in microseconds of the port's ms clock."""
    import mp_shots

    for kind, w, h in scenes.DISPLAYS:
        for name in scenes.SCENES:
            _panel, d = mp_shots.display(kind, w, h)
            scenes.build(name, d)
            drv = d.driver
            drv.refresh()  # (a scene without an app has not drawn yet)
            gc.collect()
            t0 = time.ticks_ms()
            for _ in range(n):
                drv.refresh()
            warm = time.ticks_diff(time.ticks_ms(), t0) * 1000 // n
            t0 = time.ticks_ms()
            for _ in range(n):
                _clear(drv)
                drv.refresh()
            cold = time.ticks_diff(time.ticks_ms(), t0) * 1000 // n
            print("@@TIME", kind, name, warm, cold)


STEPS = []  # (what, argument); a mark is a collection in a call of its own, then the
# reading in the next: the port's first collection after a call keeps some of that call's
# garbage (stale pointers), the second is steady
S = {"i": 0, "d": None, "keep": None, "at": {}}


def _mark(label):
    STEPS.append(("gc", None))
    STEPS.append(("mark", label))


def _plan():
    STEPS.append(("noop", None))  # this module's own import is garbage of the first call
    _mark("start")
    STEPS.append(("modules", None))
    _mark("modules")
    for kind, w, h in scenes.DISPLAYS:
        for name in scenes.SCENES:
            STEPS.append(("build", (name, kind, w, h)))
            STEPS.append(("clear", None))
            _mark("before")
            STEPS.append(("refresh", None))
            _mark("after")
            STEPS.append(("held", (name, kind)))
            STEPS.append(("drop", None))
    for s in (1, 2):
        STEPS.append(("noglyphs", None))
        _mark("before")
        STEPS.append(("glyphs", s))
        _mark("after")
        STEPS.append(("held", ("all 95 glyphs at scale {}".format(s), "font")))


def steps():
    if not STEPS:
        _plan()
    return len(STEPS)


def step():
    if not STEPS:
        _plan()
    what, arg = STEPS[S["i"]]
    S["i"] += 1
    if what == "gc":
        gc.collect()
    elif what == "mark":
        gc.collect()
        S["at"][arg] = gc.mem_alloc()
        if arg == "modules":
            print("@@HEAP modules", S["at"]["modules"] - S["at"]["start"])
    elif what == "modules":
        import bitmaptools  # noqa: F401
        import displayio  # noqa: F401
        import fbdisplay  # noqa: F401
        import terminalio
        import vectorio  # noqa: F401
    elif what == "build":
        import mp_shots

        name, kind, w, h = arg
        S["d"] = mp_shots.display(kind, w, h)[1]
        S["keep"] = scenes.build(name, S["d"])
    elif what == "clear":
        _clear(S["d"].driver)
    elif what == "refresh":
        S["d"].driver.refresh()
    elif what == "held":
        print("@@HEAP", arg[1], arg[0], S["at"]["after"] - S["at"]["before"])
    elif what == "drop":
        S["d"] = S["keep"] = None
    elif what == "noglyphs":
        import terminalio

        terminalio.FONT.bitmap._tc = None
    elif what == "glyphs":
        import terminalio

        b = terminalio.FONT.bitmap
        if arg == 1:  # blitted: a framebuf each
            src = b._tiles(6, 12, 1)
            for t in range(95):
                b._tile(src, t, 6, 12, 1)
        else:  # filled: rectangles each
            b._tc = {}
            src = b._tc[-arg] = [None] * 95
            for t in range(95):
                b._rects(src, t, arg)
