"""Hardware profiles: ``hardware/profiles/<id>.toml``, the one place pins are written.

``load_profile`` reads one (and by default refuses a broken one), ``validate`` lists what is
wrong with one (each message names the pin and the conflict), ``render_settings`` turns one into
the device's settings.toml. The format is described in docs/design.md ("Hardware profile").
"""

import os
import tomllib
from pathlib import Path

from . import pins
from .errors import LunchboxError

PROFILES_DIR = Path(__file__).resolve().parents[2] / "hardware" / "profiles"

ROLES = ("prev", "next", "ok", "back", "undo")
REQUIRED_ROLES = ("prev", "next", "ok", "back")

# driver -> bus, pins it needs, pins it may have (in settings order), size limits
DRIVERS = {
    "st7789": {
        "bus": "spi",
        "pins": ("sck", "mosi", "cs", "dc"),
        "optional_pins": ("backlight", "reset"),
        "max_size": (320, 320),
    },
    "ssd1306": {
        "bus": "i2c",
        "pins": ("sda", "scl"),
        "optional_pins": ("reset",),
        "max_size": (128, 64),
        "addresses": (0x3C, 0x3D),
    },
}

_TOP_KEYS = {"name", "board", "chip", "display", "buttons", "leds", "bom", "id"}
_DISPLAY_KEYS = {"driver", "part", "pack", "width", "height", "rotation", "address", "pins"}
_BUTTON_KEYS = {"pin", "role", "label"}
_LED_KEYS = {"rgb", "neopixel", "neopixel_count", "neopixel_optional"}
_BOM_KEYS = {"part", "qty", "source", "usd", "optional"}
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
    """Every problem with ``profile`` (a dict as loaded), as messages; empty when it is fine."""
    problems = []
    if not isinstance(profile, dict):
        return ["a profile is a TOML table, not {}".format(type(profile).__name__)]
    problems += _unknown_keys(profile, _TOP_KEYS, "profile")
    for key in ("name", "board", "chip"):
        if not isinstance(profile.get(key), str) or not profile.get(key):
            problems.append("profile: {!r} is missing (a string)".format(key))
    # Only strings are looked up below: a list or table where a name belongs (TOML allows
    # any value) is reported, never hashed.
    board = profile.get("board") if isinstance(profile.get("board"), str) else None
    chip = profile.get("chip") if isinstance(profile.get("chip"), str) else None
    if isinstance(board, str) and board and board not in pins.BOARDS:
        problems.append("board {!r} is not supported (known: {})".format(
            board, ", ".join(sorted(pins.BOARDS))))
        board = None
    if isinstance(chip, str) and chip and chip not in pins.CHIPS:
        problems.append("chip {!r} is not supported (known: {})".format(
            chip, ", ".join(sorted(pins.CHIPS))))
    if board in pins.BOARDS and chip in pins.CHIPS and pins.BOARDS[board]["chip"] != chip:
        problems.append("board {} carries the {}, not the {}".format(
            board, pins.BOARDS[board]["chip"], chip))
    if board not in pins.BOARDS:
        board = None

    uses = []  # (pin name, what uses it), in file order

    # --- display
    display = profile.get("display")
    if not isinstance(display, dict):
        problems.append("profile: [display] is missing")
        display = {}
    else:
        problems += _unknown_keys(display, _DISPLAY_KEYS, "[display]")
    driver = display.get("driver")
    facts = DRIVERS.get(driver) if isinstance(driver, str) else None
    if display and facts is None:
        problems.append("[display]: unknown display driver {!r} (known: {})".format(
            driver, ", ".join(sorted(DRIVERS))))
    dpins = display.get("pins", {})
    if display and not isinstance(dpins, dict):
        problems.append("[display.pins] must be a table")
        dpins = {}
    if facts:
        for key in ("width", "height"):
            v = display.get(key)
            limit = facts["max_size"][0 if key == "width" else 1]
            if v is None:
                problems.append("[display]: {} is missing (pixels, 8..{} for {})".format(
                    key, limit, driver))
            elif not _is_int(v) or not 8 <= v <= limit:
                problems.append("[display]: {} {!r} is not a sane {} size (8..{})".format(
                    key, v, driver, limit))
        if display.get("rotation", 0) not in (0, 90, 180, 270):
            problems.append("[display]: rotation {!r} must be 0, 90, 180 or 270".format(
                display.get("rotation")))
        if facts["bus"] == "i2c":
            if display.get("address") not in facts["addresses"]:
                problems.append("[display]: I2C address {!r} is not one an {} answers on ({})"
                                .format(display.get("address"), driver,
                                        ", ".join("0x{:02X}".format(a)
                                                  for a in facts["addresses"])))
        elif "address" in display:
            problems.append("[display]: address is only for I2C displays, not {}".format(driver))
        for role in facts["pins"]:
            if role not in dpins:
                problems.append("[display.pins]: {} needs a {} pin".format(driver, role))
        for role in sorted(dpins):
            if role not in facts["pins"] + facts["optional_pins"]:
                problems.append("[display.pins]: {} has no {!r} pin (it uses: {})".format(
                    driver, role, ", ".join(facts["pins"] + facts["optional_pins"])))
    for role in sorted(dpins):
        uses.append((dpins[role], "display " + str(role)))
    if isinstance(display.get("pack"), (str, int, float)) and not isinstance(
            display.get("pack"), bool):
        problems.append("[display]: pack must be true or false")

    # --- buttons
    buttons = profile.get("buttons", [])
    if not isinstance(buttons, list):
        problems.append("profile: buttons must be [[buttons]] tables")
        buttons = []
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
        elif not isinstance(role, str):
            continue  # reported just above (ROLES holds only strings)
        elif role in roles_seen:
            problems.append("role {!r} is on two buttons: {} and {}".format(
                role, roles_seen[role], button.get("pin")))
        else:
            roles_seen[role] = button.get("pin")
    for role in REQUIRED_ROLES:
        if role not in roles_seen:
            problems.append("no button has the {!r} role (the UI needs prev, next, ok and back)"
                            .format(role))

    # --- LEDs
    leds = profile.get("leds", {})
    if not isinstance(leds, dict):
        problems.append("profile: [leds] must be a table")
        leds = {}
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

    # --- pins: real, on the header, used once
    seen = {}
    for pin, what in uses:
        if board is not None:
            why = pins.check_pin(board, pin)
            if why:
                problems.append("{} pin {!r} {}".format(what, pin, why))
                continue
        elif pins.gpio_number(pin) is None:
            problems.append("{} pin {!r} is not a pin name (write GP0 ... GP28)".format(what, pin))
            continue
        if pin in seen:
            problems.append("{} is used twice: by {} and by {}".format(pin, seen[pin], what))
        else:
            seen[pin] = what

    # --- buses the chip can really form
    def used(pin):
        return isinstance(pin, str) and pin in seen

    def gpio(role):
        pin = dpins.get(role)
        return pins.gpio_number(pin) if used(pin) else None

    def bus_pins(roles, function, bus):
        """{role: (gpio, instance)} of the display pins that can be that signal of ``bus``;
        a problem for each that cannot."""
        found = {}
        for role in roles:
            n = gpio(role)
            if n is None:
                continue
            instance, signal = function(n)
            if signal != role:
                problems.append("display {} pin GP{} cannot be {} {} (it is {}{} {})".format(
                    role, n, bus, role.upper(), bus, instance, signal.upper()))
            else:
                found[role] = (n, instance)
        return found

    if facts and facts["bus"] == "spi":
        signals = bus_pins(("sck", "mosi", "miso"), pins.spi_function, "SPI")
        if len({inst for _, inst in signals.values()}) > 1:
            problems.append("display SPI pins are on different SPI instances: {}".format(
                ", ".join("{} GP{} is SPI{}".format(role, n, inst)
                          for role, (n, inst) in sorted(signals.items()))))
    if facts and facts["bus"] == "i2c":
        found = bus_pins(("sda", "scl"), pins.i2c_function, "I2C")
        if len(found) == 2 and found["sda"][1] != found["scl"][1]:
            problems.append(
                "display I2C pins are on different I2C instances: SDA GP{} is I2C{}, "
                "SCL GP{} is I2C{}".format(found["sda"][0], found["sda"][1],
                                           found["scl"][0], found["scl"][1]))

    # --- PWM: the backlight and the RGB LED are dimmed by PWM; two on one channel clash
    pwm_users = [(dpins.get("backlight"), "display backlight")]
    rgb = leds.get("rgb")
    for colour, pin in zip(("red", "green", "blue"), rgb if isinstance(rgb, list) else []):
        pwm_users.append((pin, "RGB LED " + colour))
    channels = {}
    for pin, what in pwm_users:
        if not used(pin):
            continue
        channel = pins.pwm_channel(pins.gpio_number(pin))
        if channel in channels:
            other_pin, other = channels[channel]
            problems.append("{} ({}) and {} ({}) share PWM output {}: both cannot dim".format(
                pin, what, other_pin, other, channel))
        else:
            channels[channel] = (pin, what)

    # --- bill of materials (documentation)
    bom = profile.get("bom", [])
    if not isinstance(bom, list):
        problems.append("profile: bom must be [[bom]] tables")
        bom = []
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
    return problems


