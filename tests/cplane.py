"""The real-CircuitPython lane: Adafruit's CircuitPython 9.2.2 UF2 for the Pico, booted in the
rp2040js emulator (tests/cp/lane.js), on a CIRCUITPY drive built by the project's own sync
code for a hardware profile, with the app started by code.py as on a board and driven through
its button GPIOs. What it shows that nothing else here does: the board's real heap, its fixed
Python stack, real displayio, the .mpy files CircuitPython's own mpy-cross makes.

    run = cplane.run("pico-display-pack", ["next", "ok", "shot:menu"], hold=24576)
    run.crashes, run.passes (heap and time after each handled event), run.menu_s

A profile with runtime = "micropython" boots the real MicroPython instead (the plain build
or Pimoroni's, tests/mp/), from a littlefs image of the file set a MicroPython board gets
(tests/mplane_board.py), through the same driver: the same words, trace, shots and Run.

tests/cp/README.md says where each file of tests/cp comes from and its licence; tests/mp's
README the same for the MicroPython images.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CP = ROOT / "tests" / "cp"
# the CircuitPython the lane boots: 9.2.2, whose figures the docs give, or 10.0.0 with
# LUNCHBOX_CPLANE_CP=10.0.0 (its .mpy files are the same format, 6.3: ours load there too)
CP_VERSION = os.environ.get("LUNCHBOX_CPLANE_CP", "9.2.2")


def uf2_for(version):
    """Adafruit's Pico UF2 of that CircuitPython version, as tests/cp keeps it."""
    return CP / "adafruit-circuitpython-raspberry_pi_pico-en_US-{}.uf2".format(version)


UF2 = uf2_for(CP_VERSION)
BOOTROM = CP / "bootrom.js"
DRIVER = CP / "lane.js"
MPY_CROSS = CP / "mpy-cross-9.2.2-linux-x86_64"
NODE_MODULES = ROOT / "node_modules"
FS_SIZE = 1024 * 1024  # CIRCUITPY on a 2 MB Pico with CircuitPython 9: flash 0x100000..
HOLD = 24 * 1024  # the margin every flow must keep (docs/firmware.md)
# the figures docs/firmware.md gives (bench/cp_heap.py --json): the soak checks a fresh run
# against them, make test that the docs' table is theirs
FIGURES = ROOT / "bench" / "data" / "cp_lane.json"

sys.path.insert(0, str(ROOT / "host"))
from lunchbox.device import fileset, mpycross  # noqa: E402
from lunchbox.hardware import profiles  # noqa: E402

_LBX = re.compile(r"LBX (\d+) (\S+) free=(\d+) pre=(\d+) ms=(-?\d+)")
_FIRST = re.compile(r" first=(\d+)")


def available(profile_name=None):
    """Why the lane cannot run here (for that profile's runtime), or None."""
    if not (NODE_MODULES / "rp2040js").is_dir():
        return "rp2040js is not installed (npm ci)"
    uf2 = UF2
    if profile_name is not None and _micropython(profiles.load_profile(profile_name)):
        import mplane_board

        uf2 = mplane_board.uf2_for(profiles.load_profile(profile_name))
    if not uf2.is_file():
        return "{} is missing".format(uf2)
    return None


def _micropython(profile):
    return profiles.runtime(profile) == profiles.MICROPYTHON


def _pins(profile):
    # every button, so each idles high as its pull-up holds it on the board (the emulator
    # reads an undriven input low: the OLED build's fifth button, undo, read held down)
    buttons = ",".join("{}={}".format(role, int(pin[2:]))
                       for role, pin, _label in profiles.button_roles(profile))
    d = profile["display"]
    pins = d.get("pins", {})
    if d["driver"] == "st7789":
        display = "st7789:dc={},cs={}".format(int(pins["dc"][2:]), int(pins["cs"][2:]))
    else:
        display = "ssd1306:addr={},sda={},scl={}".format(
            d.get("address", 0x3C), int(pins["sda"][2:]), int(pins["scl"][2:]))
    return buttons, display


def traced(settings, trace=True, hold=0, extra=None):
    """settings.toml's bytes with the lane's lines: the trace on (LUNCHBOX_TRACE), ``hold``
    bytes held back from the start, and ``extra`` lines; both runtimes' lanes take these."""
    if trace:
        settings += b"LUNCHBOX_TRACE = 1\n"
        if hold:
            settings += "LUNCHBOX_TRACE_HOLD = {}\n".format(hold).encode()
    for line in extra or ():
        settings += line.encode() + b"\n"
    return settings


def drive_files(profile_name, mpy=True, trace=True, hold=0, extra=None, files=None):
    """The CIRCUITPY file set as `lunchbox sync` builds it (drive path -> bytes), with the
    trace switched on in settings.toml; ``files`` (drive path -> bytes) put over it, after
    the compile (a bench's own code.py)."""
    profile = profiles.load_profile(profile_name)
    settings = traced(fileset.merge_settings(b"", profiles.render_settings(profile)), trace,
                      hold, extra)
    built = fileset.build(profile, settings)
    if mpy:
        built = mpycross.compile_files(mpycross.find(str(MPY_CROSS)), built)
    return profile, dict(built, **(files or {}))


