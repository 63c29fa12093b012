# Who starts a game: the main menu's "First player", and the same fair pick in a scoreboard's
# "Who starts?" list. Loaded only while a pick is on screen; pick.release() lets its modules
# go, this package too (comments, not a docstring: this file is loaded with them).
#   pick.py    the pick, drawn at once, and its spin over the names and the LEDs; TablePick
#              is a scoreboard's (compiled without screen.py, while its heap is full)
#   screen.py  the menu's "First player": how many play, then the spin