def button_roles(profile):
    """``[(role, pin, label)]`` in the UI's role order (prev, next, ok, back, undo)."""
    by_role = {b.get("role"): b for b in profile.get("buttons", [])}
    return [(r, by_role[r]["pin"], by_role[r].get("label", r)) for r in ROLES if r in by_role]


def display_pin_order(profile):
    """The display's pin roles in settings order: the driver's required, then optional ones."""
    facts = DRIVERS[profile["display"]["driver"]]
    dpins = profile["display"].get("pins", {})
    return [r for r in facts["pins"] + facts["optional_pins"] if r in dpins]


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
        ("LUNCHBOX_DISPLAY", display["driver"]),
        ("LUNCHBOX_DISPLAY_WIDTH", display["width"]),
        ("LUNCHBOX_DISPLAY_HEIGHT", display["height"]),
        ("LUNCHBOX_DISPLAY_ROTATION", display.get("rotation", 0)),
    ]
    if DRIVERS[display["driver"]]["bus"] == "i2c":
        lines.append(("LUNCHBOX_DISPLAY_ADDRESS", display["address"]))
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
    out = []
    for key, value in lines:
        if isinstance(value, str):
            out.append('{} = "{}"'.format(key, value))
        else:
            out.append("{} = {}".format(key, value))
    return "\n".join(out) + "\n"
