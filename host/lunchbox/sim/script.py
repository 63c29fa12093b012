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

from ..errors import LunchboxError

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
# A script runs on the virtual clock, about 80 s of it per second here: these keep any
# script to well under a minute of real time and its timeline small.
MAX_SCRIPT_CHARS = 64 * 1024
MAX_SCRIPT_MS = 30 * 60 * 1000
MAX_STEPS = 100000


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
    if len(script) > MAX_SCRIPT_CHARS:
        raise LunchboxError("key script: {} characters, more than the {} KiB a script may "
                            "have".format(len(script), MAX_SCRIPT_CHARS // 1024), HINT)
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
            if t > MAX_SCRIPT_MS or len(out) > MAX_STEPS:
                raise LunchboxError(
                    "key script: at {!r} it already runs {} of simulated time; a script may "
                    "run at most {} minutes and {} steps".format(
                        word, _duration(t), MAX_SCRIPT_MS // 60000, MAX_STEPS),
                    "split it into several runs (the nvm file carries the state over)")
    out.append((t + GAP_MS, ("end",)))
    return out


def _duration(ms):
    return "{} min {} s".format(ms // 60000, ms // 1000 % 60) if ms >= 60000 else (
        "{} s".format(ms // 1000))


def shot_paths(timeline):
    """The files a compiled script's shot: words write."""
    return [action[1] for _, action in timeline if action[0] == "shot"]


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
