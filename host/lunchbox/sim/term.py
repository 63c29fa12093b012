"""The simulator in a terminal: the screen as colour half-blocks (two pixel rows per text
row, 24-bit colour), keys read raw from stdin. For SSH sessions and headless machines.

Keys: arrows = prev/next, Enter or Space = OK, Backspace or Esc = back, u = undo (a long
back), o = a long OK, q or Ctrl-C = quit. A terminal reports no key releases, so every key is
a short press (the terminal's own key repeat gives the auto-repeat).
"""

import os
import select
import shutil
import sys

from ..errors import LunchboxError

UPPER = "\u2580"  # upper half block: foreground = top pixel, background = bottom pixel
HELP = "arrows prev/next  Enter OK  Backspace back  u undo  o long-OK  q quit"
LONG_MS = 900

KEYS = {
    b"\x1b[A": "prev", b"\x1b[D": "prev", b"\x1bOA": "prev", b"\x1bOD": "prev",
    b"\x1b[B": "next", b"\x1b[C": "next", b"\x1bOB": "next", b"\x1bOC": "next",
    b"\r": "ok", b"\n": "ok", b" ": "ok",
    b"\x7f": "back", b"\x08": "back", b"\x1b": "back",
    b"u": "undo", b"U": "undo", b"o": "long-ok", b"O": "long-ok",
    b"q": "quit", b"Q": "quit", b"\x03": "quit",
}
BUTTONS = {"prev": 0, "next": 1, "ok": 2, "back": 3}


def parse_keys(data):
    """Split raw terminal input into key names (unknown bytes are skipped)."""
    out = []
    i = 0
    while i < len(data):
        for n in (3, 1):
            chunk = bytes(data[i:i + n])
            if len(chunk) == n and chunk in KEYS and not (n == 1 and chunk == b"\x1b" and
                                                          data[i + 1:i + 2] in (b"[", b"O")):
                out.append(KEYS[chunk])
                i += n
                break
        else:
            if data[i:i + 2] in (b"\x1b[", b"\x1bO"):
                i += 3  # an escape sequence we do not use
            else:
                i += 1
    return out


def pick_factor(width, height, cols, lines):
    """The smallest whole downscale that fits the screen in cols x (lines - 3)."""
    f = 1
    while width // f > cols or (height // f + 1) // 2 > max(1, lines - 3):
        f += 1
    return f


def render_lines(rgb, factor=1, mono=False):
    """``rgb``: a (width, height, 3) array (pygame.surfarray) -> list of ANSI strings.

    Downscaling averages each block: grey edges keep white-on-black and black-on-white text
    equally readable (a thin stroke becomes grey, never vanishes). A terminal as wide as the
    screen (240 or 128 columns) shows it pixel for pixel. ``mono`` is kept for callers."""
    import numpy as np

    w, h = rgb.shape[0] // factor, rgb.shape[1] // factor
    a = rgb[: w * factor, : h * factor].reshape(w, factor, h, factor, 3).mean(axis=(1, 3))
    a = a.astype(np.int32)
    if h % 2:
        a = np.concatenate([a, np.zeros((w, 1, 3), dtype=np.int32)], axis=1)
        h += 1
    lines = []
    for y in range(0, h, 2):
        parts = []
        last = None
        for x in range(w):
            top = tuple(int(v) for v in a[x, y])
            bottom = tuple(int(v) for v in a[x, y + 1])
            if (top, bottom) != last:
                parts.append("\x1b[38;2;{};{};{}m\x1b[48;2;{};{};{}m".format(*top, *bottom))
                last = (top, bottom)
            parts.append(UPPER)
        parts.append("\x1b[0m")
        lines.append("".join(parts))
    return lines


class Terminal:
    def __init__(self, sim, stdin=None, stdout=None):
        self.sim = sim
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.fd = self.stdin.fileno()
        self.saved = None
        self.last = None

    def __enter__(self):
        if not os.isatty(self.fd):
            raise LunchboxError("the terminal simulator needs an interactive terminal",
                                "use --headless --keys \"...\" --screenshot out.png instead")
        import termios
        import tty

        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self.stdout.write("\x1b[?25l\x1b[2J")
        self.stdout.flush()
        return self

    def __exit__(self, *exc):
        import termios

        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        self.stdout.write("\x1b[0m\x1b[?25h\n")
        self.stdout.flush()
        return False

    def poll(self):
        data = b""
        while select.select([self.fd], [], [], 0)[0]:
            chunk = os.read(self.fd, 64)
            if not chunk:
                break
            data += chunk
        for key in parse_keys(data):
            if key == "quit":
                raise self.sim.sim_hw.SimStop()
            if key == "undo":
                self.sim.tap(3, LONG_MS)
            elif key == "long-ok":
                self.sim.tap(2, LONG_MS)
            else:
                self.sim.tap(BUTTONS[key])

    def draw(self):
        sim = self.sim
        pixels = tuple(sim.pixels.shown) if sim.pixels is not None else ()
        state = (sim.driver.refresh_count, pixels)
        if state == self.last:
            return
        self.last = state
        import pygame

        size = shutil.get_terminal_size((120, 40))
        w, h = sim.cfg["width"], sim.cfg["height"]
        factor = pick_factor(w, h, size.columns, size.lines)
        rgb = pygame.surfarray.array3d(sim.driver.surface)
        lines = render_lines(rgb, factor, sim.display.mono)
        leds = "".join("\x1b[38;2;{};{};{}m\u25cf".format(*(c if any(c) else (60, 60, 60)))
                       for c in pixels)
        out = ["\x1b[H"] + [line + "\n" for line in lines]
        if leds:
            out.append(leds + "\x1b[0m\x1b[K\n")
        footer = HELP
        if sim.link is not None:
            footer += "  data: " + sim.link.path
        out.append(footer[: size.columns] + "\x1b[K")
        self.stdout.write("".join(out))
        self.stdout.flush()
