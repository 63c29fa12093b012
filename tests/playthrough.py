"""Play-throughs of the real firmware in the simulator, through its buttons only.

A ``Table`` sits at one simulated box (``Box``: the firmware App on the simulator's hardware,
its nvm a flash that can lose power mid-write, tests/portable/_flash.py) and does what a table
does: opens a game from the main menu, plays it to its end, "New game" and again, back to the
menu, the next game, Settings and back. It READS the screen (the top screen object, its game,
the rendered texts) to choose, and ACTS only by pressing buttons. The policy picks the
suggested move (the cursor's start), a random one the screen offers, sometimes an undo,
sometimes a power cut (between presses, or at a random byte of the next nvm write) and the
resume.

At every press: no exception out of the app (on the device: the crash screen), no crash
record in the nvm store, no "Oops" on screen. At every game's end: the records the device kept
are pulled the way ``lunchbox pull`` reads them (host/lunchbox/gamerec.summarize: envelope
opened, game replayed by shared_rules), each replays, each seat carries its player's name, and
what the screen announced (winner, points, match score) is what the replayed records say.
A failure raises ``Defect`` with the game, profile, seed and every key pressed since boot.

Presses are counted per game kind (``Table.stats``): bench/playthrough_presses.py prints them.
"""

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "tests" / "portable", ROOT / "host", ROOT / "firmware", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

PREV, NEXT, OK, BACK, UNDO = 0, 1, 2, 3, 4
WORDS = ("prev", "next", "ok", "back", "undo")
STEP_MS = 25
LONG_MS = 1000
# the names a host pushed (Settings > Player names holds the same list)
NAMES = ["ANNA", "BO", "CY", "DEE", "ED", "FAY", "GUS"]
LDL_LEVELS = ("Easy", "Medium", "Hard")
SOLO_OPPONENT = "Automa"
STUCK_PRESSES = 300  # presses without a new action: the screen offers no way on
STUCK_OPENS = 40  # menu -> game -> menu with no move between: the game never stays open
KIND_CRASH, KIND_GAME = 2, 3


def plays():
    """What a table plays, by the games' descriptors: every registry row (a record id) that is
    no other row's ``parent``, in the registry's order: a game opened from its menu row, or a
    scoreboard opened from its game's list; not a game whose menu row opens a list (its
    scoreboard keeps the records there) nor a tool (no record)."""
    from companion.app.catalog import ROWS, folder, rows_of

    parents = set()
    for i in range(len(ROWS)):
        parents.update(r.get("parent") for r in rows_of(folder(i)))
    return tuple(r[0] for r in ROWS if r[0] not in parents)


PLAYS = plays()


class Defect(AssertionError):
    """What the harness found, with what reproduces it."""


class Policy:
    """How the table chooses: ``suggest`` the chance of the screen's own suggestion, ``undo``
    and ``cut`` the chances, per decision, of an undo and of a power cut."""

    def __init__(self, suggest=0.5, undo=0.03, cut=0.01):
        self.suggest = suggest
        self.undo = undo
        self.cut = cut


def _relaunch(target):
    from companion.board.hwbase import Relaunch

    raise Relaunch(target)


def flash():
    """The fake RP2 flash, noting whether a power cut fell inside a sector rewrite (an erase
    and all 4 KB programmed back: the one write a cut can take saved data from,
    docs/persistence.md "What a power cut can cost")."""
    from _flash import FlashNVM, PowerCut

    class Flash(FlashNVM):
        cut_in_rewrite = False

        def __setitem__(self, key, value):
            erases = self.erases
            try:
                FlashNVM.__setitem__(self, key, value)
            except PowerCut:
                self.cut_in_rewrite = self.erases > erases
                raise

    return Flash()


def held_names(store):
    from companion.store.appsettings import AppSettings

    raw = store.load_settings()
    return AppSettings.from_bytes(raw if raw is not None else AppSettings().to_bytes()).names


