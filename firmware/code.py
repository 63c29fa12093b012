"""Lunchbox: build the hardware from settings.toml and run the app (crash screen and restart
included)."""

import sys

# Only on the device: on a PC, with firmware/ on sys.path (simulator, tests), this file could be
# imported as the stdlib's ``code`` module, and importing it there must do nothing.
if sys.implementation.name == "circuitpython":
    from companion.app import main
    from companion.board.hwpico import build

    hw = build()  # which unloads hwpico: only the parts the app runs stay in the heap
    del build
    main.run(hw)
