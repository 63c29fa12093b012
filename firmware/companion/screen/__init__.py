# The screens, described once for every runtime: a screen builds displayio's types (Group,
# TileGrid over a Bitmap and a Palette, vectorio's Rectangle), which CircuitPython's displayio
# draws and, on MicroPython, firmware/mplib/ (comments, not a docstring: this file is loaded
# with any part). Loaded with the app:
#   display.py    the display's metrics and colours: every widget lays itself out from them
#   screens.py    Screen (the stack's unit), the list, message, picker and confirm screens
#   ui.py         the widgets: title bar, list, toast, text block, rectangles
#   textlabel.py  text in the built-in font, one TileGrid a line
#   text.py       fitting words into a number of cells (portable)
# With a game:
#   game.py       GameScreen, every game's base: each action applied, saved, undoable; the
#                 record and the result at the end
#   tally.py      the table scoreboards' screen (Aqua Brunch, Space Battle, Space Days);
#   counters.py   pickers.py: their counters, read-only lines, chooser and number picker
