"""Hardware profiles: ``hardware/profiles/<id>.toml``, the one place pins are written.

``load_profile`` reads one (and by default refuses a broken one), ``validate`` lists what is
wrong with one (each message names the pin and the conflict), ``render_settings`` turns one into
the device's settings.toml. The format is described in docs/design.md ("Hardware profile").
"""

import os
import tomllib
from pathlib import Path

from ..errors import LunchboxError
from . import pins

PROFILES_DIR = Path(__file__).resolve().parents[3] / "hardware" / "profiles"

ROLES = ("prev", "next", "ok", "back", "undo")
REQUIRED_ROLES = ("prev", "next", "ok", "back")

# driver -> bus, pins it needs, pins it may have (in settings order), size limits
DRIVERS = {
    "st7789": {
        "bus": "spi",
        "pins": ("sck", "mosi", "cs", "dc"),
        "optional_pins": ("backlight", "reset"),
        "max_size": (320, 320),
        # the SPI clock: the ST7789V's serial write cycle is at least 16 ns (62.5 MHz); the
        # firmware's default is CircuitPython FourWire's own, safe on long jumper wires
        "spi_hz": (1000000, 62500000),
    },
    "ssd1306": {
        "bus": "i2c",
        "pins": ("sda", "scl"),
        "optional_pins": ("reset",),
        "max_size": (128, 64),
        "addresses": (0x3C, 0x3D),
    },
}

_TOP_KEYS = {"name", "board", "chip", "runtime", "display", "buttons", "leds", "power", "bom",
             "id"}
_DISPLAY_KEYS = {"driver", "part", "pack", "width", "height", "rotation", "address", "pins",
                 "spi_hz"}
_BUTTON_KEYS = {"pin", "role", "label"}
_LED_KEYS = {"rgb", "neopixel", "neopixel_count", "neopixel_optional"}
_BOM_KEYS = {"part", "qty", "source", "usd", "optional"}
_POWER_KEYS = {"battery"}
# [power] battery: what the firmware can read of the supply. "lipo": one LiPo cell on VSYS
# (e.g. through a LiPo SHIM), read through the board's VSYS/3 divider (board.VOLTAGE_MONITOR,
# GPIO29) with USB power seen on board.VBUS_SENSE (GPIO24; the wireless chip's CYW2 on a W).
BATTERIES = ("lipo",)
# the boards whose CircuitPython board module has both of those pins (circuitpython-stubs'
# board_definitions; tests/test_power_profiles.py checks it)
BATTERY_BOARDS = ("raspberry_pi_pico", "raspberry_pi_pico2", "raspberry_pi_pico_w",
                  "raspberry_pi_pico2_w")
# runtime = "...": the Python the board runs the firmware on (CircuitPython where the key is
# absent). MicroPython drives the displays through its own modules: an SSD1306 with the plain
# build's framebuf and machine.I2C, an ST7789 only through Pimoroni's build (its PicoGraphics
# module, whose DISPLAY_PICO_DISPLAY panel is the Pico Display Pack's 240x135), so a profile's
# runtime and display name the one UF2 it needs (``firmware_build``).
CIRCUITPYTHON = "circuitpython"
MICROPYTHON = "micropython"
RUNTIMES = (CIRCUITPYTHON, MICROPYTHON)
MICROPYTHON_ST7789_SIZE = (240, 135)
MICROPYTHON_CHIPS = ("RP2040",)  # the MicroPython builds the project boots and tests
MAX_PROFILE_BYTES = 64 * 1024  # a profile is about 2 KiB
MAX_PROFILE_DEPTH = 8  # [[buttons]] and rgb = [...] nest 2 deep
MAX_NEOPIXELS = 64  # more needs its own power supply and more RAM than the firmware plans for


def list_profiles(directory=None):
    """The ids (file stems) of the profiles in ``directory`` (default: hardware/profiles)."""
    return sorted(p.stem for p in Path(directory or PROFILES_DIR).glob("*.toml"))


def profile_path(name_or_path):
    """The file for a profile id or a path to a .toml file."""
    text = str(name_or_path)
    if text.endswith(".toml") or "/" in text or "\\" in text:
        return Path(text)
    return PROFILES_DIR / (text + ".toml")


