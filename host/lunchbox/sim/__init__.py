"""`lunchbox sim`: the firmware in firmware/ running unchanged on this computer.

The display is a pygame window (blinka-displayio-pygamedisplay), or colour half-blocks in the
terminal when there is no graphical display, or nothing at all with ``--headless`` (a key
script drives it and ``--screenshot`` saves the last screen). nvm is a file, kept between runs
so "Resume game?" works; the USB data channel is a pseudo-terminal whose path is printed.
``--headless --link`` plays its key script, then serves the data channel in real time until
Ctrl-C or SIGTERM, so `lunchbox pull --sim` works without a window or a second terminal.
"""

import contextlib
import io
import os
import signal
import stat
import sys
from pathlib import Path

from ..errors import LunchboxError
from .script import HINT as SCRIPT_HINT
from .script import compile_script, shot_paths

ROOT = Path(__file__).resolve().parents[3]
FIRMWARE = ROOT / "firmware"
DEFAULT_PROFILE = "pico-display-pack"
TICK_MS = 10
HIDDEN_VIDEO = ("offscreen", "dummy", "KMSDRM", "kmsdrm", "evdev")  # SDL drivers with no window
WINDOW_KEYS = "arrows: prev/next   Enter/Space: OK   Backspace/Esc: back   U: undo   Q: quit"


def register(parser):
    parser.add_argument("--profile", default=DEFAULT_PROFILE,
                        help="hardware profile id or .toml path (default: %(default)s)")
    parser.add_argument("--nvm", metavar="PATH",
                        help="file standing in for nvm (default: ~/.lunchbox/sim-nvm-PROFILE.bin)")
    parser.add_argument("--erase-nvm", action="store_true",
                        help="start from erased nvm (forget saved games and settings)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--headless", action="store_true",
                      help="no display at all: run --keys and exit (for tests and "
                      "screenshots); with --link, then serve the data channel until Ctrl-C "
                      "or SIGTERM")
    mode.add_argument("--terminal", action="store_true",
                      help="draw in this terminal even when a graphical display is available")
    mode.add_argument("--window", action="store_true", help="open a window (needs a display)")
    parser.add_argument("--keys", default="", metavar="SCRIPT",
                        help="key script, e.g. \"down down ok long:back wait:500\" (" +
                        SCRIPT_HINT + ")")
    parser.add_argument("--screenshot", metavar="FILE.png", help="save the final screen (headless)")
    parser.add_argument("--print-screen", action="store_true",
                        help="print the texts on the final screen (headless)")
    parser.add_argument("--scale", type=_scale, default=0,
                        help="window zoom, 1..12 (default: fit)")
    parser.add_argument("--link", action="store_true",
                        help="headless: open the data channel pty too, and keep serving it "
                        "after the key script (for lunchbox pull/push --sim) until stopped")
    parser.add_argument("--readme-shots", metavar="DIR",
                        help="write every picture of the README's table into DIR: the "
                        "menu, first player, the turn clock and each game's screens, each on "
                        "both displays (Display Pack, OLED) as SCREEN-DISPLAY.png, and print "
                        "their paths")
    from .hw import battery_arg

    parser.add_argument("--battery", type=battery_arg, metavar="PERCENT",
                        help="run on a battery at this charge, 0..100 (default: USB power); "
                        "for profiles that read their supply")


class SimInterrupted(BaseException):  # a signal, not an error
    """SIGTERM or Ctrl-C asked the simulator to stop: raised at the next idle, between two
    events, so never in the middle of an nvm write (a BaseException: the firmware's crash
    handler, ``except Exception``, lets it through)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


class SimAbort(BaseException):
    """A LunchboxError raised inside the firmware's run (a shot: that cannot be written),
    carried past its crash handler so it is not recorded as a firmware crash."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def check_output_path(path, what):
    """LunchboxError unless ``path`` can be written as a new or replaced file: it is not a
    folder (or a pipe), and its folder exists or can be made, and is writable."""
    path = os.path.abspath(os.path.expanduser(path))
    fix = "give a file path in a folder you can write, e.g. {} shot.png".format(what)
    st = _stat(path, what, fix)
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise LunchboxError("{} {} is a folder, not a file name".format(what, path), fix)
        if not stat.S_ISREG(st.st_mode):
            raise LunchboxError("{} {} is not a regular file".format(what, path), fix)
        if not os.access(path, os.W_OK):
            raise LunchboxError("{} {} is not writable".format(what, path), fix)
        return path
    _check_folder(os.path.dirname(path), what, path, fix)
    return path


