"""Lunchbox's device app, in a folder for each part (docs/design.md, "Parts"):

- app/: the loop and its screen stack, the menu, opening a game: the same on every runtime
- screen/: what a screen shows (the screen description) and the widgets it is built from
- board/: each runtime's board layer, behind one Hardware object
- store/: saves and records, power-cut safe (the nvm log; files on littlefs)
- settings/: Settings and Check the box
- turn_clock/, first_player/, power/: the table tools
- games/<game>/: each game's screens

Each folder's __init__.py says which of its modules load when. The portable ones (no
displayio, no hardware: they run on CPython, CircuitPython and MicroPython alike) are the
Makefile's PORTABLE."""

__version__ = "0.1.0"
