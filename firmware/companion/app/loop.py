"""The app: a stack of screens fed by button events, batched redraws, LEDs, the data link,
and the screen's power: it dims and goes off when no button is pressed for a while (Settings),
and the press that wakes it does nothing else (power/idle.py)."""

# A game's turn clock, while it has one, is ``app.clock`` (companion/turn_clock/clocks.py):
# ticked, laid out, and its times kept in the game's record.

import displayio

from .. import __version__
from ..board.leds import Leds
from ..power.idle import AWAKE, OFF, Idle
from ..screen.ui import TitleBar, Toast
from ..store.appsettings import AppSettings
from .buttons import Buttons, EventQueue, ticks_diff

TOAST_MS = 2500
WARN_MS = 5000
READ_MS = 20000  # how often the battery is read (hw.supply), where the build can
NOTICE_TITLE = "Saved data"


class App:
    """``home(app, resume)`` pushes the first screen (the main menu, and the "Resume game?"
    prompt when ``resume``): the app itself knows no screen by name."""

    def __init__(self, hw, store, home, resume=True, notice=None):
        self.hw = hw
        self.store = store
        self.d = hw.display
        self.buttons = Buttons()
        self.queue = EventQueue()
        self.settings = self._load_settings()
        s = self.settings
        self.clock = None
        saved = store.load_game()
        if s.clock or saved is not None and saved[1][:1] == b"\xc7":  # turn_clock/state.py: SAVED
            from ..turn_clock.clocks import Clocks

            Clocks(self)  # app.clock; the saves go through it
        now = hw.clock()
        self.d.set_power(AWAKE, s.brightness)  # also after a restart that found it off
        self.leds = Leds(hw.pixels, s.brightness, s.leds)
        self.leds.wake(now)  # the idle timer runs from the start, not the first press
        self.idle = Idle(s.dim, s.off, now)
        self.supply = getattr(hw, "supply", None)  # percent on battery, None on USB
        self.battery = None  # power/battery.py, once the box has run on its battery
        self._read_at = now
        self._warning = None  # a warning that came while the screen was dim or off
        # no gauge or clock of an app before this one (a restart after a crash)
        TitleBar.gauge = TitleBar.top = TitleBar.clock = None
        self.stack = []
        self.dirty = True
        self.whole = False  # the next refresh draws the whole screen (a new screen on top)
        self.handled = 0
        self.refreshes = 0
        self.link = None  # the link server, made on the first bytes from a host (link_server)
        self._later = None  # run once the event being handled is done (later())
        root = self.d.root
        while len(root):
            root.pop()
        self.blank = displayio.Group()  # in the screen slot while no screen is shown
        self.shown = None  # the screen whose group is in the slot
        root.append(self.blank)  # the top screen's group goes here
        self.toast = Toast(self.d)
        root.append(self.toast.group)

        home(self, resume)
        if notice:
            self.report(notice)

    def _load_settings(self):
        raw = self.store.load_settings()
        if raw is not None:
            try:
                return AppSettings.from_bytes(raw)
            except ValueError:
                pass  # unreadable settings: defaults (the store log itself is intact)
        return AppSettings()

    def save_settings(self):
        s = self.settings
        self.store.save_settings(s.to_bytes())
        self.d.set_brightness(s.brightness)
        self.leds.configure(s.brightness, s.leds)
        self.idle.configure(s.dim, s.off)

    def _pushed_settings(self, raw):
        """Settings pushed over the link (already checked there): save and apply them."""
        self.settings = AppSettings.from_bytes(raw)
        self.save_settings()
        self.dirty = True

    # the screen stack

    @property
    def top(self):
        return self.stack[-1] if self.stack else None

    # A group is in at most one place: displayio refuses to add a group (or a TileGrid) that
    # is already in a group, even to the slot it already holds ("Layer already in a group",
    # shared-module/displayio/Group.c adds before it removes). So only the top screen's group
    # is ever in the slot, it is put there only when another is in it, and a screen that leaves
    # the stack takes its group out with it.

    def _show_top(self):
        """Show the top screen, and tell it that it is the top now (``enter``), unless it is
        shown already."""
        top = self.top
        if top is self.shown:
            return
        self.d.root[0] = top.group
        self.shown = top
        self.whole = True  # drawn whole, once (display.redraw)
        top.enter()
        if self.battery is not None:
            self.battery.place()
        if self.clock is not None:
            self.clock.place()
        self.dirty = True

    def _leave(self, screen):
        if screen is self.shown:
            self.d.root[0] = self.blank
            self.shown = None
        screen.exit()

    def push(self, screen):
        self._cover()
        self.stack.append(screen)
        self._show_top()

    def _cover(self):
        """The screen shown now is covered by the one pushed: it may let what it shows go
        meanwhile (screens.ListScreen.shed). Not in _show_top: a game's opening runs through
        that frame, under the hints' search (tests/test_cp_pystack.py)."""
        was = self.shown
        if was is not None:
            cover = getattr(was, "cover", None)
            if cover is not None:
                cover()

    def pop(self, then=None):
        """Close the top screen (the main menu stays). ``then()`` runs after it has gone and
        before the screen below is shown, so it may open the next screen or go home without
        the screen below being shown in between."""
        if len(self.stack) > 1:
            self._leave(self.stack.pop())
        if then is not None:
            then()
        self._show_top()

    def replace(self, screen):
        self._leave(self.stack.pop())
        self.push(screen)

    def home(self, then=None):
        """Back to the main menu; ``then()`` (e.g. open a game from it) runs before the menu
        is shown, as ``pop``'s does."""
        while len(self.stack) > 1:
            self._leave(self.stack.pop())
        if then is not None:
            then()
        self._show_top()

    def report(self, notice):
        """What the store found at mount. First start: a toast. Anything else (a lost game,
        corrupt memory) is too long for a toast and must not flash past unseen: a message
        that stays until OK or Back (over the resume prompt, if there is one)."""
        from ..store.store import MSG_BLANK

        if notice == MSG_BLANK:
            self.notify(notice)
        else:
            from ..screen.screens import MessageScreen

            self.push(MessageScreen(self, NOTICE_TITLE, notice))

    def notify(self, message, ms=TOAST_MS):
        self.toast.show(message, self.hw.clock() + ms)
        self.dirty = True

    def warn(self, message):
        """A toast that must be seen: held back while the screen is dim or off, shown at the
        wake."""
        if self.idle.state == AWAKE:
            self.notify(message, WARN_MS)
        else:
            self._warning = message

    # the screen's power and the battery gauge

    def _power(self, state, now):
        if state == OFF:
            self._suspend()
        self.d.set_power(state, self.settings.brightness)
        if state == OFF:
            self.d.refresh()  # the dark screen; nothing is drawn again until the wake
        self.dirty = True
        if state == AWAKE:
            self.leds.wake(now)  # the waking press is no event: the LEDs come back here
            if self._warning is not None:
                self.notify(self._warning, WARN_MS)
                self._warning = None

    def _suspend(self):
        """Before the screen goes off: each screen that keeps a game saves it (a save that
        is already current writes nothing: store.save_game compares)."""
        for screen in self.stack:
            suspend = getattr(screen, "suspend", None)
            if suspend is not None:
                suspend()

    def _read_supply(self):
        try:
            level = self.supply.level()
        except (OSError, ValueError, RuntimeError):
            level = None  # a failed reading shows nothing rather than stopping the app
        if level is None and self.battery is None:
            return  # on USB, and never on the battery since the start: nothing is built
        if self.battery is None:
            from ..power.battery import Battery

            self.battery = Battery(self)
        if self.battery.show(level):
            self.battery.place()

    # the main loop

    def refresh(self):
        if self.dirty and self.d.power != OFF:  # a dark screen is drawn again at the wake
            if self.whole:
                self.whole = False
                self.d.redraw()
            if self.toast.visible:
                self.toast.cover()  # nothing of the screen shown cut in two by it
            self.d.refresh()
            self.refreshes += 1
            self.dirty = False

    def step(self):
        """One pass: read buttons, handle each event (one refresh each), tick, serve the link."""
        hw = self.hw
        now = hw.clock()
        idle = self.idle
        for button, pressed, at in hw.buttons.poll():
            # each transition at the time it happened (keypad's timestamp on the board): a tap
            # read after a slow redraw is still a tap, not a held button that auto-repeats
            at = now if at is None else at
            if not idle.swallow(button, pressed, at):
                self.queue.extend(self.buttons.feed(button, pressed, at))
        self.queue.extend(self.buttons.tick(now))
        state = idle.tick(now, ticks_diff)
        if state is not None:
            self._power(state, now)
        if self.supply is not None and ticks_diff(now, self._read_at) >= 0:
            self._read_at = now + READ_MS
            self._read_supply()
        clock = self.clock
        event = self.queue.get()
        while event is not None:
            self.leds.wake(now)
            if self.toast.visible:
                self.toast.hide()
                self.dirty = True
            if clock is None or not clock.press(event):
                self.top.on_button(event[0], event[1])
            self._run_later()
            self.handled += 1
            self.refresh()
            event = self.queue.get()
        self.top.tick(now)
        if clock is not None:
            clock.tick(now)
        self._run_later()
        if self.toast.until is not None and ticks_diff(now, self.toast.until) >= 0:
            self.toast.hide()
            self.dirty = True
        self.leds.tick(now, ticks_diff)
        if hw.link is not None:
            self._serve_link()
        self.refresh()
        hw.watchdog.feed()

    def later(self, fn):
        """Run ``fn()`` when the event being handled is done (after what was asked for
        before it): a screen that leaves the stack is then no longer referred to by the code
        that handled it, so what it held can be freed before ``fn`` builds the next screen."""
        first = self._later
        if first is None:
            self._later = fn
            return

        def both():
            first()
            fn()

        self._later = both

    def _run_later(self):
        # what a later() queues runs in the same pass: the event is done only when nothing
        # more is queued (a door, a game VM's bottom screen, must not see the top of the
        # stack between a home() and the screen a later() builds)
        fn = self._later
        while fn is not None:
            self._later = None
            fn()
            self.dirty = True
            fn = self._later

    def link_server(self):
        """The data-link server, made when a host first speaks: a game played away from a
        computer never compiles or keeps its code (about 7 KB of heap kept, a 28 KB peak)."""
        if self.link is None:
            from .link import LinkServer

            hw = self.hw
            self.link = LinkServer(self.store, __version__, hw.profile.get("profile", "?"),
                                   getattr(hw, "uid", b""), self._pushed_settings)
            self.link.supply = self.supply  # the CHECK answer's battery line
        return self.link

    def _serve_link(self):
        link = self.hw.link
        n = link.in_waiting
        if self.link is None and not n:
            return
        self.link_server()
        # fed even without bytes: a frame cut halfway times out, the host-set clock moves on
        out = self.link.feed(link.read(n) if n else b"", self.hw.clock())
        if out:
            link.write(out)

    def run(self):
        while True:
            self.step()
            self.hw.idle()
