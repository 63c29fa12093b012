"""The one error type commands raise: `main` prints it once, with its hint, and exits non-zero."""


class LunchboxError(Exception):
    """A problem the user can act on. ``hint`` says how to fix it."""

    exit_code = 1

    def __init__(self, message, hint=None):
        super().__init__(message)
        self.hint = hint


class UsageError(LunchboxError):
    exit_code = 2


def shown(path):
    """A path as a message shows it: bytes that are not UTF-8 (a file name from a non-UTF-8
    system, an environment variable) as \\xNN, not as the surrogates Python holds them in."""
    import os

    return os.fsencode(str(path)).decode("utf-8", "backslashreplace")


def printable(text, keep=""):
    """``text`` with what a terminal would act on (escape sequences, other control and format
    characters but those in ``keep``) as "?": a board types only letters, digits and "-", but
    what comes over the link is a device's word, and the commands print it."""
    return "".join(c if c.isprintable() or c in keep else "?" for c in text)
