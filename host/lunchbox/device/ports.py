"""The Pico's USB serial ports: which is the console, which the data channel, and asking a
running CircuitPython to reboot into its UF2 bootloader.

Roles come from the USB interface names CircuitPython gives its CDC interfaces
("CircuitPython CDC control" = console/REPL, "CircuitPython CDC2 control" = data). Port order
is not guaranteed, and pyserial alone does not report interface names on macOS and Windows, so
adafruit-board-toolkit's lister (which does) is preferred; the USB VID:PID is the fallback.
"""

import time

import serial

# USB ids CircuitPython uses on the supported boards (USB_VID/USB_PID in each board's
# ports/raspberrypi/boards/<id>/mpconfigboard.mk; the Pico 2 W's is Adafruit's 239A:8162).
KNOWN_IDS = {
    (0x239A, 0x80F4): "Raspberry Pi Pico",
    (0x239A, 0x8120): "Raspberry Pi Pico W",
    (0x2E8A, 0x000B): "Raspberry Pi Pico 2",
    (0x239A, 0x8162): "Raspberry Pi Pico 2 W",
}
ADAFRUIT_VID = 0x239A
# MicroPython's rp2 port (ports/rp2/mpconfigport.h: the Raspberry Pi vendor id, PID 0005; its
# one CDC interface, the REPL, is named "Board CDC"; Pimoroni's Pico builds keep both)
MICROPYTHON_IDS = {(0x2E8A, 0x0005): "MicroPython board"}
MICROPYTHON_INTERFACE = "Board CDC"

CONSOLE = "console"
DATA = "data"
UNKNOWN = "unknown"
MICROPYTHON = "micropython"  # a MicroPython board's REPL (files, records: device.mpboard)

# What on_next_reset(UF2) + reset() looks like typed at the REPL.
REPL_UF2_LINES = (
    b"import microcontroller\r\n",
    b"microcontroller.on_next_reset(microcontroller.RunMode.UF2)\r\n",
    b"microcontroller.reset()\r\n",
)


class Port:
    """One serial port and what it is for."""

    def __init__(self, device, vid=None, pid=None, interface=None, serial_number=None,
                 description=None):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.interface = interface
        self.serial_number = serial_number
        self.description = description
        self.role = role_of(interface, vid, pid)

    @property
    def board(self):
        return KNOWN_IDS.get((self.vid, self.pid)) or MICROPYTHON_IDS.get((self.vid, self.pid))

    def usb_id(self):
        if self.vid is None:
            return "?"
        return "{:04X}:{:04X}".format(self.vid, self.pid or 0)

    def describe(self):
        parts = [self.device, self.role, self.usb_id()]
        if self.interface:
            parts.append(repr(self.interface))
        elif self.board:
            parts.append(self.board)
        return " ".join(parts)


def role_of(interface, vid, pid):
    if interface:
        # The space after CDC / CDC2 matters: "CDC2" must not count as "CDC".
        if interface.startswith("CircuitPython CDC2 "):
            return DATA
        if interface.startswith("CircuitPython CDC "):
            return CONSOLE
    if (vid, pid) in MICROPYTHON_IDS or (interface or "").startswith(MICROPYTHON_INTERFACE):
        return MICROPYTHON
    return UNKNOWN


def _system_comports():
    try:
        from adafruit_board_toolkit import circuitpython_serial

        found = list(circuitpython_serial.comports())
    except Exception:  # the toolkit is a convenience; never let it stop a listing
        found = []
    from serial.tools import list_ports

    seen = {p.device for p in found}
    for p in list_ports.comports():
        if p.device not in seen:
            found.append(p)
    return found


def list_ports(comports=None):
    """CircuitPython- and MicroPython-looking serial ports: by interface name, or by a known
    VID:PID."""
    raw = (comports or _system_comports)()
    ports = []
    for p in raw:
        port = Port(p.device, getattr(p, "vid", None), getattr(p, "pid", None),
                    getattr(p, "interface", None), getattr(p, "serial_number", None),
                    getattr(p, "description", None))
        if port.role != UNKNOWN or (port.vid, port.pid) in KNOWN_IDS or (
            port.vid == ADAFRUIT_VID
        ):
            ports.append(port)
    return sorted(ports, key=lambda p: p.device)


def micropython_ports(ports):
    """The MicroPython boards' REPL ports."""
    return [p for p in ports if p.role == MICROPYTHON]


def circuitpython_ports(ports):
    return [p for p in ports if p.role != MICROPYTHON]


def console_ports(ports):
    """Ports to send the reboot request to: named consoles, else any port of a known board
    that is not named as a data port (an unnamed pair: try each)."""
    named = [p for p in ports if p.role == CONSOLE]
    if named:
        return named
    return [p for p in ports if p.role == UNKNOWN]


def touch_1200(device, open_serial=serial.Serial):
    """The 1200-baud touch: open at 1200 baud and close. CircuitPython on RP2 reboots into
    the UF2 bootloader when its console's line coding is set to 1200 baud and DTR drops."""
    port = open_serial(device, baudrate=1200)
    try:
        port.dtr = False
    except (OSError, serial.SerialException):
        pass  # pseudo-terminals and some drivers have no modem lines
    port.close()


def repl_reset_to_uf2(device, open_serial=serial.Serial, sleep=time.sleep):
    """Interrupt code.py, enter the REPL and type on_next_reset(UF2) + reset()."""
    port = open_serial(device, baudrate=115200, timeout=0.5, write_timeout=2)
    try:
        port.write(b"\x03\x03")  # Ctrl-C twice stops code.py
        sleep(0.3)
        port.write(b"\r")  # "Press any key to enter the REPL"
        sleep(0.5)
        port.reset_input_buffer()
        for line in REPL_UF2_LINES:
            port.write(line)
            port.flush()
            sleep(0.1)
    finally:
        try:
            port.close()
        except (OSError, serial.SerialException):
            pass  # the board has already gone: that is the point
