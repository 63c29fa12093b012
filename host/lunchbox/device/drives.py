"""Find the Pico's USB drives: the UF2 bootloader (by INFO_UF2.TXT) and CIRCUITPY (by label).

Where volumes are mounted differs by system:
- Linux: /media/$USER/LABEL, /run/media/$USER/LABEL (udisks), /media/LABEL, /mnt/LABEL, and
  anything else listed in /proc/self/mounts as a FAT volume;
- macOS: /Volumes/LABEL (a second board with the same label becomes "CIRCUITPY 1");
- Windows: drive letters, the label read with GetVolumeInformationW.
Every finder takes ``roots`` (folders whose children are volumes) so tests pass tmp folders.
"""

import os
import re
import sys
import time

from ..errors import LunchboxError

INFO_UF2 = "INFO_UF2.TXT"
BOOT_OUT = "boot_out.txt"
# udisks names a duplicate "CIRCUITPY1", macOS "CIRCUITPY 1".
_CIRCUITPY_LABEL = re.compile(r"^CIRCUITPY(?:[ _-]?\d+)?$", re.IGNORECASE)
SUPPORTED_MAJORS = (9, 10)
_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")
_FAT_TYPES = ("vfat", "msdos", "fat", "exfat", "fuseblk")


class Drive:
    """A mounted volume: where it is and what it is called."""

    def __init__(self, path, label=None):
        self.path = str(path)
        self.label = label if label is not None else os.path.basename(self.path.rstrip("/\\"))

    def __repr__(self):
        return "Drive({!r}, {!r})".format(self.path, self.label)

    def __eq__(self, other):
        return isinstance(other, Drive) and (self.path, self.label) == (other.path, other.label)

    def __hash__(self):
        return hash((self.path, self.label))

    def describe(self):
        if self.label and self.label != os.path.basename(self.path.rstrip("/\\")):
            return "{} ({})".format(self.path, self.label)
        return self.path


def default_roots(platform=None, env=None):
    """Folders whose children are mounted volumes on this system (not Windows)."""
    platform = platform or sys.platform
    env = os.environ if env is None else env
    if platform == "darwin":
        return ["/Volumes"]
    user = env.get("USER") or env.get("LOGNAME") or ""
    roots = []
    if user:
        roots += ["/media/" + user, "/run/media/" + user]
    roots += ["/media", "/mnt"]
    return roots


def _proc_mounts(mounts_file="/proc/self/mounts"):
    """FAT mount points from /proc/self/mounts (Linux), for volumes mounted elsewhere."""
    found = []
    try:
        with open(mounts_file) as f:
            lines = f.read().splitlines()
    except OSError:
        return found
    for line in lines:
        fields = line.split()
        if len(fields) >= 3 and fields[2] in _FAT_TYPES:
            # /proc/mounts escapes spaces as \040
            found.append(Drive(fields[1].replace("\\040", " ")))
    return found


def _windows_drives():
    import ctypes  # only on Windows
    import string

    kernel32 = ctypes.windll.kernel32
    bitmask = kernel32.GetLogicalDrives()
    drives = []
    for i, letter in enumerate(string.ascii_uppercase):
        if not bitmask & (1 << i):
            continue
        root = letter + ":\\"
        if kernel32.GetDriveTypeW(root) != 2:  # DRIVE_REMOVABLE
            continue
        name = ctypes.create_unicode_buffer(261)
        ok = kernel32.GetVolumeInformationW(ctypes.c_wchar_p(root), name, 261,
                                            None, None, None, None, 0)
        drives.append(Drive(root, name.value if ok else ""))
    return drives


def mounted_volumes(roots=None):
    """Every mounted volume worth looking at, without duplicates, in a stable order."""
    drives = []
    if roots is None:
        if os.name == "nt":
            return _windows_drives()
        roots = default_roots()
        drives += _proc_mounts()
    for root in roots:
        try:
            names = sorted(os.listdir(root))
        except OSError:
            continue
        for name in names:
            path = os.path.join(root, name)
            if os.path.isdir(path):
                drives.append(Drive(path))
    seen = set()
    unique = []
    for d in drives:
        key = os.path.realpath(d.path)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique


def is_circuitpy_label(label):
    return bool(label) and bool(_CIRCUITPY_LABEL.match(label.strip()))


def find_circuitpy(roots=None):
    return [d for d in mounted_volumes(roots) if is_circuitpy_label(d.label)]


def find_bootloaders(roots=None):
    return [d for d in mounted_volumes(roots) if os.path.isfile(os.path.join(d.path, INFO_UF2))]


