"""Screen power and the battery's charge (portable).

``Idle`` says when the idle screen dims and goes off, and which button transitions only wake
it: the press that wakes a dimmed or dark screen does nothing else, and neither does anything
that button does until it is let go (its release is an OK or Back press, its hold an undo).
The charge a cell's voltage means is charge.py's, loaded only on a battery.
Times are milliseconds on the wrapping clock, compared through ``ticks_diff``.
"""

from shared_rules._compat import const

AWAKE = const(0)
DIM = const(1)
OFF = const(2)
LOW = const(20)  # percent: the warning; hardware/README.md gives the hours left at it

class Idle:
    """``dim_s`` / ``off_s``: seconds without a press before the screen dims / goes off
    (0: never). ``state`` is AWAKE, DIM or OFF."""

    def __init__(self, dim_s, off_s, now):
        self.dim_ms = 0
        self.off_ms = 0
        self.configure(dim_s, off_s)
        self.last = now
        self.state = AWAKE
        self.held = 0  # a bit per button whose press woke the screen, until it is let go

    def configure(self, dim_s, off_s):
        self.dim_ms = dim_s * 1000
        self.off_ms = off_s * 1000

    def swallow(self, button, pressed, now):
        """Feed one raw transition; True when the app must drop it (it only wakes)."""
        bit = 1 << button
        if self.held & bit:
            if not pressed:
                self.held &= ~bit
            return True
        if not pressed:
            return False
        self.last = now
        if self.state == AWAKE:
            return False
        self.held |= bit  # pressed on a dim or dark screen (with the one that wakes it too)
        return True

    def tick(self, now, ticks_diff):
        """The new state when it changes now, else None."""
        quiet = ticks_diff(now, self.last)
        if self.off_ms and quiet >= self.off_ms:
            state = OFF
        elif self.dim_ms and quiet >= self.dim_ms:
            state = DIM
        else:
            state = AWAKE
        if state == self.state:
            return None
        self.state = state
        return state
