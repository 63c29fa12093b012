"""Lunchbox: build the hardware from settings.toml and run the app (crash screen and restart
included)."""

import sys

# Only on the device: on a PC, with firmware/ on sys.path (simulator, tests), this file could be
# imported as the stdlib's ``code`` module, and importing it there must do nothing.
if sys.implementation.name == "circuitpython":
    from companion import hwpico, main

    main.run(hwpico.build())
