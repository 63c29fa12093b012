"""A one-line progress bar for the commands (the library layers only call callbacks)."""

import sys


class Bar:
    """``Bar(label)(done, total, name)`` redraws; ``close()`` ends the line.

    On a terminal it redraws in place; elsewhere (a log, CI) it stays silent until close(),
    which prints one summary line, so logs are not flooded with carriage returns.
    """

    def __init__(self, label, stream=None, width=30):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.done = 0
        self.total = None
        self.used = False

    def __call__(self, done, total=None, name=""):
        self.done, self.total, self.used = done, total, True
        if self.tty:
            self.stream.write("\r" + self.render(name))
            self.stream.flush()

    def render(self, name=""):
        if self.total:
            frac = min(1.0, self.done / self.total)
            filled = int(frac * self.width)
            bar = "#" * filled + "-" * (self.width - filled)
            text = "{} [{}] {:3d}% {}/{} KiB".format(
                self.label, bar, int(frac * 100), self.done // 1024, self.total // 1024)
        else:
            text = "{} {} KiB".format(self.label, self.done // 1024)
        if name:
            text += " " + name[-30:]
        return "{:<100}".format(text)[:100]

    def close(self):
        if not self.used:
            return
        if self.tty:
            self.stream.write("\n")
        else:
            self.stream.write(self.render().rstrip() + "\n")
        self.stream.flush()
