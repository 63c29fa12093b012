"""Lunchbox: build the hardware from settings.toml and run the app (crash screen and restart
included)."""

import sys

# Only on the device: on a PC this file can be found as the stdlib's ``code`` module (pytest's
# pythonpath has firmware/), and importing it there must do nothing.
if sys.implementation.name == "circuitpython":
    from companion import hwpico, main

    main.run(hwpico.build())
