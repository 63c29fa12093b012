# The screen's power and the battery (comments, not a docstring: this file is loaded with
# idle.py, at every app's start).
#   idle.py     when the idle screen dims and goes off, and the press that only wakes it;
#               LOW, the charge the warning comes at (portable; always loaded)
#   charge.py   the charge a LiPo's voltage means (portable; loaded on a battery only)
#   battery.py  the gauge in the title bar and the low-battery warning (displayio; loaded
#               the first time the box runs on its battery)
# The panel's own power-on at boot is the display's: companion/board/panelwake.py.
