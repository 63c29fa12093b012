"""The rest of a panel's power-on, sent before its first refresh: hwpico makes it, display.py
runs it once, and then this module lets itself go (a cold boot of the ST7789 only: nothing
of it stays in the heap of a VM)."""

import time

import supervisor

from ..app.buttons import ticks_diff


def panel_wake(bus, steps, reset_at, wait):
    """What is left of a panel's power-on after its SWRESET (sent when its BusDisplay was
    made, at ``reset_at``): ``steps``, an init sequence as BusDisplay reads it, sent no sooner
    than ``wait`` ms after the reset. The display runs it before its first refresh
    (display.py), so the wait passes while the store mounts and the menu is built instead of
    in a delay of the init sequence (docs/firmware.md, "Times")."""

    def wake():
        left = wait - ticks_diff(supervisor.ticks_ms(), reset_at)
        if left > 0:
            time.sleep(left / 1000)
        i = 0
        while i < len(steps):
            flags = steps[i + 1]
            n = flags & 0x7F
            bus.send(steps[i], steps[i + 2:i + 2 + n])
            # BusDisplay's reading: a delay byte if flagged (255: 500 ms), else 10 ms
            ms = (steps[i + 2 + n] if steps[i + 2 + n] != 255 else 500) if flags & 0x80 else 10
            if ms:
                time.sleep(ms / 1000)
            i += 3 + n if flags & 0x80 else 2 + n
        from ..app.unload import forget

        forget("companion.board.panelwake")  # this closure goes with the display's reference

    return wake
