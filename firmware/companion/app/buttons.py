"""Button timing (portable): raw presses and releases in, logical button events out.

The device's keypad.Keys debounces but carries no timestamps (and Blinka's has none either), so
every transition is fed with the app's own clock in milliseconds. Times wrap like
``supervisor.ticks_ms`` (2**29), so differences go through ``ticks_diff``.

Events are ``(button, kind)`` tuples:
- PREV / NEXT: PRESS as soon as the button goes down, then REPEAT while held (auto-repeat);
- OK: PRESS on release, or LONG once when held past the long-press time;
- BACK: PRESS on release; held past the long-press time it becomes ``(UNDO, PRESS)``;
- UNDO (a dedicated fifth button): PRESS when it goes down.
"""

from shared_rules._compat import const

PREV = const(0)
NEXT = const(1)
OK = const(2)
BACK = const(3)
UNDO = const(4)
NAMES = ("prev", "next", "ok", "back", "undo")

# The main loop's pause when nothing happens (hw.idle: a button's press ends it at once): a
# pass costs 1-2 ms of the chip, and a pass every 5 ms kept it busy a quarter of the time on
# the menu (on a battery; and in the emulator, most of a lane's time)
IDLE_MS = const(20)

PRESS = const(0)
REPEAT = const(1)
LONG = const(2)
KIND_NAMES = ("press", "repeat", "long")

_PERIOD = const(1 << 29)
_HALF = const(1 << 28)
_MASK = const((1 << 29) - 1)


def ticks_diff(a, b):
    """a - b in milliseconds on the wrapping 2**29 clock."""
    diff = (a - b) & _MASK
    if diff >= _HALF:
        diff -= _PERIOD
    return diff


def button_id(name):
    """'prev' -> PREV ...; ValueError on an unknown name."""
    for i in range(len(NAMES)):
        if NAMES[i] == name:
            return i
    raise ValueError("unknown button {!r}".format(name))


class Buttons:
    """The state machine. ``feed(button, pressed, now)`` and ``tick(now)`` return event lists."""

    def __init__(self, long_ms=700, repeat_delay_ms=450, repeat_ms=120):
        self.long_ms = long_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        # per button: time it went down (None when up), next repeat time, long already fired
        self._down = [None] * 5
        self._next = [0] * 5
        self._fired = [False] * 5

    def reset(self):
        """Forget held buttons (a new screen must not inherit a half press)."""
        for i in range(5):
            self._down[i] = None
            self._fired[i] = False

    def feed(self, button, pressed, now):
        if not 0 <= button < 5:
            raise ValueError("bad button {}".format(button))
        out = self.tick(now)
        if pressed:
            if self._down[button] is not None:
                return out  # a repeated "down" (no release seen): ignore
            self._down[button] = now
            self._fired[button] = False
            if button == PREV or button == NEXT:
                out.append((button, PRESS))
                self._next[button] = now + self.repeat_delay_ms
            elif button == UNDO:
                out.append((UNDO, PRESS))
        else:
            if self._down[button] is None:
                return out  # release without a press (started held): ignore
            if (button == OK or button == BACK) and not self._fired[button]:
                out.append((button, PRESS))
            self._down[button] = None
        return out

    def tick(self, now):
        out = []
        for b in (PREV, NEXT):
            if self._down[b] is not None:
                # catch up, but at most a few repeats if the app was busy
                n = 0
                while ticks_diff(now, self._next[b]) >= 0 and n < 3:
                    out.append((b, REPEAT))
                    self._next[b] += self.repeat_ms
                    n += 1
                if n == 3:
                    self._next[b] = now + self.repeat_ms
        for b in (OK, BACK):
            t = self._down[b]
            if t is not None and not self._fired[b] and ticks_diff(now, t) >= self.long_ms:
                self._fired[b] = True
                out.append((UNDO, PRESS) if b == BACK else (OK, LONG))
        return out


class EventQueue:
    """A small bounded FIFO; when full the oldest event is dropped (a stuck app must not grow
    memory)."""

    def __init__(self, size=16):
        self._items = []
        self._size = size
        self.dropped = 0

    def put(self, item):
        if len(self._items) >= self._size:
            self._items.pop(0)
            self.dropped += 1
        self._items.append(item)

    def extend(self, items):
        for item in items:
            self.put(item)

    def get(self):
        """The oldest event, or None."""
        if self._items:
            return self._items.pop(0)
        return None

    def clear(self):
        self._items = []

    def __len__(self):
        return len(self._items)
