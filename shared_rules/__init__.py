"""Portable rules engines for the Space Lunch family of games.

Runs unchanged on CPython 3.11+, CircuitPython 9/10 and MicroPython 1.2x: no I/O, no clock,
no hardware, no floats. See docs/design.md for the portability rules.

A game's modules are in its folder and are imported by that path, the same on all three:
``from shared_rules.lets_do_lunch import match`` or ``from shared_rules.lets_do_lunch.match
import Match`` (docs/adding-a-game.md). No ``__getattr__`` here: with one, MicroPython asks it
before it looks for a submodule's file, and without one ``from shared_rules import games``
finds the file on every interpreter.
"""
