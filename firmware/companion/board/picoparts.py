"""The Pico's parts the app uses while it runs: the buttons (keypad), the battery's reading,
the watchdog and the reload into the next VM.
hwpico.build() makes them and is then unloaded, so its setup code (the pins, the panels' init
sequences, the settings' parser) is not kept beside the app (docs/firmware.md, "What the heap
holds")."""

import time

import board
import displayio
import keypad
import microcontroller
import supervisor

from ..app.buttons import IDLE_MS, button_id


def pin(name):
    try:
        return getattr(board, name)
    except AttributeError:
        raise ValueError("settings.toml names pin {} which this board lacks".format(name)) from None


class KeypadButtons:
    """keypad.Keys (debounced in the background) -> (button id, pressed, time) transitions;
    the time is the event's timestamp (supervisor.ticks_ms's clock, as hw.clock), None for a
    release made up after an overflow (the app takes the time it reads it)."""

    def __init__(self, buttons):
        self.ids = [button_id(role) for role, _name in buttons]
        pins = [pin(name) for _role, name in buttons]
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.event = keypad.Event()
        self.held = []  # button ids down, as the events said

    def idle(self):
        """The pause between two passes: up to IDLE_MS, over at the first event keypad
        queued, so a press is handled as it happens."""
        events = self.keys.events
        for _ in range(IDLE_MS):
            if events:
                return
            time.sleep(0.001)

    def poll(self):
        out = []
        events = self.keys.events
        if events.overflowed:
            # The queue (64 events) filled while the app was busy and dropped the rest: a
            # release may be lost, and a button taken as held forever would auto-repeat.
            # Release what was held, and let keypad report what is down now.
            events.clear()
            self.keys.reset()
            out = [(b, False, None) for b in self.held]
            self.held = []
        while events.get_into(self.event):
            b = self.ids[self.event.key_number]
            pressed = self.event.pressed
            if pressed and b not in self.held:
                self.held.append(b)
            elif not pressed and b in self.held:
                self.held.remove(b)
            out.append((b, pressed, self.event.timestamp))
        return out


class Supply:
    """The charge of a LiPo cell on VSYS (LUNCHBOX_BATTERY = "lipo"): the Pico and Pico 2
    read VSYS through a 1/3 divider on GPIO29 (board.VOLTAGE_MONITOR, ADC3) and see USB power
    on GPIO24 (board.VBUS_SENSE); on a Pico W / Pico 2 W both go through the wireless chip,
    and CircuitPython's AnalogIn and DigitalInOut handle that. Neither pin is on the header,
    so no profile pin can take them."""

    SAMPLES = 8  # the RP2040's ADC is noisy with the SMPS in power-save mode

    def __init__(self):
        import analogio
        import digitalio

        self.adc = analogio.AnalogIn(pin("VOLTAGE_MONITOR"))
        self.vbus = digitalio.DigitalInOut(pin("VBUS_SENSE"))  # an input, driven by the board

    def level(self):
        if self.vbus.value:
            return None  # on USB: the battery (if any) is charging, nothing to show
        from ..power.charge import percent  # on the battery only

        total = 0
        for _ in range(self.SAMPLES):
            total += self.adc.value
        # 16-bit reading of VSYS/3 against the 3.3 V reference, in millivolts
        return percent(total // self.SAMPLES * 9900 // 65535)


class Watchdog:
    def __init__(self):
        self.wd = microcontroller.watchdog

    def start(self, seconds):
        from watchdog import WatchDogMode

        self.wd.timeout = seconds
        self.wd.mode = WatchDogMode.RESET

    def feed(self):
        self.wd.feed()


# the display's SPI or I2C bus: a display bus keeps it claimed through a reload (FourWire marks
# it never-reset), so relaunch() lets it go, or the next VM finds its pins "in use"
buses = []


MARK = b"LB"  # sleep_memory[0:2] when a VM was asked for by relaunch()


def relaunch(target):
    """Start a fresh VM for ``target`` (a game id, or "" for the menu): the heap the last
    game or the menu held is all free again (companion/app/launch.py). Never returns."""
    import alarm

    data = target.encode()
    alarm.sleep_memory[0:3 + len(data)] = MARK + bytes((len(data),)) + data
    # a display left configured lives on into the next VM (CircuitPython 9.2.2 keeps it, its
    # bus and pins, but gives Python no way back to it), and the Pico allows one display
    # bus: the next VM could build none. Released, the panel keeps its setup (_st7789).
    displayio.release_displays()
    for bus in buses:
        bus.deinit()
    supervisor.reload()
    while True:  # the reload is raised at the next bytecode check
        time.sleep(0.01)