def _stat(path, what, fix):
    """``os.stat(path)``, None when there is nothing there; any other OSError as the tool's
    message."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise LunchboxError("{} {}: {}".format(what, path, e.strerror or e), fix) from None


def _check_folder(folder, what, path, fix):
    """The first existing folder up from ``folder`` must be a writable folder."""
    here = folder
    while True:
        try:
            st = os.stat(here)
            break
        except FileNotFoundError:
            parent = os.path.dirname(here)
            if parent == here:
                raise LunchboxError("{} {}: no such folder".format(what, path), fix) from None
            here = parent
        except NotADirectoryError:
            st = None
            break
        except OSError as e:
            raise LunchboxError("{} {}: {}".format(what, path, e.strerror or e), fix) from None
    if st is None or not stat.S_ISDIR(st.st_mode):
        # walk up until something exists to name the file in the way
        while not os.path.lexists(here) and os.path.dirname(here) != here:
            here = os.path.dirname(here)
        raise LunchboxError("{} {}: {} is a file, not a folder".format(what, path, here), fix)
    if not os.access(here, os.W_OK | os.X_OK):
        raise LunchboxError("{} {}: the folder {} is not writable".format(what, path, here),
                            fix)


def check_nvm_path(path, given):
    """The nvm file must be a regular file (or absent, in a folder that can be made)."""
    if given:
        what, fix = "--nvm", "give --nvm a file path in a folder you can write"
    else:
        what, fix = "the simulator's save file", (
            "your home folder (HOME={}) is not usable: pass --nvm PATH, a file in a folder "
            "you can write".format(os.environ.get("HOME", "")))
    path = os.path.abspath(os.path.expanduser(path))
    st = _stat(path, what, fix)
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise LunchboxError("{} {} is {}, not a file".format(
                what, path, "a folder" if stat.S_ISDIR(st.st_mode) else "a pipe or device"),
                fix)
        if not os.access(path, os.R_OK | os.W_OK):
            raise LunchboxError("{} {} is not readable and writable".format(what, path), fix)
    _check_folder(os.path.dirname(path), what, path, fix)
    return path


def _scale(text):
    import argparse

    if not text.isdigit() or not 0 <= int(text) <= 12:
        raise argparse.ArgumentTypeError("{!r} is not a zoom from 1 to 12".format(text))
    return int(text)


def _relaunch(target):
    from companion.board.hwbase import Relaunch

    raise Relaunch(target)


def run(args):
    if args.readme_shots:
        for path in readme_shots(args.readme_shots):
            print(path)
        return 0
    mode = pick_mode(args)
    if mode != "headless" and (args.screenshot or args.print_screen):
        raise LunchboxError("--screenshot and --print-screen need --headless",
                            "add --headless --keys \"...\"")
    # Everything the run will write is checked before it starts.
    timeline = compile_script(args.keys)
    from .hw import make_supply

    make_supply(args.profile, args.battery)  # a --battery the profile cannot read: refused
    if args.screenshot:
        check_output_path(args.screenshot, "--screenshot")
    for path in shot_paths(timeline):
        check_output_path(path, "shot:")
    try:
        nvm = args.nvm or default_nvm_path(args.profile)
    except RuntimeError as e:  # no home folder at all
        raise LunchboxError("no home folder for the simulator's saves ({})".format(e),
                            "pass --nvm PATH") from None
    nvm = check_nvm_path(nvm, bool(args.nvm))
    if args.erase_nvm and os.path.exists(nvm):
        os.remove(nvm)
    try:
        sim = Simulator(args.profile, nvm_path=nvm, mode=mode, scale=args.scale,
                        link=args.link or mode != "headless", battery=args.battery)
    except OSError as e:  # the checks above passed, but the save file still cannot be made
        raise LunchboxError("cannot keep the simulator's saves in {}: {}".format(
            nvm, e.strerror or e), "pass --nvm PATH, a file in a folder you can write") from None
    except LunchboxError as e:
        if mode != "window" or args.window:
            raise
        # a display was advertised but no window opens (e.g. a stale DISPLAY over SSH)
        print("lunchbox sim: {}; using the terminal".format(e), file=sys.stderr)
        mode = "terminal"
        sim = Simulator(args.profile, nvm_path=nvm, mode=mode, scale=args.scale, link=True,
                        battery=args.battery)
    # SDL installs its own SIGINT/SIGTERM handlers (they only queue a quit event, which a
    # headless run never reads): put Python's back, so both stop every mode.
    previous = install_stop_handlers(sim)
    try:
        if sim.link is not None:
            print("data channel (like the Pico's CDC2 port): {}".format(sim.link.path),
                  file=sys.stderr)
            from ..records.link import announce_sim_link

            announce_sim_link(sim.link.path)  # lunchbox pull/push --sim find it there
        if mode == "headless":
            def script_done():
                if args.screenshot:
                    sim.screenshot(args.screenshot)
                if args.print_screen:
                    for line in sim.texts():
                        print(line)
                sys.stdout.flush()
                if sim.serving:
                    print("lunchbox sim: serving the data channel until Ctrl-C or SIGTERM",
                          file=sys.stderr)

            sim.serve_link = sim.link is not None
            sim.script_done = script_done
            sim.run_script(args.keys)
        else:
            if args.keys:
                sim.preload(args.keys)
            sim.run_interactive()
    except SimInterrupted as e:
        name = "Ctrl-C" if e.signum == signal.SIGINT else "SIGTERM"
        print("lunchbox sim: stopped by {}; the save file {} is complete".format(name, nvm),
              file=sys.stderr)
        # a headless link that served until stopped did what it was asked: a clean exit
        return 0 if sim.serving else 128 + e.signum
    finally:
        restore_handlers(previous)
        if sim.link is not None:
            from ..records.link import forget_sim_link

            forget_sim_link(sim.link.path)
        sim.close()
    return 0


def install_stop_handlers(sim):
    """SIGINT and SIGTERM ask ``sim`` to stop at its next idle; a second one stops at once."""

    def handler(signum, frame):
        if sim.stop_signal is not None:
            raise SimInterrupted(signum)
        sim.stop_signal = signum

    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[signum] = signal.signal(signum, handler)
        except (ValueError, OSError):  # not the main thread
            pass
    return previous


def restore_handlers(previous):
    for signum, old in previous.items():
        try:
            signal.signal(signum, old if old is not None else signal.SIG_DFL)
        except (ValueError, OSError, TypeError):
            pass


def pick_mode(args):
    if args.headless:
        return "headless"
    if args.terminal:
        return "terminal"
    if args.window or has_graphical_display():
        return "window"
    return "terminal"


def has_graphical_display():
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def default_nvm_path(profile):
    name = Path(str(profile)).stem
    return str(Path.home() / ".lunchbox" / "sim-nvm-{}.bin".format(name))


def setup_environment(mode):
    """Import paths and SDL settings; must run before pygame/displayio are imported."""
    if not (FIRMWARE / "companion").is_dir():
        raise LunchboxError("firmware/ not found next to the lunchbox package ({})".format(ROOT),
                            "run the simulator from a checkout (pip install -e .)")
    for path in (str(FIRMWARE), str(ROOT)):
        if path not in sys.path:
            sys.path.insert(0, path)
    if mode != "window":
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")  # Python's handlers stop the run
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # Blinka prints a warning about running on a PC to stdout; keep stdout for our output
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import displayio  # noqa: F401
            import microcontroller
            import microcontroller.pin  # noqa: F401
            import pygame  # noqa: F401
            from adafruit_display_text import label  # noqa: F401
            from blinka_displayio_pygamedisplay import PyGameDisplay  # noqa: F401
    except ImportError as e:
        raise LunchboxError("the simulator needs its libraries: {}".format(e),
                            "pip install -e '.[sim]' (make sim does this)") from None
    from . import font

    font.install()  # the built-in font as the device has it: one bitmap of glyph tiles


def profile_settings(profile):
    """The settings.toml text for a profile, parsed the way the firmware parses it."""
    from ..hardware import profiles

    text = profiles.render_settings(profiles.load_profile(profile))
    from companion.board import settings

    try:
        return settings.read(settings.parse_toml(text).get)
    except ValueError as e:
        raise LunchboxError("profile {}: {}".format(profile, e)) from None


class Simulator:
    """One simulated Lunchbox. ``mode``: "headless" (virtual clock, key scripts), "window"
    or "terminal" (real time, keyboard)."""

    def __init__(self, profile=DEFAULT_PROFILE, nvm_path=None, mode="headless", scale=0,
                 link=False, store_factory=None, battery=None):
        setup_environment(mode)
        self.mode = mode
        self.store_factory = store_factory  # tests: a stand-in for companion.store.store.Store
        self.cfg = profile_settings(profile)
        import displayio

        from companion.board.hwbase import Hardware
        from companion.screen import display as displays

        from . import hw as sim_hw  # self.hw is the firmware's hw

        self.sim_hw = sim_hw
        self.supply = sim_hw.make_supply(profile, battery)  # --battery; None: cannot read it
        displayio.release_displays()
        w, h = self.cfg["width"], self.cfg["height"]
        if not scale:
            scale = 4 if w <= 128 else 3
        strip = self.cfg["neopixel_count"] if self.cfg["neopixel"] else 0
        SimDisplay = sim_hw.make_display_class()
        try:
            self.driver = SimDisplay(w, h, scale=scale, window=(mode == "window"), strip=strip,
                                     lazy=(mode == "headless"), auto_refresh=False,
                                     brightness_adjustable=sim_hw.brightness_adjustable(self.cfg))
        except Exception as e:  # pygame.error without a usable video device
            raise LunchboxError("cannot open a window: {}".format(e),
                                "use --terminal, or --headless with --keys") from None
        if mode == "window":
            import pygame

            video = pygame.display.get_driver()
            if video in HIDDEN_VIDEO and os.environ.get("SDL_VIDEODRIVER") != video:
                self.driver._release()
                raise LunchboxError("no window system answered (SDL chose {})".format(video),
                                    "use --terminal, or --headless with --keys")
        self.display = displays.make(self.cfg["display"], self.driver, w, h)
        self.buttons = sim_hw.ScriptButtons()
        self.clock = sim_hw.VirtualClock() if mode == "headless" else sim_hw.RealClock()
        self.nvm = sim_hw.FileNvm(nvm_path)
        self.pixels = sim_hw.SimPixels(strip, self.driver) if strip else None
        self.link = sim_hw.PtyLink() if link and hasattr(os, "openpty") else None
        self.watchdog = sim_hw.SimWatchdog(self.clock)
        self.hw = Hardware(self.display, self.buttons, self.clock, self.nvm, self.cfg,
                           pixels=self.pixels, link=self.link, watchdog=self.watchdog,
                           idle=self._idle, supply=self.supply)
        from ..records.link import sim_uid

        self.hw.uid = sim_uid(nvm_path)  # the board id lunchbox pull sees (cpu.uid on a Pico)
        self.timeline = []
        self.t0 = 0
        self.ti = 0
        self.shots = []
        self.captures = []
        self.starts = 0
        self.term = None
        self.releases = []  # (ms, button, pressed) for keys with no key-up (terminal)
        self.stop_signal = None  # set by a SIGINT/SIGTERM handler: stop at the next idle
        # headless: at the script's end, call script_done(); with serve_link, go on in real
        # time (serving) instead of stopping there
        self.serve_link = False
        self.serving = False
        self.script_done = None

    # running

    def _boot(self):
        """Run the firmware until the run ends; a scripted power cut boots it again."""
        from companion.app import main

        while True:
            self.starts += 1
            try:
                store = self.store_factory(self.nvm) if self.store_factory else None
                # each game in a fresh App, as the board gives each a fresh VM (launch.py);
                # code that drives an App by hand keeps the one-VM path
                self.hw.relaunch = _relaunch
                main.run(self.hw, store)
            except self.sim_hw.PowerCycle:
                self.buttons.pending = []
                self.hw.launched = None  # sleep memory does not live through a power cut
                continue
            except self.sim_hw.SimStop:
                return
            except SimAbort as e:
                raise e.error from None

    def run_script(self, script):
        """Headless: run the key script on the virtual clock; returns when it is done."""
        self.timeline = compile_script(script)
        self.ti = 0
        self.t0 = self.clock.now
        self._boot()

    def preload(self, script):
        self.timeline = compile_script(script)
        self.ti = 0
        self.t0 = self.clock()

    def run_interactive(self):
        if self.mode == "terminal":
            from .term import Terminal

            self.term = Terminal(self)
            with self.term:
                self._boot()
        else:
            print(WINDOW_KEYS, file=sys.stderr)
            self._boot()

    def _idle(self):
        if self.stop_signal is not None:
            raise SimInterrupted(self.stop_signal)
        if self.mode == "headless":
            self.clock.advance(TICK_MS)
        if self.mode != "headless" or self.serving:
            import time

            time.sleep(TICK_MS / 1000)
        self.watchdog.check()
        self._play_timeline()
        if self.mode == "window":
            self._pump_window()
        elif self.mode == "terminal" and self.term is not None:
            self._release_due()
            self.term.poll()
            self.term.draw()

    def _play_timeline(self):
        elapsed = self.clock() - self.t0
        while self.ti < len(self.timeline) and self.timeline[self.ti][0] <= elapsed:
            action = self.timeline[self.ti][1]
            self.ti += 1
            if action[0] == "key":
                self.buttons.push(action[1], action[2])
            elif action[0] == "shot":
                try:
                    self.capture(action[1])
                except LunchboxError as e:
                    raise SimAbort(e) from None
            elif action[0] == "reset":
                raise self.sim_hw.PowerCycle()
            elif action[0] == "end" and self.mode == "headless":
                self.serving = self.serve_link
                if self.script_done is not None:
                    try:
                        self.script_done()
                    except LunchboxError as e:
                        raise SimAbort(e) from None
                if not self.serving:
                    raise self.sim_hw.SimStop()

    def tap(self, button, held_ms=80):
        """A key with no key-up event (terminal): press now, release a little later. A key
        pressed again while its last tap is still held (``u`` is a 900 ms back) is queued
        after that release instead of being lost in it."""
        now = self.clock()
        busy = [t for t, b, pressed in self.releases if b == button and not pressed]
        if busy:
            start = max(busy) + 20
            self.releases.append((start, button, True))
        else:
            start = now
            self.buttons.push(button, True)
        self.releases.append((start + held_ms, button, False))

    def _release_due(self):
        now = self.clock()
        due = sorted(r for r in self.releases if r[0] <= now)
        self.releases = [r for r in self.releases if r[0] > now]
        for _t, b, pressed in due:
            self.buttons.push(b, pressed)

    def _pump_window(self):
        import pygame

        keymap = {
            pygame.K_LEFT: 0, pygame.K_UP: 0, pygame.K_RIGHT: 1, pygame.K_DOWN: 1,
            pygame.K_RETURN: 2, pygame.K_KP_ENTER: 2, pygame.K_SPACE: 2,
            pygame.K_BACKSPACE: 3, pygame.K_ESCAPE: 3, pygame.K_u: 4,
        }
        for event in pygame.event.get():
            if event.type in (pygame.QUIT, pygame.WINDOWCLOSE):
                raise self.sim_hw.SimStop()
            if event.type == pygame.KEYDOWN and event.key == pygame.K_q:
                raise self.sim_hw.SimStop()
            if event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key in keymap:
                self.buttons.push(keymap[event.key], event.type == pygame.KEYDOWN)
            elif event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN):
                self.driver.present()
        if self.pixels is not None and self.pixels.shown != getattr(self, "_drawn_px", None):
            self._drawn_px = list(self.pixels.shown)
            self.driver.present()

    # looking at it

    def screenshot(self, path, zoom=1, what="--screenshot"):
        """Save the screen as a PNG at ``path`` as outfile.py writes (never through a link,
        never half): pygame draws it into a folder of ours first."""
        import tempfile

        import pygame

        from .. import outfile

        self.driver.render()
        surface = self.driver.surface
        if zoom > 1:
            surface = pygame.transform.scale(
                surface, (surface.get_width() * zoom, surface.get_height() * zoom))
        parent = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(parent, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="lunchbox-shot-") as scratch:
                drawn = os.path.join(scratch, "shot.png")
                pygame.image.save(surface, drawn)
                with open(drawn, "rb") as f:
                    data = f.read()
        except (OSError, pygame.error) as e:
            raise LunchboxError("cannot save the screenshot {}: {}".format(
                path, getattr(e, "strerror", None) or e),
                "give a file path in a folder you can write") from None
        outfile.write(path, data, what=what)
        self.shots.append(path)
        return path

    def capture(self, path):
        """A screenshot plus what tests look at: the texts, layout problems, lit pixels."""
        shot = {"path": path, "texts": self.texts(), "problems": self.layout_problems(),
                "lit": self.pixels_lit()}
        self.screenshot(path)
        self.captures.append(shot)
        return shot

    def texts(self):
        from .inspect import texts

        return texts(self.display.root)

    def layout_problems(self):
        from .inspect import layout_problems

        return layout_problems(self.display.root, self.cfg["width"], self.cfg["height"])

    def pixels_lit(self):
        """How many screen pixels are not background (black)."""
        import pygame

        self.driver.render()
        arr = pygame.surfarray.array3d(self.driver.surface)
        return int((arr.sum(axis=2) > 0).sum())

    def close(self):
        if self.link is not None:
            self.link.close()
            self.link = None


# README screenshots. A game's are in its folder: its descriptor's "shots" ([[stem, keys], ...]
# in about.json, for a short script) or its flows.json's ({"shot", "about", "keys"}: the board
# never parses that file), docs/adding-a-game.md. These are the menu's own: (file stem, keys)
SHOTS = (
    ("menu", ""),  # after the first-boot message has gone
    # First player (the menu's row before Settings): four players, the pick settled on a seat
    ("first-player", "next*5 ok next*2 ok wait:4000"),
    # the turn clock: Settings > Turn clock, a 10-minute chess clock; a two-player game of the
    # menu's first row (Space Lunch) 4 s in, on a battery at 15 % (its gauge shows where the
    # title bar has room: the OLED's)
    ("space-lunch-clock", "prev ok wait:500 next*7 ok wait:500 next*5 ok wait:500 back "
                          "wait:500 next ok wait:1500 next*4 ok wait:1500 ok ok*9 "
                          "wait:4000 ok"),
)
SHOT_BATTERY = {"space-lunch-clock": 15}  # the shots run on a battery: its charge in percent
SHOT_PROFILES = (("pico-display-pack", "display-pack", 2), ("pico-ssd1306-5btn", "ssd1306", 3))
BOOTED = "wait:3000 "  # the first-boot message has gone


def shot_scripts():
    """``(file stem, key script from power-on)`` of every README screenshot: SHOTS, then each
    menu game's (game_shots), each game's script opening its menu row first (found by the
    menu's order, app/catalog.py), so a game added or moved needs no script changed."""
    from ..records.game_names import firmware_path

    firmware_path()
    from companion.app.catalog import menu_games

    out = [(stem, (BOOTED + keys).strip()) for stem, keys in SHOTS]
    rows = [g[0] for g in menu_games()]
    for row, game_id in enumerate(rows):
        opening = "next*{} ok ".format(row) if row else "ok "
        out += [(stem, BOOTED + opening + keys) for stem, keys in game_shots(game_id)]
    return out


def game_shots(game_id):
    """``[(file stem, keys after its menu row)]``: the game's descriptor's "shots", then its
    flows.json's (shared_rules/<game>/flows.json "shots": the long scripts)."""
    import json

    import shared_rules
    from companion.app import catalog

    out = [tuple(s) for s in catalog.about(game_id).get("shots") or ()]
    folders = [catalog.folder(i) for i in range(len(catalog.ROWS))]
    folder = [f for f in folders if any(r["id"] == game_id for r in catalog.rows_of(f))][0]
    path = os.path.join(os.path.dirname(shared_rules.__file__), folder, "flows.json")
    if os.path.exists(path):
        try:
            with open(path) as f:
                out += [(s["shot"], s["keys"]) for s in json.load(f).get("shots") or ()]
        except (ValueError, KeyError, TypeError) as e:
            raise LunchboxError("{}: its shots are not a list of {{shot, keys}} ({})".format(
                path, e), "fix the file (docs/adding-a-game.md)") from None
    return out


def readme_shots(directory):
    """Write docs/img-style screenshots for both displays; returns the paths."""
    paths = []
    for profile, tag, zoom in SHOT_PROFILES:
        for stem, script in shot_scripts():
            sim = Simulator(profile, nvm_path=None, mode="headless",
                            battery=SHOT_BATTERY.get(stem))
            try:
                sim.run_script(script)
                path = os.path.join(directory, "{}-{}.png".format(stem, tag))
                sim.screenshot(path, zoom)
                paths.append(path)
            finally:
                sim.close()
    return paths
