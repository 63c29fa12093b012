# The app, the same on every runtime and board: the loop and its screen stack, the menu,
# opening a game (comments, not a docstring: this file is loaded with any part).
# At every start (code.py on CircuitPython, main.py on MicroPython):
#   main.py      run(hw): the store mounted, the first screens, a crash shown and restarted
#   loop.py      App: the screen stack fed by button events, one refresh a pass, the LEDs,
#                the screen's power, the data link
#   buttons.py   button timing: raw presses in, logical events out (portable)
#   unload.py    dropping a module from the heap, so a VM keeps only what it runs
# When a host talks over USB:
#   link.py      the data link's protocol, device side (portable; docs/records.md)
# In the menu's VM (a game runs in a VM of its own on the board):
#   menu.py      the main menu and the resume prompt
#   catalog.py   the games, from the registry and their descriptors (portable; let go once
#                a game is open)
#   loader.py    opening a game: its screens' module, found by its descriptor
#   launch.py    the hand-over into the game's VM, and the way back to the menu
# For a moment:
#   keeping.py   a finished game's record kept for the host, at its end
#   crash.py     a crash: printed, recorded, shown
#   trace.py     the heap and time trace, when settings.toml turns it on (the test lanes)
