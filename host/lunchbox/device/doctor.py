"""`lunchbox doctor`: what is attached, what runs on it, and for each problem, the fix."""

import os
import sys

from ..errors import LunchboxError
from ..hardware import profiles
from . import drives, fileset, mpycross, ports, sync, uf2


class Report:
    def __init__(self, sync_cmd="lunchbox sync"):
        self.sync_cmd = sync_cmd  # with --drive PATH when doctor was given one
        self.seen = []  # lines describing what was found
        self.problems = []  # (problem, fix)
        self.notes = []  # (note, fix): worth fixing, but not a fault (exit status stays 0)

    def see(self, text):
        self.seen.append(text)

    def problem(self, text, fix):
        self.problems.append((text, fix))

    def note(self, text, fix):
        self.notes.append((text, fix))

    def render(self):
        lines = list(self.seen)
        if self.problems:
            lines.append("")
            lines.append("{} problem{}:".format(len(self.problems),
                                               "" if len(self.problems) == 1 else "s"))
            for text, fix in self.problems:
                lines.append("  - " + text)
                lines.append("    fix: " + fix)
        else:
            lines.append("")
            lines.append("no problems found")
        if self.notes:
            lines.append("")
            lines.append("{} note{}:".format(len(self.notes), "" if len(self.notes) == 1
                                             else "s"))
            for text, fix in self.notes:
                lines.append("  - " + text)
                lines.append("    fix: " + fix)
        return "\n".join(lines)


def _flash_fix(chip=None, board=None):
    """The flash command to give: with --uf2, since the pinned release may have no digest."""
    ids = []
    for pid in profiles.list_profiles():
        try:
            prof = profiles.load_profile(pid, check=False)
        except LunchboxError:
            continue
        if profiles.runtime(prof) != profiles.CIRCUITPYTHON:
            continue
        if (board and prof.get("board") == board) or (not board and chip
                                                       and prof.get("chip") == chip):
            ids.append(pid)
    return ("lunchbox flash --profile {} --uf2 FILE, FILE being the CircuitPython 9.2.2 .uf2 for "
            "your board from circuitpython.org".format(" | ".join(ids) if ids else "NAME"))


