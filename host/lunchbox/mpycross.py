"""Compile the firmware to CircuitPython .mpy with the user's own mpy-cross
(`lunchbox sync --mpy-cross PATH`).

Why: the Pico compiles every .py it imports, and compiling needs about 2-3x the source size of
free heap for a moment (docs/firmware.md, "Memory"). A .mpy is already compiled: it loads with
little more than what the module keeps. Only CircuitPython's own mpy-cross will do: its .mpy
files start with 'C' (MicroPython's with 'M', which CircuitPython refuses), and the format
belongs to one CircuitPython major version, so the compiler must match the board's
(boot_out.txt, line 1). .py stays the default: it always works.

Nothing is downloaded: the user passes a binary they have (circuitpython.org lists them per
version and OS). ``--version`` says "CircuitPython 10.0.3 on 2025-...; mpy-cross emitting mpy
v6.3" (mpy-cross/main.c, CIRCUITPY-CHANGE); MicroPython's says "MicroPython v1.x ...".
"""

import os
import re
import subprocess
import tempfile
from pathlib import Path

from .errors import LunchboxError

# CircuitPython runs these by name, as .py only; settings.toml is not Python
KEEP = ("boot.py", "code.py")
TIMEOUT = 60  # seconds for one file (a 20 KB module takes well under one)
_VERSION = re.compile(r"CircuitPython (\d+)\.(\d+)(?:\.(\d+))?")
HINT = ("use CircuitPython's own mpy-cross for the board's version (circuitpython.org lists "
        "one per version and OS), or leave out --mpy-cross: .py always works")


class MpyCross:
    """A checked mpy-cross: its path and the CircuitPython version it compiles for."""

    def __init__(self, path, version, text):
        self.path = path
        self.version = version  # (major, minor)
        self.text = text

    def __repr__(self):
        return "MpyCross({!r}, {})".format(self.path, self.text)


def find(path, run=subprocess.run):
    """Check the binary at ``path``: there, executable, and CircuitPython's. LunchboxError
    otherwise, saying which and what to do."""
    p = Path(path).expanduser()
    if not p.exists():
        raise LunchboxError("--mpy-cross {}: no such file".format(path), hint=HINT)
    if not p.is_file():
        raise LunchboxError("--mpy-cross {}: not a file".format(path), hint=HINT)
    if not os.access(p, os.X_OK):
        raise LunchboxError("--mpy-cross {}: not executable".format(path),
                            hint="chmod +x {} (a downloaded binary loses that bit)".format(p))
    try:
        proc = run([str(p), "--version"], capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as e:
        raise LunchboxError("--mpy-cross {}: does not run here ({})".format(path, e),
                            hint="the binary must be built for this computer's system: "
                                 + HINT) from None
    text = (proc.stdout or proc.stderr or "").strip().splitlines()
    text = text[0] if text else ""
    if text.startswith("MicroPython"):
        raise LunchboxError("--mpy-cross {} is MicroPython's ({}): its .mpy files do not load "
                            "on CircuitPython".format(path, text), hint=HINT)
    m = _VERSION.search(text)
    if proc.returncode != 0 or not m:
        raise LunchboxError("--mpy-cross {}: not CircuitPython's mpy-cross (--version said "
                            "{!r})".format(path, text[:80]), hint=HINT)
    return MpyCross(str(p), (int(m.group(1)), int(m.group(2))), text)


def check_version(tool, board_version):
    """The compiler must be for the board's CircuitPython major version (the .mpy format
    changes with it). ``board_version``: (major, minor, patch) from boot_out.txt."""
    if board_version is None:
        raise LunchboxError("the board's CircuitPython version is unknown, so .mpy files "
                            "cannot be matched to it", hint="press the board's reset button "
                            "once (it writes boot_out.txt), or sync without --mpy-cross")
    if tool.version[0] != board_version[0]:
        raise LunchboxError(
            "--mpy-cross is for CircuitPython {}.{}, the board runs {}: .mpy files of one "
            "major version do not load on another".format(
                tool.version[0], tool.version[1], ".".join(str(n) for n in board_version)),
            hint="use the mpy-cross of CircuitPython {}.x, or leave out --mpy-cross".format(
                board_version[0]))


def compile_files(tool, files, workdir=None, run=subprocess.run, progress=None):
    """``files``: drive path -> bytes (the sync file set). Returns a new dict where every
    ``.py`` but boot.py and code.py is replaced by its ``.mpy`` (same folder, same name),
    compiled in a temporary folder; everything else passes through. ``progress(done, total)``
    after each file. A file that does not compile is a LunchboxError naming it."""
    todo = sorted(rel for rel in files if rel.endswith(".py") and rel not in KEEP)
    out = dict((rel, data) for rel, data in files.items() if rel not in todo)
    with tempfile.TemporaryDirectory(prefix="lunchbox-mpy-", dir=workdir) as tmp:
        for i, rel in enumerate(todo):
            src = Path(tmp) / "src" / rel
            dst = Path(tmp) / "mpy" / (rel[:-3] + ".mpy")
            src.parent.mkdir(parents=True, exist_ok=True)
            dst.parent.mkdir(parents=True, exist_ok=True)
            src.write_bytes(files[rel])
            # -s: the name tracebacks show (the path on the drive, not the temp folder)
            cmd = [tool.path, "-o", str(dst), "-s", rel, str(src)]
            try:
                proc = run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                raise LunchboxError("mpy-cross took over {} s on {}".format(TIMEOUT, rel),
                                    hint=HINT) from None
            except OSError as e:
                raise LunchboxError("mpy-cross did not run on {}: {}".format(rel, e),
                                    hint=HINT) from None
            if proc.returncode != 0 or not dst.is_file():
                msg = (proc.stderr or proc.stdout or "").strip().splitlines()
                raise LunchboxError("mpy-cross could not compile {}: {}".format(
                    rel, msg[-1] if msg else "exit status {}".format(proc.returncode)),
                    hint="fix that file (it must also run as .py), or sync without "
                         "--mpy-cross")
            data = dst.read_bytes()
            if data[:1] != b"C":
                raise LunchboxError(
                    "{} from {} is not a CircuitPython .mpy (it starts with {!r})".format(
                        rel[:-3] + ".mpy", tool.path, data[:1]), hint=HINT)
            out[rel[:-3] + ".mpy"] = data
            if progress is not None:
                progress(i + 1, len(todo))
    return out
