"""What the box says of itself (portable): the figures of Settings > Check the box's last page
(companion/settings/selftest.py), and the data link's CHECK answer (app/link.py), which ``lunchbox
doctor`` shows. No display code: the link loads this on a box serving a host."""

import gc
import time


def runtime():
    """Seconds since the board started (CircuitPython's monotonic clock; MicroPython's ticks)."""
    try:
        return int(time.monotonic())
    except AttributeError:
        return time.ticks_ms() // 1000  # type: ignore[attr-defined]


def millivolts(supply):
    """The cell's voltage on VSYS, where the build reads it (picoparts.Supply's ADC: GPIO29
    through the Pico's 1/3 divider, 16 bits against 3.3 V), else None."""
    adc = getattr(supply, "adc", None)
    if adc is None:
        return None
    total = 0
    for _ in range(8):  # the ADC is noisy: as picoparts.Supply reads it
        total += adc.value
    return total // 8 * 9900 // 65535


def readings(version, profile, supply):
    """[(key, value)]: firmware, profile, heap_free (bytes after a collect; None where the
    runtime cannot tell), runtime_s, battery ("none": the build reads no battery, "usb", or
    "on"), battery_mv and battery_pct (None when not read)."""
    gc.collect()
    mem_free = getattr(gc, "mem_free", None)
    level = mv = None
    if supply is not None:
        try:
            level = supply.level()
            if level is not None:
                mv = millivolts(supply)
        except (OSError, ValueError, RuntimeError):
            pass
    return [("firmware", version), ("profile", profile),
            ("heap_free", mem_free() if mem_free is not None else None),
            ("runtime_s", runtime()),
            ("battery", "none" if supply is None else "usb" if level is None else "on"),
            ("battery_mv", mv), ("battery_pct", level)]


def encode(pairs):
    """The CHECK answer's payload: a "key=value" line each (ASCII), unknown values left out."""
    out = []
    for k, v in pairs:
        if v is not None:
            out.append("{}={}\n".format(k, v))
    return "".join(out).encode()
