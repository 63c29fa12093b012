"""Lunchbox on MicroPython: build the hardware from /settings.toml and run the app (crash
screen and restart included). CircuitPython never runs this file: its code.py comes first.

A board that lacks something for its profile (Pimoroni's build, the renderer in /lib, a
settings.toml) says so in one line and stops here, at the REPL: no watchdog, no restart loop.
"""

import sys

# Only on the board: on a PC (firmware/ on sys.path) importing a module named "main" must do
# nothing.
if sys.implementation.name == "micropython":

    def _start():
        from companion.board import hwmp

        try:
            hw = hwmp.build()  # which unloads hwmp: only the parts the app runs stay
        except Exception as e:  # a wiring or settings error: said once, no restart loop
            print("Lunchbox: cannot start:", e)
            return
        del hwmp  # this frame lasts as long as the app: it must not keep the module
        if hw is None:
            return
        from companion.app import main
        from companion.board import mpparts

        hw.launched = mpparts.launched()  # the game (or menu) the last VM handed over to
        main.run(hw)

    _start()
    del _start
