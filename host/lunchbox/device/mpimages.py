"""The MicroPython images the MicroPython profiles run (the ones the MicroPython lane boots),
where to get them, and which profiles take each: what flash's checks and doctor's fixes say."""

from ..errors import LunchboxError
from ..hardware import profiles

MICROPYTHON_IMAGES = {
    "micropython": ("MicroPython 1.24.1 for the Pico (RPI_PICO-20241129-v1.24.1.uf2)",
                    "https://micropython.org/download/RPI_PICO/"),
    "micropython-pimoroni": ("Pimoroni's MicroPython for the Pico, with PicoGraphics "
                             "(pico-v1.23.0-1-pimoroni-micropython.uf2 or later)",
                             "https://github.com/pimoroni/pimoroni-pico/releases"),
}


def micropython_profiles(build=None):
    """The MicroPython profiles' ids (those whose build is ``build``, when given)."""
    out = []
    for pid in profiles.list_profiles():
        try:
            prof = profiles.load_profile(pid, check=False)
        except LunchboxError:
            continue
        if profiles.runtime(prof) == profiles.MICROPYTHON and (
                build is None or profiles.firmware_build(prof) == build):
            out.append(pid)
    return out
