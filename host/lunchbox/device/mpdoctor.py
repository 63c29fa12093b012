"""`lunchbox doctor` for a MicroPython board: which runtime and version it runs, whether the
Lunchbox firmware is on it and current, and the fix for each problem (doctor.py calls it for
each MicroPython port, and for --port).

It stops the app for the look (Ctrl-C; the board's files cannot be read while the app holds
them) and starts it again after.
"""

from ..errors import LunchboxError
from ..hardware import profiles
from . import fileset, mpboard, sync
from .mpimages import MICROPYTHON_IMAGES, micropython_profiles

# releases the project runs and measures (the MicroPython lane's images)
TESTED = ((1, 24, 1), (1, 23, 0))


def flash_fix(build="micropython"):
    what, page = MICROPYTHON_IMAGES[build]
    return "lunchbox flash --profile {} --uf2 FILE, FILE being {} from {}".format(
        " | ".join(micropython_profiles(build)) or "NAME", what, page)


def look(report, device, profile_name=None, root=fileset.REPO_ROOT, open_board=None):
    """Add what the board on ``device`` is, and its problems, to ``report``."""
    sync_cmd = "lunchbox sync --port {}".format(device)
    try:
        with (open_board or mpboard.Board)(device) as board:
            info = board.stop_app(micropython_only=False)
            if info.runtime != "micropython":
                report.see("{}: CircuitPython {} on {} (its REPL)".format(
                    device, info.release, info.machine))
                report.note("the board on {} runs CircuitPython: the MicroPython profiles do "
                            "not fit it".format(device),
                            "use a CircuitPython profile and its CIRCUITPY drive (lunchbox "
                            "doctor without --port looks at it), or " + flash_fix())
                return
            _micropython(report, board, info, device, profile_name, root, sync_cmd)
    except LunchboxError as e:
        report.see("{}: a MicroPython port".format(device))
        report.problem(str(e), e.hint or "unplug and replug the board")


def _micropython(report, board, info, device, profile_name, root, sync_cmd):
    report.see("{}: {}".format(device, info.describe()))
    report.see("  version: {}; board id {}; {} free of {}".format(
        info.banner, info.uid or "?", _kib(info.free), _kib(info.size)))
    if info.version[:2] < (1, 23):
        report.problem("MicroPython {} is too old: Lunchbox's .mpy files need 1.23 or later "
                       "(mpy 6.3)".format(info.release), flash_fix())
    elif info.version not in TESTED:
        report.note("MicroPython {} is not a version Lunchbox is tested on ({})".format(
            info.release, mpboard.TESTED), flash_fix())
    manifest = board.manifest()
    checkout = fileset.firmware_version(root)
    profile = _profile(report, profile_name, manifest, sync_cmd)
    if profile is not None and profiles.firmware_build(profile) == "micropython-pimoroni" \
            and not info.picographics:
        report.problem("profile {} drives its display with Pimoroni's PicoGraphics, which "
                       "this MicroPython does not have".format(profile["id"]),
                       flash_fix("micropython-pimoroni"))
    if manifest is None:
        report.see("  firmware: not installed (no {} on the board)".format(mpboard.MANIFEST))
        fits = micropython_profiles() if info.picographics else micropython_profiles(
            "micropython")  # a plain MicroPython cannot drive the Display Pack
        report.problem("the Lunchbox firmware is not installed on the board on {}".format(
            device), "{} --profile {}".format(
                sync_cmd, profile["id"] if profile else " | ".join(fits)))
        return
    if manifest == {}:
        report.problem("the board's {} is unreadable".format(mpboard.MANIFEST),
                       "{} (files it does not list are taken as yours and kept)".format(
                           sync_cmd + " --profile NAME"))
        return
    on_board = manifest.get("firmware_version")
    report.see("  firmware: {} on the board, {} in this checkout".format(on_board, checkout))
    if manifest.get("pending"):
        report.problem("the last sync to the board on {} did not finish (cable pulled "
                       "midway?)".format(device), sync_cmd + " (it finishes the job)")
    elif checkout and on_board != checkout:
        report.problem("the board runs firmware {}, the checkout has {}".format(
            on_board, checkout), sync_cmd)
    elif profile is not None:
        _differences(report, board, profile, manifest, root, sync_cmd)


def _profile(report, name, manifest, sync_cmd):
    pid = name or (manifest or {}).get("profile")
    if not pid:
        return None
    try:
        profile = profiles.load_profile(pid)
    except LunchboxError as e:
        report.problem(str(e), e.hint or "name a profile with --profile")
        return None
    report.see("  profile: {}{}".format(profile["id"], "" if name else " (from the board)"))
    if profiles.runtime(profile) != profiles.MICROPYTHON:
        report.problem("profile {} is for CircuitPython, the board runs MicroPython".format(
            profile["id"]), "{} --profile {}".format(sync_cmd,
                                                     " | ".join(micropython_profiles())))
        return None
    return profile


def _differences(report, board, profile, manifest, root, sync_cmd):
    """Files of the synced set whose content on the board is not what sync wrote."""
    listed = manifest.get("files")
    if not isinstance(listed, dict):
        return
    paths = sorted(rel for rel in listed if isinstance(rel, str))
    hashes = board.hashes(["/" + rel for rel in paths])
    changed = [rel for rel in paths if not (hashes.get("/" + rel) or "").startswith(
        str(listed[rel])[:16]) or not listed[rel]]
    if changed:
        report.problem("{} file{} on the board differ from what sync put there ({})".format(
            len(changed), "" if len(changed) == 1 else "s", sync._short(changed)),
            sync_cmd + " (it keeps a copy of each on this computer first)")


def _kib(n):
    return "?" if n is None else "{} KiB".format(n // 1024)
