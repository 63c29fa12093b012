"""The tiny assertion harness for portable tests.

Portable test modules (tests/portable/test_*.py) are written in the subset that runs on
MicroPython: plain ``assert`` and this ``raises``. pytest collects them on CPython as usual, and
the MicroPython lane (tests/test_micropython_lane.py) runs the very same modules on the real
MicroPython interpreter.
"""


class raises:
    """``with raises(ValueError, "bad card"):`` passes only if the block raises that type and,
    when ``match`` is given, the message contains it. The exception is kept in ``.value``."""

    def __init__(self, exc_type, match=None):
        self.exc_type = exc_type
        self.match = match
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            raise AssertionError("expected {} to be raised".format(self.exc_type.__name__))
        if not issubclass(exc_type, self.exc_type):
            return False  # let the unexpected exception propagate with its own traceback
        if self.match is not None and self.match not in str(exc):
            raise AssertionError(
                "{} raised with message {!r}, which does not contain {!r}".format(
                    exc_type.__name__, str(exc), self.match
                )
            )
        self.value = exc
        return True


def refuses(fn, values, match=None):
    """``fn(v)`` raises ValueError for every ``v`` in ``values`` (its message containing
    ``match``, when given): a constructor's player counts out of range, actions off the list."""
    for v in values:
        with raises(ValueError, match):
            fn(v)
