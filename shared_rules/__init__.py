"""Portable rules engines for the Space Lunch family of games.

Runs unchanged on CPython 3.11+, CircuitPython 9/10 and MicroPython 1.2x: no I/O, no clock,
no hardware, no floats. See docs/design.md for the portability rules.
"""