def load_profile(name_or_path, check=True):
    """Read a profile by id (``"pico-display-pack"``) or path; adds ``"id"`` = the file stem.

    Raises LunchboxError for a missing or unparsable file and, with ``check`` (the default),
    for a profile that does not validate, listing every problem.
    """
    path = profile_path(name_or_path)
    try:
        exists = path.is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL in it
        exists = False
    if not exists:
        known = ", ".join(list_profiles()) or "none"
        raise LunchboxError(
            "no hardware profile {!r} ({} {})".format(
                str(name_or_path)[:80], str(path)[:200],
                "is not a file" if os.path.lexists(path) else "does not exist"),
            hint="use one of: " + known,
        )
    fix = "fix the file; docs/design.md shows the format"
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_PROFILE_BYTES + 1)
    except OSError as e:
        raise LunchboxError("cannot read hardware profile {}: {}".format(
            path, e.strerror or e)) from None
    if len(raw) > MAX_PROFILE_BYTES:
        raise LunchboxError("hardware profile {} is over {} KiB: not a profile".format(
            path, MAX_PROFILE_BYTES // 1024), hint=fix)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LunchboxError(
            "hardware profile {} is not UTF-8 text (byte 0x{:02X} on line {})".format(
                path, raw[e.start], raw[:e.start].count(b"\n") + 1),
            hint="save it as UTF-8 (TOML files must be)") from None
    depth = _nesting(text)
    if depth > MAX_PROFILE_DEPTH:
        raise LunchboxError("hardware profile {} nests tables or lists {} deep; a profile "
                            "needs at most 3".format(path, depth), hint=fix)
    try:
        profile = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LunchboxError(
            "hardware profile {} is not valid TOML: {}".format(path, e), hint=fix) from None
    except RecursionError:
        raise LunchboxError("hardware profile {} nests too deep".format(path),
                            hint=fix) from None
    profile["id"] = path.stem
    if check:
        problems = validate(profile)
        if problems:
            raise LunchboxError(
                "hardware profile {} has {} problem{}:\n  {}".format(
                    path, len(problems), "" if len(problems) == 1 else "s",
                    "\n  ".join(problems)),
                hint="fix the pins in {} (docs/design.md shows the format)".format(path),
            )
    return profile


def _nesting(text):
    """The deepest nesting of [ and { in ``text`` outside strings and comments (a rough
    count, enough to refuse a file that would exhaust tomllib's recursion)."""
    depth = deepest = 0
    quote = None
    comment = escaped = False
    for ch in text:
        if comment:
            comment = ch != "\n"
        elif quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote or ch == "\n":
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest


def _unknown_keys(table, allowed, where):
    return ["{}: unknown key {!r} (allowed: {})".format(where, k, ", ".join(sorted(allowed)))
            for k in sorted(table) if k not in allowed]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def validate(profile):
    """Every problem with ``profile`` (a dict as loaded), as messages; empty when it is fine.
    Each part of the file is checked by its own step, then the pins they use: on the board,
    used once, forming buses the chip has, not sharing a PWM output."""
    if not isinstance(profile, dict):
        return ["a profile is a TOML table, not {}".format(type(profile).__name__)]
    problems = _unknown_keys(profile, _TOP_KEYS, "profile")
    uses = []  # (pin name, what uses it), in file order
    board = _board(profile, problems)
    _runtime(profile, problems)
    facts, dpins = _display(profile, uses, problems)
    _buttons(_section(profile, "buttons", problems), uses, problems)
    leds = _leds(_section(profile, "leds", problems), uses, problems)
    _power(_section(profile, "power", problems), board, problems)
    seen = _pins_used_once(uses, board, problems)
    if facts:
        _bus(facts["bus"], dpins, seen, problems)
    _pwm(dpins, leds, seen, problems)
    _bom(_section(profile, "bom", problems), problems)
    return problems


_LISTS = ("buttons", "bom")  # [[buttons]] and [[bom]]: lists of tables; the rest are tables


def _section(profile, key, problems):
    """``profile[key]``, or an empty one (and a problem) when it is not what the key holds."""
    kind = list if key in _LISTS else dict
    value = profile.get(key, kind())
    if isinstance(value, kind):
        return value
    problems.append("profile: " + ("{0} must be [[{0}]] tables" if kind is list
                                   else "[{0}] must be a table").format(key))
    return kind()


def _board(profile, problems):
    """The board's id when it is one pins.BOARDS knows, else None."""
    for key in ("name", "board", "chip"):
        if not isinstance(profile.get(key), str) or not profile.get(key):
            problems.append("profile: {!r} is missing (a string)".format(key))
    # Only strings are looked up: a list or table where a name belongs (TOML allows any
    # value) is reported, never hashed.
    board = profile.get("board") if isinstance(profile.get("board"), str) else None
    chip = profile.get("chip") if isinstance(profile.get("chip"), str) else None
    if board and board not in pins.BOARDS:
        problems.append("board {!r} is not supported (known: {})".format(
            board, ", ".join(sorted(pins.BOARDS))))
    if chip and chip not in pins.CHIPS:
        problems.append("chip {!r} is not supported (known: {})".format(
            chip, ", ".join(sorted(pins.CHIPS))))
    if board in pins.BOARDS and chip in pins.CHIPS and pins.BOARDS[board]["chip"] != chip:
        problems.append("board {} carries the {}, not the {}".format(
            board, pins.BOARDS[board]["chip"], chip))
    return board if board in pins.BOARDS else None


def runtime(profile):
    """The profile's runtime: "circuitpython" (the default) or "micropython"."""
    return profile.get("runtime", CIRCUITPYTHON)


def firmware_build(profile):
    """Which build of the runtime the board needs: "circuitpython", "micropython" (the plain
    build) or "micropython-pimoroni" (Pimoroni's, with PicoGraphics: the ST7789 needs it)."""
    if runtime(profile) != MICROPYTHON:
        return CIRCUITPYTHON
    if (profile.get("display") or {}).get("driver") == "st7789":
        return "micropython-pimoroni"
    return MICROPYTHON


def _runtime(profile, problems):
    """The runtime named, and what MicroPython can drive."""
    value = profile.get("runtime", CIRCUITPYTHON)
    if not isinstance(value, str) or value not in RUNTIMES:
        problems.append("profile: runtime {!r} is not one the firmware runs on ({})".format(
            value, ", ".join(RUNTIMES)))
        return
    if value != MICROPYTHON:
        return
    chip = profile.get("chip")
    if isinstance(chip, str) and chip in pins.CHIPS and chip not in MICROPYTHON_CHIPS:
        problems.append("runtime micropython: the firmware runs on MicroPython on the {} "
                        "only, not the {}".format(", ".join(MICROPYTHON_CHIPS), chip))
    display = profile.get("display")
    if isinstance(display, dict) and display.get("driver") == "st7789":
        size = (display.get("width"), display.get("height"))
        if size != MICROPYTHON_ST7789_SIZE:
            problems.append(
                "runtime micropython: an st7789 is driven by Pimoroni's PicoGraphics "
                "(DISPLAY_PICO_DISPLAY, the Pico Display Pack's {}x{}), not {!r}x{!r}".format(
                    *(MICROPYTHON_ST7789_SIZE + size)))


def _display(profile, uses, problems):
    """(the driver's DRIVERS entry or None, the [display.pins] table)."""
    display = profile.get("display")
    if not isinstance(display, dict):
        problems.append("profile: [display] is missing")
        return None, {}
    if not display:
        return None, {}  # an empty [display]: nothing to check in it
    problems += _unknown_keys(display, _DISPLAY_KEYS, "[display]")
    driver = display.get("driver")
    facts = DRIVERS.get(driver) if isinstance(driver, str) else None
    if facts is None:
        problems.append("[display]: unknown display driver {!r} (known: {})".format(
            driver, ", ".join(sorted(DRIVERS))))
    dpins = display.get("pins", {})
    if not isinstance(dpins, dict):
        problems.append("[display.pins] must be a table")
        dpins = {}
    if facts:
        _display_for_driver(display, driver, facts, dpins, problems)
    for role in sorted(dpins):
        uses.append((dpins[role], "display " + str(role)))
    pack = display.get("pack")
    if isinstance(pack, (str, int, float)) and not isinstance(pack, bool):
        problems.append("[display]: pack must be true or false")
    return facts, dpins


# the least width or height the firmware lays its screens out on (companion/board/settings.py
# refuses a smaller one at start-up: a profile must not get that far)
MIN_SIDE = 32


def _display_for_driver(display, driver, facts, dpins, problems):
    """The size, rotation, address and pins the driver takes."""
    for key, limit in zip(("width", "height"), facts["max_size"]):
        v = display.get(key)
        if v is None:
            problems.append("[display]: {} is missing (pixels, {}..{} for {})".format(
                key, MIN_SIDE, limit, driver))
        elif not _is_int(v) or not MIN_SIDE <= v <= limit:
            problems.append("[display]: {} {!r} is not a sane {} size ({}..{})".format(
                key, v, driver, MIN_SIDE, limit))
    if display.get("rotation", 0) not in (0, 90, 180, 270):
        problems.append("[display]: rotation {!r} must be 0, 90, 180 or 270".format(
            display.get("rotation")))
    if facts["bus"] == "i2c":
        if display.get("address") not in facts["addresses"]:
            problems.append("[display]: I2C address {!r} is not one an {} answers on ({})".format(
                display.get("address"), driver,
                ", ".join("0x{:02X}".format(a) for a in facts["addresses"])))
    elif "address" in display:
        problems.append("[display]: address is only for I2C displays, not {}".format(driver))
    if "spi_hz" in display:
        hz = display["spi_hz"]
        if "spi_hz" not in facts:
            problems.append("[display]: spi_hz is only for SPI displays, not {}".format(driver))
        elif not _is_int(hz) or not facts["spi_hz"][0] <= hz <= facts["spi_hz"][1]:
            problems.append("[display]: spi_hz {!r} is not an SPI clock the {} takes "
                            "({}..{} Hz)".format(hz, driver, *facts["spi_hz"]))
    takes = facts["pins"] + facts["optional_pins"]
    for role in facts["pins"]:
        if role not in dpins:
            problems.append("[display.pins]: {} needs a {} pin".format(driver, role))
    for role in sorted(dpins):
        if role not in takes:
            problems.append("[display.pins]: {} has no {!r} pin (it uses: {})".format(
                driver, role, ", ".join(takes)))


def _buttons(buttons, uses, problems):
    roles_seen = {}
    for i, button in enumerate(buttons):
        where = "button {}".format(i + 1)
        if not isinstance(button, dict):
            problems.append("{}: must be a table".format(where))
            continue
        problems += _unknown_keys(button, _BUTTON_KEYS, where)
        role = button.get("role")
        if "label" in button and not isinstance(button["label"], str):
            problems.append("{}: label {!r} must be a string".format(where, button["label"]))
        if "pin" not in button:
            problems.append("{} ({}): has no pin".format(where, role))
        else:
            uses.append((button["pin"], "button {}".format(role)))
        if role not in ROLES:
            problems.append("{} on {}: unknown role {!r} (roles: {})".format(
                where, button.get("pin"), role, ", ".join(ROLES)))
        elif role in roles_seen:
            problems.append("role {!r} is on two buttons: {} and {}".format(
                role, roles_seen[role], button.get("pin")))
        else:
            roles_seen[role] = button.get("pin")
    for role in REQUIRED_ROLES:
        if role not in roles_seen:
            problems.append("no button has the {!r} role (the UI needs prev, next, ok and back)"
                            .format(role))


def _leds(leds, uses, problems):
    problems += _unknown_keys(leds, _LED_KEYS, "[leds]")
    if "rgb" in leds:
        rgb = leds["rgb"]
        if not isinstance(rgb, list) or len(rgb) != 3:
            problems.append("[leds]: rgb must list three pins (red, green, blue), got {!r}"
                            .format(rgb))
        else:
            for colour, pin in zip(("red", "green", "blue"), rgb):
                uses.append((pin, "RGB LED " + colour))
    if "neopixel" in leds:
        uses.append((leds["neopixel"], "NeoPixel data"))
        count = leds.get("neopixel_count")
        if not _is_int(count) or not 1 <= count <= MAX_NEOPIXELS:
            problems.append("[leds]: neopixel_count {!r} on {} must be 1..{}".format(
                count, leds["neopixel"], MAX_NEOPIXELS))
    else:
        for key in ("neopixel_count", "neopixel_optional"):
            if key in leds:
                problems.append("[leds]: {} without a neopixel pin".format(key))
    if "neopixel_optional" in leds and not isinstance(leds["neopixel_optional"], bool):
        problems.append("[leds]: neopixel_optional must be true or false")
    return leds


def _power(power, board, problems):
    """What the board can read of its supply."""
    problems += _unknown_keys(power, _POWER_KEYS, "[power]")
    if "battery" not in power:
        return
    battery = power["battery"]
    if not isinstance(battery, str) or battery not in BATTERIES:
        problems.append("[power]: battery {!r} is not one the firmware reads ({})".format(
            battery, ", ".join(BATTERIES)))
    elif board is not None and board not in BATTERY_BOARDS:
        problems.append("[power]: board {} has no VOLTAGE_MONITOR and VBUS_SENSE to read "
                        "the battery with".format(board))


def _pins_used_once(uses, board, problems):
    """{pin: what uses it} of the pins that are real and on the header; a problem for each
    that is not, or that something else uses already."""
    seen = {}
    for pin, what in uses:
        why = pins.check_pin(board, pin) if board is not None else (
            None if pins.gpio_number(pin) is not None
            else "is not a pin name (write GP0 ... GP28)")
        if why:
            problems.append("{} pin {!r} {}".format(what, pin, why))
        elif pin in seen:
            problems.append("{} is used twice: by {} and by {}".format(pin, seen[pin], what))
        else:
            seen[pin] = what
    return seen


# the display signals a bus takes, and the chip's table of which GPIO can be which
_BUSES = {"spi": ("SPI", ("sck", "mosi", "miso"), pins.spi_function),
          "i2c": ("I2C", ("sda", "scl"), pins.i2c_function)}


def _bus(kind, dpins, seen, problems):
    """The display's bus pins: each able to be its signal, all on one of the chip's
    instances of that bus."""
    bus, roles, function = _BUSES[kind]
    found = {}  # role: (gpio, instance)
    for role in roles:
        pin = dpins.get(role)
        if not (isinstance(pin, str) and pin in seen):
            continue
        n = pins.gpio_number(pin)
        instance, signal = function(n)
        if signal != role:
            problems.append("display {} pin GP{} cannot be {} {} (it is {}{} {})".format(
                role, n, bus, role.upper(), bus, instance, signal.upper()))
        else:
            found[role] = (n, instance)
    if len({inst for _, inst in found.values()}) < 2:
        return
    if kind == "spi":
        problems.append("display SPI pins are on different SPI instances: {}".format(
            ", ".join("{} GP{} is SPI{}".format(role, n, inst)
                      for role, (n, inst) in sorted(found.items()))))
    else:
        problems.append(
            "display I2C pins are on different I2C instances: SDA GP{} is I2C{}, "
            "SCL GP{} is I2C{}".format(found["sda"][0], found["sda"][1],
                                       found["scl"][0], found["scl"][1]))


def _pwm(dpins, leds, seen, problems):
    """The backlight and the RGB LED are dimmed by PWM: two on one output clash."""
    users = [(dpins.get("backlight"), "display backlight")]
    rgb = leds.get("rgb")
    for colour, pin in zip(("red", "green", "blue"), rgb if isinstance(rgb, list) else []):
        users.append((pin, "RGB LED " + colour))
    channels = {}
    for pin, what in users:
        if not (isinstance(pin, str) and pin in seen):
            continue
        channel = pins.pwm_channel(pins.gpio_number(pin))
        if channel in channels:
            other_pin, other = channels[channel]
            problems.append("{} ({}) and {} ({}) share PWM output {}: both cannot dim".format(
                pin, what, other_pin, other, channel))
        else:
            channels[channel] = (pin, what)


def _bom(bom, problems):
    """The bill of materials (documentation)."""
    for i, item in enumerate(bom):
        where = "bom item {}".format(i + 1)
        if not isinstance(item, dict):
            problems.append(where + ": must be a table")
            continue
        problems += _unknown_keys(item, _BOM_KEYS, where)
        if not isinstance(item.get("part"), str):
            problems.append(where + ": part is missing")
        if not _is_int(item.get("qty")) or item.get("qty") < 1:
            problems.append("{}: qty {!r} must be a positive integer"
                            .format(where, item.get("qty")))
        usd = item.get("usd")
        if not isinstance(usd, (int, float)) or isinstance(usd, bool) or usd < 0:
            problems.append("{}: usd {!r} must be a price".format(where, usd))


def button_roles(profile):
    """``[(role, pin, label)]`` in the UI's role order (prev, next, ok, back, undo)."""
    by_role = {b.get("role"): b for b in profile.get("buttons", [])}
    return [(r, by_role[r]["pin"], by_role[r].get("label", r)) for r in ROLES if r in by_role]


def display_pin_order(profile):
    """The display's pin roles in settings order: the driver's required, then optional ones."""
    facts = DRIVERS[profile["display"]["driver"]]
    dpins = profile["display"].get("pins", {})
    return [r for r in facts["pins"] + facts["optional_pins"] if r in dpins]


# CircuitPython's own key for the Python heap's first area (CircuitPython 9+). By default the
# heap starts at 8 KB and grows by doubling areas taken from the outer heap; on an RP2040 the
# areas it ends with leave several KB in pieces no one object can use (the lane measured a
# two-player Space Lunch with the chess clock failing that way on the Display Pack, and
# completing with the heap made one area from the start): docs/firmware.md, "One heap area".
# Too large for a build to allocate, CircuitPython falls back to its 8 KB start: as without it.
HEAP_START_SIZE = {"RP2040": 163840}
HEAP_START_KEY = "CIRCUITPY_HEAP_START_SIZE"


def render_settings(profile):
    """The device's settings.toml for ``profile`` (exactly the keys docs/design.md lists)."""
    problems = validate(profile)
    if problems:
        raise LunchboxError(
            "hardware profile {} is not valid: {}".format(profile.get("id", "?"),
                                                          "; ".join(problems)),
            hint="run `lunchbox profile validate`",
        )
    if "id" not in profile:
        raise LunchboxError("profile has no id (load it with load_profile)")
    display = profile["display"]
    dpins = display.get("pins", {})
    lines = [
        ("LUNCHBOX_PROFILE", profile["id"]),
        ("LUNCHBOX_BOARD", profile["board"]),
        ("LUNCHBOX_CHIP", profile["chip"]),
    ]
    if runtime(profile) == MICROPYTHON:  # CircuitPython where absent, as in the profile
        lines.append(("LUNCHBOX_RUNTIME", MICROPYTHON))
    lines += [
        ("LUNCHBOX_DISPLAY", display["driver"]),
        ("LUNCHBOX_DISPLAY_WIDTH", display["width"]),
        ("LUNCHBOX_DISPLAY_HEIGHT", display["height"]),
        ("LUNCHBOX_DISPLAY_ROTATION", display.get("rotation", 0)),
    ]
    if DRIVERS[display["driver"]]["bus"] == "i2c":
        lines.append(("LUNCHBOX_DISPLAY_ADDRESS", display["address"]))
    if "spi_hz" in display:
        lines.append(("LUNCHBOX_DISPLAY_SPI_HZ", display["spi_hz"]))
    lines.append(("LUNCHBOX_DISPLAY_PINS", " ".join(
        "{}={}".format(r, dpins[r]) for r in display_pin_order(profile))))
    lines.append(("LUNCHBOX_BUTTONS", " ".join(
        "{}={}".format(role, pin) for role, pin, _ in button_roles(profile))))
    leds = profile.get("leds", {})
    if "rgb" in leds:
        lines.append(("LUNCHBOX_RGB_LED", " ".join(leds["rgb"])))
    if "neopixel" in leds:
        lines.append(("LUNCHBOX_NEOPIXEL", leds["neopixel"]))
        lines.append(("LUNCHBOX_NEOPIXEL_COUNT", leds["neopixel_count"]))
    battery = profile.get("power", {}).get("battery")
    if battery:
        lines.append(("LUNCHBOX_BATTERY", battery))
    if runtime(profile) != MICROPYTHON and profile["chip"] in HEAP_START_SIZE:
        # CircuitPython's own key (MicroPython's heap is one area from the start)
        lines.append((HEAP_START_KEY, HEAP_START_SIZE[profile["chip"]]))
    out = []
    for key, value in lines:
        if isinstance(value, str):
            out.append('{} = "{}"'.format(key, value))
        else:
            out.append("{} = {}".format(key, value))
    return "\n".join(out) + "\n"
