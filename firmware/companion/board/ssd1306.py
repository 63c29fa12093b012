"""The SSD1306's set-up, one copy for both board layers (portable: no hardware imported).

hwpico gives it to busdisplay.BusDisplay on CircuitPython, hwmp sends it as plain commands on
MicroPython: adafruit_displayio_ssd1306's commands without its waits (BusDisplay follows a
command without a delay byte by 10 ms, 130 ms in every VM for these 13; the controller needs
none between commands: Adafruit's Arduino driver and MicroPython's send them back to back).
Display off, horizontal addressing, contrast, column 127 as segment 0, normal video, COM scan
down, mux ratio (height - 1), clock divide, pre-charge, COM pins (0x12; 0x02 for 32 or 16
rows), VCOMH, charge pump on, display on. Each command in BusDisplay's form: the command, its
argument count (0x80: a delay byte follows), the arguments, the delay.
"""

SETUP = (b"\xae\x80\x00" b"\x20\x81\x00\x00" b"\x81\x81\xcf\x00" b"\xa1\x80\x00"
         b"\xa6\x80\x00" b"\xc8\x80\x00" b"\xa8\x81\x3f\x00" b"\xd5\x81\x80\x00"
         b"\xd9\x81\xf1\x00" b"\xda\x81\x12\x00" b"\xdb\x81\x40\x00" b"\x8d\x81\x14\x00"
         b"\xaf\x80\x00")


def setup(width, height, rotation):
    """(init sequence, width, height, colstart, rowstart) for BusDisplay, patched for the
    panel's size as adafruit_displayio_ssd1306 3.0.6 patches it (tests compare the two for
    every size a profile may give)."""
    rows, cols = (width, height) if rotation % 180 else (height, width)  # the panel's own
    seq = bytearray(SETUP)
    mux = seq.index(b"\xa8\x81") + 2
    seq[mux] = 63 if (rows, cols) == (32, 64) else rows - 1  # the mux ratio (64x32: 63)
    if rows in (32, 16) and cols != 64:
        seq[seq.index(b"\xda\x81") + 2] = 0x02  # the COM pins'
    # a panel narrower than the controller's 128 columns sits in their middle
    colstart = rowstart = 0 if cols == 128 else (128 - cols) // 2
    if (width, height) in ((64, 48), (72, 40)):  # (as the profile gives them, unrotated)
        colstart, rowstart = (128 - width) // 2, 0
        if (width, height) == (72, 40):  # the 0.42" panel's internal IREF, before display on
            seq[-3:-3] = b"\xad\x81\x30\x00"
        if rotation % 180:
            seq[mux] = height - 1
            width, height = cols, rows
    return seq, width, height, colstart, rowstart