class Box:
    """The firmware App on the simulator's hardware, pressed one button at a time."""

    def __init__(self, profile, seed):
        from lunchbox.sim import Simulator

        self.profile = profile
        self.seed = seed
        self.sim = Simulator(profile, nvm_path=None, mode="headless")
        roles = [b[0] for b in self.sim.cfg["buttons"]]
        self.has_undo = "undo" in roles
        from companion.store.appsettings import AppSettings
        from companion.store.store import Store

        # the device's randomness (the dice, the first-player pick), seeded: runs replay. On
        # this box's hardware, not a module of the firmware: the next test's boxes are not
        # this one's (a module patched here once left every later Let's Do Lunch on this seed)
        self.sim.hw.seed = lambda: seed
        self.flash = flash()
        # names pushed from a host land in the settings record (app/link.py, App)
        Store(self.flash).save_settings(AppSettings(names=list(NAMES)).to_bytes())
        self.settings_lost = None  # the keys after which the pushed names were gone
        self.records_lost = None  # what the store said when a rewrite lost game records
        self.keys = []
        self.presses = 0
        self.boots = 0
        self.relaunches = 0
        self.sim.hw.relaunch = _relaunch
        self.boot()

    def boot(self):
        """Power on (again): the firmware starts on the same flash, as main.run starts it."""
        from companion.store.store import Store

        rewrite = self.flash.cut_in_rewrite
        self.flash.cut_in_rewrite = False
        self.flash.power_on()
        self.boots += 1
        if self.boots > 1:
            self.keys.append("reset")
        self.store = Store(self.flash)
        lost = self.settings_lost is None and held_names(self.store) != NAMES
        self.sim.hw.launched = None  # the board's sleep memory does not live through a cut
        self._start(self.store.status)
        # the box runs on after power-on: what it shows once its first passes are done (a
        # game saved at its end comes back to its end screen over its board)
        self.step(10)
        self.step(10)
        if lost:
            self.check_settings_loss(rewrite)
        self.note_records_loss()
        self.check()

    def check_settings_loss(self, rewrite):
        """The pushed names are gone. A store cannot keep them through a cut inside the sector
        rewrite (one 4 KB sector: erased, then programmed back; docs/persistence.md), but only
        there, and never silently: the device must say what was lost."""
        from companion.store import store

        said = self.store.status
        if not rewrite:
            raise Defect("the pushed names are gone ({}) after a power cut outside a sector "
                         "rewrite (the store said {!r})".format(held_names(self.store), said))
        if said not in (store.MSG_CUT_SETTINGS, store.MSG_CUT_SETTINGS_RECORDS, store.MSG_CUT,
                        store.MSG_BLANK, store.MSG_CORRUPT, store.MSG_FOREIGN):
            raise Defect("the pushed names are gone and the store says {!r}".format(said))
        if said not in self.shown():
            raise Defect("the names are gone and the screen does not say so: {!r}".format(
                self.shown()))
        self.settings_lost = " ".join(self.keys)

    def note_records_loss(self):
        """A cut inside the sector rewrite can take the ring's records with it (the image holds
        the game and the settings first; docs/persistence.md), and the store says so, with one
        message for several losses ("saved game lost" may cover records too), repeated at each
        mount until the next save. Noted for the match's check (Table.check_ldl_match)."""
        from companion.store import store

        said = self.store.status
        if said not in (None, store.MSG_CUT_LAST, store.MSG_NO_NVM):
            self.records_lost = said

    def _start(self, notice=None):
        """A VM's App, as main.run makes it: the menu's (at power-on, or after a game is
        left) or a game's (companion/app/launch.py: the board reloads into a fresh VM for each
        game, so the harness plays the stack of calls the board has)."""
        from companion.app import main
        from companion.app.loop import App
        from companion.board.hwbase import Relaunch

        hw = self.sim.hw
        while True:
            home, resume = main._first_screens(hw, 0)
            if home is main._start_game:
                self.store.make_room(main.GAME_ROOM)
            try:
                self.app = self._guard(lambda h=home, r=resume, n=notice: App(
                    hw, self.store, h, resume=r, notice=n))
                return
            except Relaunch as r:  # the menu's resume prompt, answered: the game's VM
                hw.launched = r.target
                self.relaunches += 1
                notice = None

    def _guard(self, fn):
        from _flash import PowerCut

        try:
            return fn()
        except PowerCut:
            raise
        except Exception as e:  # on the device: the crash screen and a crash record
            import traceback

            raise Defect("crash {}: {}\n{}".format(type(e).__name__, e,
                                                    traceback.format_exc())) from None

    def step(self, ms=STEP_MS):
        from companion.board.hwbase import Relaunch

        self.sim.clock.advance(ms)
        try:
            self._guard(self.app.step)
        except Relaunch as r:  # the board's soft reload into the VM for r.target
            self.sim.hw.launched = r.target
            self.relaunches += 1
            self._start()
            self.step(10)  # the new VM's first pass, as main.run runs it

    def press(self, button, long=False):
        """One press (a long one holds it a second); a power cut during it reboots."""
        from _flash import PowerCut

        self.keys.append(("long:" if long else "") + WORDS[button])
        self.presses += 1
        try:
            self.sim.buttons.push(button, True)
            self.step(10)
            self.step(LONG_MS if long else 50)
            self.sim.buttons.push(button, False)
            self.step(10)
            self.step(90)
            self.settle()
        except PowerCut:
            self.boot()
        self.check()

    def settle(self, limit_ms=20000):
        """Let dice roll and the computer think until the screen waits for a press."""
        from companion.games.lets_do_lunch.panel import ROLLING, THINKING

        t = 0
        while getattr(self.app.top, "mode", None) in (ROLLING, THINKING):
            if t > limit_ms:
                raise Defect("the screen never settled ({})".format(self.name()))
            self.step()
            t += STEP_MS

    def check(self):
        for _seq, kind, payload in self.store.records():
            if kind == KIND_CRASH:
                raise Defect("crash record in nvm: {}".format(bytes(payload).decode(
                    "utf-8", "replace")))
        shown = " ".join(self.texts())
        if "Oops" in shown:
            raise Defect("crash screen: " + shown)

    @property
    def top(self):
        return self.app.top

    def name(self):
        return type(self.app.top).__name__

    def texts(self):
        return self.sim.texts()

    def shown(self):
        return " ".join(t.replace("\n", " ") for t in self.texts())

    def title(self):
        t = self.texts()
        return t[0] if t else ""

    def game_records(self):
        """[(seq, pulled row)] as ``lunchbox pull`` stores them (gamerec.summarize)."""
        from lunchbox.records import gamerec

        return [(seq, gamerec.summarize(seq, kind, payload, 0))
                for seq, kind, payload in self.store.records() if kind in (1, KIND_GAME)]

    def close(self):
        self.sim.close()


