"""The app: a stack of screens fed by button events, batched redraws, LEDs, the data link."""

import displayio

from . import __version__
from .core.appsettings import AppSettings
from .core.buttons import Buttons, EventQueue, ticks_diff
from .leds import Leds
from .ui import Toast

TOAST_MS = 2500
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
        self.d.set_brightness(self.settings.brightness)
        self.leds = Leds(hw.pixels, self.settings.brightness, self.settings.leds)
        self.leds.wake(hw.clock())  # the idle timer runs from the start, not the first press
        self.stack = []
        self.dirty = True
        self.handled = 0
        self.refreshes = 0
        self.link = None  # the link server, made on the first bytes from a host (link_server)
        self._later = None  # run once the event being handled is done (later())
        root = self.d.root
        while len(root):
            root.pop()
        root.append(displayio.Group())  # the top screen's group goes here
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
        self.store.save_settings(self.settings.to_bytes())
        self.d.set_brightness(self.settings.brightness)
        self.leds.configure(self.settings.brightness, self.settings.leds)

    def _pushed_settings(self, raw):
        """Settings pushed over the link (already checked there): save and apply them."""
        self.settings = AppSettings.from_bytes(raw)
        self.save_settings()
        self.dirty = True

    def keep_record(self, record):
        """Keep a finished game's record for the host to pull (in an envelope with the date,
        when a host set the clock, and the seats' player names); the saved game stays (a
        Let's Do Lunch match goes on after each of its games)."""
        from .core import records

        unix = self.link.unix_now(self.hw.clock()) if self.link is not None else 0
        names = self.settings.names[:records.seats(record)]
        try:
            self.store.append_record(records.KIND_GAME, records.envelope(record, unix, names))
        except ValueError:
            try:  # longer than the store takes with the names: keep the game without them
                self.store.append_record(records.KIND_GAME, records.envelope(record, unix))
            except ValueError:
                self.notify("Game too long to keep")

    def finish_game(self, record):
        """A game has ended: keep its record and forget the saved game, so no "Resume game?"
        offers it again."""
        self.keep_record(record)
        self.store.clear_game()

    # the screen stack

    @property
    def top(self):
        return self.stack[-1] if self.stack else None

    def _show_top(self):
        self.d.root[0] = self.top.group
        self.top.enter()
        self.dirty = True

    def push(self, screen):
        self.stack.append(screen)
        self._show_top()

    def pop(self):
        if len(self.stack) <= 1:
            return  # the main menu stays
        self.stack.pop().exit()
        self._show_top()

    def replace(self, screen):
        self.stack.pop().exit()
        self.push(screen)

    def home(self):
        while len(self.stack) > 1:
            self.stack.pop().exit()
        self._show_top()

    def report(self, notice):
        """What the store found at mount. First start: a toast. Anything else (a lost game,
        corrupt memory) is too long for a toast and must not flash past unseen: a message
        that stays until OK or Back (over the resume prompt, if there is one)."""
        from .core.store import MSG_BLANK

        if notice == MSG_BLANK:
            self.notify(notice)
        else:
            from .screens import MessageScreen

            self.push(MessageScreen(self, NOTICE_TITLE, notice))

    def notify(self, message, ms=TOAST_MS):
        self.toast.show(message, self.hw.clock() + ms)
        self.dirty = True

    # the main loop

    def refresh(self):
        if self.dirty:
            self.d.refresh()
            self.refreshes += 1
            self.dirty = False

    def step(self):
        """One pass: read buttons, handle each event (one refresh each), tick, serve the link."""
        hw = self.hw
        now = hw.clock()
        for button, pressed in hw.buttons.poll():
            self.queue.extend(self.buttons.feed(button, pressed, now))
        self.queue.extend(self.buttons.tick(now))
        event = self.queue.get()
        while event is not None:
            self.leds.wake(now)
            if self.toast.visible:
                self.toast.hide()
                self.dirty = True
            self.top.on_button(event[0], event[1])
            self._run_later()
            self.handled += 1
            self.refresh()
            event = self.queue.get()
        self.top.tick(now)
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
        """Run ``fn()`` when the event being handled is done: a screen that leaves the stack
        is then no longer referred to by the code that handled it, so what it held can be
        freed before ``fn`` builds the next screen."""
        self._later = fn

    def _run_later(self):
        fn = self._later
        if fn is not None:
            self._later = None
            fn()
            self.dirty = True

    def link_server(self):
        """The data-link server, made when a host first speaks: a game played away from a
        computer never compiles or keeps its code (about 7 KB of heap kept, a 28 KB peak)."""
        if self.link is None:
            from .core.link import LinkServer

            hw = self.hw
            self.link = LinkServer(self.store, __version__, hw.profile.get("profile", "?"),
                                   getattr(hw, "uid", b""), self._pushed_settings)
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
