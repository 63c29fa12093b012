"""`lunchbox doctor`: what is attached, what runs on it, and for each problem, the fix."""

import os
import sys

from . import drives, fileset, ports, profiles, sync, uf2
from .errors import LunchboxError


class Report:
    def __init__(self):
        self.seen = []  # lines describing what was found
        self.problems = []  # (problem, fix)

    def see(self, text):
        self.seen.append(text)

    def problem(self, text, fix):
        self.problems.append((text, fix))

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
        return "\n".join(lines)


def _ports(report, comports):
    try:
        found = ports.list_ports(comports)
    except Exception as e:  # a broken serial backend must not hide the rest of the report
        report.see("serial ports: cannot list ({})".format(e))
        return []
    if not found:
        report.see("serial ports: no CircuitPython board")
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
    try:
        manifest = sync.read_manifest(drive.path)
    except LunchboxError as e:
        report.problem(str(e), e.hint or "delete the manifest and sync again")
        return
    checkout = fileset.firmware_version(root)
    if manifest is None:
        report.see("  firmware: not installed by lunchbox (no {})".format(sync.MANIFEST))
        report.problem("the Lunchbox firmware is not on {}".format(drive.describe()),
                       "lunchbox sync --profile NAME")
        return
    on_device = manifest.get("firmware_version")
    report.see("  firmware: {} on the device, {} in this checkout".format(on_device, checkout))
    if not manifest.get("complete"):
        report.problem("the last sync to {} did not finish (unplugged midway?)".format(
            drive.describe()), "lunchbox sync (it repairs a half-done sync)")
    elif checkout and on_device != checkout:
        report.problem("the device runs firmware {}, the checkout has {}".format(
            on_device, checkout), "lunchbox sync")


def _profile(report, drive, boot, profile_name):
    name = profile_name
    if not name:
        text = None
        try:
            with open(os.path.join(drive.path, fileset.SETTINGS), errors="replace") as f:
                text = f.read()
        except OSError:
            pass
        for line in (text or "").splitlines():
            key, sep, value = line.partition("=")
            if sep and key.strip() == "LUNCHBOX_PROFILE":
                name = value.split("#", 1)[0].strip().strip('"')
    if not name:
        report.see("  profile: none on the device")
        return
    try:
        profile = profiles.load_profile(name)
    except LunchboxError as e:
        report.see("  profile: {} (cannot use: {})".format(name, e))
        report.problem(str(e), e.hint or "lunchbox sync --profile NAME")
        return
    report.see("  profile: {} ({})".format(profile["id"], profile.get("name", "")))
    if boot and boot.board_id and profile.get("board") != boot.board_id:
        report.problem(
            "the board is {} but profile {} is for {}".format(
                boot.board_id, profile["id"], profile.get("board")),
            "lunchbox sync --profile <a profile for {}> (one of: {})".format(
                boot.board_id, ", ".join(_profiles_for(boot.board_id)) or "none yet"))


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
                boot.version_text), "lunchbox flash")
    try:
        free, _ = sync.free_space(drive.path)
        report.see("  free space: {} KiB".format(free // 1024))
    except OSError:
        pass
    _profile(report, drive, boot, profile_name)
    _firmware(report, drive, root)


def diagnose(roots=None, comports=None, profile_name=None, root=fileset.REPO_ROOT):
    report = Report()
    found_ports = _ports(report, comports)
    boots = drives.find_bootloaders(roots)
    for d in boots:
        try:
            chip = uf2.chip_from_info(drives.read_info_uf2(d))
        except OSError:
            chip = None
        report.see("bootloader drive: {} ({})".format(d.describe(), chip or "not an RP2"))
    if boots:
        report.problem("a board is in its UF2 bootloader, not running CircuitPython",
                       "lunchbox flash (or unplug and replug it without holding BOOTSEL)")
    cps = drives.find_circuitpy(roots)
    for d in cps:
        _circuitpy(report, d, profile_name, root)
    if len(cps) > 1:
        report.see("({} CIRCUITPY drives: commands will ask which, or take --drive)".format(
            len(cps)))
    if not cps and not boots:
        report.see("drives: no CIRCUITPY or bootloader drive")
        if found_ports:
            report.problem("a CircuitPython board is attached but its CIRCUITPY drive is not "
                           "mounted", "mount it (or check boot.py does not disable the USB "
                           "drive), or pass --drive PATH to sync")
        else:
            report.problem("no board found", "plug the Pico in with a data (not charge-only) "
                           "USB cable; a bare Pico: hold BOOTSEL while plugging it in, then "
                           "lunchbox flash")
    return report


def register(parser):
    parser.add_argument("--profile", metavar="NAME",
                        help="the hardware profile you mean to use (default: the device's)")


def run(args):
    report = diagnose(profile_name=args.profile)
    sys.stdout.write(report.render() + "\n")
    return 1 if report.problems else 0
