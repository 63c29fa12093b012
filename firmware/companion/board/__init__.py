# The board: what the app gets instead of `board` or `machine`, one object (hwbase.Hardware)
# built once a VM by the layer of the runtime it runs on, then let go: only the parts the app
# uses stay (comments, not a docstring: this file is loaded with any part).
#   hwbase.py     Hardware, the parts every layer gives, Relaunch
#   leds.py       the NeoPixels at the user's brightness
#   settings.py   settings.toml's LUNCHBOX_* values, as the build reads them (portable; let
#                 go after the build)
# CircuitPython (code.py):
#   hwpico.py     build(): the pins, the display's bus and panel, the LEDs (let go after)
#   picoparts.py  what stays: keypad's buttons, the battery, the watchdog, the reload
#   panelwake.py  the rest of a panel's power-on, sent once (then it lets itself go)
#   ssd1306.py    the OLED's set-up, for both layers (portable)
# MicroPython (main.py):
#   hwmp.py       build(): PicoGraphics' Display Pack or the OLED on framebuf (let go after)
#   mpparts.py    what stays: the panels, buttons by pin interrupts, the battery, the
#                 watchdog, the soft reset into the next VM
# On a PC the simulator builds the same object (host/lunchbox/sim/hw.py). Another board: a
# layer of its own here and a hardware profile (hardware/profiles/).