def fat_image(files, path):
    """A FAT12 CIRCUITPY image of ``files`` (long names kept), as CircuitPython 9 formats it."""
    from pyfatfs.PyFat import PyFat
    from pyfatfs.PyFatFS import PyFatFS

    with open(path, "wb") as f:
        f.truncate(FS_SIZE)
    pf = PyFat()
    pf.mkfs(str(path), fat_type=PyFat.FAT_TYPE_FAT12, size=FS_SIZE, label="CIRCUITPY")
    pf.close()
    fs = PyFatFS(str(path))
    try:
        fs.writebytes("/boot_out.txt", b"Adafruit CircuitPython 9.2.2 on 2025-01-09; "
                      b"Raspberry Pi Pico with rp2040\r\nBoard ID:raspberry_pi_pico\r\n")
        for rel in sorted(files):
            if "/" in rel:
                fs.makedirs("/" + rel.rsplit("/", 1)[0], recreate=True)
            fs.writebytes("/" + rel, files[rel])
    finally:
        fs.close()
    return path


def cache_dir():
    d = Path(os.environ.get("LUNCHBOX_CPLANE_CACHE", ROOT / ".cplane"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def image_for(profile_name, mpy=True, hold=0, extra=None, files=None):
    """(profile, image path, files): built once per distinct file set."""
    profile, files = drive_files(profile_name, mpy=mpy, hold=hold, extra=extra, files=files)
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    path = cache_dir() / "circuitpy-{}.img".format(h.hexdigest()[:16])
    if not path.exists():
        tmp = path.with_suffix(".tmp{}".format(os.getpid()))
        fat_image(files, tmp)
        os.replace(tmp, path)
    return profile, path, files


class Pass:
    """One traced pass of the app's loop: after an event, or a new top screen."""

    def __init__(self, boot, emu, m, drawn=None):
        self.boot = boot
        self.emu = emu
        # when the panel took the pass's last pixel (lane.js), before the trace's own collect
        # and print: the time a box without the trace shows what the pass drew
        self.drawn = drawn
        self.handled = int(m.group(1))
        self.top = m.group(2)
        self.free = int(m.group(3))  # gc.mem_free() after a collect
        self.pre = int(m.group(4))  # before it: with the pass's garbage
        self.ms = int(m.group(5))
        # a pass that drew more than once (the advice worked out after the press's board):
        # the press to its first refreshed screen; else the pass itself
        f = _FIRST.search(m.string)
        self.first = int(f.group(1)) if f else self.ms
        self.key = None  # the key word that led here

    def __repr__(self):
        return "Pass({} {} free={} ms={})".format(self.handled, self.top, self.free, self.ms)


class Run:
    def __init__(self, events, returncode, stderr):
        self.events = events
        self.returncode = returncode
        self.stderr = stderr
        self.lines = [e["text"] for e in events if e["t"] == "line"]
        self.passes = []
        self.shots = {e["name"]: e for e in events if e["t"] == "shot"}
        key = None
        for e in events:
            if e["t"] == "key":
                key = e["word"]
            elif e["t"] == "line":
                m = _LBX.search(e["text"])
                if m:
                    p = Pass(e["boot"], e["emu"], m, e.get("drawn"))
                    p.key = key
                    self.passes.append(p)
        self.error = next((e["why"] for e in events if e["t"] == "error"), None)
        self.done = any(e["t"] == "done" for e in events)
        end = next((e for e in events if e["t"] == "done"), {})
        # the panel at the end (lane.js models its power state and datasheet waits): whether
        # it shows a frame, and every command sent sooner than the datasheet allows, each boot
        self.panel_shows = end.get("shows")
        self.panel_faults = end.get("faults", [])
        # each time the watchdog ran out and reset the chip (lane.js: as on the board)
        self.watchdogs = [e for e in events if e["t"] == "watchdog"]

    @property
    def crashes(self):
        """Each traceback the console showed, as its text."""
        out = []
        cur = None
        for line in self.lines:
            if line.startswith("Traceback"):
                cur = [line]
                out.append(cur)
            elif cur is not None:
                cur.append(line)
                if not line.startswith(" "):
                    cur = None
        return ["\n".join(c) for c in out]

    @property
    def menu_s(self):
        """Emulated seconds from power-on to the first screen drawn (the first boot): its
        last pixel on the panel (the trace's line after it, where the panel tells nothing)."""
        first = next((p for p in self.passes if p.boot == 1), None)
        if first is None:
            return None
        return first.drawn if first.drawn is not None else first.emu

    def least_free(self):
        return min((p.free for p in self.passes), default=None)

    def tops(self):
        return [p.top for p in self.passes]

    def transcript(self):
        return "\n".join(self.lines[-60:])


def expand(words):
    """``ok*3`` -> ``ok ok ok``."""
    out = []
    for w in words:
        name, star, n = w.partition("*")
        out += [name] * int(n) if star else [w]
    return out


def run(profile_name, words, mpy=True, hold=0, out=None, timeout=900, extra=None, files=None,
        bare=False, app=True, usb_idle=True):
    """Boot the board with the drive for ``profile_name`` and play ``words`` (tests/cp/lane.js
    key words); ``files``: drive files put over the synced ones. Returns a Run. The profile's
    runtime picks the interpreter: CircuitPython 9.2.2 on a FAT drive, or MicroPython on its
    littlefs (``bare``: only ``files`` and settings.toml there, no firmware: a test's own
    main.py). ``app=False``: no app is waited for (the REPL, driven with type:/expect:);
    ``usb_idle=False``: the bare emulator's USB polling (lane.js --usb-idle 0)."""
    why = available(profile_name)
    if why:
        raise RuntimeError("the board lane cannot run: " + why)
    runtime = ["--runtime", "circuitpython"]
    if _micropython(profiles.load_profile(profile_name)):
        import mplane_board

        profile, image, _files = mplane_board.image_for(
            profile_name, cache_dir(), mpy=mpy, hold=hold, extra=extra, files=files, bare=bare)
        uf2 = mplane_board.uf2_for(profile)
        runtime = ["--runtime", "micropython"]
    else:
        profile, image, _files = image_for(profile_name, mpy=mpy, hold=hold, extra=extra,
                                           files=files)
        uf2 = UF2
    buttons, display = _pins(profile)
    out = Path(out) if out else cache_dir() / "shots"
    out.mkdir(parents=True, exist_ok=True)
    script = out / "keys-{}.json".format(os.getpid())
    script.write_text(json.dumps(expand(words)))
    env = dict(os.environ, NODE_PATH=str(NODE_MODULES))
    cmd = ["node", str(DRIVER), "--uf2", str(uf2), "--bootrom", str(BOOTROM),
           "--fs", str(image), "--script", str(script), "--buttons", buttons,
           "--display", display, "--out", str(out), "--timeout", str(timeout),
           "--app", "1" if app else "0", "--usb-idle", "1" if usb_idle else "0"] + runtime
    proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", errors="replace",
                          env=env, timeout=timeout + 60)
    events = []
    for line in proc.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            events.append({"t": "line", "boot": 0, "emu": 0, "text": line})
    script.unlink()
    return Run(events, proc.returncode, proc.stderr)


def tops_at_marks(run):
    """The top screen (the last trace line's) at each ``mark:NAME`` word: [(NAME, top)]."""
    tops = []
    top = None
    for e in run.events:
        if e["t"] == "line":
            m = _LBX.search(e["text"])
            if m:
                top = m.group(2)
        elif e["t"] == "key" and e["word"].startswith("mark:"):
            tops.append((e["word"][5:], top))
    return tops


def flow_params(jobs, over):
    """pytest params of (flow, profile) jobs, id "<flow>-<profile>"; those in ``over``
    ((flow name, profile) -> why) marked as strict expected failures: known not to keep the
    margin yet, and a pass must take the mark away."""
    import pytest

    out = []
    for f, p in jobs:
        why = over.get((f["flow"], p))
        marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
        out.append(pytest.param(f, p, marks=marks,
                                id="{}-{}".format(f["flow"].replace(" ", "_"), p)))
    return out


def flow_words(flow):
    """A bench/heap_flows.py flow as lane key words, a mark after each step."""
    words = []
    for i, (_screen, keys, _top) in enumerate(flow["steps"]):
        words += keys.split()
        words.append("mark:{}".format(i))
    return words


class FlowResult:
    """Per step of a flow: the screen on top at its end, and the least free heap and the
    slowest pass seen while getting there."""

    def __init__(self, flow, profile, run):
        self.flow = flow
        self.profile = profile
        self.run = run
        self.steps = []
        cur = []
        for e in run.events:
            if e["t"] == "key" and e["word"].startswith("mark:"):
                self.steps.append(cur)
                cur = []
            elif e["t"] == "line":
                m = _LBX.search(e["text"])
                if m:
                    cur.append(Pass(e["boot"], e["emu"], m))
        self.rows = []
        for i, (screen, _keys, top) in enumerate(flow["steps"]):
            got = self.steps[i] if i < len(self.steps) else []
            last_top = got[-1].top if got else (self.rows[-1]["top"] if self.rows else None)
            self.rows.append({
                "screen": screen, "want": top, "top": last_top,
                "free": min((p.free for p in got), default=None),
                "ms": max((p.ms for p in got), default=None),
                "first_ms": max((p.first for p in got), default=None),
            })

    @property
    def complete(self):
        return (len(self.steps) == len(self.flow["steps"]) and not self.run.crashes
                and all(r["top"] == r["want"] for r in self.rows))

    def least_free(self):
        return min((r["free"] for r in self.rows if r["free"] is not None), default=None)


def run_flow(flow, profile_name, mpy=True, hold=HOLD, out=None, timeout=1500):
    return FlowResult(flow, profile_name,
                      run(profile_name, flow_words(flow), mpy=mpy, hold=hold, out=out,
                          timeout=timeout))
