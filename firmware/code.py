"""Lunchbox: build the hardware from settings.toml and run the app (crash screen and restart
included)."""

from companion import hwpico, main

main.run(hwpico.build())