def _size(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= 10 * size:
            return "{} {}".format(n // size, unit)
    return "{} KiB".format(n // 1024)


def _ports(report, comports):
    try:
        found = ports.list_ports(comports)
    except Exception as e:  # a broken serial backend must not hide the rest of the report
        report.see("serial ports: cannot list ({})".format(e))
        return []
    if not found:
        report.see("serial ports: no CircuitPython or MicroPython board")
        return found
    report.see("serial ports:")
    for p in found:
        report.see("  " + p.describe())
    consoles = [p for p in found if p.role == ports.CONSOLE]
    datas = [p for p in found if p.role == ports.DATA]
    if consoles and not datas:
        report.problem(
            "the board has a console port but no data port, so `lunchbox pull` cannot reach it",
            "sync the firmware (its boot.py enables the data channel with "
            "usb_cdc.enable(console=True, data=True)), then press the board's reset button: "
            "boot.py only runs at start-up")
    if any(p.role == ports.UNKNOWN for p in found) and not consoles:
        report.see("  (this system does not report USB interface names; roles are guessed "
                   "from the USB id)")
    return found


def _firmware(report, drive, root):
    """(the manifest or None, whether the firmware is this checkout's, completely synced)."""
    try:
        manifest = sync.read_manifest(drive.path)
    except LunchboxError as e:
        report.problem(str(e), e.hint or "delete the manifest and sync again")
        return None, False
    checkout = fileset.firmware_version(root)
    if manifest is None:
        report.see("  firmware: not installed by lunchbox (no {})".format(sync.MANIFEST))
        report.problem("the Lunchbox firmware is not on {}".format(drive.describe()),
                       report.sync_cmd + " --profile NAME")
        return None, False
    on_device = manifest.get("firmware_version")
    report.see("  firmware: {} on the device, {} in this checkout".format(
        on_device or "no complete copy", checkout))
    if not manifest.get("complete"):
        report.problem("the last sync to {} did not finish (unplugged midway?)".format(
            drive.describe()), report.sync_cmd + " (it repairs a half-done sync)")
    elif checkout and on_device != checkout:
        report.problem("the device runs firmware {}, the checkout has {}".format(
            on_device, checkout), report.sync_cmd)
    else:
        return manifest, True
    return manifest, False


def _versions(table):
    return ", ".join("{} {}".format(name, table[name]) for name in sorted(table))


def _libraries(report, manifest, profile, root):
    """The CircuitPython library versions on the device (from its manifest) against the ones
    this machine would ship: they come from the installed Python packages, which may differ
    between machines even for the same checkout."""
    on_device = manifest.get("libs")
    if on_device is None:
        report.see("  libraries: versions not recorded (synced by an older lunchbox)")
        return
    report.see("  libraries: " + (_versions(on_device) or "none"))
    try:
        if profile is not None:
            here = fileset.library_versions(fileset.sources(profile, root))
        else:  # no profile to say what would ship: compare the libraries the device has
            here = {}
            for name in on_device:
                version = fileset.library_version(name)
                if version:
                    here[name] = version
    except LunchboxError:
        return  # the file-set problem is reported by the comparison of files
    differ = []
    for name in sorted(set(on_device) | set(here)):
        if on_device.get(name) != here.get(name):
            differ.append("{} {} on the device, {} here".format(
                name, on_device.get(name, "none"), here.get(name, "none")))
    if differ:
        report.note("the device's CircuitPython libraries differ from the ones this machine "
                    "ships (from its installed Python packages): " + "; ".join(differ),
                    report.sync_cmd)


def _differences(report, drive, profile, manifest, root):
    """Same version, but do the files match the checkout (a developer's edits)?"""
    try:
        settings = fileset.merge_settings(_read_settings(drive) or b"",
                                          profiles.render_settings(profile))
        files = fileset.build(profile, settings, root=root)
        stale = []
        if manifest.get("mpy_sources") is not None:
            files, stale = _as_compiled(drive, files, manifest)
        p = sync.plan(drive.path, files, manifest)
    except LunchboxError as e:
        report.problem(str(e), e.hint or report.sync_cmd)
        return
    if p.changes:
        names = [rel for rel, _, _ in p.writes] + p.removes
        report.problem("{} on the device {} from the checkout ({})".format(
            "1 file" if len(names) == 1 else "{} files".format(len(names)),
            "differs" if len(names) == 1 else "differ", _first(names)), report.sync_cmd)
    if stale:
        report.problem("{} older than the checkout (compiled from {})".format(
            stale[0] + " is" if len(stale) == 1 else "{} .mpy files ({}) are".format(
                len(stale), _first(stale)),
            "an earlier source" if len(stale) == 1 else "earlier sources"), report.sync_cmd)


def _first(names):
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")


def _as_compiled(drive, files, manifest):
    """(the file set as a .mpy sync ships it, the .mpy files compiled from older sources).

    doctor has no compiler, so a .mpy is judged by the manifest: it is current when the drive's
    copy is the one sync wrote (its ``files`` digest) and was compiled from the checkout's
    source (``mpy_sources``: X.mpy -> digest of X.py, see docs/host-tool.md)."""
    sources = manifest["mpy_sources"]
    if not isinstance(sources, dict):
        raise LunchboxError("the manifest on {} has a damaged mpy_sources table".format(
            drive.describe()), hint="delete {} from the drive, then sync again".format(
                sync.MANIFEST))
    out, stale = {}, []
    for rel in sorted(files):
        data = files[rel]
        if not rel.endswith(".py") or rel in mpycross.KEEP:
            out[rel] = data
            continue
        mpy = rel[:-3] + ".mpy"
        try:
            on_drive = sync.read_file(os.path.join(drive.path, *mpy.split("/")))
        except LunchboxError:
            on_drive = None  # not a file: sync.plan says so
        entry = manifest["files"].get(mpy)
        if on_drive is not None and entry and sync.matches(on_drive, entry["sha256"]):
            out[mpy] = on_drive  # the copy sync wrote: the plan sees it unchanged
            if sources.get(mpy) != sync.digest(data):
                stale.append(mpy)
        else:
            # missing, or changed on the drive: bytes unlike the drive's, so the plan lists it
            out[mpy] = (on_drive or b"") + b"\0"
    return out, stale


def _read_settings(drive):
    """settings.toml as bytes (as sync merges it), None when missing or unreadable."""
    try:
        return sync.read_file(os.path.join(drive.path, fileset.SETTINGS), 256 * 1024)
    except LunchboxError:
        return None


def _profile(report, drive, boot, profile_name):
    from .sync_command import profile_on_drive

    name = profile_name or profile_on_drive(drive)
    if not name:
        report.see("  profile: none on the device")
        return None
    try:
        profile = profiles.load_profile(name)
    except LunchboxError as e:
        report.see("  profile: {} (cannot use: {})".format(name, e))
        report.problem(str(e), e.hint or report.sync_cmd + " --profile NAME")
        return None
    report.see("  profile: {} ({})".format(profile["id"], profile.get("name", "")))
    if boot and boot.board_id and profile.get("board") != boot.board_id:
        report.problem(
            "the board is {} but profile {} is for {}".format(
                boot.board_id, profile["id"], profile.get("board")),
            (report.sync_cmd + " --profile <a profile for {}> (one of: {})").format(
                boot.board_id, ", ".join(_profiles_for(boot.board_id)) or "none yet"))
    return profile


def _profiles_for(board_id):
    out = []
    for pid in profiles.list_profiles():
        try:
            if profiles.load_profile(pid, check=False).get("board") == board_id:
                out.append(pid)
        except LunchboxError:
            continue
    return out


def _circuitpy(report, drive, profile_name, root):
    report.see("CIRCUITPY: " + drive.describe())
    try:
        boot = drives.read_boot_out(drive)
    except LunchboxError as e:
        report.problem(str(e), e.hint or "press reset")
        boot = None
    if boot:
        report.see("  CircuitPython {} on {} ({}, {})".format(
            boot.version_text, boot.board_name, boot.board_id, boot.chip))
        if not boot.supported:
            report.problem("CircuitPython {} is not supported (9.x and 10.x are)".format(
                boot.version_text), _flash_fix(board=boot.board_id))
    try:
        free, _ = sync.free_space(drive.path)
        report.see("  free space: {}".format(_size(free)))
    except OSError:
        pass
    problem = fileset.settings_problem(_read_settings(drive) or b"")
    if problem:
        report.note(problem, "save settings.toml as UTF-8 (your editor's 'save with "
                    "encoding'); sync keeps your lines exactly as they are")
    profile = _profile(report, drive, boot, profile_name)
    manifest, current = _firmware(report, drive, root)
    if manifest is not None and manifest.get("complete"):
        _libraries(report, manifest, profile, root)
    if profile is not None and current:
        _differences(report, drive, profile, manifest, root)


def diagnose(roots=None, comports=None, profile_name=None, root=fileset.REPO_ROOT,
             drive=None, port=None, open_board=None, sim=False, open_link=None):
    """The Report. ``drive`` names a volume to look at instead of searching the mounts;
    ``port`` a MicroPython board's serial port (looked at alone); ``sim``: the running
    simulator's data link (its box check alone)."""
    from . import boxcheck, mpdoctor

    report = Report("lunchbox sync" + (" --drive " + os.path.abspath(drive) if drive else ""))
    if sim:
        from ..records.link import LinkError, data_ports

        try:
            device = data_ports(sim=True)[0]
        except LinkError as e:
            report.problem(str(e), e.hint or "start one: lunchbox sim --headless --link")
            return report
        report.see("simulator: data link {}".format(device))
        boxcheck.look(report, device, open_link)
        return report
    if port:
        mpdoctor.look(report, port, profile_name, root, open_board)
        return report
    listed = _ports(report, comports)
    found_ports = ports.circuitpython_ports(listed)
    mps = [p.device for p in ports.micropython_ports(listed)]
    for device in mps:
        mpdoctor.look(report, device, profile_name, root, open_board)
    named = [drives.Drive(os.path.abspath(drive))] if drive else None
    if named and not os.path.isdir(drive):
        report.problem("--drive {}: no such folder".format(drive),
                       "give the folder where CIRCUITPY (or RPI-RP2) is mounted")
        named = []
    if named is not None:
        boots = [d for d in named if os.path.isfile(os.path.join(d.path, drives.INFO_UF2))]
        cps = [d for d in named if d not in boots]
    else:
        boots = drives.find_bootloaders(roots)
        cps = drives.find_circuitpy(roots)
    chip = None
    for d in boots:
        try:
            chip = uf2.chip_from_info(drives.read_info_uf2(d))
        except OSError:
            chip = None
        report.see("bootloader drive: {} ({})".format(d.describe(), chip or "not an RP2"))
    if boots:
        from .mpdoctor import flash_fix

        report.problem("a board is in its UF2 bootloader, not running CircuitPython or "
                       "MicroPython",
                       "install CircuitPython: {} (or, if it is installed already, unplug "
                       "and replug the board without holding BOOTSEL); for a MicroPython "
                       "profile: {}".format(_flash_fix(chip=chip), flash_fix()))
    for d in cps:
        _circuitpy(report, d, profile_name, root)
    for p in found_ports:
        if p.role == ports.DATA:  # the box's own figures, asked over its data channel
            boxcheck.look(report, p.device, open_link)
    if cps and named is None and not found_ports:
        report.problem(
            "a CIRCUITPY drive is mounted but no CircuitPython serial port was found, so "
            "`lunchbox pull` and the REPL cannot reach the board",
            "a boot.py that calls usb_cdc.disable() hides the ports: sync the Lunchbox "
            "firmware (its boot.py enables them) and press the board's reset button; on "
            "Linux, `ls /dev/ttyACM*` should list them")
    if len(cps) > 1:
        report.see("({} CIRCUITPY drives: commands will ask which, or take --drive)".format(
            len(cps)))
    if not cps and not boots:
        report.see("drives: no CIRCUITPY or bootloader drive")
        if named is not None:
            pass  # the --drive problem above says it all
        elif found_ports:
            report.problem("a CircuitPython board is attached but its CIRCUITPY drive is not "
                           "mounted", "mount it (or check boot.py does not disable the USB "
                           "drive), or pass --drive PATH to sync")
        elif mps:
            pass  # a MicroPython board has no drive: its REPL said it all
        else:
            report.problem("no board found", "plug the Pico in with a data (not charge-only) "
                           "USB cable; a bare Pico: hold BOOTSEL while plugging it in, then "
                           + _flash_fix())
    return report


def register(parser):
    parser.add_argument("--profile", metavar="NAME",
                        help="the hardware profile you mean to use (default: the device's)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--drive", metavar="PATH", help="look at this drive instead of "
                       "searching for CIRCUITPY and the bootloader")
    where.add_argument("--port", metavar="PORT", help="look at the MicroPython board on this "
                       "serial port (default: every one found by its USB ids)")
    where.add_argument("--sim", action="store_true", help="ask the running simulator's box "
                       "check (lunchbox sim --link) instead of a board")


def run(args):
    report = diagnose(profile_name=args.profile, drive=args.drive, port=args.port,
                      sim=args.sim)
    sys.stdout.write(report.render() + "\n")
    return 1 if report.problems else 0
