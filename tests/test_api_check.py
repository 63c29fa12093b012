"""The CircuitPython API check: firmware/ type-checked with mypy against CircuitPython's own
stubs (circuitpython-stubs: the 10.x release from the dev extras, and 9.2, installed beside
the venv on first use), with the Adafruit libraries the firmware imports on the path. A call
to a CircuitPython module, class or function that does not exist there, or with arguments
its signature does not take, fails. boot.py is checked as is, code.py as a copy under another
name (it would shadow the stdlib's ``code``), and tests/cp_probe.py covers the parts that
reach the app through untyped parameters (nvm, the data link, pixels, the display driver).

Only API errors count: general typing complaints about the app's own code (list inference,
an attribute's type given by its first value) are not what this check is for. An error counts
when it names a module, or a class or function of CircuitPython or of the Adafruit libraries
(see api_names), and when code reaches into a value mypy knows only as None ('"None" has no
attribute'): on the board that is an AttributeError the day the value is None, so a
placeholder set later says what it will hold in a type comment.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(pytest.__file__).resolve().parent.parent
STUBS_92 = "9.2.9"
STUBS_92_DIR = ROOT / ".venv" / "cp-stubs-{}".format(STUBS_92)
LIBRARIES = ("adafruit_display_text", "adafruit_st7789", "adafruit_displayio_ssd1306",
             "neopixel", "adafruit_ticks")
# mypy error codes that are API errors whatever they name
ALWAYS = {"call-arg", "import-not-found", "import-untyped", "name-defined", "call-overload",
          "abstract", "valid-type"}
# codes that are API errors when they name a CircuitPython / library module, class or function
NAMED = {"attr-defined", "arg-type", "union-attr", "operator", "misc", "index", "assignment"}
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: (?P<msg>.*?)\s+\[(?P<code>[\w-]+)\]$")


def stub_dirs(site):
    """{module: stub path} of every CircuitPython module in a circuitpython-stubs install."""
    out = {}
    for d in sorted(Path(site).glob("*-stubs")):
        init = d / "__init__.pyi"
        if init.exists():
            out[d.name[:-len("-stubs")]] = d
    return out


def api_names(stubs):
    """Module, class and function names of CircuitPython (from its stubs) and the libraries."""
    names = set(stubs)
    texts = [p.read_text() for d in stubs.values() for p in d.rglob("*.pyi")]
    for lib in LIBRARIES:
        mod = SITE / lib
        paths = list(mod.glob("*.py")) if mod.is_dir() else [SITE / (lib + ".py")]
        names.add(lib)
        texts += [p.read_text() for p in paths if p.exists()]
    for text in texts:
        names.update(re.findall(r"^\s*(?:class|def)\s+(\w+)", text, re.M))
    # too generic to mark an error as an API error on their own
    return names - {"__init__", "__getitem__", "__setitem__", "__len__", "__iter__", "Any",
                    "Optional", "Union", "List", "Tuple", "Dict", "deinit", "__enter__",
                    "__exit__", "__repr__", "__str__", "fill", "show", "append", "pop"}


def is_api_error(code, msg, names):
    if code in ALWAYS:
        return True
    if code in ("attr-defined", "union-attr") and msg.startswith('"None" has no attribute'):
        return True
    if code not in NAMED:
        return False
    if msg.startswith("Module "):
        return True
    quoted = set(re.findall(r'"([\w.]+)', msg))
    return any(q.split(".")[-1] in names or q.split(".")[0] in names for q in quoted)


# The board layer for MicroPython: CircuitPython never imports it (it imports machine), and
# tests/test_api_check_mp.py checks it against MicroPython's own stubs.
MICROPYTHON_ONLY = ("board/hwmp.py", "board/mpparts.py")


def checked_tree(tmp):
    """firmware/ as mypy sees it: companion/ (less its MicroPython board layer), boot.py,
    code.py as code_py.py, the probe."""
    shutil.copytree(ROOT / "firmware" / "companion", tmp / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in MICROPYTHON_ONLY:
        (tmp / "companion" / name).unlink()
    shutil.copy(ROOT / "firmware" / "boot.py", tmp / "boot.py")
    shutil.copy(ROOT / "firmware" / "code.py", tmp / "code_py.py")
    shutil.copy(ROOT / "tests" / "cp_probe.py", tmp / "cp_probe.py")
    return tmp


def mypy(tmp, mypath=(), cache="10"):
    """Run mypy on the checked tree; returns [(file, line, code, message)] of every error."""
    env = dict(os.environ)
    env["MYPYPATH"] = os.pathsep.join([str(p) for p in mypath] + [str(ROOT)])
    # --no-strict-optional: None-safety is not this check's subject (the stubs type
    # microcontroller.watchdog and usb_cdc.data as Optional; on a Pico both exist)
    cmd = [sys.executable, "-m", "mypy", "--python-version", "3.11", "--check-untyped-defs",
           "--no-strict-optional",
           "--follow-untyped-imports", "--follow-imports=silent", "--no-error-summary",
           "--show-error-codes", "--no-color-output", "--hide-error-context",
           "--cache-dir", str(ROOT / ".venv" / ("mypy-cache-circuitpython-" + cache)),
           "-p", "companion", "-m", "boot", "-m", "code_py", "-m", "cp_probe"]
    proc = subprocess.run(cmd, cwd=str(tmp), env=env, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode not in (0, 1):
        raise RuntimeError("mypy did not run:\n" + proc.stdout + proc.stderr)
    errors = []
    for line in proc.stdout.splitlines():
        m = LINE.match(line.strip())
        if m:
            errors.append((m["file"], int(m["line"]), m["code"], m["msg"]))
    return errors


# Where the stubs are wrong, not the firmware (each checked in CircuitPython's source):
STUB_GAPS = (
    # adafruit_pixelbuf.PixelBuf implements len() (shared-bindings/adafruit_pixelbuf/
    # PixelBuf.c, MP_UNARY_OP_LEN); its stub has no __len__
    ("arg-type", 'Argument 1 to "len" has incompatible type "PixelBuf"'),
)


def api_errors(errors, stubs):
    names = api_names(stubs)
    return [e for e in errors if is_api_error(e[2], e[3], names)
            and not any(e[2] == code and e[3].startswith(msg) for code, msg in STUB_GAPS)]


def report(errors):
    return "\n".join("{}:{}: {} [{}]".format(*e) for e in errors)


def stubs_92():
    """circuitpython-stubs 9.2 as a MYPYPATH folder (X-stubs renamed X), installed from PyPI
    beside the venv on first use; None when it cannot be had (no network)."""
    site = STUBS_92_DIR / "site"
    path = STUBS_92_DIR / "path"
    if not (path / "displayio").exists():
        shutil.rmtree(STUBS_92_DIR, ignore_errors=True)
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                               "--target", str(site), "circuitpython-stubs=={}".format(STUBS_92)],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            return None
        path.mkdir(parents=True)
        for name, d in stub_dirs(site).items():
            shutil.copytree(d, path / name)
    return path


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return checked_tree(tmp_path_factory.mktemp("apicheck"))


def test_firmware_matches_circuitpython_10(tree):
    stubs = stub_dirs(SITE)
    assert "displayio" in stubs and "fourwire" in stubs, "circuitpython-stubs 10 not installed"
    errors = api_errors(mypy(tree), stubs)
    assert not errors, "calls CircuitPython 10 does not have:\n" + report(errors)


def test_firmware_matches_circuitpython_9_2(tree):
    path = stubs_92()
    if path is None:
        pytest.skip("circuitpython-stubs {} could not be installed (no package index)".format(
            STUBS_92))
    stubs = stub_dirs(STUBS_92_DIR / "site")
    errors = api_errors(mypy(tree, mypath=(path,), cache="9.2"), stubs)
    assert not errors, "calls CircuitPython 9.2 does not have:\n" + report(errors)


def test_the_check_catches_a_wrong_call(tmp_path):
    """A module that is gone, a function that does not exist, a keyword a constructor does not
    take, and a wrong argument type all fail the check."""
    tree = checked_tree(tmp_path)
    hw = tree / "companion" / "board" / "hwpico.py"
    src = hw.read_text()
    src = src.replace("from fourwire import FourWire",
                      "from displayio import FourWire")  # CircuitPython 8's place
    src = src.replace("displayio.release_displays()", "displayio.release_all_displays()")
    hw.write_text(src)
    parts = tree / "companion" / "board" / "picoparts.py"
    parts.write_text(parts.read_text().replace(
        "keypad.Keys(pins, value_when_pressed=False, pull=True)",
        "keypad.Keys(pins, value_when_pressed=False, pull_up=True)"))
    leds = tree / "companion" / "board" / "leds.py"
    leds.write_text(leds.read_text().replace("p.show()", "p.show(1)"))
    # the race as it was: a placeholder None with nothing said of what it will hold, then
    # used where the mode says it is set
    race = tree / "companion" / "games" / "space_battle" / "entry.py"
    src = race.read_text()
    for was, now in (("pick = None  # type: Optional[TablePick]", "pick = None"),
                     ('if self.mode == "first" and pick is not None:', 'if self.mode == "first":')):
        assert was in src, was
        src = src.replace(was, now)
    race.write_text(src)
    errors = api_errors(mypy(tree, cache="10-broken"), stub_dirs(SITE))
    text = report(errors)
    assert "FourWire" in text
    assert "pull_up" in text
    assert "release_all_displays" in text
    assert "leds.py" in text
    assert 'space_battle/entry.py' in text and '"None" has no attribute "view"' in text


def test_what_is_left_out_here_is_checked_against_micropython():
    """The MicroPython board layer is not checked against CircuitPython, so it must be checked
    against MicroPython: each module left out is one of test_api_check_mp's."""
    import test_api_check_mp

    for name in MICROPYTHON_ONLY:
        assert (ROOT / "firmware" / "companion" / name).is_file(), name
        assert "companion." + name[:-3].replace("/", ".") in test_api_check_mp.MODULES, name
    # and CircuitPython's side imports none of it
    for path in (ROOT / "firmware" / "companion").rglob("*.py"):
        if path.relative_to(ROOT / "firmware" / "companion").as_posix() in MICROPYTHON_ONLY:
            continue
        text = path.read_text()
        for name in MICROPYTHON_ONLY:
            module = name[:-3].rpartition("/")[2]
            assert not re.search(r"^\s*(from|import) [\w.]*\b{}\b".format(module), text,
                                 re.M), (path, name)
