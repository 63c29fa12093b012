"""Parse the LUNCHBOX_* values of settings.toml into a plain dict (portable).

On the device CircuitPython reads settings.toml itself and ``os.getenv`` hands us strings or
ints; the simulator renders a profile to the same text and reads it with ``parse_toml``, so the
device and the simulator interpret a profile the same way.
"""

ROLES = ("prev", "next", "ok", "back", "undo")
REQUIRED_ROLES = ("prev", "next", "ok", "back")
DISPLAYS = ("st7789", "ssd1306")


def parse_toml(text):
    """The subset of TOML CircuitPython's settings.toml accepts: ``KEY = "str"`` or ``KEY = int``.

    Returns a dict. Comments and blank lines are skipped; anything else raises ValueError.
    """
    values = {}
    for number, raw in enumerate(text.split("\n")):
        line = raw.strip()
        if not line or line[0] == "#" or line[0] == "[":
            continue
        eq = line.find("=")
        if eq <= 0:
            raise ValueError("settings.toml line {}: no '=' in {!r}".format(number + 1, raw))
        key = line[:eq].strip()
        value = line[eq + 1:].strip()
        if value.startswith('"'):
            end = value.find('"', 1)
            if end < 0:
                raise ValueError("settings.toml line {}: unclosed string".format(number + 1))
            values[key] = value[1:end]
        else:
            hash_at = value.find("#")
            if hash_at >= 0:
                value = value[:hash_at].strip()
            try:
                values[key] = int(value, 0)
            except ValueError:
                raise ValueError(
                    "settings.toml line {}: bad value {!r}".format(number + 1, value)
                ) from None
    return values


def parse_pairs(text, what):
    """``"sck=GP18 mosi=GP19"`` -> ``[("sck", "GP18"), ("mosi", "GP19")]`` (order kept)."""
    pairs = []
    for word in str(text).split():
        eq = word.find("=")
        if eq <= 0 or eq == len(word) - 1:
            raise ValueError("{}: bad entry {!r} (want name=PIN)".format(what, word))
        pairs.append((word[:eq], word[eq + 1:]))
    return pairs


def _str(getenv, key, default=None):
    value = getenv(key)
    if value is None:
        if default is None:
            raise ValueError("{} missing from settings.toml".format(key))
        return default
    return str(value)


def _int(getenv, key, default=None):
    value = _str(getenv, key, default)  # the default as it is, a setting as text
    if isinstance(value, str):
        try:
            return int(value, 0)
        except ValueError:
            raise ValueError("{} = {!r} is not a number".format(key, value)) from None
    return value


def read(getenv):
    """Build the hardware description from ``getenv`` (``os.getenv`` or ``dict.get``).

    Keys: profile board chip display width height rotation address spi_hz display_pins (dict)
    buttons (list of (role, pin), in key order) rgb_led (list of 3 pins or None)
    neopixel (pin or None) neopixel_count.
    """
    hw = {}
    hw["profile"] = _str(getenv, "LUNCHBOX_PROFILE", "unknown")
    hw["board"] = _str(getenv, "LUNCHBOX_BOARD", "")
    hw["chip"] = _str(getenv, "LUNCHBOX_CHIP", "RP2040")
    display = _str(getenv, "LUNCHBOX_DISPLAY")
    if display not in DISPLAYS:
        raise ValueError("LUNCHBOX_DISPLAY = {!r}: not one of {}".format(display, DISPLAYS))
    hw["display"] = display
    hw["width"] = _int(getenv, "LUNCHBOX_DISPLAY_WIDTH")
    hw["height"] = _int(getenv, "LUNCHBOX_DISPLAY_HEIGHT")
    if not (32 <= hw["width"] <= 480 and 32 <= hw["height"] <= 480):
        raise ValueError("display size {}x{} out of range".format(hw["width"], hw["height"]))
    hw["rotation"] = _int(getenv, "LUNCHBOX_DISPLAY_ROTATION", 0)
    if hw["rotation"] not in (0, 90, 180, 270):
        raise ValueError("LUNCHBOX_DISPLAY_ROTATION = {}: not 0/90/180/270".format(hw["rotation"]))
    hw["address"] = _int(getenv, "LUNCHBOX_DISPLAY_ADDRESS", 0x3C)
    # the SPI clock (FourWire's own default; the ST7789V writes at up to 62.5 MHz)
    hw["spi_hz"] = _int(getenv, "LUNCHBOX_DISPLAY_SPI_HZ", 24000000)
    if not 1000000 <= hw["spi_hz"] <= 62500000:
        raise ValueError("LUNCHBOX_DISPLAY_SPI_HZ = {}: not 1000000..62500000".format(
            hw["spi_hz"]))
    pins = {}
    for name, pin in parse_pairs(_str(getenv, "LUNCHBOX_DISPLAY_PINS", ""),
                                 "LUNCHBOX_DISPLAY_PINS"):
        pins[name] = pin
    need = ("sck", "mosi", "cs", "dc") if display == "st7789" else ("sda", "scl")
    for name in need:
        if name not in pins:
            raise ValueError("LUNCHBOX_DISPLAY_PINS: {} needs a {} pin".format(display, name))
    hw["display_pins"] = pins
    buttons = parse_pairs(_str(getenv, "LUNCHBOX_BUTTONS"), "LUNCHBOX_BUTTONS")
    for role, _pin in buttons:
        if role not in ROLES:
            raise ValueError("LUNCHBOX_BUTTONS: unknown role {!r}".format(role))
    for role in REQUIRED_ROLES:
        if role not in [r for r, _p in buttons]:
            raise ValueError("LUNCHBOX_BUTTONS: no button for {!r}".format(role))
    hw["buttons"] = buttons
    rgb = getenv("LUNCHBOX_RGB_LED")
    if rgb is not None:
        rgb = str(rgb).split()
        if len(rgb) != 3:
            raise ValueError("LUNCHBOX_RGB_LED: want 3 pins, got {!r}".format(" ".join(rgb)))
    hw["rgb_led"] = rgb
    neo = getenv("LUNCHBOX_NEOPIXEL")
    hw["neopixel"] = str(neo) if neo is not None else None
    hw["neopixel_count"] = _int(getenv, "LUNCHBOX_NEOPIXEL_COUNT", 8) if neo is not None else 0
    if hw["neopixel"] is not None and not 1 <= hw["neopixel_count"] <= 256:
        raise ValueError("LUNCHBOX_NEOPIXEL_COUNT = {}: out of range".format(hw["neopixel_count"]))
    return hw
