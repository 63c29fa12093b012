"""Pin facts for the RP2040 and RP2350 and the Pico boards that carry them.

The profile validator asks this module three things: is a pin name real on this board, which
SPI/I2C signal (and which bus instance) a GPIO can carry, and which PWM channel it drives.

Sources (checked against the RP2040 and RP2350 datasheets' GPIO function tables, the Raspberry
Pi Pico pinout, and CircuitPython's ``ports/raspberrypi/boards/*/pins.c``):

- Function 1 (SPI): GPIO n carries SPI instance ``(n // 8) % 2``; its signal is ``n % 4``:
  0 = RX (MISO), 1 = CSn, 2 = SCK, 3 = TX (MOSI). GP18/GP19 are SPI0 SCK/TX; GP10/GP11 SPI1.
- Function 3 (I2C): GPIO n carries I2C instance ``(n // 2) % 2``; even n is SDA, odd n SCL.
  GP4/GP5 are I2C0, GP2/GP3 I2C1, GP26/GP27 I2C1.
- PWM: GPIO n drives slice ``(n // 2) % 8``, channel A (even) or B (odd), so GPn and GPn+16
  share one PWM output.
- The RP2350 keeps the RP2040's SPI/I2C/PWM assignments on GPIO0-29 (it adds HSTX on GPIO12-19,
  a third PIO, and alternative UART functions). The Pico 2 carries the RP2350A (30 GPIOs) and
  has the Pico's pinout exactly.
- Pico and Pico 2: GP0-GP22 and GP26-GP28 reach the header; GP23 (SMPS mode), GP24 (VBUS
  sense), GP25 (the green LED) and GP29 (VSYS/3 monitor) are used on the board. Pico W and
  Pico 2 W: the wireless chip uses GP23, GP24, GP25 and GP29; the LED hangs off the wireless
  chip (``board.LED`` is not a GP pin).
"""

import re

SPI_SIGNALS = ("miso", "cs", "sck", "mosi")  # indexed by gpio % 4 (RX, CSn, SCK, TX)
I2C_SIGNALS = ("sda", "scl")  # indexed by gpio % 2

# chip -> number of GPIOs on the package the supported boards use
CHIPS = {
    "RP2040": 30,
    "RP2350": 30,  # RP2350A (QFN-60), as on the Pico 2
}

HEADER_GPIOS = tuple(range(0, 23)) + (26, 27, 28)

# The Pico's 40 header pins, numbered as printed on the board (1 = top left, USB up;
# 1-20 down the left side, 21-40 up the right side).
PICO_HEADER = (
    (1, "GP0"), (2, "GP1"), (3, "GND"), (4, "GP2"), (5, "GP3"), (6, "GP4"), (7, "GP5"),
    (8, "GND"), (9, "GP6"), (10, "GP7"), (11, "GP8"), (12, "GP9"), (13, "GND"), (14, "GP10"),
    (15, "GP11"), (16, "GP12"), (17, "GP13"), (18, "GND"), (19, "GP14"), (20, "GP15"),
    (21, "GP16"), (22, "GP17"), (23, "GND"), (24, "GP18"), (25, "GP19"), (26, "GP20"),
    (27, "GP21"), (28, "GND"), (29, "GP22"), (30, "RUN"), (31, "GP26"), (32, "GP27"),
    (33, "GND"), (34, "GP28"), (35, "ADC_VREF"), (36, "3V3(OUT)"), (37, "3V3_EN"),
    (38, "GND"), (39, "VSYS"), (40, "VBUS"),
)

# CircuitPython board id -> facts. "onboard" pins exist on the chip but are wired on the board.
BOARDS = {
    "raspberry_pi_pico": {
        "name": "Raspberry Pi Pico",
        "chip": "RP2040",
        "header": HEADER_GPIOS,
        "onboard": {23: "SMPS mode", 24: "VBUS sense", 25: "green LED", 29: "VSYS monitor"},
        "led": "GP25",
    },
    "raspberry_pi_pico_w": {
        "name": "Raspberry Pi Pico W",
        "chip": "RP2040",
        "header": HEADER_GPIOS,
        "onboard": {23: "wireless chip", 24: "wireless chip", 25: "wireless chip",
                    29: "wireless chip"},
        "led": "LED",  # on the CYW43439, not a GP pin
    },
    "raspberry_pi_pico2": {
        "name": "Raspberry Pi Pico 2",
        "chip": "RP2350",
        "header": HEADER_GPIOS,
        "onboard": {23: "SMPS mode", 24: "VBUS sense", 25: "green LED", 29: "VSYS monitor"},
        "led": "GP25",
    },
    "raspberry_pi_pico2_w": {
        "name": "Raspberry Pi Pico 2 W",
        "chip": "RP2350",
        "header": HEADER_GPIOS,
        "onboard": {23: "wireless chip", 24: "wireless chip", 25: "wireless chip",
                    29: "wireless chip"},
        "led": "LED",
    },
}

_PIN_RE = re.compile(r"^GP([0-9]|[1-9][0-9])$")


def gpio_number(name):
    """``"GP18"`` -> 18; anything else (``"GP018"``, ``"D5"``, 18) -> None."""
    if not isinstance(name, str):
        return None
    m = _PIN_RE.match(name)
    return int(m.group(1)) if m else None


def spi_function(gpio):
    """``(instance, signal)`` the GPIO carries on SPI, e.g. 18 -> (0, "sck")."""
    return (gpio // 8) % 2, SPI_SIGNALS[gpio % 4]


def i2c_function(gpio):
    """``(instance, signal)`` the GPIO carries on I2C, e.g. 4 -> (0, "sda")."""
    return (gpio // 2) % 2, I2C_SIGNALS[gpio % 2]


def pwm_channel(gpio):
    """The PWM output a GPIO drives, e.g. 20 -> "PWM2A" (GP4 drives it too)."""
    return "PWM{}{}".format((gpio // 2) % 8, "AB"[gpio % 2])


def header_pin(name):
    """The Pico header pin number of a GP pin name, or None when it is not on the header."""
    for number, label in PICO_HEADER:
        if label == name:
            return number
    return None


def check_pin(board, name):
    """None when ``name`` is a usable header pin on ``board``, else why not (a phrase)."""
    facts = BOARDS[board]
    n = gpio_number(name)
    if n is None:
        return "is not a pin name (write GP0 ... GP28)"
    if n >= CHIPS[facts["chip"]]:
        return "is not on the {} (it has GP0-GP{})".format(facts["chip"], CHIPS[facts["chip"]] - 1)
    if n in facts["onboard"]:
        return "is used on the {} board ({}) and is not on its header".format(
            facts["name"], facts["onboard"][n])
    if n not in facts["header"]:
        return "is not on the {} header".format(facts["name"])
    return None


def function_label(gpio, use):
    """A short label for the docs: what the pin does in this build, e.g. "SPI0 SCK"."""
    if use in SPI_SIGNALS and spi_function(gpio)[1] == use:
        return "SPI{} {}".format(spi_function(gpio)[0], use.upper())
    if use in I2C_SIGNALS:
        return "I2C{} {}".format(i2c_function(gpio)[0], use.upper())
    return use
