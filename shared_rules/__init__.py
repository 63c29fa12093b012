"""Portable rules engines for the Space Lunch family of games.

Runs unchanged on CPython 3.11+, CircuitPython 9/10 and MicroPython 1.2x: no I/O, no clock,
no hardware, no floats. See docs/design.md for the portability rules.
"""


# a module not imported yet (MicroPython's `from shared_rules import games` asks here first),
# else a module's name from before the games had folders (_renamed.py, read only then)
from shared_rules._compat import Package

__getattr__ = Package(__name__).attr
del Package
