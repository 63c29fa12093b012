# The turn clock: each seat's time in a game, counting up or as a chess clock (Settings >
# Clock; docs/records.md, "The turn clock"). clocks.py says what it does. Its code is in
# parts for the heap of a game's VM (docs/firmware.md): each part is imported where it is
# used, and this file holds nothing (comments, not a docstring: it is loaded with any part).
#
# At the app's start, when the clock is on or the saved game has one:
#   clocks.py      Clocks (app.clock): what the app asks of the clock
#   saves.py       a saved game with the clock's state in front of it (portable)
# Once a game's screen is built and on top, where the heap is tightest:
#   view.py        the Clock of the game on screen, in its title bar
#   state.py       TurnClock: each seat's time (portable)
#   corner.py      the clock in a corner of the screen, when the bar has no room
# For a moment, and let go after:
#   start.py       makes a game's clock (with the games' catalog and setting.py)
#   setting.py     Settings' clock byte: mode, minutes, bonus (portable)
#   rare.py        a long OK (pause, go on, pass it), the game's end, the game left
#   statebytes.py  a saved clock read back, and the times at a game's end (portable)
#   menu.py        Settings > Clock and Clock bonus (while Settings is open)
# On the host (records), never on the board:
#   envelope.py    a finished game's envelope with each seat's times, read back (portable)
#
# The portable parts have no displayio: `make portability` checks them and the MicroPython
# lane runs their tests.
