"""What `lunchbox sync` puts on CIRCUITPY: path on the drive -> bytes.

- firmware/boot.py and firmware/code.py at the drive root;
- firmware/companion/** and shared_rules/** (the .py files, plus the asset kinds below);
- the CircuitPython libraries under lib/, copied from the installed Python packages (the
  project pins their versions in pyproject.toml, so no download is needed): LIBRARIES; of a
  library package only the modules the firmware reaches through its imports are copied;
- settings.toml, rendered from the hardware profile.
"""

import ast
import importlib.metadata
import importlib.util
import os
from pathlib import Path

from ..errors import LunchboxError
from ..hardware.profiles import HEAP_START_KEY

REPO_ROOT = Path(__file__).resolve().parents[3]

# The CircuitPython libraries the firmware imports, by when they are needed. The one list to
# edit when the firmware starts importing another library.
LIBRARIES = {
    "always": ("adafruit_ticks", "neopixel"),  # text: companion/screen/textlabel.py, no library
    "st7789": ("adafruit_st7789",),
    "ssd1306": ("adafruit_displayio_ssd1306",),
}
# Modules the firmware or those libraries import that are built into CircuitPython 9/10 on
# RP2040 and RP2350 (full builds), so nothing is copied for them (a lib/ copy of
# adafruit_pixelbuf would only waste flash). tests/test_sync.py checks that every import in
# the shipped files is shipped or listed here.
BUILTIN = ("adafruit_pixelbuf", "alarm", "analogio", "array", "binascii", "bitmaptools", "board",
           "builtins",
           "busdisplay", "busio", "collections", "digitalio", "displayio", "errno", "fontio",
           "fourwire", "gc", "i2cdisplaybus", "io", "json", "keypad", "math", "microcontroller",
           "micropython", "neopixel_write", "os", "random", "re", "struct", "supervisor", "sys",
           "terminalio", "time", "traceback", "usb_cdc", "vectorio", "watchdog")

# The MicroPython board layer (mpfiles ships it): it imports machine, which CircuitPython has
# not, and would only take room on CIRCUITPY.
MICROPYTHON_ONLY = ("companion/board/hwmp.py",)

ASSET_SUFFIXES = (".py", ".json", ".bdf", ".pcf", ".bmp")  # .json: the games' descriptors
ROOT_FILES = ("boot.py", "code.py")
SETTINGS = "settings.toml"
SETTINGS_PREFIX = "LUNCHBOX_"
# CircuitPython's own keys that sync writes too (profiles.render_settings): a value the user
# had for one is replaced by sync's, so the file never says it twice. (The header's words stay
# as they were: an older drive's header is recognised by them and not kept twice.)
SETTINGS_SYNCED = (HEAP_START_KEY,)


def _walk(base, prefix, suffixes):
    out = {}
    if not base.is_dir():
        return out
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(suffixes) and not name.startswith("."):
                path = Path(dirpath) / name
                rel = path.relative_to(base).as_posix()
                out[prefix + rel] = path
    return out


def needed_libraries(profile):
    driver = (profile.get("display") or {}).get("driver")
    names = list(LIBRARIES["always"])
    if driver not in LIBRARIES:
        raise LunchboxError("profile {!r} has display driver {!r}, which sync has no library "
                            "for".format(profile.get("id"), driver),
                            hint="use one of: " + ", ".join(
                                sorted(k for k in LIBRARIES if k != "always")))
    names += LIBRARIES[driver]
    return names


def library_files(name, find_spec=importlib.util.find_spec):
    """lib/ path -> source path for one installed CircuitPython library (module or package,
    all of its modules)."""
    spec = find_spec(name)
    if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
        raise LunchboxError(
            "the CircuitPython library {!r} is not installed in this Python".format(name),
            hint="install the project with its sim extras: pip install -e '.[sim]'")
    if spec.submodule_search_locations:
        base = Path(list(spec.submodule_search_locations)[0])
        return _walk(base, "lib/{}/".format(name), (".py",))
    return {"lib/{}.py".format(name): Path(spec.origin)}


def shipped_libraries(files):
    """The library names (top-level lib/ modules or packages) in a file set, sorted."""
    names = set()
    for rel in files:
        parts = rel.split("/")
        if parts[0] == "lib" and len(parts) > 1:
            names.add(parts[1][:-3] if len(parts) == 2 and parts[1].endswith(".py")
                      else parts[1])
    return sorted(names)


def library_version(name, distributions=None):
    """The version of the installed distribution that provides import name ``name``
    ("neopixel" -> adafruit-circuitpython-neopixel's "6.4.2"), or None when not known."""
    if distributions is None:
        distributions = importlib.metadata.packages_distributions()
    for dist in distributions.get(name, ()):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def library_versions(files):
    """{library name: version of its installed distribution} for the libraries in the file
    set ``files`` (drive path -> anything), for the manifest; unknown versions are left out."""
    names = shipped_libraries(files)
    if not names:
        return {}
    distributions = importlib.metadata.packages_distributions()
    out = {}
    for name in names:
        version = library_version(name, distributions)
        if version:
            out[name] = version
    return out