def _read_text(path, limit=64 * 1024):
    """A small text file on a drive; OSError when it is missing, not a regular file (a FIFO
    would block forever) or unreadable."""
    from .sync import read_file

    try:
        data = read_file(path, limit)
    except LunchboxError as e:
        raise OSError(str(e)) from None
    if data is None:
        raise FileNotFoundError(path)
    return data.decode("utf-8", "replace")


def read_info_uf2(drive):
    return _read_text(os.path.join(drive.path, INFO_UF2))


def choose(drives, what, ask=None):
    """One drive out of ``drives``; ask when there are several, never guess.

    ``ask(drives)`` returns the chosen drive (the command passes a prompt when stdin is a
    terminal); without it, several drives are an error that lists them.
    """
    if not drives:
        return None
    if len(drives) == 1:
        return drives[0]
    if ask is None:
        raise LunchboxError(
            "{} {} drives are attached: {}".format(
                len(drives), what, ", ".join(d.describe() for d in drives)),
            hint="name one with --drive PATH (or unplug the other boards)")
    chosen = ask(drives)
    if chosen not in drives:
        raise LunchboxError("no drive chosen", hint="name one with --drive PATH")
    return chosen


def wait_for(find, timeout, poll=0.5, sleep=time.sleep, clock=time.monotonic, tick=None):
    """Call ``find()`` until it returns something truthy or ``timeout`` seconds pass."""
    deadline = clock() + timeout
    while True:
        found = find()
        if found:
            return found
        now = clock()
        if now >= deadline:
            return None
        if tick is not None:
            tick(deadline - now)
        sleep(min(poll, max(0.0, deadline - now)))


def version_tuple(text):
    """(major, minor, micro) of a CircuitPython version as boot_out.txt or a UF2 image writes
    it ("9.2.1", "v10.0.0-beta.2", "9.2": micro 0); None when ``text`` starts with none."""
    m = _VERSION.match(text or "")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else None


class BootOut:
    """boot_out.txt: 'Adafruit CircuitPython X.Y.Z on DATE; BOARD with CHIP', 'Board ID:…'."""

    def __init__(self, version_text, board_name, chip, board_id):
        self.version_text = version_text
        self.board_name = board_name
        self.chip = chip
        self.board_id = board_id
        self.version = version_tuple(version_text)

    @property
    def supported(self):
        return self.version is not None and self.version[0] in SUPPORTED_MAJORS


_FIRST = re.compile(r"Adafruit CircuitPython (\S+) on [^;]*;\s*(.*?)(?: with (\S+))?\s*$")


def parse_boot_out(text):
    """A BootOut from the text of boot_out.txt; ValueError if it is not one."""
    lines = text.splitlines()
    if not lines:
        raise ValueError("boot_out.txt is empty")
    m = _FIRST.match(lines[0].strip())
    if not m:
        raise ValueError("boot_out.txt does not start with 'Adafruit CircuitPython': "
                         "{!r}".format(lines[0][:60]))
    board_id = None
    for line in lines[1:]:
        if line.startswith("Board ID:"):
            board_id = line[len("Board ID:"):].strip() or None
    return BootOut(m.group(1), m.group(2).strip(), m.group(3), board_id)


def read_boot_out(drive):
    """The drive's BootOut; LunchboxError when missing or unreadable."""
    path = os.path.join(drive.path, BOOT_OUT)
    try:
        text = _read_text(path)
    except FileNotFoundError:
        raise LunchboxError(
            "{} has no boot_out.txt, so the CircuitPython version is unknown".format(
                drive.describe()),
            hint="press the board's reset button once (CircuitPython writes boot_out.txt "
                 "at start-up), or check --drive points at CIRCUITPY") from None
    except OSError as e:
        raise LunchboxError("cannot read {}: {}".format(path, e.strerror or e),
                            hint="CircuitPython writes a small boot_out.txt at every start: "
                                 "delete this one from the drive and press the board's reset "
                                 "button") from None
    try:
        return parse_boot_out(text)
    except ValueError as e:
        raise LunchboxError(
            "{}: {}".format(path, e),
            hint="this does not look like a CircuitPython drive; install CircuitPython with "
                 "`lunchbox flash --uf2 FILE` (CircuitPython 9.2.2 for your board, from "
                 "circuitpython.org)") from None


def check_supported(boot):
    if not boot.supported:
        raise LunchboxError(
            "the board runs CircuitPython {}; Lunchbox supports {}".format(
                boot.version_text, " and ".join("{}.x".format(m) for m in SUPPORTED_MAJORS)),
            hint="install CircuitPython 9.2.2: `lunchbox flash --uf2 FILE` (the .uf2 for your "
                 "board, from circuitpython.org); it keeps the files on CIRCUITPY")