def game_screen(app):
    """The game screen in the stack (a picker may be over it), or None."""
    from companion.screen.game import GameScreen

    for s in reversed(app.stack):
        if isinstance(s, GameScreen):
            return s
    return None


class Stats:
    """Presses per entry (an action applied) and per game, for one game kind."""

    def __init__(self):
        self.games = 0
        self.entries = 0
        self.presses = 0

    def row(self):
        per = self.presses / self.entries if self.entries else 0.0
        pg = self.presses / self.games if self.games else 0.0
        return self.games, self.entries, self.presses, per, pg


class Table:
    """The people at one box. ``run(plan)`` plays the plan's games in order."""

    def __init__(self, profile, seed, policy=None, ldl_target=5, ldl_levels=(1, 2)):
        from shared_rules.rng import Rng

        self.box = Box(profile, seed)
        self.rng = Rng(seed * 31 + 7)
        self.policy = policy or Policy()
        self.ldl_target = ldl_target
        self.ldl_levels = ldl_levels
        self.stats = {}
        self.kind = None
        self.log = []  # (kind, winners, scores) of every game seen to its end
        self.ldl_games = {}  # record seq -> (screen, points) announced at a game's end
        self.warned = None  # the memory warning shown before the game or match being played

    def fail(self, msg):
        b = self.box
        raise Defect("{} | game {} profile {} seed {} | keys: {}".format(
            msg, self.kind, b.profile, b.seed, " ".join(b.keys)))

    def chance(self, p):
        return self.rng.randbelow(1000) < int(p * 1000)

    # ---- pressing ----------------------------------------------------------------------

    def press(self, button, long=False):
        try:
            self.box.press(button, long)
        except Defect as e:
            self.fail(str(e))

    def move_to(self, index, n, at):
        """The shortest way round a wrapping list of ``n`` rows from ``at`` to ``index``;
        it stops if the power is cut on the way (the rest would be pressed on another
        screen)."""
        down = (index - at) % n
        up = (at - index) % n
        boots = self.box.boots
        for _ in range(down if down <= up else up):
            if self.box.boots != boots:
                return
            self.press(NEXT if down <= up else PREV)

    def pick_row(self, index):
        """Move the list's cursor to row ``index`` (the shortest way round; a list that does
        not wrap is walked back the other way) and press OK. False (nothing more pressed)
        when the power was cut on the way: the box started again at the menu."""
        top = self.box.top
        menu = top.menu
        boots = self.box.boots
        self.move_to(index, len(menu.items), menu.selected)
        if self.box.boots != boots:
            return False
        for _ in range(2 * len(menu.items)):
            if self.box.top is not top or menu.selected == index:
                break
            self.press(NEXT if menu.selected < index else PREV)
        if self.box.top is not top or menu.selected != index:
            self.fail("the cursor does not reach row {} on {}".format(index, self.box.name()))
        self.press(OK)
        return self.box.boots == boots

    def pick(self, label):
        items = self.box.top.menu.items
        if label not in items:
            self.fail("no row {!r} on {} ({})".format(label, self.box.name(), items))
        self.pick_row(items.index(label))

    def to_menu(self):
        for _ in range(12):
            if self.box.name() == "MainMenu":
                return
            top = self.box.top
            self.press(BACK)  # on "Resume game?": later, the save stays
            if top is self.box.top and self.box.name() in ("MessageScreen", "LinesScreen"):
                self.press(OK)
        self.fail("Back does not lead to the main menu (on {})".format(self.box.name()))

    # ---- the table's evening -----------------------------------------------------------

    def run(self, plan):
        """``plan``: [(kind, games)], kind one of PLAYS or "settings"/"tools"."""
        for kind, n in plan:
            self.kind = kind
            if kind == "settings":
                self.settings_round_trip()
            elif kind == "tools":
                self.tools()
            else:
                self.play_games(kind, n)
        return self

    def open(self, kind, tries=4):
        """From the main menu into ``kind``, through its lists, to its first screen (from the
        menu again when the power is cut on the way)."""
        from companion.app.catalog import family, menu_games

        for _ in range(tries):
            boots = self.box.boots
            self.to_menu()
            if self.pick_row([g[0] for g in menu_games()].index(family(kind))):
                self.through_lists(kind)
            if self.box.boots == boots:
                return
        self.fail("the power was cut each time {} was opened".format(kind))

    def through_lists(self, kind):
        b = self.box
        boots = b.boots
        for _ in range(6):
            if b.boots != boots:
                return  # cut on the way: open() starts from the menu again
            name = b.name()
            if name == "Chooser":
                self.pick_row(0)  # the game itself: its saved one, or a new one
            elif name == "MessageScreen":
                if b.title() == "Memory":  # "Memory nearly full": the oldest may be dropped
                    self.warned = b.shown()
                self.press(OK)
            elif name == "SetupScreen" and kind == "space_lunch":
                self.space_lunch_setup()
            elif name == "SetupScreen" and kind == "lets_do_lunch":
                self.ldl_setup()
            elif name == "FirstPlayer":
                # Pick at random or a player; a random pick spins a moment, then any row starts
                row = self.rng.randbelow(len(b.top.menu.items))
                if self.pick_row(row) and row == 0 and b.name() == "FirstPlayer":
                    for _ in range(120):
                        b.step()
            else:
                return

    def play_games(self, kind, n):
        self.open(kind)
        for i in range(n):
            self.play_one(kind)
            last = i == n - 1
            self.after_end(kind, "menu" if last else "new")

    def after_end(self, kind, want):
        """On the end screen: "New game" (and through its lists again) or the menu. The end
        stays saved until it is left, so a power cut on the way out shows the same end again,
        with no record kept again: then leave it again."""
        b = self.box
        shown = b.shown()
        seen = self.kept()
        self.warned = None  # the next game's own warning, if any, is its business
        for _ in range(8):
            boots = b.boots
            self.leave_end(kind, want)
            if b.boots == boots or not self.at_end():
                break
            if self.new_records(seen):
                self.fail("the end shown again after a power cut kept its record again")
            if b.shown() != shown:
                self.fail("the end after a power cut says {!r}, not {!r}".format(
                    b.shown(), shown))
        if want != "new" and b.name() != "MainMenu":
            self.fail("the end screen's Menu/Back shows {}, not the menu".format(b.name()))

    def leave_end(self, kind, want):
        b = self.box
        if b.name() == "ConfirmDialog":
            if want == "new":
                self.pick_row(0)
                self.through_lists(kind)
            elif self.chance(0.5):
                self.pick_row(1)  # "Menu"
            else:
                self.press(BACK)
        else:  # Space Lunch ends on its table: OK a new game, Back the menu
            self.press(OK if want == "new" else BACK)
            if want == "new":
                self.through_lists(kind)

    # ---- one game --------------------------------------------------------------------

    def play_one(self, kind):
        b = self.box
        st = self.stats.setdefault(kind, Stats())
        seen = self.kept()
        p0 = b.presses
        idle = 0
        last = -1
        self.ldl_games = {}
        b.records_lost = None  # a loss before this game or match is not its business
        reopened = 0
        while True:
            if self.at_end():
                break
            g = game_screen(b.app)
            if g is None and b.name() == "MainMenu":
                reopened += 1
                if reopened > STUCK_OPENS:  # the game's VM goes straight back to the menu
                    self.fail("{} opened {} times and the menu shows again".format(
                        kind, reopened - 1))
                self.open(kind)  # a power cut before the first save, or Back: carry on
                continue
            count = len(g.game.actions()) if g is not None else -1
            idle = 0 if count != last else idle + 1
            last = count
            if idle > STUCK_PRESSES:
                self.fail("no move for {} decisions on {} ({})".format(idle, b.name(),
                                                                       b.shown()))
            self.decide(kind)
            if "Memory full" in b.shown():  # a match's next record pushes out the oldest
                self.warned = b.shown()
        st.games += 1
        st.presses += b.presses - p0
        self.check_end(kind, seen, st)

    def at_end(self):
        b = self.box
        if b.name() == "ConfirmDialog" and b.title() == "Game over":
            return True
        g = b.top
        return hasattr(g, "game") and b.name() in ("SoloScreen", "DuelScreen") and \
            g.game.is_terminal()

    def decide(self, kind):
        """One decision of the table: a few presses."""
        b = self.box
        top = b.top
        g = game_screen(b.app)
        pol = self.policy
        if g is not None and g is top and self.chance(pol.undo) and g.game.can_undo():
            if b.has_undo and self.chance(0.5):
                self.press(UNDO)  # the fifth button
            else:
                self.press(BACK, long=True)
            return
        if self.chance(pol.cut):
            if self.chance(0.5):
                b.boot()  # the power goes between two presses
            else:
                b.flash.cut_after = 1 + self.rng.randbelow(300)  # ... or in the next write
            return
        name = b.name()
        if name == "ConfirmDialog":
            title = b.title()
            if title == "Resume game?":
                self.pick_row(0)
            else:
                self.press(OK)  # "Saved game": start this one
        elif name in ("MessageScreen", "LinesScreen"):
            self.press(OK)
        elif name == "Counter":
            self.counter()
        elif name in ("NumberPicker", "Number"):
            for _ in range(self.rng.randbelow(5)):
                self.press(NEXT)
            self.press(OK)
        elif name == "PlayScreen":
            self.ldl_decide(top)
        elif hasattr(top, "menu") and getattr(top.menu, "items", None) and \
                not getattr(top, "editing", False):
            if getattr(top, "mode", None) == "scores":
                self.check_totals(top)
            self.list_decide(top)
        else:
            self.ring_decide()

    def list_decide(self, top):
        n = len(top.menu.items)
        if self.chance(self.policy.suggest):
            self.press(OK)
            return
        self.pick_row(self.rng.randbelow(n))

    def ring_decide(self):
        """A board screen whose prev/next step through what may be chosen (Space Lunch's
        cards and coupons, its food wheel): the suggested one, or a few steps on."""
        if not self.chance(self.policy.suggest):
            button = NEXT if self.chance(0.5) else PREV
            for _ in range(1 + self.rng.randbelow(4)):
                self.press(button)
        self.press(OK)

    def counter(self):
        top = self.box.top
        n = len(top.menu.items)
        if self.chance(0.3):
            self.pick_row(0)  # Done
        else:
            self.pick_row(1 + self.rng.randbelow(n - 1))

    def ldl_decide(self, s):
        from companion.games.lets_do_lunch.panel import ASK, ENDED, PLACING, TYPING

        if s.figures is not None:
            self.press(OK)
            return
        mode = s.mode
        if mode == PLACING:
            self.ring_decide()
        elif mode == TYPING:
            if not self.chance(self.policy.suggest):
                self.press(NEXT if self.chance(0.5) else PREV)
            self.press(OK)
        elif mode == ASK:
            if self.chance(0.2):
                self.press(NEXT)
            self.press(OK)
        elif mode == ENDED and not s.game.is_terminal():
            self.ldl_game_end(s)
        else:
            self.press(OK)

    # ---- setups ------------------------------------------------------------------------

    def space_lunch_setup(self):
        import companion.games.space_lunch.entry as sl

        sl.DEAL_SEED[0] = 1 + self.rng.randbelow(1 << 30)  # the device's deal, seeded
        if self.chance(0.3) and not self.pick_row(5 + self.rng.randbelow(2)):
            return  # Hints or Cards flipped first; cut on the way
        self.pick_row(self.rng.randbelow(5))  # a difficulty, or two players

    def ldl_setup(self):
        s = self.box.top
        boots = self.box.boots
        if self.chance(0.3):
            self.pick(s.items()[0])  # two people at the table
        if s.vs and self.box.boots == boots:
            level = self.ldl_levels[self.rng.randbelow(len(self.ldl_levels))]
            if s.level != level:
                self.pick("Computer")
                if self.box.boots == boots:
                    self.pick_row(level - 1)
            if self.chance(0.5) and self.box.boots == boots:
                self.pick("Computer is")
        if self.chance(0.5) and self.box.boots == boots:
            self.pick("Dice")
        if s.resume is None and s.target != self.ldl_target and self.box.boots == boots:
            self.pick("Target")
            while self.box.boots == boots and self.box.top.value > self.ldl_target:
                self.press(PREV)
            if self.box.boots == boots:
                self.press(OK)
        if self.box.boots == boots:
            self.pick(s.items()[-1])  # Start

    # ---- the checks --------------------------------------------------------------------

    def settings_round_trip(self):
        self.to_menu()
        self.pick_row(len(self.box.top.menu.items) - 1)
        if self.box.name() != "SettingsScreen":
            self.fail("Settings opens {}".format(self.box.name()))
        for _ in range(1 + self.rng.randbelow(3)):
            row = [0, 1, 3, 4, 5][self.rng.randbelow(5)]  # not the names: the seats need them
            self.pick_row(row)
            name = self.box.name()
            if name == "NumberPicker":
                self.press(NEXT if self.chance(0.5) else PREV)
                self.press(OK if self.chance(0.5) else BACK)
            elif name != "SettingsScreen":
                self.press(BACK)
        self.press(BACK)
        if self.box.name() != "MainMenu":
            self.fail("Back from Settings shows {}".format(self.box.name()))

    def tools(self):
        """The tools in the games' lists (no record; their rows are the descriptor's
        ``tools``): a few choices in each, then Back."""
        from companion.app.catalog import about, menu_games

        ids = [g[0] for g in menu_games()]
        for game, row in [(g, row) for g in ids for row in about(g).get("tools") or ()]:
            self.to_menu()
            self.pick_row(ids.index(game))
            if self.box.name() == "Chooser":  # (a saved calculator hand opens at once)
                self.pick_row(row)
            for _ in range(20):
                if self.box.name() == "MainMenu":
                    break
                self.decide(game)
        self.to_menu()

    def kept(self):
        """The records in the store now, by content (a compaction renumbers them); two games
        played alike keep equal bytes, so they are counted."""
        out = {}
        for _q, r in self.box.game_records():
            out[bytes(r["raw"])] = out.get(bytes(r["raw"]), 0) + 1
        return out

    def new_records(self, before):
        left = dict(before)
        out = []
        for q, r in self.box.game_records():
            raw = bytes(r["raw"])
            if left.get(raw, 0):
                left[raw] -= 1
            else:
                out.append((q, r))
        return out

    def names(self):
        """The player names the box holds: as pushed, or the defaults after a loss the box
        reported at its start (``Box.check_settings_loss``)."""
        names = held_names(self.box.store)
        if names != NAMES and self.box.settings_lost is None:
            self.fail("the pushed names are gone: {}".format(names))
        return names

    def check_end(self, kind, seen, st):
        b = self.box
        shown = b.shown()
        recs = self.new_records(seen)
        if not recs:
            self.fail("the game ended with no record kept")
        for seq, row in recs:
            if row["status"] != "ok":
                self.fail("record {} does not replay: {}".format(seq, row.get("error")))
            if row["game_id"] != kind:
                self.fail("record {} is {}, not {}".format(seq, row["game_id"], kind))
        st.entries += sum(r["actions"] for _s, r in recs)
        last = recs[-1][1]
        from shared_rules import games

        g = games.replay(last["record"])
        if not g.is_terminal():
            self.fail("the last record replays to a game not over")
        want = self.seat_names(kind, last)
        if last["players"] != want:
            self.fail("seats named {}, not {}".format(last["players"], want))
        self.log.append((kind, last["winners"], last["scores"]))
        if kind == "lets_do_lunch":
            self.check_ldl_match(recs, shown)
        elif kind == "space_lunch":
            self.check_space_lunch(last, shown)
        else:
            self.check_tally(last, shown)

    def check_totals(self, top):
        """A scoreboard's Scores list: each player's total is what the saved game, replayed,
        says (the save is the record so far)."""
        from shared_rules import games

        saved = self.box.store.load_game()
        if saved is None or saved[0] != top.game.game_id:
            return  # nothing entered yet, or the power went before the save
        sc = games.from_bytes(saved[1]).scores()
        items, marks = top.menu.items, top.menu.item_marks
        for i in range(len(items)):
            names = self.names()[:len(sc)]
            if items[i] in names:
                seat = names.index(items[i])
                m = re.match(r"-?\d+", marks[i])
                if m is None or int(m.group(0)) != sc[seat]:
                    self.fail("Scores shows {} {!r}; the saved game says {}".format(
                        items[i], marks[i], sc[seat]))

    def seat_names(self, kind, row):
        n = len(row["scores"])
        params = row["params"]
        names = self.names()
        if kind == "space_lunch" and params[0] != 4:
            return [names[0], SOLO_OPPONENT]
        if kind == "lets_do_lunch" and len(params) > 2 and params[2]:
            level, seat = params[2] % 4, params[2] // 4
            return [("Computer ({})".format(LDL_LEVELS[level - 1]) if s == seat else names[s])
                    for s in range(n)]
        return names[:n]

    def check_tally(self, row, shown):
        w, sc, nm = row["winners"], row["scores"], row["players"]
        if not w:
            self.fail("the finished scoreboard's record has no winner")
        names_ok = all(nm[s] in shown for s in w) or "{} share the win".format(len(w)) in shown
        if not names_ok or "{} point{}".format(sc[w[0]], "" if sc[w[0]] == 1 else "s") not in shown:
            self.fail("the screen says {!r}; the record: winners {} scores {}".format(
                shown, [nm[s] for s in w], sc))

    def check_space_lunch(self, row, shown):
        w = row["winners"]
        solo = row["params"][0] != 4
        if not w or (solo and len(w) != 1):
            self.fail("Space Lunch record winners {}".format(w))
        if not solo and len(w) == 2 and "Shared victory" in shown:
            return  # both seats won: the end says so (names may be cut short on the OLED)
        for s in w:
            who = ("You" if s == 0 else SOLO_OPPONENT) if solo else row["players"][s]
            # the OLED writes a seat's name short and in capitals ("ANN")
            if who not in shown and who[:3].upper() not in shown:
                self.fail("the end says {!r}; the record's winners {}".format(shown, w))

    def ldl_game_end(self, s):
        """A game of the match is over: note what the screen announces, then OK keeps its
        record and starts the next game."""
        shown = self.box.shown()
        m = re.search(r"\+(\d+) points", shown)
        if m is None:
            self.fail("a game's end shows no points: {!r}".format(shown))
        before = self.kept()
        self.press(OK)
        new = [q for q, _r in self.new_records(before)]
        if new:  # (none when the power went before the record was kept)
            self.ldl_games[new[0]] = (shown, int(m.group(1)))

    def check_ldl_match(self, recs, shown):
        """Each game of the match has its own record, winner and points as announced; the
        match score announced is the sum of the games' points. Each record carries the match
        score after its game: the one before's plus its own points. Only after a loss the store
        said (``Box.note_records_loss``), or once the device warned before the match that the
        memory was nearly full of games not pulled (a match keeps a record a game, and the
        oldest make room), may the match's first records be gone: the sum then starts from the
        first one kept."""
        from shared_rules import games

        lost = self.box.records_lost
        total = None
        for i, (seq, row) in enumerate(recs):
            w, sc = row["winners"], row["scores"]
            if len(w) != 1:
                self.fail("game {} of the match: record winners {} (scores {})".format(
                    i + 1, w, sc))
            name = row["players"][w[0]]
            said = self.ldl_games.get(seq)
            if said is not None:
                text, pts = said
                if sc[w[0]] != pts or name.split(" ")[0] not in text:
                    self.fail("game {}: the screen said {!r}; the record: {} won, scores {}"
                              .format(i + 1, text, name, sc))
            after = games.replay(row["record"]).match_scores()
            before = [after[0] - sc[0], after[1] - sc[1]]
            if total is None and before != [0, 0] and lost is None and not self.warned:
                self.fail("the match's first record kept starts at {}:{} and nothing was said "
                          "lost".format(before[0], before[1]))
            if total is not None and before != total:
                self.fail("game {} of the match: its record starts at {}:{}, the one before "
                          "ended at {}:{}".format(i + 1, before[0], before[1], total[0],
                                                  total[1]))
            total = after
        m = re.search(r"(-?\d+):(-?\d+) in", shown)
        if m is None or [int(m.group(1)), int(m.group(2))] != total:
            self.fail("the match end says {!r}; its games' records add up to {}:{} (the store "
                      "said {!r})".format(shown, total[0], total[1], lost))


def session(profile, seed, policy=None, rounds=2, **kw):
    """Every game of the menu ``rounds`` times (New game between), Settings between games,
    the tools at the end; returns the Table (its stats and log)."""
    plan = []
    for kind in PLAYS:
        plan += [(kind, rounds), ("settings", 1)]
    plan.append(("tools", 1))
    t = Table(profile, seed, policy, **kw)
    try:
        return t.run(plan)
    finally:
        t.box.close()