def imported_names(source, module):
    """Every dotted name an import in ``source`` may refer to (``from a import b`` gives "a"
    and "a.b"), relative imports resolved against ``module`` (e.g. "companion.screen.ui" or
    "companion" for a package's __init__). Imports inside functions and try blocks count."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[:-node.level]
                base = ".".join(parts + ([base] if base else []))
            if base:
                names.add(base)
                names.update(base + "." + a.name for a in node.names if a.name != "*")
    for name in list(names):  # importing a.b.c runs a/__init__ and a/b/__init__ too
        parts = name.split(".")
        names.update(".".join(parts[:n]) for n in range(1, len(parts)))
    return names


def _module_name(rel):
    """"lib/pkg/sub.py" -> "pkg.sub", "companion/__init__.py" -> "companion"."""
    parts = rel[:-3].split("/")
    if parts[0] == "lib":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def reachable_library_files(names, own, find_spec=importlib.util.find_spec):
    """The lib/ files of libraries ``names`` that the files ``own`` (rel -> source path)
    reach through imports, directly or through other library modules. A library (or a
    package's submodule) that nothing imports is not copied."""
    candidates = {}
    for name in names:
        candidates.update(library_files(name, find_spec))
    chosen = {}
    seen = set()
    while True:
        wanted = set()
        for rel, path in list(own.items()) + list(chosen.items()):
            if rel.endswith(".py") and rel not in seen:
                seen.add(rel)
                mod = _module_name(rel)
                wanted |= imported_names(path.read_bytes(), mod if not rel.endswith(
                    "/__init__.py") else mod + ".__init__")
        added = {rel: path for rel, path in candidates.items()
                 if rel not in chosen and _module_name(rel) in wanted}
        if not added:
            return chosen
        chosen.update(added)


def firmware_version(root=REPO_ROOT):
    """companion.__version__ read by parsing firmware/companion/__init__.py (not importing)."""
    path = Path(root) / "firmware" / "companion" / "__init__.py"
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets
        ) and isinstance(node.value, ast.Constant):
            return str(node.value.value)
    return None


def sources(profile, root=REPO_ROOT, find_spec=importlib.util.find_spec):
    """Drive path -> source file path, without settings.toml."""
    root = Path(root)
    firmware = root / "firmware"
    files = {}
    for name in ROOT_FILES:
        if (firmware / name).is_file():
            files[name] = firmware / name
    if "code.py" not in files:
        raise LunchboxError("{} is missing: there is no firmware to sync".format(
            firmware / "code.py"), hint="run sync from a complete Lunchbox checkout")
    files.update(_walk(firmware / "companion", "companion/", ASSET_SUFFIXES))
    files.update(_walk(root / "shared_rules", "shared_rules/", (".py", ".json")))
    for rel in MICROPYTHON_ONLY:
        files.pop(rel, None)
    files.update(reachable_library_files(needed_libraries(profile), files, find_spec))
    return files


def build(profile, settings_text, root=REPO_ROOT, find_spec=importlib.util.find_spec):
    """The whole file set: drive path -> bytes."""
    out = {rel: path.read_bytes() for rel, path in sources(profile, root, find_spec).items()}
    out[SETTINGS] = settings_text if isinstance(settings_text, bytes) else settings_text.encode()
    return out


SETTINGS_HEADER = ("# LUNCHBOX_* lines: written by `lunchbox sync` from the hardware profile; "
                   "edit the profile, not them.\n# Your own lines (Wi-Fi, CIRCUITPY_*) are kept, "
                   "above this block.\n")


def merge_settings(existing, rendered):
    """settings.toml for the drive: the profile's LUNCHBOX_ keys under a short header, plus
    every other line the user already had there (Wi-Fi, CIRCUITPY_* options), which sync must
    not lose. ``existing`` as bytes gives bytes: the user's lines are kept byte for byte
    (their line endings, and any encoding: a Latin-1 file stays Latin-1); as str, a str."""
    if existing is None or isinstance(existing, str):
        return merge_settings((existing or "").encode("utf-8", "surrogateescape"),
                              rendered).decode(
            "utf-8", "surrogateescape")
    header = SETTINGS_HEADER.encode().splitlines()
    keep = []
    for line in (existing or b"").splitlines(keepends=True):
        bare = line.rstrip(b"\r\n")
        key = bare.split(b"=", 1)[0].strip()
        if (key.startswith(SETTINGS_PREFIX.encode()) or key.decode("latin-1") in SETTINGS_SYNCED
                or bare in header):
            continue
        keep.append(line)
    while keep and not keep[-1].strip():
        keep.pop()
    block = (SETTINGS_HEADER + rendered).encode()
    if not keep:
        return block
    if not keep[-1].endswith((b"\n", b"\r")):
        keep[-1] += b"\n"
    return b"".join(keep) + b"\n" + block


def settings_problem(data):
    """Why the device may not read settings.toml ``data`` as it is (not UTF-8), or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        return ("settings.toml line {} is not UTF-8 (byte 0x{:02X}); CircuitPython reads it "
                "as UTF-8, so that line may not work on the board. It was kept as it is".format(
                    line, data[e.start]))
    return None


def watched_paths(root=REPO_ROOT, profile_path=None):
    """Source files whose change should trigger a resync under --watch."""
    root = Path(root)
    paths = []
    for name in ROOT_FILES:
        paths.append(root / "firmware" / name)
    paths += _walk(root / "firmware" / "companion", "", ASSET_SUFFIXES).values()
    paths += _walk(root / "shared_rules", "", (".py", ".json")).values()
    if profile_path:
        paths.append(Path(profile_path))
    return paths


def snapshot(paths):
    """(mtime_ns, size) per path, None for a missing one: compare two to see a change."""
    snap = {}
    for p in paths:
        try:
            st = os.stat(p)
            snap[str(p)] = (st.st_mtime_ns, st.st_size)
        except OSError:
            snap[str(p)] = None
    return snap
