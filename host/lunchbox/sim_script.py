"""The simulator's key-script language, for tests and README screenshots.

A script is words separated by spaces or commas:

    prev next ok back undo      a short press (aliases: up left = prev, down right = next,
                                enter = ok, esc = back)
    long:NAME                   hold the button for a second (long:back is undo)
    hold:NAME:MS                hold it for MS milliseconds
    wait:MS                     let MS milliseconds pass
    WORD*N                      any of the above N times (next*3)
    shot:FILE.png               save the screen as it is now
    reset                       a power cut: the firmware starts again on the same nvm

Each press holds the button 60 ms and leaves 100 ms before the next word, so the firmware
sees exactly what a person pressing buttons would produce.
"""

from .errors import LunchboxError

ALIASES = {
    "prev": "prev", "up": "prev", "left": "prev",
    "next": "next", "down": "next", "right": "next",
    "ok": "ok", "enter": "ok",
    "back": "back", "esc": "back",
    "undo": "undo",
}
BUTTON_IDS = {"prev": 0, "next": 1, "ok": 2, "back": 3, "undo": 4}
PRESS_MS = 60
GAP_MS = 100
LONG_MS = 1000
HINT = "words: prev next ok back undo long:NAME hold:NAME:MS wait:MS WORD*N shot:FILE reset"


def _button(name, word):
    key = ALIASES.get(name.lower())
    if key is None:
        raise LunchboxError("key script: unknown button {!r} in {!r}".format(name, word), HINT)
    return BUTTON_IDS[key]


def _ms(text, word):
    try:
        ms = int(text)
    except ValueError:
        raise LunchboxError("key script: {!r} is not a number of ms in {!r}".format(text, word),
                            HINT) from None
    if not 0 <= ms <= 600000:
        raise LunchboxError("key script: {} ms out of range in {!r}".format(ms, word), HINT)
    return ms


def compile_script(script):
    """Turn a script into a timeline: a list of (time ms, action) in time order.

    Actions: ("key", button id, pressed), ("shot", path), ("reset",). The last entry is
    ("end",) a little after the last key, so the firmware has handled and drawn it."""
    words = script.replace(",", " ").split()
    t = GAP_MS
    out = []
    for word in words:
        count = 1
        body = word
        if "*" in word and not word.startswith("shot:"):
            body, _, n = word.rpartition("*")
            count = _ms(n, word)
            if count < 1 or count > 1000:
                raise LunchboxError("key script: bad repeat count in {!r}".format(word), HINT)
        for _ in range(count):
            t = _step(body, word, t, out)
    out.append((t + GAP_MS, ("end",)))
    return out


def _step(body, word, t, out):
    if body.startswith("shot:"):
        path = body[5:]
        if not path:
            raise LunchboxError("key script: shot: needs a file name", HINT)
        out.append((t, ("shot", path)))
        return t
    if body == "reset":
        out.append((t, ("reset",)))
        return t + GAP_MS
    if body.startswith("wait:"):
        return t + _ms(body[5:], word)
    if body.startswith("long:") or body.startswith("hold:"):
        parts = body.split(":")
        if body.startswith("long:"):
            if len(parts) != 2:
                raise LunchboxError("key script: want long:NAME, got {!r}".format(word), HINT)
            held = LONG_MS
        else:
            if len(parts) != 3:
                raise LunchboxError("key script: want hold:NAME:MS, got {!r}".format(word), HINT)
            held = _ms(parts[2], word)
        b = _button(parts[1], word)
        out.append((t, ("key", b, True)))
        out.append((t + held, ("key", b, False)))
        return t + held + GAP_MS
    b = _button(body, word)
    out.append((t, ("key", b, True)))
    out.append((t + PRESS_MS, ("key", b, False)))
    return t + PRESS_MS + GAP_MS
